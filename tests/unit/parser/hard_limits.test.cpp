// Hard limits, for every parser: input nested 100,000 deep, numbers longer than their type, empty
// input, NUL bytes and binary garbage, a single line of 100 MB, CRLF and tab variants of real
// dumps, and real dumps cut at every line boundary. Each gives a clear error at its position (or,
// where the format allows it, reads as what it is), never a crash, a hang or a stack overflow.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

/// What each parser says about `text`: "parsed" or the error's full text.
struct parsers {
    template <class R>
    static std::string of(R const& r) {
        return r ? std::string("parsed") : r.error().to_string();
    }
    static std::string shape(std::string const& t) { return of(hlomem::try_parse_shape(t, "f")); }
    static std::string ba(std::string const& t) { return of(hlomem::try_parse_buffer_assignment(t, "f")); }
    static std::string lr(std::string const& t) { return of(hlomem::try_parse_live_range(t, "f")); }
    static std::string mur(std::string const& t) { return of(hlomem::try_parse_memory_usage_report(t, "f")); }
    static std::string hlo(std::string const& t) { return of(hlomem::try_parse_hlo_modules(t, "f")); }
};

/// The first line of an error's text: "f:L:C: error: ...".
std::string headline(std::string const& said) { return said.substr(0, said.find('\n')); }

std::string const nest(100000, '(');

}  // namespace

TEST_CASE("100,000 nested parentheses or braces are an error at the 257th level, in every parser",
          "[limits][errors]") {
    CHECK(headline(parsers::shape(nest)) == "f:1:257: error: nesting deeper than 256 levels");
    CHECK(headline(parsers::shape(std::string(100000, '(') + "f32[]" + std::string(100000, ')'))) ==
          "f:1:257: error: nesting deeper than 256 levels");
    CHECK(headline(parsers::ba("BufferAssignment:\nallocation 0: size 8, preallocated-temp:\n value: <1 a @0> (size=8,offset=0): " +
                               nest + "\n")) == "f:3:293: error: nesting deeper than 256 levels");
    CHECK(headline(parsers::hlo("HloModule m\n\nENTRY e {\n  ROOT p = " + nest + " parameter(0)\n}\n")) ==
          "f:4:268: error: nesting deeper than 256 levels");
    CHECK(headline(parsers::hlo("HloModule m\n\nENTRY e {\n  ROOT p = f32[] parameter(0), foo=" + std::string(100000, '{') +
                                "\n}\n")) == "f:4:292: error: nesting deeper than 256 levels");
    // The OOM reader never fails an input: the nesting is a note at the shape, and the entry is read.
    auto const oom = hlomem::parse_oom_reports(
        "Largest program allocations in hbm:\n\n  1. Size: 4.0K\n     Shape: " + nest + "\n     Unpadded size: 4.0K\n     ==========\n", "f");
    REQUIRE(oom.reports.size() == 1);
    REQUIRE_FALSE(oom.reports[0].notes.empty());
    CHECK(oom.reports[0].notes[0].line == 4);
    CHECK(oom.reports[0].notes[0].message.rfind("the Shape of entry 1 does not read (nesting deeper than 256 levels)", 0) == 0);
    CHECK(oom.reports[0].entries.at(0).complete);
    // 256 levels are allowed: a shape nested exactly that deep parses.
    CHECK(parsers::shape(std::string(255, '(') + "f32[]" + std::string(255, ')')) == "parsed");
}

