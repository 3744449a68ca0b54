// `hlomem report` of a loaded file from the library (output/report.hpp, print_report_text), on the
// bundled TPU seed dump (seed 002), as tests/cli/report_tpu_seed.out states it.
#include <hlomem/output/report.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <sstream>
#include <string>

namespace {

using hlomem_test::seed_002;

}  // namespace

// Seed 002's TPU dump carries no metadata at all: its peak is traced to the function's arguments
// (hlo/origin.hpp), the values they flow into marked inherited.
TEST_CASE("report: a color whose values carry no metadata is traced to the function's arguments", "[output]") {
    auto loaded = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/" + seed_002);
    REQUIRE(loaded);
    std::ostringstream out;
    REQUIRE(hlomem::print_report_text(out, *loaded));
    std::string const text = out.str();
    CHECK(text.find("what holds the color 0 peak (time 78, 2.52GiB), by source line (7 lines; 7 shown)\n") != std::string::npos);
    CHECK(text.find("    1008.00MiB   39.01%       2  argument 0 (inherited) (193 210)\n") != std::string::npos);
    CHECK(text.find("no source line or op_name") == std::string::npos);
}
