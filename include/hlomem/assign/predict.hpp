// hlomem/assign/predict.hpp: XLA's buffer assignment predicted from a scheduled module alone, as
// the `*-buffer-assignment.txt` XLA would write, and how the backend whose options it followed was
// decided. `hlomem assign MODULE` and Python's hlomem.assign print it, so both print one text.
#ifndef HLOMEM_ASSIGN_PREDICT_HPP
#define HLOMEM_ASSIGN_PREDICT_HPP

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>

#include <hlomem/assign/buffer_assigner.hpp>
#include <hlomem/dump/printer.hpp>
#include <hlomem/hlo/module.hpp>

namespace hlomem {

/// The predicted dump and what decided it.
struct predicted_assignment {
    std::string text;  ///< the buffer-assignment dump, as XLA prints it
    xla_backend backend = xla_backend::gpu;
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
/// from, gives each value's `from instruction:` line) and prints the dump. Throws error
/// when the module cannot be assigned.
inline predicted_assignment predict_assignment(hlo_module const& m, assign_options const& options) {
    auto problem = make_assignment_problem(m, options);
    predicted_assignment out;
    out.backend = problem.backend;
    out.alignment = problem.alignment;
    out.backend_source = options.backend ? "given" : problem.inference.inferred ? "inferred" : "default";
    out.backend_reason = problem.inference.reason;
    place_heaps(problem, options.algorithm, options.plan);
    auto const ba = finish_assignment(std::move(problem));
    std::ostringstream os;
    print_buffer_assignment(os, ba);
    out.text = os.str();
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_PREDICT_HPP
