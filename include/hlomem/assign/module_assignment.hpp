// hlomem/assign/module_assignment.hpp: the one way from an HLO module to a buffer assignment, with
// its two results and one sizing rule.
//
//   hlomem::module_assignment_options o;
//   o.predicted = true;                             // `derived` is made unless turned off
//   auto r = hlomem::assign_module(module, o);      // a third argument: the assigner's options
//   r.sizes;                      // the size function of both: size_function_of(module.shapes())
//   r.derived->assignment;        // one allocation per HloBuffer, XLA's live ranges; ->peak, ->notes
//   r.predicted->assignment;      // XLA's BufferAssigner: allocations, heaps, offsets; ->backend
//
// The two results:
//   derived    what the analyses of hlo/ give (hlo/liveness.hpp, derive_buffer_assignment): every
//              value XLA's buffer assignment sees, each HloBuffer an allocation of its own at
//              offset 0, the HloLiveRange text and XLA's peak on it (compute_xla_peak). What the
//              loader (`load_options::derive_assignment`), `hlomem report`, `liveness`, `graph`,
//              `diff` and Python's Dump read for a bare module (load/derive.hpp wraps it).
//   predicted  what XLA's BufferAssigner would make of the module (assign/buffer_assigner.hpp):
//              allocations shared, temps heap-simulated and combined, every offset, and the backend
//              whose options were followed and why. `hlomem assign` prints it (assign/predict.hpp
//              wraps it); assign_buffers is its model alone.
// The sizing rule, the same for both and wherever a module becomes an assignment: the size function
// the caller names, else the module's own, size_function_of(module.shapes()): TPU's when any layout
// is tiled (`{1,0:T(8,128)}`, tuple tables of roundup(4n, 32) bytes), XLA's generic
// ShapeUtil::ByteSizeOf otherwise (tuple tables of 8-byte pointers, GPU and CPU).
//
// It lives in assign/ because the predicted result needs the BufferAssigner and assign/ is the
// lowest layer that holds it; load/ includes it for derive_assignment (tests/CMakeLists.txt's
// `hlomem_layers`: load may include assign, assign never includes load or parser).
#ifndef HLOMEM_ASSIGN_MODULE_ASSIGNMENT_HPP
#define HLOMEM_ASSIGN_MODULE_ASSIGNMENT_HPP

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <hlomem/assign/buffer_assigner.hpp>
#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/error.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/printer.hpp>
#include <hlomem/hlo/liveness.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/memory/peak.hpp>

namespace hlomem {

/// The derived result: the buffer assignment derived from a module's own live ranges, XLA's peak
/// on it, and what the analyses noted.
template <class P = default_policy>
struct basic_derived_assignment {
    basic_buffer_assignment<P> assignment;
    std::optional<xla_peak> peak;
    size_function_kind sizes = size_function_kind::xla;  ///< the sizes its values were given
    bool scheduled = true;                               ///< the module has is_scheduled=true
    /// What the dataflow and liveness analyses noted (invalid_module) and what was assumed
    /// (assumption: a module without a schedule is taken in its text order).
    std::vector<diagnostic> notes;
};
using derived_assignment = basic_derived_assignment<default_policy>;

/// The predicted result: XLA's BufferAssigner run on the module, and what decided its backend.
template <class P = default_policy>
struct basic_predicted_assignment {
    /// The assignment XLA would write: what print_buffer_assignment prints as `text`, to be used
    /// as it is (every analysis of a buffer_assignment takes it) without printing and reading back.
    basic_buffer_assignment<P> assignment;
    /// The buffer-assignment dump, as XLA prints it; made when module_assignment_options::
    /// print_predicted asks (predict_assignment does unless told not to), empty otherwise.
    std::string text;
    size_function_kind sizes = size_function_kind::xla;  ///< the sizes its values were given
    xla_backend backend = xla_backend::gpu;
    std::int64_t alignment = 0;  ///< of temp buffers: the backend's, or the one given
    bool alignment_given = false;
    /// "given", "inferred" (from what the module holds) or "default" (nothing told).
    std::string backend_source;
    std::string backend_reason;  ///< what was seen in the module, or why nothing was
    /// What the dataflow and liveness analyses noted (invalid_module).
    std::vector<diagnostic> notes;

