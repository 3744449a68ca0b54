// hlomem/memory/memory_analysis.hpp: what JAX's `compiled.memory_analysis()` reports for a
// compilation, computed from its buffer assignment as XLA computes it.
//
//   hlomem::memory_analysis m = hlomem::compute_memory_analysis(ba);
//   m.peak_memory_in_bytes;   // 67108896 for tests/data/jax_0_11/grad_ckpt.txt, as JAX reported
//
// JAX's figures are XLA's CompiledMemoryStats (xla/pjrt/compiled_memory_stats.h), filled on GPU by
// GetCompiledMemoryStats from the executable's BufferAssignmentProto. Each field follows one XLA
// function, read from XLA's source (xla/pjrt/compiled_memory_stats.cc and the end of
// xla/service/buffer_assignment.cc):
//
//   argument_size_in_bytes, output_size_in_bytes, alias_size_in_bytes, temp_size_in_bytes and
//   their host_ twins         CompiledMemoryStats::PopulateBufferStatsFromAllocations: each
//                             allocation's size where it is an entry parameter (argument; also
//                             alias when the parameter aliases an output), maybe-live-out
//                             (output) and a preallocated temp (temp: not a parameter, not
//                             live-out, not thread-local, not a constant; tuple tables count);
//                             host_ when the defining shapes of its values live in memory space
//                             S(5) (Layout::kHostMemorySpace), else the allocation's color is 5
//   total_allocation_bytes    ComputeTotalAllocationBytes(proto, color 0): every allocation of
//                             color 0
//   indefinite_allocations    ComputeIndefiniteAllocationsInBytes(proto, color 0): the color-0
//                             allocations that live for the whole program: thread-local, entry
//                             parameters, constants, maybe-live-out
//   peak_memory_in_bytes      ComputePeakMemorySizes -> ComputePeakMemoryImpl: the static part
//   peak_unpadded_heap_bytes  (AllocateStaticBuffers: every allocation that is an entry parameter,
//                             a constant or maybe-live-out and not thread-local, of every color,
//                             adds its largest logical buffer) plus the highest point of a replay
//                             of the heap simulator's traces (below), with each logical buffer's
//                             padded size (the size function's) and unpadded size
//                             (ComputeLogicalBufferUnpaddedSizes, below)
//   generated_code_size_in_bytes, host_generated_code_size_in_bytes
//                             the size of the compiled code: in no text XLA dumps (nullopt)
//
// The heap simulator's traces (HeapSimulator::RunComputation, xla/service/heap_simulator/
// heap_simulator.cc), rebuilt from the assignment: one trace per color, holding the values that
// buffer assignment delayed to the sequential heap simulation, which are the values of the
// preallocated temp allocations less the tuple-shaped ones (BufferAssigner::AssignSpecialHloBuffer
// gives every HloBuffer holding a tuple-shaped value an allocation of its own, `is_tuple`, which
// CombineTempAllocations merges into the temp allocation afterwards, with no trace). At each time
// step the values defined there are allocated (ALLOC, or SHARE_WITH the buffer of a value whose
// place they take) before the values whose live range ends there are freed: a value counts at both
// ends of its inclusive live range. A value that shares (an in-place operand's buffer, or an
// earlier value of its own HloBuffer) sits at the same offset of the same allocation as the value
// it shares with, while that one is still live (the best-fit heap never gives two interfering
// values one chunk); ComputePeakMemoryImpl counts such a chain once, with the size of its first
// value (the root's). The replay walks the traces one after another, so the peak is the static
// part plus the highest of the colors' own peaks.
//
// A logical buffer's unpadded size (ComputeLogicalBufferUnpaddedSizes): the defining instruction's
// shape, or for a non-empty shape index the tuple element its LAST index names (one level only, as
// XLA digs: `{1,0}` takes element 0 of the instruction's top-level tuple), with the default layout
// (no tiles, no element packing, no memory space), by ShapeUtil::ByteSizeOf with 8-byte pointers.
#ifndef HLOMEM_MEMORY_MEMORY_ANALYSIS_HPP
#define HLOMEM_MEMORY_MEMORY_ANALYSIS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/detail/checked.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/memory/interval_sweep.hpp>

