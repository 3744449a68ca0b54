// Every distinct shape string in the five seed dumps parses and prints back byte-identical, and
// the sizes the buffer-assignment dumps state for each value agree with the size functions.
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

std::string read_seed(std::string const& name) { return hlomem_test::read_data("seeds/" + name); }

bool identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-' || c == '%';
}

struct walk_result {
    std::set<std::string> shapes;      // distinct shape texts found
    std::set<std::string> mismatches;  // text that printed back differently
    std::set<std::string> scan_disagreements;  // where scan_shape_end and the parser disagree
};

/// Finds every shape in a dump: an element type name followed by '[' at a word boundary, or a
/// '(' that parses as a tuple (operand lists and `(phi)` do not). Each is parsed in place by
/// parse_shape_prefix, so the parser itself decides where the shape ends; the printed shape must
/// equal exactly the text it consumed.
walk_result walk(std::string const& text) {
    walk_result out;
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    for (char const* p = begin; p < end; ++p) {
        bool candidate = false;
        if (*p == '(') {
            candidate = true;
        } else if ((p == begin || !identifier_char(p[-1])) && *p >= 'a' && *p <= 'z') {
            char const* q = p;
            while (q < end && ((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9'))) ++q;
            candidate = q < end && *q == '[' && hlomem::primitive_type_from_string(std::string_view(p, q - p)).has_value();
        }
        if (!candidate) continue;
        char const* first = p;
        try {
            hlomem::shape const s = hlomem::parse_shape_prefix(first, end);
            std::string const consumed(p, first);
            if (s.is_tuple() && s.tuple_shapes_size() == 0 && consumed != "()") continue;
            out.shapes.insert(consumed);
            if (hlomem::to_string(s) != consumed) out.mismatches.insert(consumed);
            if (hlomem::scan_shape_end(p, end) != first) out.scan_disagreements.insert(consumed);
        } catch (hlomem::parse_error const&) {
            // Not a shape here: an operand list, `(phi)`, `(size=...)`.
        }
    }
    return out;
}

}  // namespace

TEST_CASE("every distinct shape in the seed dumps prints back byte-identical", "[seeds][parser]") {
    auto file = GENERATE(as<std::string>{}, "000_5960cad812240b69.txt", "001_a0c5460ce1af2dbe.txt",
                         "002_b0117d631587537a.txt", "003_3a38346822a50a7e.txt", "004_c00fd3afea504246.txt");
    CAPTURE(file);
    std::string const text = read_seed(file);
    auto const result = walk(text);
    for (auto const& m : result.mismatches) {
        CAPTURE(m);
        CHECK(hlomem::to_string(hlomem::parse_shape(m)) == m);
    }
    CHECK(result.mismatches.empty());
    // The interning scanner finds the same end as the grammar for every shape.
    CHECK(result.scan_disagreements.empty());

    // An independent, cruder scan: every array shape a regular expression sees (layouts without
    // nested braces, which is all of them in the seeds) must be among the shapes the walk found.
    std::regex const array_shape(
        R"((^|[^A-Za-z0-9_.%-])((pred|[suf][0-9]+|bf16|c64|c128|f8e[0-9a-z]+|f4e2m1fn|token|opaque)\[[0-9,<=?]*\](\{[^{}]*\})?))");
    std::set<std::string> seen;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), array_shape); it != std::sregex_iterator(); ++it) {
        seen.insert((*it)[2].str());
    }
    CHECK(seen.size() > 5);
    for (auto const& s : seen) {
        CAPTURE(s);
        CHECK(result.shapes.count(s) == 1);
    }
    CHECK(result.shapes.size() > seen.size());  // the tuples come on top
}

TEST_CASE("the seed dumps' value sizes match the size functions", "[seeds][shape_size]") {
    // ` value: <171 convert.2 @0> (size=29360128,offset=0): bf16[4096,3584]{1,0:T(8,128)(2,1)}`
    // The size is the HloBuffer's, the maximum over aliased values; in the seeds it is exactly
    // the value's own size under the backend's size function: XLA's generic one on GPU, the
    // TPU one (tuple tables of roundup(4n, 32) bytes) on TPU. The TPU exceptions are the four
    // `s32[2]{0:S(4)}` values sized 4096 (docs/FORMATS.md 4.6), which no public rule explains.
    std::regex const value_line(R"(^ value: <[^>]*> \(size=(\d+),offset=\d+\): (.*)$)");
    auto [file, tpu, lines, exceptions] = GENERATE(table<char const*, bool, int, int>({
        {"000_5960cad812240b69.txt", false, 135, 0},
        {"002_b0117d631587537a.txt", true, 83, 4},
        {"003_3a38346822a50a7e.txt", false, 68, 0},
    }));
    CAPTURE(file);
    std::istringstream in(read_seed(file));
    std::string line;
    int seen = 0, different = 0;
    while (std::getline(in, line)) {
        std::smatch m;
        if (!std::regex_match(line, m, value_line)) continue;
        ++seen;
        std::int64_t const stated = std::stoll(m[1]);
        auto const s = hlomem::parse_shape(m[2].str());
        std::int64_t const computed = tpu ? hlomem::tpu_size_function{}(s) : hlomem::xla_size_function{}(s);
        if (stated == computed) continue;
        ++different;
        CAPTURE(line, computed);
        CHECK(m[2].str() == "s32[2]{0:S(4)}");
        CHECK(stated == 4096);
    }
    CHECK(seen == lines);
    CHECK(different == exceptions);
}
