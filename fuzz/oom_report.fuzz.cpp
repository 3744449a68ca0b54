// Fuzz target: out-of-memory reports in logs and pastes (parser/oom_report.hpp, the line reader
// that never fails a whole input; the one-line messages and BFC logs of parser/oom_messages.hpp)
// and their analysis (oom_report.hpp, padding.hpp, oom_message_checks.hpp, oom_verdict.hpp). For every
// input: no crash; the reader accepts it; both policies read the same reports, entries, usage
// lines and warnings; every line a report, an entry or a warning names is a line of the input;
// every entry's analysis, padding explanation and suggested fixes and every summary's checks run
// to the end.
#include <hlomem/dump.hpp>
#include <hlomem/hlo.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/parser/oom_report.hpp>
#include <hlomem/placement.hpp>

#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text = hlomem_fuzz::as_text(data, size);
    auto log = hlomem::try_parse_oom_reports<hlomem::view_policy>(text, "<fuzz>");
    auto owned = hlomem::try_parse_oom_reports(text, "<fuzz>");
    if (!log) hlomem_fuzz::fail("the OOM reader never fails a whole input", log.error().to_string());
    hlomem_fuzz::check(bool(owned), "the OOM reader never fails a whole input (owned policy)");
    hlomem_fuzz::check(log->reports.size() == owned->reports.size(), "both policies read the same reports");
    hlomem_fuzz::check(log->entry_count() == owned->entry_count(), "both policies read the same entries");
    hlomem_fuzz::check(log->warnings.size() == owned->warnings.size(), "both policies warn alike");
    std::size_t lines = 1;
    for (char c : text) lines += c == '\n';
    auto in_input = [&](std::size_t line) { return line >= 1 && line <= lines; };
    for (auto const& w : log->warnings) hlomem_fuzz::check(in_input(w.line), "a warning names a line of the input", w.message);
    for (std::size_t r = 0; r < log->reports.size(); ++r) {
        auto const& report = log->reports[r];
        hlomem_fuzz::check(in_input(report.line), "a report starts at a line of the input");
        hlomem_fuzz::check(report.usage.size() == owned->reports[r].usage.size(), "both policies read the same usage lines");
        hlomem_fuzz::check(report.notes.size() == owned->reports[r].notes.size(), "both policies note alike");
        for (auto const& n : report.notes) hlomem_fuzz::check(in_input(n.line), "a note names a line of the input", n.message);
        for (auto const& entry : report.entries) {
            hlomem_fuzz::check(in_input(entry.line), "an entry starts at a line of the input");
            (void)hlomem::analyze(entry, report.kind);
        }
        hlomem_fuzz::check(report.kind == owned->reports[r].kind, "both policies read the same kinds of report");
        hlomem_fuzz::check(report.bfc.bins.size() == owned->reports[r].bfc.bins.size() &&
                               report.bfc.stats.size() == owned->reports[r].bfc.stats.size(),
                           "both policies read the same BFC bins and stats");
        (void)hlomem::analyze_report(report);
        auto const verdict = hlomem::verdict_of(report);
        hlomem_fuzz::check(!verdict.time.empty() && !verdict.outcome.empty(), "every report has a verdict");
    }
    return 0;
}
