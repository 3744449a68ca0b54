// The compilations of a folder XLA dumped into (load/dump_directory.hpp), on tests/data/jax_0_11,
// five compilations named as XLA names their files, and on a folder laid out here with XLA's
// FilenameFor names (xla/service/dump.cc): a subfolder, a module before optimization, a
// live-range text alone.
#include <hlomem/load/dump_directory.hpp>

#include <catch2/catch.hpp>

#include "data_path.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

TEST_CASE("load/dump_directory: JAX 0.11's five compilations, each with the files beside it", "[load][dump_directory]") {
    // `ls tests/data/jax_0_11`: five *-buffer-assignment.txt, each with STEM.txt and
    // STEM-memory-usage-report.txt; grad_ckpt and grad_plain alone have STEM-live-range.txt.
    std::string const dir = data_path("jax_0_11");
    auto const found = hlomem::find_compilations(dir);
    std::vector<std::string> names;
    for (auto const& c : found) names.push_back(c.name);
    CHECK(names == std::vector<std::string>{"grad_ckpt", "grad_plain", "mlp_step_1024", "scan_loop", "unused_donation"});
    for (auto const& c : found) {
        CAPTURE(c.name);
        std::string const stem = dir + "/" + c.name;
        CHECK(c.buffer_assignment_file == stem + "-buffer-assignment.txt");  // never the -values half
        CHECK(c.module_file == stem + ".txt");
        CHECK(c.memory_usage_report_file == stem + "-memory-usage-report.txt");
        CHECK(c.live_range_file.has_value() == (c.name == "grad_ckpt" || c.name == "grad_plain"));
    }
    CHECK_THROWS_WITH(hlomem::find_compilations(data_path("no-such-folder")),
                      Catch::StartsWith("cannot list the folder '" + data_path("no-such-folder") + "': "));
}

TEST_CASE("load/dump_directory: optimized modules without a dump, subfolders, and what is no compilation", "[load][dump_directory]") {
    namespace fs = std::filesystem;
    std::string const dir = std::string(HLOMEM_TEST_BINARY_DIR) + "/dump_directory_test";
    fs::remove_all(dir);
    fs::create_directories(dir + "/module_2");
    for (std::string const name :
         {"module_1.jit_f.after_optimizations.txt", "module_1.jit_f.after_optimizations-buffer-assignment.txt",
          "module_1.jit_f.after_optimizations-buffer-assignment-values.txt", "module_1.jit_f.before_optimizations.txt",
          "module_2/module_2.jit_g.sm_9.0a_gpu_after_optimizations.txt", "lonely-live-range.txt"}) {
        std::ofstream(dir + "/" + name) << "\n";
    }
    auto const found = hlomem::find_compilations(dir + "/");
    fs::remove_all(dir);
    REQUIRE(found.size() == 2);
    CHECK(found[0].name == "module_1.jit_f.after_optimizations");
    CHECK(found[0].module_file == dir + "/module_1.jit_f.after_optimizations.txt");
    CHECK(found[0].buffer_assignment_file == dir + "/module_1.jit_f.after_optimizations-buffer-assignment.txt");
    CHECK_FALSE(found[0].live_range_file);
    CHECK(found[1].name == "module_2/module_2.jit_g.sm_9.0a_gpu_after_optimizations");
    CHECK(found[1].module_file == dir + "/module_2/module_2.jit_g.sm_9.0a_gpu_after_optimizations.txt");
    CHECK_FALSE(found[1].buffer_assignment_file);
}
