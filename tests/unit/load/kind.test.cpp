// The kind of a text told from its content alone (load/kind.hpp), on the bundled real data.
#include <hlomem/load/kind.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

using hlomem::dump_kind;
using hlomem_test::read_data;

TEST_CASE("load: the kind of each text is told by its content", "[load]") {
    CHECK(hlomem::detect_dump_kind(read_data("seeds/002_b0117d631587537a.txt")) == dump_kind::buffer_assignment);
    CHECK(hlomem::detect_dump_kind(read_data("synthetic/newest_simple-live-range.txt")) == dump_kind::live_range);
    CHECK(hlomem::detect_dump_kind(read_data("corpus/lorrax/lorrax_psum_4gpu.memory_usage_report.txt")) ==
          dump_kind::memory_usage_report);
    CHECK(hlomem::detect_dump_kind(read_data("seeds/001_a0c5460ce1af2dbe.txt")) == dump_kind::hlo_module);
    CHECK(hlomem::detect_dump_kind(read_data("hand/two_modules.hlo")) == dump_kind::hlo_module);
    CHECK(hlomem::detect_dump_kind(read_data("oom/tpu_oom_pytorch_xla_3041.txt")) == dump_kind::oom_log);
    CHECK(hlomem::detect_dump_kind(read_data("oom/gpu_oom_jax_13428.txt")) == dump_kind::oom_log);
    CHECK(hlomem::detect_dump_kind(read_data("oom/synthetic/tpu_glog_prefixed.txt")) == dump_kind::oom_log);
    CHECK(hlomem::detect_dump_kind(read_data("oom/pastes/lwm_60.txt")) == dump_kind::oom_log);  // a summary alone
    CHECK(hlomem::detect_dump_kind(read_data("hand/minimalloc_readme.csv")) == dump_kind::minimalloc_csv);
    CHECK(hlomem::detect_dump_kind("\n  \tBufferAssignment:\n") == dump_kind::buffer_assignment);
    CHECK(hlomem::detect_dump_kind("") == dump_kind::unknown);
    CHECK(hlomem::detect_dump_kind("hello\n") == dump_kind::unknown);
    CHECK(hlomem::to_string(dump_kind::oom_log) == "oom_log");
}
