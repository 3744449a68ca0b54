// Fuzz target: BufferAssignment dumps with their live ranges (parser/buffer_assignment.hpp) and
// every analysis that reads them. For every input: no crash; an error names a position in the
// input; a dump that parses prints (dump/printer.hpp) as text that parses back and prints the
// same; the owning and the view policy read the same dump; the analyses run to the end.
#include <hlomem/dump.hpp>
#include <hlomem/hlo.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/parser/buffer_assignment.hpp>
#include <hlomem/placement.hpp>

#include "fuzz_check.hpp"

using hlomem_fuzz::check;

namespace {

template <class P>
void analyze(hlomem::basic_buffer_assignment<P> const& ba) {
    (void)hlomem::check_consistency(ba);
    auto const peak = hlomem::compute_xla_peak(ba);
    (void)hlomem::compare_stated_peak(ba, peak);
    for (auto const& color : hlomem::assigned_live_bytes(ba)) {
        check(color.peak_bytes >= 0, "live bytes are not negative");
    }
    (void)hlomem::check_soundness(ba);
    (void)hlomem::summarize_sharing(ba);
    auto const buffers = hlomem::shared_buffers(ba);
    (void)hlomem::lower_bounds(ba, buffers);
    (void)hlomem::fragmentation(ba, buffers);
    (void)hlomem::padding_by_color(ba, buffers, hlomem::size_function_of(ba));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text = hlomem_fuzz::as_text(data, size);
    auto viewed = hlomem::try_parse_buffer_assignment<hlomem::view_policy>(text, "<fuzz>");
    auto owned = hlomem::try_parse_buffer_assignment(text, "<fuzz>");
    // Read in parts on three threads (what a dump of 4 MiB or more gets), it reads the same.
    auto parts = hlomem::try_parse_buffer_assignment(text, "<fuzz>", 3);
    check(bool(viewed) == bool(owned), "both policies accept or reject the same dump");
    check(bool(parts) == bool(owned), "a dump read in parts is accepted or rejected as when read whole");
    if (!owned) {
        hlomem_fuzz::check_error(owned.error(), text, "<fuzz>");
        check(owned.error() == viewed.error(), "both policies report the same error", owned.error().to_string());
        check(owned.error() == parts.error(), "a dump read in parts reports the same error", parts.error().to_string());
        return 0;
    }
    std::string const printed = hlomem::to_string(*owned);
    check(printed == hlomem::to_string(*viewed), "both policies read the same dump", printed);
    check(printed == hlomem::to_string(*parts), "a dump read in parts reads the same", printed);
    auto again = hlomem::try_parse_buffer_assignment(printed, "<printed>");
    if (!again) hlomem_fuzz::fail("a printed dump parses", printed + "\n" + again.error().to_string());
    check(hlomem::to_string(*again) == printed, "print(parse(print(x))) == print(x)", printed);
    analyze(*viewed);
    return 0;
}
