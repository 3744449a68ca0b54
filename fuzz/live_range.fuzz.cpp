// Fuzz target: a separate `*-live-range.txt` (HloLiveRange text, parser/live_range.hpp).
// For every input: no crash; an error names a position in the input; a live range that parses
// prints (dump/printer.hpp) as text that parses back and prints the same.
#include <hlomem/dump.hpp>
#include <hlomem/hlo.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/parser/live_range.hpp>
#include <hlomem/placement.hpp>

#include <sstream>

#include "fuzz_check.hpp"

using hlomem_fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text = hlomem_fuzz::as_text(data, size);
    auto parsed = hlomem::try_parse_live_range<hlomem::view_policy>(text, "<fuzz>");
    if (!parsed) {
        hlomem_fuzz::check_error(parsed.error(), text, "<fuzz>");
        return 0;
    }
    std::ostringstream os;
    hlomem::print_live_range(os, *parsed);
    std::string const printed = os.str();
    auto again = hlomem::try_parse_live_range(printed, "<printed>");
    if (!again) hlomem_fuzz::fail("a printed live range parses", printed + "\n" + again.error().to_string());
    std::ostringstream os2;
    hlomem::print_live_range(os2, *again);
    check(os2.str() == printed, "print(parse(print(x))) == print(x)", printed);
    return 0;
}