    /// What `hlomem assign` says on standard error: "backend tpu (inferred: tiled layouts ...)".
    std::string backend_note() const {
        std::string out = "backend " + std::string(to_string(backend));
        out += backend_source == "given" ? " (given)" : " (" + backend_source + ": " + backend_reason + ")";
        out += ", temp alignment " + std::to_string(alignment);
        if (alignment_given) return out + " (given)";
        if (backend == xla_backend::gpu) {
            out += " (XLA:GPU's since June 2025; an older XLA aligned at " + std::to_string(gpu_alignment_before_2025_06) +
                   ": --alignment " + std::to_string(gpu_alignment_before_2025_06) + ")";
        }
        return out;
    }
};
using predicted_assignment = basic_predicted_assignment<default_policy>;

/// Which results assign_module makes, and how.
struct module_assignment_options {
    bool derived = true;     ///< make the derived result
    bool predicted = false;  ///< make the predicted result
    /// The size function of both results; nullopt: the assigner's (assign_options::sizes), and
    /// when that is unset too, the module's own, size_function_of(m.shapes()).
    std::optional<size_function_kind> sizes;
    /// Derived: each value's positions and uses, as a dump's Used-values block lists them; without
    /// them (false) the values keep what peaks, live bytes and the HloLiveRange text read
    /// (derive_options::positions_and_uses), as `hlomem liveness` and `report` want it.
    bool positions_and_uses = true;
    /// Predicted: print the model into `text` as well (what `hlomem assign` writes).
    bool print_predicted = false;
};

/// What assign_module made: the sizing rule it followed and the results asked for.
template <class P = default_policy>
struct basic_module_assignment {
    size_function_kind sizes = size_function_kind::xla;  ///< the size function of both results
    std::optional<basic_derived_assignment<P>> derived;
    std::optional<basic_predicted_assignment<P>> predicted;
};
using module_assignment = basic_module_assignment<default_policy>;

namespace detail {

/// The derived result, on the module's analyses (assignment_liveness_options: fusion bodies'
/// values are numbered, not analysed, as derive_buffer_assignment leaves them out).
template <class P>
basic_derived_assignment<P> derive_module_assignment(basic_hlo_liveness<P> const& live, size_function_kind sizes,
                                                     bool positions_and_uses) {
    auto const& m = live.module();
    derive_options options;
    options.sizes = sizes;
    options.positions_and_uses = positions_and_uses;
    basic_derived_assignment<P> out{{}, std::nullopt, sizes, m.is_scheduled(), {}};
    out.assignment = derive_buffer_assignment(live, options, out.peak);
    out.notes = live.dataflow().notes();
    out.notes.insert(out.notes.end(), live.notes().begin(), live.notes().end());
    if (!m.is_scheduled()) {
        out.notes.push_back(make_diagnostic(diagnostic_kind::assumption, severity::note,
                                            "module " + std::string(std::string_view(m.name())) +
                                                " is not scheduled (no is_scheduled=true): its text order stands in "
                                                "for a schedule"));
    }
    return out;
}

/// The predicted result: XLA's BufferAssigner up to the heap, the heaps placed with
/// `options.algorithm`, the allocations finished in XLA's order.
template <class P>
basic_predicted_assignment<P> predict_module_assignment(basic_hlo_liveness<P> const& live, assign_options const& options,
                                                        bool print) {
    auto problem = make_assignment_problem(live, options);
    basic_predicted_assignment<P> out;
    out.sizes = problem.sizes;
    out.backend = problem.backend;
    out.alignment = problem.alignment;
    out.alignment_given = options.alignment.has_value();
    out.backend_source = options.backend ? "given" : problem.inference.inferred ? "inferred" : "default";
    out.backend_reason = problem.inference.reason;
    out.notes = problem.notes;
    place_heaps(problem, options.algorithm, options.plan);
    out.assignment = finish_assignment(std::move(problem));
    renumber_as_printed(out.assignment);  // the lines and shape ids its text reads back with
    if (print) {
        std::ostringstream os;
        print_buffer_assignment(os, out.assignment);
        out.text = os.str();
    }
    return out;
}

/// Options that ask for the predicted result alone, printed or not.
inline module_assignment_options predicted_only(bool print) {
    module_assignment_options out;
    out.derived = false;
    out.predicted = true;
    out.print_predicted = print;
    return out;
}

}  // namespace detail

/// The buffer assignment(s) of `m` that `options` ask for, both sized by one size function:
/// options.sizes, else assigner.sizes, else size_function_of(m.shapes()), and both read one
/// analysis of the module, made with assigner.liveness (assignment_liveness_options). `assigner`
/// configures the predicted result: backend, alignment, heap algorithm and its budgets,
/// constants, and the module's text for the `from instruction:` lines. Both results keep names of the
/// module's string type (with view_policy they view the module's text, and the `from instruction:`
/// lines view assigner.module_text: both must outlive the results). A module the assigner cannot
/// assign throws error.
template <class P>
basic_module_assignment<P> assign_module(basic_hlo_module<P> const& m, module_assignment_options const& options = {},
                                         assign_options const& assigner = {}) {
    basic_module_assignment<P> out;
    std::optional<size_function_kind> const named = options.sizes ? options.sizes : assigner.sizes;
    out.sizes = named ? *named : size_function_of(m.shapes());
    if (!options.derived && !options.predicted) return out;
    // One dataflow, alias and liveness analysis for both results.
    basic_hlo_liveness<P> const live(m, assignment_liveness_options(assigner.liveness));
    if (options.derived) out.derived = detail::derive_module_assignment(live, out.sizes, options.positions_and_uses);
    if (!options.predicted) return out;
    if (assigner.sizes == named) {
        out.predicted = detail::predict_module_assignment(live, assigner, options.print_predicted);
    } else {
        assign_options sized = assigner;  // the size function of options.sizes, for both results
        sized.sizes = named;
        out.predicted = detail::predict_module_assignment(live, sized, options.print_predicted);
    }
    return out;
}

/// The whole of XLA's BufferAssigner on `m` with `options.algorithm` for the heaps: the predicted
/// result's model (assign_module), whose names are of the module's string type.
template <class P>
basic_buffer_assignment<P> assign_buffers(basic_hlo_module<P> const& m, assign_options const& options = {}) {
    return std::move(assign_module(m, detail::predicted_only(false), options).predicted->assignment);
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_MODULE_ASSIGNMENT_INSTANTIATIONS(EXTERN, P) \
    EXTERN template basic_module_assignment<P> assign_module<P>(basic_hlo_module<P> const&, module_assignment_options const&, \
                                                                assign_options const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_MODULE_ASSIGNMENT_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_MODULE_ASSIGNMENT_HPP
