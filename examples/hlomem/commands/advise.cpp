// commands/advise.cpp: `hlomem advise --budget BYTES|PERCENT% [--against peak|memory_analysis]
// [--json] [--top N] [--emit-module OUT] [--page OUT.html] MODULE`: which donations,
// rematerializations and offloads bring each memory space of a scheduled module, or the peak
// memory_analysis() reports, under a budget (advise_budget, <hlomem/whatif/advise_memory_analysis.hpp>),
// printed by output/whatif_report.hpp.
#include <optional>
#include <ostream>
#include <string>

#include <hlomem/hlomem.hpp>
#include <hlomem/output/whatif_page.hpp>
#include <hlomem/output/whatif_report.hpp>
#include <hlomem/whatif.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../module_input.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* advise_usage =
    "usage: hlomem advise --budget BYTES|PERCENT% [--against peak|memory_analysis] [--top N]\n"
    "                     [--emit-module OUT] [--page OUT.html] [--json] MODULE\n"
    "\n"
    "Lists the edits that lower the peak of a scheduled HLO module (or a buffer-assignment dump with\n"
    "its module beside it): every entry parameter donated, every value live at a memory space's\n"
    "peak rematerialized or offloaded to host, each evaluated on the module's live ranges and\n"
    "ranked by bytes saved at the peak per byte of cost (recomputed, or moved both ways; a donation\n"
    "costs nothing). Then the smallest set found (greedy in rank order, then an exact search over\n"
    "the best 12, bounded) that brings each memory space under the budget, or the best reached and\n"
    "what stands in the way. Each suggestion names its source line, op_name and Python stack, and\n"
    "the change in JAX's terms.\n"
    "\n"
    "  --budget BYTES|P%   the budget of every memory space, in bytes or in percent of its peak\n"
    "  --against memory_analysis  the budget is on the peak JAX's compiled.memory_analysis()\n"
    "                      reports (peak_memory_in_bytes, in bytes or percent of the module's):\n"
    "                      the bytes over it are taken off the live peak of the memory space whose\n"
    "                      heap reaches it, and the set is checked on the edited module, read back\n"
    "                      and predicted as for any module (searched again, up to 4 times, while\n"
    "                      it is still over). Default: peak (each memory space's live peak)\n"
    "  --top N             candidates listed (default 10)\n"
    "  --emit-module OUT   write the module with the set applied to OUT ('-': standard output)\n"
    "  --page OUT.html     write a page that draws each memory space's live bytes before and after\n"
    "                      the set, with its budget, each edited value marked\n"
    "  --json              print JSON\n"
    "Exit status: 0 the set fits, 1 it does not, 2 bad usage or a module that cannot be read.\n";

}  // namespace

int run_advise(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> file, emit, page;
    std::optional<std::string> budget;
    hlomem::advise_against against = hlomem::advise_against::peak;
    std::int64_t top = 10;
    argument_reader a("advise", advise_usage, args, err);
    while (a.next()) {
        auto value = [&]() -> std::optional<std::string> {
            if (!a.has_value()) err << "hlomem advise: " << a.current() << " needs a value\n";
            return a.value();
        };
        if (a.is("--json")) {
            as_json = true;
        } else if (a.is_help()) {
            return a.help(out);
        } else if (a.is("--budget")) {
            budget = value();
            if (!budget) return exit_error;
        } else if (a.is("--against")) {
            auto v = value();
            if (!v) return exit_error;
            auto const named = hlomem::advise_against_named(*v);
            if (!named) return usage_error(err, "advise", "--against needs " + std::string(hlomem::advise_against_expected) + ", not '" + *v + "'");
            against = *named;
        } else if (a.is("--top")) {
            auto v = value();
            auto n = v ? decimal(*v) : std::nullopt;
            if (!n) return usage_error(err, "advise", "--top needs a number");
            top = *n;
        } else if (a.is("--emit-module") || a.is("--page")) {
            auto& path = a.is("--page") ? page : emit;
            path = value();
            if (!path) return exit_error;
        } else if (auto status = a.take_file(file)) {
            return *status;
        }
    }
    if (!budget) return usage_error(err, "advise", "no --budget given");
    auto const options = hlomem::advise_budget_named(*budget);
    if (!options) return usage_error(err, "advise", "--budget needs " + std::string(hlomem::advise_budget_expected));
    if (!file) return usage_error(err, "advise", "no module given");
    auto in = read_module_input(*file, "advise", err);
    if (!in) return exit_error;
    hlomem::basic_what_if<hlomem::view_policy> w(*in->module);
    hlomem::budget_advice advice;
    try {
        advice = hlomem::advise_budget(w, in->text, *options, against);
    } catch (hlomem::error const& e) {
        err << "hlomem advise: " << in->path << ": " << e.what() << '\n';
        return exit_error;
    }
    if (as_json) {
        hlomem::print_advice_json(out, w, advice, static_cast<std::size_t>(top));
    } else {
        hlomem::print_advice_text(out, w, advice, static_cast<std::size_t>(top));
    }
    if (emit && !write_output("advise", *emit, out, err, [&](std::ostream& o) { o << hlomem::emit_module(in->text, w); })) return exit_error;
    if (page && !write_output("advise", *page, out, err, [&](std::ostream& o) { hlomem::write_what_if_html(o, hlomem::what_if_page(w, advice.live.budgets())); })) {
        return exit_error;
    }
    return advice.fits() ? exit_ok : exit_findings;
}

}  // namespace hlomem_cli