namespace hlomem {

/// XLA's Layout::kHostMemorySpace: `S(5)`, host memory (pinned_host in JAX).
inline constexpr std::int64_t host_memory_space = 5;

/// The fields of JAX's `compiled.memory_analysis()` (XLA's CompiledMemoryStats), under JAX's
/// names, and how the peak was reached.
struct memory_analysis {
    std::int64_t argument_size_in_bytes = 0;
    std::int64_t output_size_in_bytes = 0;
    std::int64_t alias_size_in_bytes = 0;
    std::int64_t temp_size_in_bytes = 0;
    std::int64_t host_argument_size_in_bytes = 0;
    std::int64_t host_output_size_in_bytes = 0;
    std::int64_t host_alias_size_in_bytes = 0;
    std::int64_t host_temp_size_in_bytes = 0;
    std::int64_t total_allocation_bytes = 0;
    std::int64_t indefinite_allocations = 0;
    /// nullopt when the values have no live ranges (a dump read without its live-range text or
    /// its module): the replay of the heap traces needs them.
    std::optional<std::int64_t> peak_memory_in_bytes;
    std::optional<std::int64_t> peak_unpadded_heap_bytes;
    /// The size of the compiled code: no text XLA dumps states it.
    std::optional<std::int64_t> generated_code_size_in_bytes;
    std::optional<std::int64_t> host_generated_code_size_in_bytes;

