// commands/whatif.cpp: `hlomem whatif MODULE [--donate N] [--remat NAME] [--offload NAME]
// [--from T] [--chain N] [--emit-module OUT] [--page OUT.html] [--json]`: edits evaluated on a scheduled
// module's live ranges (<hlomem/whatif.hpp>), the peaks printed before and after
// (output/whatif_report.hpp), the curves drawn before and after (output/whatif_page.hpp).
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <hlomem/hlomem.hpp>
#include <hlomem/output/whatif_page.hpp>
#include <hlomem/output/whatif_report.hpp>
#include <hlomem/whatif.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../module_input.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* whatif_usage =
    "usage: hlomem whatif [--donate N] [--remat NAME] [--offload NAME] [--from T] [--chain N]\n"
    "                     [--emit-module OUT] [--page OUT.html] [--json] MODULE\n"
    "\n"
    "Evaluates edits on a scheduled HLO module (or a buffer-assignment dump with its module beside\n"
    "it) and prints XLA's peak and each memory space's live peak before and after them. The edits\n"
    "apply in the order given; each is refused with XLA's reason where XLA would refuse it.\n"
    "\n"
    "  --donate N          entry parameter N shares the buffer of an output of its shape and size\n"
    "                      (input_output_alias; donate_argnums in JAX)\n"
    "  --remat NAME        the instruction NAME runs again right before its first read at or after\n"
    "                      the peak (or --from T); the original dies at its last read before\n"
    "  --offload NAME      NAME goes to host memory (S(5)) after its last read before the peak (or\n"
    "                      --from T) and comes back before the next read\n"
    "  --from T            the time the next --remat or --offload splits at (default: XLA's peak)\n"
    "  --chain N           the next --remat may recompute up to N of its operands in turn, right\n"
    "                      before it, where they would otherwise live on to it (default 0)\n"
    "  --emit-module OUT   write the edited module to OUT ('-': standard output): the clones, the\n"
    "                      copy-start/copy-done pairs and the input_output_alias entries added\n"
    "  --page OUT.html     write a page that draws each memory space's live bytes before and after\n"
    "                      the edits on the edited module's time axis, each edited value marked\n"
    "  --json              print JSON\n"
    "Exit status: 0 done, 1 an edit was refused, 2 bad usage or a module that cannot be read.\n";

}  // namespace

int run_whatif(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> file, emit, page;
    std::optional<hlomem::logical_time> from;
    std::size_t chain = 0;
    std::vector<hlomem::edit_request> pending;
    argument_reader a("whatif", whatif_usage, args, err);
    while (a.next()) {
        auto value = [&]() -> std::optional<std::string> {
            if (!a.has_value()) err << "hlomem whatif: " << a.current() << " needs a value\n";
            return a.value();
        };
        if (a.is("--json")) {
            as_json = true;
        } else if (a.is_help()) {
            return a.help(out);
        } else if (a.is("--donate") || a.is("--remat") || a.is("--offload")) {
            bool const donate = a.is("--donate"), remat = a.is("--remat");
            auto v = value();
            if (!v) return exit_error;
            auto const parameter = donate ? decimal(*v) : std::nullopt;
            if (donate && !parameter) return usage_error(err, "whatif", "--donate needs a parameter number");
            pending.push_back(donate ? hlomem::edit_request::donate(*parameter)
                                     : remat ? hlomem::edit_request::remat(*v, from, chain) : hlomem::edit_request::offload(*v, from));
        } else if (a.is("--from") || a.is("--chain")) {
            bool const is_from = a.is("--from");
            auto v = value();
            auto const n = v ? decimal(*v) : std::nullopt;
            if (!n) return usage_error(err, "whatif", is_from ? "--from needs a time" : "--chain needs a count");
            if (is_from) from = static_cast<hlomem::logical_time>(*n); else chain = static_cast<std::size_t>(*n);
        } else if (a.is("--emit-module") || a.is("--page")) {
            auto& path = a.is("--page") ? page : emit;
            path = value();
            if (!path) return exit_error;
        } else if (auto status = a.take_file(file)) {
            return *status;
        }
    }
    if (!file) return usage_error(err, "whatif", "no module given");
    auto in = read_module_input(*file, "whatif", err);
    if (!in) return exit_error;
    hlomem::basic_what_if<hlomem::view_policy> w(*in->module);
    auto const before = w.peaks();
    auto const outcomes = hlomem::apply_requests(w, pending);
    if (!outcomes) {
        err << "hlomem whatif: " << in->path << ": " << outcomes.error().message << '\n';
        return exit_error;
    }
    if (as_json) {
        hlomem::print_what_if_json(out, w, before, *outcomes);
    } else {
        hlomem::print_what_if_text(out, w, before, *outcomes);
    }
    if (emit && !write_output("whatif", *emit, out, err, [&](std::ostream& o) { o << hlomem::emit_module(in->text, w); })) return exit_error;
    if (page && !write_output("whatif", *page, out, err, [&](std::ostream& o) { hlomem::write_what_if_html(o, hlomem::what_if_page(w)); })) {
        return exit_error;
    }
    for (auto const& o : *outcomes) {
        if (!o.accepted) return exit_findings;
    }
    return exit_ok;
}

}  // namespace hlomem_cli