TEST_CASE("numbers longer than their type are errors at the number", "[limits][errors]") {
    CHECK(headline(parsers::shape("f32[99999999999999999999]")) ==
          "f:1:5: error: integer 99999999999999999999 does not fit in int64");
    CHECK(headline(parsers::shape("f32[4611686018427387904,4]")) ==
          "f:1:1: error: the element count of this array overflows int64");
    CHECK(headline(parsers::shape("f32[2305843009213693952]")) == "f:1:1: error: the byte size of this array overflows int64");
    CHECK(headline(parsers::ba("BufferAssignment:\nallocation 0: size 8, preallocated-temp:\n value: <1 a @0> "
                               "(size=8,offset=99999999999999999999): f32[2]{0}\n")) ==
          "f:3:33: error: integer 99999999999999999999 does not fit in int64");
    CHECK(headline(parsers::lr("HloLiveRange (max 18446744073709551616):\n")) ==
          "f:1:19: error: integer 18446744073709551616 does not fit in int64");
    CHECK(headline(parsers::hlo("HloModule m\n\nENTRY e {\n  ROOT p = f32[] parameter(99999999999999999999)\n}\n")) ==
          "f:4:28: error: integer 99999999999999999999 does not fit in int64");
    CHECK(headline(parsers::mur("Total bytes used: 99999999999999999999 (1B)\n")) ==
          "f:1:19: error: integer 99999999999999999999 does not fit in int64");
}

TEST_CASE("empty input: every dump parser says what it expected at 1:1; a log without reports is empty",
          "[limits][errors]") {
    CHECK(headline(parsers::shape("")) == "f:1:1: error: expected a shape");
    CHECK(headline(parsers::ba("")) == "f:1:1: error: expected 'BufferAssignment:'");
    CHECK(headline(parsers::lr("")) == "f:1:1: error: expected 'HloLiveRange (max N):'");
    CHECK(headline(parsers::mur("")) == "f:1:1: error: expected 'Total bytes used:'");
    CHECK(headline(parsers::hlo("")) == "f:1:1: error: expected 'HloModule'");
    auto log = hlomem::try_parse_oom_reports("", "f");
    REQUIRE(log);
    CHECK(log->reports.empty());
    CHECK(headline(parsers::ba("\n\n   \n")) == "f:4:1: error: expected 'BufferAssignment:'");
}

TEST_CASE("NUL bytes are errors at their position, printed as '?' in the quoted line", "[limits][errors]") {
    CHECK(parsers::shape(std::string("f32[8]\0", 7)) == "f:1:7: error: expected end of input\nf32[8]?\n      ^");
    CHECK(headline(parsers::ba(std::string("BufferAssignment:\n\0", 19))) ==
          "f:2:1: error: expected an allocation header, a value line, or 'Total bytes used:' after a blank line");
    CHECK(headline(parsers::hlo(std::string("HloModule m\0", 12))).rfind("f:1:12: error: ", 0) == 0);
}

TEST_CASE("binary garbage never crashes any parser, and every error points into the input", "[limits][errors]") {
    std::mt19937 rng(7);
    std::vector<std::string> prefixes = {"", "BufferAssignment:\n", "HloLiveRange (max 3):\n", "Total bytes used: 8 (8B)\n",
                                         "HloModule m\n", "Largest program allocations in hbm:\n", "f32["};
    for (int i = 0; i < 300; ++i) {
        std::string text = prefixes[static_cast<std::size_t>(i) % prefixes.size()];
        std::size_t const n = std::uniform_int_distribution<std::size_t>(0, 300)(rng);
        for (std::size_t k = 0; k < n; ++k) text += static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
        CAPTURE(i);
        std::size_t lines = 1;
        for (char c : text) lines += c == '\n';
        auto check_error = [&](auto const& r) {
            if (r) return;
            CHECK(r.error().line >= 1);
            CHECK(r.error().line <= lines);
            CHECK(r.error().column >= 1);
            CHECK_FALSE(r.error().message.empty());
        };
        check_error(hlomem::try_parse_shape(text, "f"));
        check_error(hlomem::try_parse_buffer_assignment(text, "f"));
        check_error(hlomem::try_parse_live_range(text, "f"));
        check_error(hlomem::try_parse_memory_usage_report(text, "f"));
        check_error(hlomem::try_parse_hlo_modules(text, "f"));
        check_error(hlomem::try_parse_oom_reports(text, "f"));
    }
}