    // How the peak was reached.
    std::int64_t static_bytes = 0;           ///< AllocateStaticBuffers, padded
    std::int64_t static_unpadded_bytes = 0;  ///< AllocateStaticBuffers, unpadded
    std::int64_t heap_peak_bytes = 0;        ///< the highest point of the traces above the static part
    std::optional<std::int64_t> peak_color;  ///< the color whose trace reaches it
    std::optional<logical_time> peak_time;   ///< the first time step it is reached at
    std::string peak_instruction;            ///< the instruction scheduled at peak_time, when known
    std::vector<std::size_t> peak_values;    ///< the traced values live then (chains by their root), by id
    std::vector<std::string> peak_value_names;  ///< their names, `custom-call.3{1}` (display_name)
    /// What a field could not be computed from, and the assumptions made.
    std::vector<std::string> notes;
};

/// One field of memory_analysis under JAX's name, with its value (nullopt: not computable).
struct memory_analysis_field {
    std::string_view name;
    std::optional<std::int64_t> value;
};

/// Where each field of JAX's CompiledMemoryStats lives in memory_analysis, in one fixed order
/// (code, device, host, peaks): the one list every writer and reader of the fields (text, JSON,
/// snapshots, Python) goes through, so that each name is spelled once. A field is `exact` (always
/// computed) or `maybe` (nullopt where no text states it).
struct memory_analysis_member {
    std::string_view name;
    std::int64_t memory_analysis::*exact;
    std::optional<std::int64_t> memory_analysis::*maybe;
};
inline constexpr memory_analysis_member memory_analysis_members[] = {
    {"generated_code_size_in_bytes", nullptr, &memory_analysis::generated_code_size_in_bytes},
    {"argument_size_in_bytes", &memory_analysis::argument_size_in_bytes, nullptr},
    {"output_size_in_bytes", &memory_analysis::output_size_in_bytes, nullptr},
    {"alias_size_in_bytes", &memory_analysis::alias_size_in_bytes, nullptr},
    {"temp_size_in_bytes", &memory_analysis::temp_size_in_bytes, nullptr},
    {"host_generated_code_size_in_bytes", nullptr, &memory_analysis::host_generated_code_size_in_bytes},
    {"host_argument_size_in_bytes", &memory_analysis::host_argument_size_in_bytes, nullptr},
    {"host_output_size_in_bytes", &memory_analysis::host_output_size_in_bytes, nullptr},
    {"host_alias_size_in_bytes", &memory_analysis::host_alias_size_in_bytes, nullptr},
    {"host_temp_size_in_bytes", &memory_analysis::host_temp_size_in_bytes, nullptr},
    {"peak_memory_in_bytes", nullptr, &memory_analysis::peak_memory_in_bytes},
    {"total_allocation_bytes", &memory_analysis::total_allocation_bytes, nullptr},
    {"indefinite_allocations", &memory_analysis::indefinite_allocations, nullptr},
    {"peak_unpadded_heap_bytes", nullptr, &memory_analysis::peak_unpadded_heap_bytes},
};
inline constexpr std::size_t memory_analysis_field_count = sizeof(memory_analysis_members) / sizeof(memory_analysis_members[0]);

/// The value of field `f` of `m`.
inline std::optional<std::int64_t> value_of(memory_analysis const& m, memory_analysis_member const& f) {
    return f.exact ? std::optional<std::int64_t>(m.*(f.exact)) : m.*(f.maybe);
}

/// Sets field `f` of `m` (an exact field to 0 when `v` is nullopt).
inline void set_value(memory_analysis& m, memory_analysis_member const& f, std::optional<std::int64_t> v) {
    if (f.exact) {
        m.*(f.exact) = v.value_or(0);
    } else {
        m.*(f.maybe) = v;
    }
}

/// Every field of `m`, in memory_analysis_members' order.
inline std::vector<memory_analysis_field> memory_analysis_fields(memory_analysis const& m) {
    std::vector<memory_analysis_field> out;
    for (auto const& f : memory_analysis_members) out.push_back({f.name, value_of(m, f)});
    return out;
}

namespace detail {

/// Whether an allocation is a preallocated temp as BufferAllocation::IsPreallocatedTempBuffer
/// says: not an entry parameter, not maybe-live-out, not thread-local, not a constant.
template <class P>
bool is_preallocated_temp_buffer(basic_allocation<P> const& a) noexcept {
    return !a.is_entry_computation_parameter() && !a.maybe_live_out && !a.is_thread_local && !a.is_constant;
}

/// Whether PopulateBufferStatsFromAllocations counts `a` as host memory: the memory space of the
/// defining shape of its values (`{1,0:S(5)}`), or its color when it has no value listed.
template <class P>
bool is_host_allocation(basic_buffer_assignment<P> const& ba, basic_allocation<P> const& a) {
    for (std::size_t i : a.values) {
        auto const* s = ba.shape_of(ba.values[i]);
        if (!s) continue;
        return s->has_layout() && s->layout().memory_space == host_memory_space;
    }
    return a.color == host_memory_space;
}

/// The sub-shape ComputeLogicalBufferUnpaddedSizes sizes for a value of an instruction of shape
/// `whole` at `index`: the top-level element the last index names, when there is one.
template <class P, class Index>
basic_shape<P> const& unpadded_subshape(basic_shape<P> const& whole, Index const& index) {
    if (index.empty() || !whole.is_tuple()) return whole;
    auto const i = static_cast<std::size_t>(index[index.size() - 1]);
    return i < whole.tuple_shapes().size() ? whole.tuple_shapes()[i] : whole;
}

/// ShapeUtil::ByteSizeOf(shape, 8) after LayoutUtil::SetToDefaultLayout: no tiling, no packing.
template <class P>
std::int64_t default_layout_byte_size(basic_shape<P> const& s) {
    if (s.is_tuple()) return byte_size_of(s, 8);
    if (!s.has_layout()) return byte_size_of(s, 8);
    basic_shape<P> plain = s;
    plain.clear_layout();
    return byte_size_of(plain, 8);
}

}  // namespace detail

/// A logical buffer's sizes as XLA's peak computation reads them: the size function's (the
/// BufferAssignmentProto's LogicalBufferProto::size) and the unpadded one.
struct logical_buffer_sizes {
    std::int64_t padded = 0;
    std::int64_t unpadded = 0;
};

/// The sizes of value `v` of `ba`, its size function `sizes` (size_function_of(ba.shapes)).
template <class P>
logical_buffer_sizes logical_buffer_sizes_of(basic_buffer_assignment<P> const& ba, basic_logical_value<P> const& v,
                                             size_function_kind sizes) {
    // A shape with no byte size (an unbounded dynamic dimension) keeps the size the dump gives
    // its value: the size function's answer XLA assigned by.
    logical_buffer_sizes out{v.size, v.size};
    auto const* own = ba.shape_of(v);
    try {
        if (own) out.padded = bytes_under(*own, sizes);
        if (auto const* whole = ba.instruction_shape_of(v)) {
            out.unpadded = detail::default_layout_byte_size(detail::unpadded_subshape(*whole, v.index));
        } else if (own) {
            out.unpadded = detail::default_layout_byte_size(*own);
        }
    } catch (shape_error const&) {
    }
    return out;
}

namespace detail {

/// logical_buffer_sizes_of, remembered by the value's shape: a dump of 6*10^4 values has some
/// 10^3 distinct shapes, and each size copies a shape to clear its layout. A slot keeps the last
/// input it answered (the shape, its instruction's shape, the last element of its index and the
/// stated size, all that the size reads); another input of the same shape is computed afresh.
template <class P>
class logical_buffer_sizer {
public:
    logical_buffer_sizer(basic_buffer_assignment<P> const& ba, size_function_kind sizes)
        : ba_(ba), sizes_(sizes), known_(ba.shapes.size() + 1) {}

