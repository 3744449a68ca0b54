// commands/assign.cpp: `hlomem assign [--backend gpu|cpu|tpu] [--algorithm NAME] [--alignment N]
// [--json] MODULE` — XLA's buffer assignment predicted from a scheduled module alone
// (<hlomem/assign.hpp>), printed as XLA's `*-buffer-assignment.txt` so that every other command
// reads it as it reads XLA's own.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../input.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* assign_usage =
    "usage: hlomem assign [--backend gpu|cpu|tpu] [--algorithm NAME] [--alignment N] [--json] MODULE\n"
    "\n"
    "Runs XLA's buffer assignment on a scheduled HLO module (what JAX's compiled.as_text() prints)\n"
    "and prints the buffer-assignment dump XLA would write for it: the allocations with their flags,\n"
    "every value with its offset, 'Total bytes used', 'Used values' and the HloLiveRange appendix.\n"
    "'hlomem report', 'check', 'timeline' and 'repack' read the output as they read XLA's dump.\n"
    "\n"
    "  --backend gpu|cpu|tpu  whose BufferAssigner options to follow (alignment of temps: 256, 64,\n"
    "                         512 bytes). By default it is inferred from the module: tiled layouts\n"
    "                         are TPU's; GPU library calls, kInput/kCustom fusions, GPU backend\n"
    "                         configs and the latency-hiding scheduler's fingerprint are GPU's; CPU\n"
    "                         library calls and CPU backend configs are CPU's; with none of these,\n"
    "                         gpu. How it was decided is said on standard error.\n"
    "  --algorithm NAME       place the temp heaps with another of hlomem's allocators instead of\n"
    "                         XLA's best-fit (best-fit, best-fit-spatial, best-fit-temporal,\n"
    "                         greedy-by-size, first-fit, improve, exact): what would it save?\n"
    "  --alignment N          align temp buffers to N bytes instead of the backend's alignment\n"
    "                         (128 for a GPU module of an XLA older than June 2025)\n"
    "  --time-limit SECONDS   for improve and exact, per heap (default 10)\n"
    "  --json                 what 'hlomem report --json' prints for the predicted dump\n"
    "Exit status: 0 done, 2 bad usage or a module that cannot be read or assigned.\n";

}  // namespace

int run_assign(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> file, backend, algorithm;
    std::optional<std::int64_t> alignment;
    double time_limit = 10;
    argument_reader a("assign", assign_usage, args, err);
    while (a.next()) {
        auto value = [&]() -> std::optional<std::string> {
            if (!a.has_value()) err << "hlomem assign: " << a.current() << " needs a value\n";
            return a.value();
        };
        if (a.is("--json")) {
            as_json = true;
        } else if (a.is_help()) {
            return a.help(out);
        } else if (a.is("--backend")) {
            if (!(backend = value())) return exit_error;
        } else if (a.is("--algorithm")) {
            if (!(algorithm = value())) return exit_error;
        } else if (a.is("--alignment")) {
            if (!(alignment = positive_decimal(a.value()))) return a.error("--alignment needs a power of two");
        } else if (a.is("--time-limit")) {
            auto n = positive_decimal(a.value());
            if (!n) return a.error("--time-limit needs a positive number of seconds");
            time_limit = static_cast<double>(*n);
        } else if (auto status = a.take_file(file)) {
            return *status;
        }
    }
    if (!file) return usage_error(err, "assign", "no module given");
    hlomem::assign_options options;
    try {
        options = hlomem::assign_options_named(backend, algorithm, alignment, time_limit);
    } catch (hlomem::error const& e) {
        return usage_error(err, "assign", e.what());
    }
    auto in = open_input(*file, err);
    if (!in) return exit_error;
    if (in->kind != hlomem::dump_kind::hlo_module) {
        err << "hlomem assign: " << *file << ": not an HLO module (the first line should be 'HloModule name, ...')\n";
        return exit_error;
    }
    // Read with view_policy: the model, the prediction and its `from instruction:` lines view the
    // mapped text, kept until the process exits.
    auto const* loaded = load(*in, {}, err);
    if (!loaded) return exit_error;
    auto const& modules = std::get<std::vector<hlomem::basic_hlo_module<hlomem::view_policy>>>(loaded->model);
    if (modules.size() != 1) {
        err << "hlomem assign: " << *file << ": " << modules.size() << " modules; give one\n";
        return exit_error;
    }
    auto const& m = modules.front();
    if (!m.is_scheduled()) {
        err << "hlomem assign: note: " << hlomem::not_scheduled_note(*file) << '\n';
    }
    options.module_text = in->text->text();
    std::optional<hlomem::basic_predicted_assignment<hlomem::view_policy>> predicted;
    try {
        predicted = hlomem::predict_assignment(m, options, !as_json);
        err << "hlomem assign: " << predicted->backend_note() << '\n';
    } catch (hlomem::error const& e) {
        err << "hlomem assign: " << *file << ": " << e.what() << '\n';
        return exit_error;
    }
    if (!as_json) {
        out << predicted->text;
        return exit_ok;
    }
    // What `report --json` prints for the text above: its model, which is what reading the text
    // back would give (hlomem::load_model; tests/unit/assign/predicted_model.test.cpp).
    auto const dump = hlomem::load_model(std::move(predicted->assignment), *file);
    hlomem::print_report_json(out, dump);
    return exit_ok;
}

}  // namespace hlomem_cli
