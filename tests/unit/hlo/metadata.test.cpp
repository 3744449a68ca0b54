// hlo/metadata.hpp instruction_metadata: the search for an instruction's top-level
// `metadata={`, which jumps from string to bracket to string, against the scan it replaced (one
// byte at a time, every bracket closed by detail::scan_raw, the fields read after the close was
// found), kept here as the reference: the same answer, down to the bytes each field views, on
// every line of every file under tests/data, on their prefixes and on texts with one byte left
// out, and on texts made to trip a search that jumps (nested brackets, `metadata={` inside
// strings, escapes and backend_config JSON, brackets that do not match or never close).
#include <hlomem/hlo/metadata.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

/// The scan instruction_metadata made before it jumped (hlomem 0.x, up to the commit that
/// replaced it), unchanged but for its name and namespaces.
std::optional<hlomem::basic_hlo_metadata<hlomem::view_policy>> reference_metadata(std::string_view text) {
    namespace detail = hlomem::detail;
    using hlomem::basic_hlo_metadata;
    using hlomem::view_policy;
    constexpr std::string_view key = "metadata={";
    char const* const first = text.data();
    char const* const last = first + text.size();
    // From an opening bracket, its closing bracket; nullptr when it has none or the text up to it
    // holds a string or bracket that is not closed.
    auto closing = [&](char const* open) -> char const* {
        detail::raw_scan const r = detail::scan_raw(open + 1, last, true);
        return r.problem != detail::raw_scan::none || r.end == last ? nullptr : r.end;
    };
    basic_hlo_metadata<view_policy> m;
    char const* p = first;
    char previous = 0;  // the last character before p that is not a blank
    while (p != last && !(previous == ',' && std::string_view(p, static_cast<std::size_t>(last - p)).substr(0, key.size()) == key)) {
        char const c = *p;
        if (c == '"') {
            p = detail::skip_quoted(p, last);
            if (p == nullptr) return std::nullopt;  // a string that is not closed
            previous = '"';
        } else if (c == '(' || c == '{' || c == '[') {
            char const* const close = closing(p);
            if (close == nullptr) return std::nullopt;
            previous = *close;
            p = close + 1;
        } else {
            if (!detail::is_blank(c)) previous = c;
            ++p;
        }
    }
    if (p == last) return std::nullopt;
    char const* const open = p + key.size() - 1;
    char const* const close = closing(open);
    if (close == nullptr) return std::nullopt;
    auto skip_blanks = [close](char const*& q) {
        while (q != close && detail::is_space(*q)) ++q;
    };
    try {
        hlomem::read_metadata(open, close + 1, first, skip_blanks, m, false);
    } catch (hlomem::hlo_text_error const&) {
        // Text that is not `key=value`: keep the fields read before it.
    }
    return m;
}


/// Whether the fast search and the reference agree on `text`: both none, or both found, every
/// field viewing the same bytes of `text`.
bool same_answer(std::string_view text) {
    auto const fast = hlomem::instruction_metadata(text);
    auto const slow = reference_metadata(text);
    if (fast.has_value() != slow.has_value()) return false;
    if (!fast) return true;
    auto same_view = [](std::string_view x, std::string_view y) { return x.data() == y.data() && x.size() == y.size(); };
    return same_view(fast->op_type, slow->op_type) && same_view(fast->op_name, slow->op_name) &&
           same_view(fast->source_file, slow->source_file) && fast->source_line == slow->source_line &&
           fast->stack_frame_id == slow->stack_frame_id;
}

std::vector<std::string> metadata_lines_of(std::string const& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

}  // namespace

TEST_CASE("instruction_metadata finds what the byte-at-a-time scan found, on every bundled file", "[metadata]") {
    std::size_t lines = 0, found = 0, varied = 0;
    for (auto const& entry : std::filesystem::recursive_directory_iterator(HLOMEM_TEST_DATA_DIR)) {
        if (!entry.is_regular_file()) continue;
        std::string const relative = std::filesystem::relative(entry.path(), HLOMEM_TEST_DATA_DIR).generic_string();
        auto const text = hlomem_test::read_data(relative);
        std::size_t with_metadata = 0;
        for (auto const& line : metadata_lines_of(text)) {
            ++lines;
            INFO(relative << ": " << line);
            REQUIRE(same_answer(line));
            if (hlomem::instruction_metadata(line)) ++found;
            if (line.find("metadata={") == std::string::npos || with_metadata++ % 97 != 0) continue;
            // Every prefix (strings and brackets cut open), and the line with each byte left out
            // (a quote or bracket gone, a key or comma broken).
            ++varied;
            for (std::size_t n = 0; n < line.size(); ++n) {
                REQUIRE(same_answer(std::string_view(line).substr(0, n)));
                std::string const cut = line.substr(0, n) + line.substr(n + 1);
                REQUIRE(same_answer(cut));
            }
        }
    }
    // About 49,000 lines, 19,000 with a `metadata={`: dumps, modules, and the rest of tests/data.
    CHECK(lines > 40000);
    CHECK(found > 15000);
    CHECK(varied > 150);
}

