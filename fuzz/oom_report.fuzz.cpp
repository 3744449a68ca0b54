// Fuzz target: out-of-memory reports in logs (parser/oom_report.hpp) and their analysis
// (oom_report.hpp, padding.hpp). For every input: no crash; an error names a position in the
// input; every entry's analysis, padding explanation and suggested fixes run to the end.
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
    hlomem_fuzz::check(bool(log) == bool(owned), "both policies accept or reject the same log");
    if (!log) {
        hlomem_fuzz::check_error(log.error(), text, "<fuzz>");
        return 0;
    }
    hlomem_fuzz::check(log->entry_count() == owned->entry_count(), "both policies read the same entries");
    for (auto const& report : log->reports) {
        for (auto const& entry : report.entries) (void)hlomem::analyze(entry, report.kind);
    }
    return 0;
}