TEST_CASE("a single line of 100 MB: the error names its column and quotes a short piece of it", "[limits][errors]") {
    std::string const big(100u << 20, 'x');
    auto const shape = parsers::shape(big);
    CHECK(headline(shape) == "f:1:1: error: unknown primitive type 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'");
    CHECK(shape.size() < 1000);
    auto const ba = parsers::ba("BufferAssignment:\n" + big);
    CHECK(headline(ba) == "f:2:1: error: expected an allocation header, a value line, or 'Total bytes used:' after a blank line");
    CHECK(ba.size() < 1000);
    auto const hlo = parsers::hlo("HloModule m\n" + big);
    CHECK(headline(hlo) == "f:2:104857601: error: expected '{'");
    CHECK(hlo.size() < 1000);
    auto const lr = parsers::lr("HloLiveRange (max 1):\n" + big);
    CHECK(headline(lr) == "f:2:1: error: expected 'InstructionSequence:'");
    CHECK(lr.size() < 1000);
    // A log line of 100 MB holds no report.
    auto log = hlomem::try_parse_oom_reports(big, "f");
    REQUIRE(log);
    CHECK(log->reports.empty());
}

TEST_CASE("CRLF line ends and tab indentation read like LF and spaces in real dumps", "[limits][crlf]") {
    auto crlf = [](std::string const& s) {
        std::string out;
        for (char c : s) {
            if (c == '\n') out += '\r';
            out += c;
        }
        return out;
    };
    std::string const ba_text = hlomem_test::read_data("seeds/000_5960cad812240b69.txt");
    auto const ba = hlomem::parse_buffer_assignment(ba_text, "f");
    auto const ba_crlf = hlomem::parse_buffer_assignment(crlf(ba_text), "f");
    CHECK(hlomem::to_string(ba_crlf) == hlomem::to_string(ba));

    std::string const hlo_text = hlomem_test::read_data("corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo");
    auto const m = hlomem::parse_hlo_module(hlo_text, "f");
    std::string tabbed = hlo_text;
    for (std::size_t p = tabbed.find("\n  "); p != std::string::npos; p = tabbed.find("\n  ", p + 1)) tabbed.replace(p, 3, "\n\t");
    for (auto const& variant : {crlf(hlo_text), tabbed}) {
        auto const v = hlomem::parse_hlo_module(variant, "f");
        REQUIRE(v.instruction_count() == m.instruction_count());
        for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
            CHECK(std::string(v.instruction(i).name) == std::string(m.instruction(i).name));
            CHECK(v.operands(i).size() == m.operands(i).size());
        }
    }

    std::string const oom_text = hlomem_test::read_data("oom/tpu_oom_pytorch_xla_3041.txt");
    auto const log = hlomem::parse_oom_reports(oom_text, "f");
    auto const log_crlf = hlomem::parse_oom_reports(crlf(oom_text), "f");
    REQUIRE(log_crlf.entry_count() == log.entry_count());
    CHECK(log_crlf.reports[0].entries[1].shape_text == log.reports[0].entries[1].shape_text);
}

TEST_CASE("real inputs cut at every line boundary: an error inside the piece, or what the piece holds",
          "[limits][truncation]") {
    auto prefixes = [](std::string const& text) {
        std::vector<std::string> out;
        for (std::size_t p = text.find('\n'); p != std::string::npos; p = text.find('\n', p + 1)) out.push_back(text.substr(0, p + 1));
        return out;
    };
    auto inside = [](auto const& r, std::string const& piece) {
        if (r) return true;
        std::size_t lines = 1;
        for (char c : piece) lines += c == '\n';
        return r.error().line >= 1 && r.error().line <= lines;
    };
    std::string const module = hlomem_test::read_data("corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo");
    // Exactly the pieces whose last non-blank line closes a computation read as a module (as in
    // XLA, without an ENTRY the last computation is the entry): 7 computations, each followed
    // by a blank line.
    std::size_t complete = 0;
    for (auto const& piece : prefixes(module)) {
        auto r = hlomem::try_parse_hlo_modules(piece, "f");
        CHECK(inside(r, piece));
        std::size_t end = piece.find_last_not_of('\n');
        std::string const last_line = piece.substr(piece.rfind('\n', end) + 1, end - piece.rfind('\n', end));
        CHECK(bool(r) == (last_line == "}"));
        complete += bool(r);
    }
    CHECK(complete == 14);

    std::string const dump = hlomem_test::read_data("seeds/002_b0117d631587537a.txt");
    std::string const live_range = dump.substr(dump.find("HloLiveRange"));
    for (auto const& piece : prefixes(live_range)) CHECK(inside(hlomem::try_parse_live_range(piece, "f"), piece));

    std::string const log = hlomem_test::read_data("oom/tpu_oom_pytorch_xla_3041.txt");
    for (auto const& piece : prefixes(log)) {
        auto r = hlomem::try_parse_oom_reports(piece, "f");
        REQUIRE(r);  // a report cut anywhere reads as far as it goes
        CHECK(r->entry_count() <= 2);
    }
}