TEST_CASE("instruction_metadata on texts made to trip a search that jumps", "[metadata]") {
    std::vector<std::string> const texts = {
        // Brackets of every kind before the attribute, nested, and a closing bracket at the top level.
        R"(%f = (f32[2]{0}, s32[]) fusion(f32[2]{0} %a, s32[] %b), kind=kLoop, calls={%c, {%d}}, metadata={op_name="x" source_file="m.py" source_line=3})",
        R"(%a) , metadata={op_name="after a stray bracket"})",
        // `metadata={` inside strings, escaped quotes, backend_config strings and JSON.
        R"(%c = f32[] custom-call(), custom_call_target="a\"metadata={", metadata={op_name="b"})",
        R"(%c = f32[] custom-call(), backend_config="{\"metadata={op_name=\\\"not this\\\"}\"}")",
        R"(%c = f32[] custom-call(), backend_config={"x":"y, metadata={op_name=\"z\"}"}, metadata={op_name="real"})",
        R"(%c = f32[] custom-call(), metadata={op_name="real"}, backend_config={"metadata={":"}", "k":[1,{"metadata":2}]})",
        R"(%c = f32[] custom-call(), s="\\", metadata={op_name="after an escaped backslash"})",
        R"(%c = f32[] custom-call(), s="\\\", metadata={op_name=\"inside\"}")",
        // Inside an operand list or another attribute: not the attribute.
        R"(%c = f32[] custom-call(%a, metadata={op_name="no"}))",
        R"(%c = f32[] custom-call(%a), frontend_attributes={metadata={op_name="no"}})",
        // Blanks and what stands before the key.
        R"(%c = f32[] negate(%a),metadata={op_name="no blank"})",
        "%c = f32[] negate(%a),\t metadata={op_name=\"tab\"}",
        "%c = f32[] negate(%a),\n metadata={op_name=\"line end\"}",
        R"(%c = f32[] negate(%a), metadata= {op_name="blank before the brace"})",
        R"(%c = f32[] negate(%a) metadata={op_name="no comma"}, metadata={op_name="second"})",
        R"(%c = f32[] negate(%a), xmetadata={op_name="longer key"}, metadata={op_name="second"})",
        R"(metadata={op_name="at the start"})",
        R"(, metadata={op_name="comma first"})",
        R"("str", metadata={op_name="after a string"})",
        R"(%c = f32[] negate(%a), metadata=)",
        R"(%c = f32[] negate(%a), metadata={)",
        R"(%c = f32[] negate(%a), metadata={})",
        // Brackets and strings that do not close, or do not match.
        R"(%a = f32[ add(%b), metadata={op_name="x"})",
        R"(%a = f32[2) add(%b), metadata={op_name="x"})",
        R"(%a = f32[] add(%b, "open), metadata={op_name="x"})",
        R"(%a = f32[] add(%b), metadata={op_name="unterminated})",
        R"(%a = f32[] add(%b), metadata={op_name="x")",
        R"(%a = f32[] add(%b), metadata={op_name="x" source_line=4)",
        // Fields that are not `key=value`, values with brackets, a close that does not match.
        R"(%a = f32[] add(%b), metadata={op_name="x", source_line=3})",
        R"(%a = f32[] add(%b), metadata={op_name="x" profile={a, (b)} source_line=4 op_type="t"})",
        R"(%a = f32[] add(%b), metadata={op_name="x" bad=(} source_line=4})",
        R"(%a = f32[] add(%b), metadata={op_name="x" source_line=4])",
        R"(%a = f32[] add(%b), metadata={op_name="x" source_line=4)} more})",
        R"(%a = f32[] add(%b), metadata={op_name="x" source_line=nan source_file="f"})",
        R"(%a = f32[] add(%b), metadata={op_name="x" stack_frame_id=7 op_type="y"}, backend_config={"a":1})",
        std::string(300, '(') + "x" + std::string(300, ')') + R"(, metadata={op_name="deep"})",
        std::string(200, '{') + "x" + std::string(200, '}') + R"(, metadata={op_name="nested"})",
    };
    for (auto const& text : texts) {
        INFO(text);
        CHECK(same_answer(text));
        for (std::size_t n = 0; n < text.size(); ++n) {
            CHECK(same_answer(std::string_view(text).substr(0, n)));
            CHECK(same_answer(text.substr(0, n) + text.substr(n + 1)));
        }
    }
    auto op_name = [](std::string const& text) {
        auto const m = hlomem::instruction_metadata(text);
        return m ? std::string(m->op_name) : std::string("<none>");
    };
    CHECK(op_name(texts[0]) == "x");
    CHECK(op_name(texts[1]) == "after a stray bracket");
    CHECK(op_name(texts[2]) == "b");
    CHECK(op_name(texts[3]) == "<none>");
    CHECK(op_name(texts[4]) == "real");
    CHECK(op_name(texts[5]) == "real");
    CHECK(op_name(texts[6]) == "after an escaped backslash");
    CHECK(op_name(texts[7]) == "<none>");
    CHECK(op_name(texts[8]) == "<none>");
    CHECK(op_name(texts[9]) == "<none>");
    CHECK(op_name(texts[10]) == "no blank");
    CHECK(op_name(texts[11]) == "tab");
    CHECK(op_name(texts[12]) == "<none>");  // a line end is not a blank: the ',' is not the byte before
    CHECK(op_name(texts[13]) == "<none>");
    CHECK(op_name(texts[14]) == "second");
    CHECK(op_name(texts[15]) == "second");
    CHECK(op_name(texts[16]) == "<none>");
    CHECK(op_name(texts[17]) == "comma first");
    CHECK(op_name(texts[18]) == "after a string");
    CHECK(op_name(texts[19]) == "<none>");
    CHECK(op_name(texts[20]) == "<none>");
    CHECK(op_name(texts[21]).empty());
    CHECK(op_name(texts[22]) == "<none>");
    CHECK(op_name(texts[23]) == "x");  // a close of another kind closes the '[' (scan_raw's to_close rule)
    for (std::size_t k = 24; k <= 27; ++k) CHECK(op_name(texts[k]) == "<none>");
    CHECK(op_name(texts[28]) == "x");
    auto const valued = hlomem::instruction_metadata(texts[29]);
    REQUIRE(valued);
    CHECK(valued->source_line == 4);
    CHECK(valued->op_type == "t");
    CHECK(op_name(texts[30]) == "<none>");
    CHECK(op_name(texts[31]) == "x");  // ']' closes the brace as scan_raw reads a close
    CHECK(op_name(texts[32]) == "x");
    auto const lenient = hlomem::instruction_metadata(texts[33]);
    REQUIRE(lenient);
    CHECK(lenient->source_line == 0);
    CHECK(lenient->source_file == "f");
    auto const framed = hlomem::instruction_metadata(texts[34]);
    REQUIRE(framed);
    CHECK(framed->stack_frame_id == 7);
    CHECK(op_name(texts[35]) == "<none>");  // deeper than detail::max_nesting_depth
    CHECK(op_name(texts[36]) == "nested");
}

