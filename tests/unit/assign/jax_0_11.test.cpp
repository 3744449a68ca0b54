// XLA's buffer assignment predicted from the modules JAX 0.11.2 compiled on an H100
// (tests/data/jax_0_11/NAME.txt) equals the dumps XLA wrote for them, allocation by allocation.
// That XLA aligns GPU temp chunks at 256 bytes (kXlaAllocatedBufferAlignBytes; assign/backend.hpp,
// default_alignment), not 128 as XLA did before June 2025: at 128 the modules with small tuple
// buffers in their arena come out smaller. Their dumps show 256 (alignment_shown_by).
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_data.hpp"

TEST_CASE("assign: JAX 0.11 modules predicted as XLA assigned them", "[assign][jax_0_11]") {
    auto const [name, temp_at_128] = GENERATE(table<char const*, std::int64_t>({
        {"mlp_step_1024", 41943312},  // XLA's temp arena: 41943568 (allocation 44)
        {"scan_loop", 5243552},       // XLA's: 5244192 (allocation 12)
        {"unused_donation", -1},      // no tuple element operands: alignment does not matter here
        {"grad_plain", 54526736},     // XLA's: 54527504
        {"grad_ckpt", 58722072},      // XLA's: 58723864
    }));
    CAPTURE(name);
    std::string const base = std::string("jax_0_11/") + name;
    std::string const text = hlomem_test::read_data(base + ".txt");
    auto const m = hlomem::parse_hlo_module(text, base);
    auto const xla = hlomem::parse_buffer_assignment(hlomem_test::read_data(base + "-buffer-assignment.txt") +
                                                         hlomem_test::read_data(base + "-buffer-assignment-values.txt"),
                                                     base);
    hlomem::assign_options options;
    options.module_text = text;
    auto const predicted = hlomem::predict_assignment(m, options, false);
    CHECK(predicted.alignment == 256);
    CHECK_FALSE(predicted.alignment_given);
    // No temp value of these dumps sits at an odd multiple of 128 (XLA's 256 shows as 256 or more).
    auto const shown = hlomem::alignment_shown_by(xla);
    if (shown) CHECK(*shown >= 256);
    auto const& mine = predicted.assignment;
    REQUIRE(mine.allocations.size() == xla.allocations.size());
    for (std::size_t i = 0; i < mine.allocations.size(); ++i) {
        CAPTURE(i);
        CHECK(mine.allocations[i].size == xla.allocations[i].size);
        CHECK(mine.allocations[i].kind() == xla.allocations[i].kind());
        CHECK(mine.allocations[i].values.size() == xla.allocations[i].values.size());
    }
    CHECK(mine.total_bytes() == xla.total_bytes());
    if (temp_at_128 < 0) return;
    options.alignment = 128;
    auto const at_128 = hlomem::predict_assignment(m, options, false);
    std::int64_t temp = 0;
    for (auto const& a : at_128.assignment.allocations) temp += a.kind() == hlomem::allocation_kind::temp ? a.size : 0;
    CHECK(temp == temp_at_128);
}

// JAX 0.11's XLA writes the live ranges to NAME-live-range.txt. The ones derived from the module
// (its `x#N` operands made back into get-tuple-elements behind their tuple) are XLA's, line for
// line, except one in grad_ckpt: XLA's scheduler put a user (%bitcast.1.0) between the
// get-tuple-elements of %remat2.35.0, so that tuple's pointer table (`{}`, 24 bytes) lives one
// step longer there.
TEST_CASE("assign: JAX 0.11 live ranges derived from the module are XLA's", "[assign][liveness][jax_0_11]") {
    auto const [name, differing] = GENERATE(table<char const*, std::size_t>({{"grad_plain", 0}, {"grad_ckpt", 1}}));
    CAPTURE(name);
    std::string const base = std::string("jax_0_11/") + name;
    auto const m = hlomem::parse_hlo_module(hlomem_test::read_data(base + ".txt"), base);
    auto const derived = hlomem::derive_assignment(m);
    auto ranges = [](std::string const& text) {
        std::set<std::string> out;
        std::size_t at = text.find("BufferLiveRange:");
        REQUIRE(at != std::string::npos);
        std::istringstream in(text.substr(at));
        std::string line;
        std::getline(in, line);
        while (std::getline(in, line) && line.find("Live ranges at") == std::string::npos) {
            if (line.find_first_not_of(' ') != std::string::npos) out.insert(line.substr(line.find_first_not_of(' ')));
        }
        return out;
    };
    auto const mine = ranges(hlomem::to_string(derived.assignment));
    auto const xla = ranges(hlomem_test::read_data(base + "-live-range.txt"));
    REQUIRE(mine.size() == xla.size());
    std::vector<std::string> only_mine;
    std::set_difference(mine.begin(), mine.end(), xla.begin(), xla.end(), std::back_inserter(only_mine));
    CHECK(only_mine.size() == differing);
    if (differing) CHECK(only_mine.front() == "remat2.35.0{}:59-62");  // XLA's: 59-63
}
