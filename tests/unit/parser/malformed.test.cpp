// The malformed-input corpus, tests/data/malformed/: each KIND-NAME.txt is read by the parser of
// its KIND (shape, ba = buffer assignment, lr = live range, mur = memory-usage report, hlo = HLO
// module, oom = out-of-memory reports) and what hlomem says must equal KIND-NAME.expected
// exactly: the parse error (file, line, column, what was expected, the line and a caret), or, for
// a dump that parses but contradicts itself, "parsed" and check_consistency's diagnostics; for
// out-of-memory reports, which are never an error, "parsed" and the reader's notes.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <filesystem>
#include <set>
#include <string>

namespace {

template <class Result>
std::string error_text(Result const& r) {
    return r ? std::string("parsed\n") : r.error().to_string() + "\n";
}

std::string what_hlomem_says(std::string const& kind, std::string text, std::string const& file) {
    if (kind == "shape") {
        if (!text.empty() && text.back() == '\n') text.pop_back();  // one shape per file, newline-terminated
        return error_text(hlomem::try_parse_shape(text, file));
    }
    if (kind == "ba") {
        auto r = hlomem::try_parse_buffer_assignment(text, file);
        if (!r) return error_text(r);
        std::string out = "parsed\n";
        for (auto const& d : hlomem::check_consistency(*r)) out += "line " + std::to_string(d.line) + ": " + d.message + "\n";
        return out;
    }
    if (kind == "lr") return error_text(hlomem::try_parse_live_range(text, file));
    if (kind == "mur") return error_text(hlomem::try_parse_memory_usage_report(text, file));
    if (kind == "hlo") return error_text(hlomem::try_parse_hlo_modules(text, file));
    if (kind == "oom") {
        // The OOM reader never fails a whole input: damage is a note at its line and column.
        auto r = hlomem::try_parse_oom_reports(text, file);
        if (!r) return error_text(r);
        std::string out = "parsed\n";
        auto say = [&](hlomem::diagnostic const& d) {
            out += file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message + "\n";
        };
        for (auto const& w : r->warnings) say(w);
        for (auto const& report : r->reports) {
            for (auto const& n : report.notes) say(n);
        }
        return out;
    }
    FAIL("unknown kind of malformed input: " << kind);
    return {};
}

}  // namespace

TEST_CASE("every file of the malformed-input corpus gives its exact error", "[malformed][errors]") {
    namespace fs = std::filesystem;
    fs::path const dir = fs::path(HLOMEM_TEST_DATA_DIR) / "malformed";
    std::set<std::string> kinds;
    std::size_t files = 0;
    for (auto const& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".txt") continue;
        std::string const name = entry.path().filename().string();
        std::string const stem = entry.path().stem().string();
        CAPTURE(name);
        std::string const kind = name.substr(0, name.find('-'));
        std::string const said = what_hlomem_says(kind, hlomem_test::read_data("malformed/" + name), "malformed/" + name);
        CHECK(said == hlomem_test::read_data("malformed/" + stem + ".expected"));
        kinds.insert(kind);
        ++files;
    }
    CHECK(kinds == std::set<std::string>{"ba", "hlo", "lr", "mur", "oom", "shape"});
    CHECK(files >= 35);
}