TEST_CASE("instruction_metadata with each special byte at every place of a 16-byte block", "[metadata]") {
    // The search classes sixteen bytes at a time and takes the brackets and quotes of a block
    // one by one (detail::metadata_specials_16): a string that ends in the next block, a bracket
    // that closes in it, an escaped quote on a boundary. Each text shifted by 0-40 plain bytes
    // and followed by 0-20, against the byte-at-a-time scan, and each bracket's close against
    // scan_raw's.
    std::vector<std::string> const texts = {
        R"(fusion(f32[8,128]{1,0} %a, bf16[1024,2048]{1,0} %b), calls=%c, metadata={op_name="a\"b" source_file="/x/y.py" source_line=7})",
        R"(custom-call(s32[] %i), custom_call_target="t(", backend_config="{\"m\":[1,{2}]}", metadata={op_type="q" op_name="r"})",
        R"(tuple((f32[], (s32[2]{0}, u8[3]{0})) %t), metadata={op_name="(\\\"" source_line=1}, backend_config={"a":"metadata={"})",
        R"(while(%t), condition=%c, body=%b, metadata={op_name="x" source_file="\\" source_line=2} , frontend_attributes={k="]"})",
        R"(add(f32[1] %a, f32[1] %b]), metadata={op_name="mismatched close before it"})",
        R"(add(f32[1] %a, f32[1] %b), metadata={op_name="never closed")",
    };
    for (auto const& text : texts) {
        for (std::size_t before = 0; before <= 40; ++before) {
            for (std::size_t after = 0; after <= 20; after += 5) {
                std::string const line = "%v = f32[] " + std::string(before, 'x') + " " + text + std::string(after, ' ');
                INFO(line);
                REQUIRE(same_answer(line));
                char const* const last = line.data() + line.size();
                for (char const* p = line.data(); p != last; ++p) {
                    if (*p != '(' && *p != '[' && *p != '{') continue;
                    hlomem::detail::raw_scan const r = hlomem::detail::scan_raw(p + 1, last, true);
                    char const* const expected = r.problem != hlomem::detail::raw_scan::none || r.end == last ? nullptr : r.end;
                    REQUIRE(hlomem::detail::metadata_closing(p, last) == expected);
                }
            }
        }
    }
}