TEST_CASE("a stack-trace share prints back whole; one above 100% or with two points is an error",
          "[limits][errors]") {
    // Found by fuzzing: a share of 32 digits printed through a 32-byte buffer lost its last
    // digits, so the printed text read back as another number. A share is at most 100%, so the
    // 32 digits are now an error, and the longest share that prints is 100.0.
    std::string const head =
        "HloLiveRange (max 4):\n  InstructionSequence:\n    0:paramA\n    1:add\n  BufferLiveRange:\n"
        "    paramA{}:0-1\n    add{}:1-1\n  Live ranges at 1 (peak):\n    paramA{}: 16 bytes (cumulative: 16 bytes)\n"
        "  Stack trace breakdown for peak usage: 16 bytes\n";
    for (char const* share : {"11111111111111111111111111111111.5", "100.1"}) {
        CAPTURE(share);
        auto const big = hlomem::try_parse_live_range(
            head + "    main (" + share + "%, total: 16 bytes, current: 0 bytes, remaining: 16 bytes)\n", "big.txt");
        REQUIRE_FALSE(big);
        CHECK(big.error().line == 11);
        CHECK(big.error().column == 5);
    }
    std::string const text = head + "    main (100.0%, total: 16 bytes, current: 0 bytes, remaining: 16 bytes)\n";
    auto const lr = hlomem::parse_live_range(text, "whole.txt");
    std::ostringstream printed;
    hlomem::print_live_range(printed, lr);
    CHECK(printed.str().find("    main (100.0%, total: 16 bytes") != std::string::npos);
    std::ostringstream again;
    hlomem::print_live_range(again, hlomem::parse_live_range(printed.str(), "printed.txt"));
    CHECK(again.str() == printed.str());

    // Also found by fuzzing: a node two levels below its predecessor drew its ancestors' columns
    // from past the end of the printer's table. The skipped ancestor draws a blank column.
    std::string const jump = head + "    main (100.0%, total: 16 bytes, current: 0 bytes, remaining: 16 bytes)\n"
                                    "          \u2514\u2500\u2500 deep (100.0%, total: 16 bytes, current: 16 bytes, remaining: 0 bytes)\n";
    auto const jumped = hlomem::parse_live_range(jump, "jump.txt");
    REQUIRE(jumped.stated_peak);
    REQUIRE(jumped.stated_peak->stack_trace.size() == 2);
    CHECK(jumped.stated_peak->stack_trace[1].depth == 2);
    std::ostringstream jump_printed;
    hlomem::print_live_range(jump_printed, jumped);
    CHECK(jump_printed.str().find("\n          \u2514\u2500\u2500 deep (100.0%") != std::string::npos);

    auto const dots = hlomem::try_parse_live_range(
        head + "    main (1.2.3%, total: 16 bytes, current: 0 bytes, remaining: 16 bytes)\n", "dots.txt");
    REQUIRE_FALSE(dots);
    CHECK(dots.error().line == 11);
    CHECK(dots.error().column == 5);
}
