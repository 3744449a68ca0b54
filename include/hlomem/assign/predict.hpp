// hlomem/assign/predict.hpp: XLA's buffer assignment predicted from a scheduled module alone, as
// the `*-buffer-assignment.txt` XLA would write, and how the backend whose options it followed was
// decided. `hlomem assign MODULE` and Python's hlomem.assign print it, so both print one text.
// It is assign_module's predicted result, printed (assign/module_assignment.hpp).
#ifndef HLOMEM_ASSIGN_PREDICT_HPP
#define HLOMEM_ASSIGN_PREDICT_HPP

#include <utility>

#include <hlomem/assign/buffer_assigner.hpp>
#include <hlomem/assign/module_assignment.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/memory/memory_analysis.hpp>

namespace hlomem {

/// Runs XLA's buffer assignment on `m` with `options` (whose module_text, the text `m` was parsed
/// from, gives each value's `from instruction:` line) and, with `print_text`, prints the dump into
/// `text`; the model stays in `assignment` (`hlomem assign --json` reports it without the text).
/// Any policy: with view_policy the model views the module's text and options.module_text, which
/// must outlive it. Throws error when the module cannot be assigned.
template <class P>
basic_predicted_assignment<P> predict_assignment(basic_hlo_module<P> const& m, assign_options const& options, bool print_text = true) {
    return std::move(*assign_module(m, detail::predicted_only(print_text), options).predicted);
}

/// compute_memory_analysis on an assignment predicted from a module (assign_module's predicted
/// result), with the backend it was predicted for named in its notes.
template <class P>
memory_analysis predicted_memory_analysis(basic_predicted_assignment<P> const& predicted) {
    memory_analysis out = compute_memory_analysis(predicted.assignment);
    out.notes.push_back("computed on the buffer assignment predicted from the module: " + predicted.backend_note());
    return out;
}

/// What JAX's compiled.memory_analysis() would report for module `m`: compute_memory_analysis on
/// the buffer assignment XLA would make of it (predict_assignment), with the backend it was
/// predicted for named in its notes. Any policy: a module that views its text (the report's) is
/// predicted without a copy. Throws error when the module cannot be assigned.
template <class P>
memory_analysis predicted_memory_analysis(basic_hlo_module<P> const& m, assign_options const& options = {}) {
    return predicted_memory_analysis(*assign_module(m, detail::predicted_only(false), options).predicted);
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_PREDICT_INSTANTIATIONS(EXTERN, P)                                                                 \
    EXTERN template memory_analysis predicted_memory_analysis<P>(basic_hlo_module<P> const&, assign_options const&); \
    EXTERN template memory_analysis predicted_memory_analysis<P>(basic_predicted_assignment<P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_PREDICT_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_PREDICT_HPP
