// Which value of one compilation is which of another (diff/match.hpp), on
// lorrax_donated_param_output_alias's dump (param.1, input_transpose_fusion.1 with op_name
// P_l_3d, fft.2.0 from fft_helpers.py:86, input_transpose_fusion from isdf_fitting.py:335) and
// copies of its text with instructions renamed or metadata removed, as a recompilation does.
#include <hlomem/diff/match.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace {

std::string original_text() {
    return hlomem_test::read_data("corpus/lorrax/lorrax_donated_param_output_alias.buffer_assignment.txt");
}

/// `text` with every whole instruction name `from` written `to`.
std::string renamed(std::string const& text, std::string const& from, std::string const& to) {
    return std::regex_replace(text, std::regex(std::regex_replace(from, std::regex(R"([.])"), R"(\.)") + R"((?![.\w]))"), to);
}

struct matched {
    hlomem::buffer_assignment a, b;
    hlomem::value_matching m;
    /// B's value paired with A's value `name`, and the rule; "" when it has none.
    std::pair<std::string, hlomem::match_rule> of(std::string const& name) const {
        for (auto const& p : m.pairs) {
            if (a.values[p.a].name == name) return {b.values[p.b].name, p.rule};
        }
        return {"", hlomem::match_rule::name};
    }
};

matched match(std::string const& a_text, std::string const& b_text) {
    matched r{hlomem::parse_buffer_assignment(a_text, "a"), hlomem::parse_buffer_assignment(b_text, "b"), {}};
    r.m = hlomem::match_values(r.a, hlomem::attribute_values(r.a), r.b, hlomem::attribute_values(r.b));
    return r;
}

using rule = hlomem::match_rule;

}  // namespace

TEST_CASE("diff/match: the rules by name", "[diff][match]") {
    CHECK(hlomem::to_string(rule::metadata) == "metadata");
    CHECK(hlomem::to_string(rule::shape_and_position) == "shape_and_position");
    CHECK(hlomem::to_string(rule::name) == "name");
}

TEST_CASE("diff/match: two names swapped: the values follow their metadata, not their names", "[diff][match]") {
    std::string const original = original_text();
    auto const swapped = renamed(renamed(renamed(original, "input_transpose_fusion.1", "TMP"), "input_transpose_fusion",
                                         "input_transpose_fusion.1"),
                                 "TMP", "input_transpose_fusion");
    REQUIRE(swapped != original);
    auto const r = match(original, swapped);
    CHECK(r.m.pairs.size() == 4);
    CHECK(r.m.only_in_a.empty());
    CHECK(r.m.only_in_b.empty());
    CHECK(r.of("input_transpose_fusion.1") == std::make_pair(std::string("input_transpose_fusion"), rule::metadata));
    CHECK(r.of("input_transpose_fusion") == std::make_pair(std::string("input_transpose_fusion.1"), rule::metadata));
    CHECK(r.of("fft.2.0") == std::make_pair(std::string("fft.2.0"), rule::metadata));
    // B against A: the same pairs, mirrored.
    auto const back = match(swapped, original);
    CHECK(back.of("input_transpose_fusion") == std::make_pair(std::string("input_transpose_fusion.1"), rule::metadata));
    CHECK(back.of("input_transpose_fusion.1") == std::make_pair(std::string("input_transpose_fusion"), rule::metadata));
}

TEST_CASE("diff/match: without metadata, a renamed value is matched by its shape and opcode", "[diff][match]") {
    std::string const original = original_text();
    // fft.2.0 renamed fft.9.0, and its `from instruction:` line without metadata.
    auto b = renamed(original, "fft.2.0", "fft.9.0");
    auto const at = b.find(", metadata={op_name=\"jit(_left_ifft_conj)/jit(main)/jit(shmap_body)/jit(fft)/fft\"");
    REQUIRE(at != std::string::npos);
    b.erase(at, b.find('}', at) + 1 - at);
    auto const r = match(original, b);
    CHECK(r.of("fft.2.0") == std::make_pair(std::string("fft.9.0"), rule::shape_and_position));
    CHECK(r.m.count(rule::shape_and_position) >= 1);
    CHECK(r.m.pairs.size() == 4);
}

TEST_CASE("diff/match: another program: nothing in common, every value listed unmatched", "[diff][match]") {
    std::string const original = original_text();
    // lorrax_iota_tiny holds one value, wrapped_iota s64[4] from cholesky_2d.py:65.
    auto const r = match(original, hlomem_test::read_data("corpus/lorrax/lorrax_iota_tiny.buffer_assignment.txt"));
    CHECK(r.m.pairs.empty());
    CHECK(r.m.only_in_a == std::vector<std::size_t>{0, 1, 2, 3});
    CHECK(r.m.only_in_b == std::vector<std::size_t>{0});
    CHECK(r.m.count(rule::metadata) + r.m.count(rule::shape_and_position) + r.m.count(rule::name) == 0);
}
