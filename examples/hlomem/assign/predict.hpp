// assign/predict.hpp: what `hlomem assign MODULE` prints: XLA's buffer assignment predicted from a
// scheduled module alone (<hlomem/assign.hpp>), as the `*-buffer-assignment.txt` XLA would write,
// and how the backend whose options it followed was decided. Shared by the command
// (commands/assign.cpp) and the Python module (hlomem.assign), so both print one text.
#ifndef HLOMEM_EXAMPLES_ASSIGN_PREDICT_HPP
#define HLOMEM_EXAMPLES_ASSIGN_PREDICT_HPP

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>

#include <hlomem/hlomem.hpp>

namespace hlomem_cli {

/// The predicted dump and what decided it.
struct predicted_assignment {
    std::string text;  ///< the buffer-assignment dump, as XLA prints it
    hlomem::xla_backend backend = hlomem::xla_backend::gpu;
    std::int64_t alignment = 0;  ///< of temp buffers: the backend's, or the one given
    /// "given", "inferred" (from what the module holds) or "default" (nothing told).
    std::string backend_source;
    std::string backend_reason;  ///< what was seen in the module, or why nothing was

    /// What the command says on standard error: "backend tpu (inferred: tiled layouts ...)".
    std::string backend_note() const {
        std::string out = "backend " + std::string(to_string(backend));
        if (backend_source == "given") return out + " (given)";
        return out + " (" + backend_source + ": " + backend_reason + ")";
    }
};

/// Runs XLA's buffer assignment on `m` with `options` (whose module_text, the text `m` was parsed
/// from, gives each value's `from instruction:` line) and prints the dump. Throws hlomem::error
/// when the module cannot be assigned.
inline predicted_assignment predict_assignment(hlomem::hlo_module const& m, hlomem::assign_options const& options) {
    auto problem = hlomem::make_assignment_problem(m, options);
    predicted_assignment out;
    out.backend = problem.backend;
    out.alignment = problem.alignment;
    out.backend_source = options.backend ? "given" : problem.inference.inferred ? "inferred" : "default";
    out.backend_reason = problem.inference.reason;
    hlomem::place_heaps(problem, options.algorithm, options.plan);
    auto const ba = hlomem::finish_assignment(std::move(problem));
    std::ostringstream os;
    hlomem::print_buffer_assignment(os, ba);
    out.text = os.str();
    return out;
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_ASSIGN_PREDICT_HPP
