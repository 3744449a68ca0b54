// hlomem/assign/problem.hpp: what XLA's BufferAssigner decides before the heap, as data — the
// options of an assignment, each HloBuffer with the kind of place it got, the allocations made
// before the heap, and the heap problem of each color, unplaced (basic_assignment_problem), which
// assign/problem_builder.hpp fills and place_heaps and finish_assignment complete.
#ifndef HLOMEM_ASSIGN_PROBLEM_HPP
#define HLOMEM_ASSIGN_PROBLEM_HPP

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/assign/backend.hpp>
#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/error.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/liveness.hpp>
#include <hlomem/placement/plan.hpp>
#include <hlomem/placement/temp_arena.hpp>

namespace hlomem {

struct assign_options {
    std::optional<xla_backend> backend;    ///< nullopt: infer_backend
    std::optional<std::int64_t> alignment; ///< nullopt: default_alignment(backend)
    allocation_algorithm algorithm = allocation_algorithm::best_fit;
    plan_options plan;                     ///< for improve and exact (their budgets)
    bool allocate_buffers_for_constants = true;
    /// nullopt: size_function_of(module), the one rule of assign/module_assignment.hpp.
    std::optional<size_function_kind> sizes;
    liveness_options liveness;
    /// The text the module was parsed from: each value's `from instruction:` line is the defining
    /// instruction's line of it (without `ROOT`), as XLA prints it. Empty: a line made from the
    /// module (`%name = shape opcode(%operand, ...)`), with the default policy only.
    std::string_view module_text;
};

/// The analyses a module's buffer assignment reads (both results of assign_module, one analysis
/// for the two): `options` with the values of fusion bodies left out (dataflow_options::
/// fusion_body_values). BufferAssigner gives buffers to the values of flattened computations only
/// (BufferAssigner::CreateAssignment skips fused computations), and what it asks of a fusion body
/// (CanShareOperandBufferWithUser's AreTransitiveUsesElementwiseOrTuple, the in-place pairs) it
/// reads from the body's instructions, not from their values.
inline liveness_options assignment_liveness_options(liveness_options options) {
    options.dataflow.fusion_body_values = false;
    return options;
}

/// The options a user names (`hlomem assign --backend --algorithm --alignment --time-limit`, and
/// Python's hlomem.assign), checked in one place: a backend gpu, cpu or tpu; an allocator by its
/// name (allocation_algorithm_named); a temp alignment that is a power of two, as XLA's
/// BufferAssigner requires of its alignments; a positive time limit in seconds for improve and
/// exact, per heap. Throws error saying which one is wrong.
inline assign_options assign_options_named(std::optional<std::string_view> backend, std::optional<std::string_view> algorithm,
                                           std::optional<std::int64_t> alignment, double time_limit_seconds) {
    assign_options out;
    if (backend) {
        out.backend = xla_backend_named(*backend);
        if (!out.backend) throw error("unknown backend '" + std::string(*backend) + "' (gpu, cpu or tpu)");
    }
    if (algorithm) {
        auto const named = allocation_algorithm_named(*algorithm);
        if (!named) throw error("unknown algorithm '" + std::string(*algorithm) + "'");
        out.algorithm = *named;
    }
    if (alignment) {
        if (*alignment <= 0 || (*alignment & (*alignment - 1)) != 0) {
            throw error("the alignment must be a power of two, not " + std::to_string(*alignment));
        }
        out.alignment = *alignment;
    }
    // At most a day, as the tool's --time-limit reads it: the milliseconds stay far from overflow.
    if (!(time_limit_seconds > 0) || time_limit_seconds > 86400) {
        throw error("the time limit must be a positive number of seconds, at most 86400");
    }
    auto const limit = std::chrono::milliseconds(static_cast<std::int64_t>(time_limit_seconds * 1000));
    out.plan.improve.time_limit = limit;
    out.plan.exact.time_limit = limit;
    return out;
}

/// What XLA decided for one HloBuffer before the heap.
enum class buffer_assignment_kind : std::uint8_t {
    entry_parameter,  ///< its `parameter N` allocation
    constant,
    thread_local_,
    tuple,            ///< an allocation of its own (a pointer table)
    own,              ///< a new allocation (live-out, or a temp when there is no heap)
    reused,           ///< an allocation made for an earlier buffer (MaybeAssignBuffer)
    heap,             ///< a value of the temp heap of its color
};

inline constexpr std::string_view to_string(buffer_assignment_kind k) noexcept {
    switch (k) {
        case buffer_assignment_kind::entry_parameter: return "entry-parameter";
        case buffer_assignment_kind::constant: return "constant";
        case buffer_assignment_kind::thread_local_: return "thread-local";
        case buffer_assignment_kind::tuple: return "tuple";
        case buffer_assignment_kind::own: return "own";
        case buffer_assignment_kind::reused: return "reused";
        case buffer_assignment_kind::heap: return "heap";
    }
    return "?";
}

/// One HloBuffer: values that must share one place (HloAliasAnalysis).
struct assignment_buffer {
    std::vector<std::size_t> values;  ///< indices into the problem's model values, by id
    std::int64_t size = 0;            ///< HloBufferSize: its largest value
    std::int64_t color = 0;
    std::optional<live_interval> range;  ///< the hull of its values' ranges; none when thread-local
    bool live_out = false;
    bool is_thread_local = false;
    buffer_assignment_kind kind = buffer_assignment_kind::heap;
    std::size_t allocation = npos;  ///< index into the problem's allocations; npos for heap buffers
};

/// The temps of one color, as XLA's heap simulator receives them: one problem buffer per group of
/// values that share a chunk (an HloBuffer, joined with the operands it writes over in place).
struct heap_problem {
    std::int64_t color = 0;
    allocation_problem problem;                   ///< sizes, lifespans, alignment; no offsets
    std::vector<std::vector<std::size_t>> groups;  ///< per problem buffer, its values (by id)
    std::vector<heap_key> keys;                    ///< XLA's sort keys, in heap events
};

/// An allocation decided before the heap (what BufferAllocation holds then).
struct assigned_allocation {
    std::int64_t size = 0;
    std::int64_t color = 0;
    std::optional<std::int64_t> parameter_number;
    std::vector<std::int64_t> parameter_index;
    std::size_t parameter_value = npos;  ///< the value whose shape the header prints
    bool parameter_aliased = false;
    bool is_constant = false;
    bool is_thread_local = false;
    bool is_tuple = false;
    bool maybe_live_out = false;
    std::vector<std::size_t> values;  ///< every value at offset 0
    /// Where XLA created it: 0 before the heap (step 3), 2 after it (step 5).
    int pass = 0;
};

/// A module's assignment problem: the values with their live ranges, the HloBuffers, what XLA
/// decided for each before the heap, and the heap problems that remain, one per color.
template <class P = default_policy>
struct basic_assignment_problem {
    basic_buffer_assignment<P> model;  ///< values, positions, uses, live ranges (no allocations)
    std::vector<std::int64_t> value_sizes;  ///< per model value, its own size
    std::vector<assignment_buffer> buffers;  ///< in XLA's processing order
    std::vector<assigned_allocation> allocations;
    std::vector<heap_problem> heaps;  ///< by color
    xla_backend backend = xla_backend::gpu;
    backend_inference inference;
    std::int64_t alignment = 128;
    size_function_kind sizes = size_function_kind::xla;
    shape_id output_shape = no_shape;  ///< the entry result's shape, in model.shapes
    std::string output_name;           ///< the entry computation's root instruction
    std::vector<diagnostic> notes;
};
using assignment_problem = basic_assignment_problem<>;

namespace detail {

/// `s` as allocation headers print it (ShapeUtil::HumanString): no layouts, tuple elements too.
template <class P>
basic_shape<P> without_layouts(basic_shape<P> s) {
    s.clear_layout();
    for (auto& e : s.mutable_tuple_shapes()) e = without_layouts(e);
    return s;
}

}  // namespace detail

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_PROBLEM_HPP
