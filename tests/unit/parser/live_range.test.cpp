// XLA's HloLiveRange text as a file of its own (parser/live_range.hpp).
#include <hlomem/parser/live_range.hpp>

#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "test_data.hpp"

using hlomem_test::read_data;

TEST_CASE("a separate live-range file prints back byte for byte", "[buffer_assignment][printer]") {
    std::string const text = read_data("synthetic/newest_simple-live-range.txt");
    std::ostringstream os;
    hlomem::print_live_range(os, hlomem::parse_live_range(text));
    CHECK(os.str() == text);
}
