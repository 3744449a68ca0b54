// Fuzz target: MiniMalloc CSV problems and solutions (parser/minimalloc_csv.hpp) and the
// allocators that place them (allocation/). For every input: no crash; an error names a position in
// the input; a problem read back from the CSV hlomem writes for it is the same problem; a given
// solution is checked to the end; a problem without defects is placed by the greedy allocators and
// XLA's best fit, and every placement they make is valid.
#include <hlomem/parser/minimalloc_csv.hpp>
#include <hlomem/placement.hpp>

#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text = hlomem_fuzz::as_text(data, size);
    auto parsed = hlomem::try_parse_minimalloc_csv(text, "<fuzz>");
    if (!parsed) {
        hlomem_fuzz::check_error(parsed.error(), text, "<fuzz>");
        return 0;
    }
    hlomem::allocation_problem p = std::move(*parsed);
    auto const again = hlomem::try_parse_minimalloc_csv(hlomem::to_minimalloc_csv(p), "<written>");
    hlomem_fuzz::check(bool(again), "the CSV hlomem writes reads back");
    hlomem_fuzz::check(again->buffers.size() == p.buffers.size(), "the CSV hlomem writes keeps every buffer");
    for (std::size_t i = 0; i < p.buffers.size(); ++i) {
        hlomem_fuzz::check(again->buffers[i] == p.buffers[i], "the CSV hlomem writes holds the same buffers", p.buffers[i].id);
    }
    if (!p.buffers.empty() && p.buffers.front().offset) (void)hlomem::check_placement(p);
    if (!hlomem::problem_defects(p).empty()) return 0;
    (void)hlomem::lower_bound_bytes(p);
    for (int algorithm = 0; algorithm < 3; ++algorithm) {
        auto q = p;
        if (algorithm == 0) (void)hlomem::greedy_by_size(q);
        if (algorithm == 1) (void)hlomem::first_fit_by_start(q);
        if (algorithm == 2) (void)hlomem::xla_choose_best_fit(q);
        auto const errors = hlomem::check_placement(q);
        hlomem_fuzz::check(errors.empty(), "an allocator's placement is valid",
                           errors.empty() ? std::string_view{} : std::string_view(errors.front().message));
    }
    return 0;
}