    logical_buffer_sizes operator()(basic_logical_value<P> const& v) {
        key const k{v.shape, v.instruction_shape, v.index.empty() ? -1 : std::int64_t(v.index[v.index.size() - 1]), v.size};
        auto& slot = known_[v.shape == no_shape || v.shape >= ba_.shapes.size() ? ba_.shapes.size() : v.shape];
        if (!slot.filled || !(slot.input == k)) {
            slot.input = k;
            slot.sizes = logical_buffer_sizes_of(ba_, v, sizes_);
            slot.filled = true;
        }
        return slot.sizes;
    }

private:
    struct key {
        shape_id shape, instruction_shape;
        std::int64_t last_index, size;
        bool operator==(key const& o) const noexcept {
            return shape == o.shape && instruction_shape == o.instruction_shape && last_index == o.last_index && size == o.size;
        }
    };
    struct entry {
        key input{};
        logical_buffer_sizes sizes;
        bool filled = false;
    };
    basic_buffer_assignment<P> const& ba_;
    size_function_kind sizes_;
    std::vector<entry> known_;  // by shape id; the last for values without a shape
};

}  // namespace detail

/// compiled.memory_analysis() of the compilation whose buffer assignment is `ba`.
template <class P>
memory_analysis compute_memory_analysis(basic_buffer_assignment<P> const& ba) {
    memory_analysis m;
    auto add = [](std::int64_t& total, std::int64_t bytes) {
        if (!detail::checked_add(total, bytes, &total)) throw error("memory_analysis: a total overflows int64");
    };
    // PopulateBufferStatsFromAllocations, ComputeTotalAllocationBytes and
    // ComputeIndefiniteAllocationsInBytes: one pass over the allocations.
    for (auto const& a : ba.allocations) {
        bool const host = detail::is_host_allocation(ba, a);
        if (a.is_entry_computation_parameter()) {
            add(host ? m.host_argument_size_in_bytes : m.argument_size_in_bytes, a.size);
            if (a.is_parameter_aliased_with_output()) add(host ? m.host_alias_size_in_bytes : m.alias_size_in_bytes, a.size);
        }
        if (a.maybe_live_out) add(host ? m.host_output_size_in_bytes : m.output_size_in_bytes, a.size);
        if (detail::is_preallocated_temp_buffer(a)) add(host ? m.host_temp_size_in_bytes : m.temp_size_in_bytes, a.size);
        if (a.color != 0) continue;
        add(m.total_allocation_bytes, a.size);
        if (a.is_thread_local || a.is_entry_computation_parameter() || a.is_constant || a.maybe_live_out) {
            add(m.indefinite_allocations, a.size);
        }
    }
    m.notes.push_back("generated_code_size_in_bytes: the size of the compiled code is in no text XLA dumps");

    size_function_kind const sizes = size_function_of(ba.shapes);
    detail::logical_buffer_sizer<P> size_of(ba, sizes);
    if (sizes == size_function_kind::tpu) {
        m.notes.push_back("a TPU dump: these are the rules of XLA's CompiledMemoryStats as the GPU and CPU clients fill it; "
                          "the TPU client computes its own figures, in code that is not public");
    }
    // AllocateStaticBuffers: the largest logical buffer of each parameter, constant or live-out
    // allocation that is not thread-local (the first of equal ones, in value-id order).
    for (auto const& a : ba.allocations) {
        if (a.is_thread_local || (!a.is_entry_computation_parameter() && !a.is_constant && !a.maybe_live_out)) continue;
        std::optional<logical_buffer_sizes> largest;
        for (std::size_t i : a.values) {
            auto const s = size_of(ba.values[i]);
            if (!largest || s.padded > largest->padded) largest = s;
        }
        if (largest && largest->padded > 0) {
            add(m.static_bytes, largest->padded);
            add(m.static_unpadded_bytes, largest->unpadded);
        }
    }

    // The traces: per color, the chains of traced values (a root and the values that share its
    // buffer), each live from its root's start to its last value's end.
    struct traced {
        std::size_t allocation;
        std::int64_t offset;
        live_interval range;
        std::size_t value;
        logical_buffer_sizes sizes;  // read here, in the values' order, rather than after the sort
    };
    std::map<std::int64_t, std::vector<traced>> by_color;
    std::size_t without_range = 0;
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        auto const& v = ba.values[i];
        if (v.allocation == npos) continue;
        auto const& a = ba.allocations[v.allocation];
        if (!detail::is_preallocated_temp_buffer(a)) continue;
        auto const* own = ba.shape_of(v);
        if (own && own->is_tuple()) continue;  // an `is_tuple` allocation of its own: no trace
        if (!v.live_range) {
            ++without_range;
            continue;
        }
        by_color[a.color].push_back({v.allocation, v.offset, *v.live_range, i, size_of(v)});
    }
    if (without_range > 0) {
        m.notes.push_back("peak_memory_in_bytes: " + std::to_string(without_range) +
                          " temp values have no live range (the dump was read without its live ranges or its module)");
        return m;
    }
    struct chain {
        live_interval range;
        logical_buffer_sizes sizes;
        std::size_t root;
    };
    std::int64_t best = 0, best_unpadded = 0;
    for (auto& [color, values] : by_color) {
        // HeapSimulator's order: by (start, end, id) within one chunk of one allocation.
        std::sort(values.begin(), values.end(), [](traced const& a, traced const& b) {
            return std::tie(a.allocation, a.offset, a.range.start, a.range.end, a.value) <
                   std::tie(b.allocation, b.offset, b.range.start, b.range.end, b.value);
        });
        std::vector<chain> chains;
        for (std::size_t k = 0; k < values.size(); ++k) {
            auto const& t = values[k];
            bool const same_chunk = k > 0 && values[k - 1].allocation == t.allocation && values[k - 1].offset == t.offset;
            if (same_chunk && t.range.start <= chains.back().range.end) {
                chains.back().range.end = std::max(chains.back().range.end, t.range.end);  // SHARE_WITH
                continue;
            }
            chains.push_back({t.range, t.sizes, t.value});
        }
        // The replay: at each time, the chains that start there are added before the ones that
        // ended at the time before are taken off; the highest sum, and the first time it is
        // reached, is the heaviest moment of the chains (memory/interval_sweep.hpp) with the padded
        // sizes; the same sweep gives the highest sum of the unpadded. No running sum exceeds the
        // chains' total, which is checked here.
        std::int64_t total = 0, total_unpadded = 0;
        for (auto const& c : chains) {
            add(total, c.sizes.padded);
            add(total_unpadded, c.sizes.unpadded);
        }
        auto const range_of = [&](std::size_t k) { return chains[k].range; };
        std::int64_t unpadded = 0;
        auto const padded = max_weight_moment(
            chains.size(), range_of, [&](std::size_t k) { return chains[k].sizes.padded; },
            [&](std::size_t k) { return chains[k].sizes.unpadded; }, unpadded);
        best_unpadded = std::max(best_unpadded, unpadded);
        if (padded.weight > best) {  // this color goes above every earlier peak: the values live then
            best = padded.weight;
            m.peak_color = color;
            m.peak_time = padded.time;
            m.peak_values.clear();
            for (std::size_t k : padded.items) m.peak_values.push_back(chains[k].root);
        }
    }
    std::sort(m.peak_values.begin(), m.peak_values.end());
    for (std::size_t v : m.peak_values) m.peak_value_names.push_back(ba.values[v].display_name());
    if (m.peak_time && ba.live_range) m.peak_instruction = std::string(ba.live_range->instruction_at(*m.peak_time));
    m.heap_peak_bytes = best;
    std::int64_t peak = m.static_bytes, peak_unpadded = m.static_unpadded_bytes;
    add(peak, best);
    add(peak_unpadded, best_unpadded);
    m.peak_memory_in_bytes = peak;
    m.peak_unpadded_heap_bytes = peak_unpadded;
    return m;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_MEMORY_ANALYSIS_INSTANTIATIONS(EXTERN, P) \
    EXTERN template memory_analysis compute_memory_analysis<P>(basic_buffer_assignment<P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_MEMORY_ANALYSIS_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_MEMORY_MEMORY_ANALYSIS_HPP
