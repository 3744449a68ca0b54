// test_data.hpp: reading the files under tests/data from a unit test.
#ifndef HLOMEM_TESTS_TEST_DATA_HPP
#define HLOMEM_TESTS_TEST_DATA_HPP

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace hlomem_test {

/// The bytes of tests/data/<relative>, e.g. read_data("seeds/002_b0117d631587537a.txt"); the
/// test fails when the file cannot be opened.
inline std::string read_data(std::string const& relative) {
    std::ifstream in(std::string(HLOMEM_TEST_DATA_DIR) + "/" + relative, std::ios::binary);
    REQUIRE(in);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// The seed dump many tests start from: a TPU dump of 10 allocations, tiled layouts and memory
/// spaces (tests/data/seeds/README.md).
inline std::string const seed_002 = "seeds/002_b0117d631587537a.txt";

/// Every real buffer-assignment dump under tests/data: the three seed dumps with buffer
/// assignments, the 14 from the lorrax corpus, the four regressions (corpus/regressions), then the six
/// compilations (corpus/compilations).
inline std::vector<std::string> const real_dumps = {
    "seeds/000_5960cad812240b69.txt",
    "seeds/002_b0117d631587537a.txt",
    "seeds/003_3a38346822a50a7e.txt",
    "corpus/lorrax/lorrax_apply_H_sparse.buffer_assignment.txt",
    "corpus/lorrax/lorrax_bse_full_run_large.buffer_assignment.txt",
    "corpus/lorrax/lorrax_conditional.buffer_assignment.txt",
    "corpus/lorrax/lorrax_cpu_broadcast_in_dim.buffer_assignment.txt",
    "corpus/lorrax/lorrax_cpu_true_divide.buffer_assignment.txt",
    "corpus/lorrax/lorrax_donated_param_output_alias.buffer_assignment.txt",
    "corpus/lorrax/lorrax_fft_cublas_while.buffer_assignment.txt",
    "corpus/lorrax/lorrax_iota_tiny.buffer_assignment.txt",
    "corpus/lorrax/lorrax_post_kpath_customcall_tuple.buffer_assignment.txt",
    "corpus/lorrax/lorrax_psum_4gpu.buffer_assignment.txt",
    "corpus/lorrax/lorrax_reshard_xfirst_async_collectives.buffer_assignment.txt",
    "corpus/lorrax/lorrax_scan_while_phi.buffer_assignment.txt",
    "corpus/lorrax/lorrax_scatter_while_threadlocal.buffer_assignment.txt",
    "corpus/lorrax/lorrax_svd_param_maybe_live_out.buffer_assignment.txt",
    "corpus/regressions/jit__ritz_and_residuals_0dec5fcd.buffer_assignment.txt",
    "corpus/regressions/jit__batched_chol_06a294ff.buffer_assignment.txt",
    "corpus/regressions/jit__batched_chol_68697f6f.buffer_assignment.txt",
    "corpus/regressions/jit_apply_H_k_2764be8d.buffer_assignment.txt",
    "corpus/compilations/reshard_xfirst.buffer_assignment.txt",
    "corpus/compilations/reshard_yfirst.buffer_assignment.txt",
    "corpus/compilations/scan_window_a.buffer_assignment.txt",
    "corpus/compilations/scan_window_b.buffer_assignment.txt",
    "corpus/compilations/sternheimer_core_a.buffer_assignment.txt",
    "corpus/compilations/sternheimer_core_b.buffer_assignment.txt",
};

}  // namespace hlomem_test

#endif  // HLOMEM_TESTS_TEST_DATA_HPP
