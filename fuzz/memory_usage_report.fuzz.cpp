// Fuzz target: the older text `*-memory-usage-report.txt` (parser/memory_usage_report.hpp). For
// every input: no crash, and an error names a position in the input. (hlomem has no printer for
// this format, so there is no round trip to check.)
#include <hlomem/dump.hpp>
#include <hlomem/hlo.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/parser/memory_usage_report.hpp>
#include <hlomem/placement.hpp>

#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text = hlomem_fuzz::as_text(data, size);
    auto viewed = hlomem::try_parse_memory_usage_report<hlomem::view_policy>(text, "<fuzz>");
    auto owned = hlomem::try_parse_memory_usage_report(text, "<fuzz>");
    hlomem_fuzz::check(bool(viewed) == bool(owned), "both policies accept or reject the same report");
    if (!owned) hlomem_fuzz::check_error(owned.error(), text, "<fuzz>");
    return 0;
}
