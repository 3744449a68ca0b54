// hlomem/whatif/what_if.hpp: what-if edits on a scheduled module's live ranges. A one-time setup
// (linear in the module) lays every value on a time axis with room for inserted instructions;
// each edit (whatif/edit.hpp) then changes a few live ranges, each change O(log n) on segment
// trees (whatif/max_tree.hpp), and gives per color the new live bytes and XLA's peak.
//
//   hlomem::what_if w(module);                                  // dataflow, aliasing, live ranges
//   w.peak();                                                   // XLA's peak moment: {time, bytes}
//   auto o = w.apply(hlomem::what_if_edit::remat(i, w.peak_time_original()));
//   o.accepted; o.reason; w.peak(); w.color_peak(0);            // after the edit
//   w.undo();                                                   // back to before it
//
// Two curves are kept, each per color (memory space):
//   xla     XLA's HloLiveRange::ComputePeakMemoryMoment (memory/peak.hpp, compute_xla_peak): each
//           value's size by the peak rule (older XLA: ByteSizeOf of its whole defining
//           instruction's shape, 8-byte pointers), adds before removes at equal times, so a value
//           counts one instruction past its end; also over all colors, which is the peak the
//           derived live-range text states and the one `peak()` gives.
//   live    what the hardware holds (memory/peak.hpp, live_slice_bytes on the derived model): each
//           HloBuffer's size (the largest of its values under the module's size function) over
//           the union of its values' live ranges.
// The time axis has 4 slots per instruction: up to 3 inserted instructions before it, then the
// instruction. A slot no instruction holds reads max_tree::lowest, so that it is never the peak;
// a time of the edited module is the rank of its slot among the slots held.
#ifndef HLOMEM_WHATIF_WHAT_IF_HPP
#define HLOMEM_WHATIF_WHAT_IF_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/hlo/liveness.hpp>
#include <hlomem/memory/peak.hpp>
#include <hlomem/whatif/edit.hpp>
#include <hlomem/whatif/max_tree.hpp>

namespace hlomem {

struct what_if_options {
    liveness_options liveness;
    /// The size function of the live curve; unset, the module's own (size_function_of).
    std::optional<size_function_kind> sizes;
};

/// A peak: the time in the edited module (or the original, before any edit) and the bytes.
struct what_if_peak {
    logical_time time = 0;
    std::int64_t bytes = 0;
};

/// The peaks of a what-if at one moment (basic_what_if::peaks): XLA's over every color, and each
/// color's live peak, on a time axis of `max` steps. What `hlomem whatif` prints before and after
/// the edits; not a snapshot of a compilation (diff/snapshot.hpp), which keeps more.
struct what_if_peaks {
    what_if_peak xla;
    std::vector<std::pair<std::int64_t, what_if_peak>> colors;
    logical_time max = 0;
};

namespace detail {

/// The slots of one what-if's time axis, with their held count and ranks.
class what_if_axis {
public:
    static constexpr std::size_t per_time = 4;  // 3 insertion slots, then the instruction

    explicit what_if_axis(logical_time max = 0) : times_(static_cast<std::size_t>(max) + 2), inserted_(times_, 0), fenwick_(times_ + 1, 0) {}

    std::size_t slots() const noexcept { return times_ * per_time; }
    static std::size_t instruction_slot(logical_time t) { return static_cast<std::size_t>(t) * per_time + per_time - 1; }
    static std::size_t time_of_slot(std::size_t s) { return s / per_time; }
    bool held(std::size_t s) const { return s % per_time == per_time - 1 || s % per_time < inserted_[s / per_time]; }
    std::size_t inserted_at(logical_time t) const { return inserted_[static_cast<std::size_t>(t)]; }
    /// The next slot held after `s` (s must be held and not the last time's instruction).
    std::size_t next_held(std::size_t s) const {
        std::size_t const t = s / per_time, j = s % per_time;
        if (j == per_time - 1) return (t + 1) * per_time + (inserted_[t + 1] > 0 ? 0 : per_time - 1);
        return j + 1 < inserted_[t] ? s + 1 : t * per_time + per_time - 1;
    }
    /// The slot held before `s`; npos when none.
    std::size_t previous_held(std::size_t s) const {
        std::size_t const t = s / per_time, j = s % per_time;
        if (j == per_time - 1 && inserted_[t] > 0) return t * per_time + inserted_[t] - 1;
        if (j != per_time - 1 && j > 0) return s - 1;
        return t == 0 ? npos : (t - 1) * per_time + per_time - 1;
    }
    /// Holds the next insertion slot before time t and returns it.
    std::size_t hold(logical_time t) {
        std::size_t const ti = static_cast<std::size_t>(t);
        std::size_t const s = ti * per_time + inserted_[ti]++;
        for (std::size_t k = ti + 1; k <= times_; k += k & (~k + 1)) ++fenwick_[k];
        return s;
    }
    void release(logical_time t) {
        std::size_t const ti = static_cast<std::size_t>(t);
        --inserted_[ti];
        for (std::size_t k = ti + 1; k <= times_; k += k & (~k + 1)) --fenwick_[k];
    }
    /// The time of slot `s` in the edited module: how many held slots come before it.
    logical_time rank(std::size_t s) const {
        std::size_t const t = s / per_time, j = s % per_time;
        std::int64_t before = 0;
        for (std::size_t k = t; k > 0; k -= k & (~k + 1)) before += fenwick_[k];
        return static_cast<logical_time>(static_cast<std::int64_t>(t) + before +
                                         static_cast<std::int64_t>(j == per_time - 1 ? inserted_[t] : j));
    }
    std::size_t total_inserted() const {
        std::int64_t n = 0;
        for (std::size_t k = times_; k > 0; k -= k & (~k + 1)) n += fenwick_[k];
        return static_cast<std::size_t>(n);
    }

private:
    std::size_t times_;
    std::vector<std::size_t> inserted_;
    std::vector<std::int64_t> fenwick_;
};

}  // namespace detail

namespace detail {

/// What HloRematerialization may re-run (xla/service/hlo_rematerialization.cc,
/// CanBeRematerialized): no side effects, no control flow, no collectives or asynchronous pairs,
/// no parameters or constants, nothing that only forwards a buffer.
constexpr bool rematerializable(hlo_opcode op) noexcept {
    switch (op) {
        case hlo_opcode::parameter: case hlo_opcode::constant: case hlo_opcode::tuple:
        case hlo_opcode::get_tuple_element: case hlo_opcode::bitcast: case hlo_opcode::while_:
        case hlo_opcode::call: case hlo_opcode::conditional: case hlo_opcode::async_start:
        case hlo_opcode::async_update: case hlo_opcode::async_done: case hlo_opcode::copy_start:
        case hlo_opcode::copy_done: case hlo_opcode::custom_call: case hlo_opcode::all_gather:
        case hlo_opcode::all_gather_start: case hlo_opcode::all_gather_done: case hlo_opcode::all_reduce:
        case hlo_opcode::all_reduce_start: case hlo_opcode::all_reduce_done: case hlo_opcode::all_to_all:
        case hlo_opcode::collective_broadcast: case hlo_opcode::collective_permute:
        case hlo_opcode::collective_permute_start: case hlo_opcode::collective_permute_done:
        case hlo_opcode::reduce_scatter: case hlo_opcode::ragged_all_to_all: case hlo_opcode::send:
        case hlo_opcode::send_done: case hlo_opcode::recv: case hlo_opcode::recv_done: case hlo_opcode::infeed:
        case hlo_opcode::outfeed: case hlo_opcode::rng: case hlo_opcode::rng_bit_generator:
        case hlo_opcode::rng_get_and_update_state: case hlo_opcode::after_all: case hlo_opcode::add_dependency:
        case hlo_opcode::opt_barrier: case hlo_opcode::domain: case hlo_opcode::unknown:
            return false;
        default:
            return true;
    }
}

/// Users whose reads XLA's HloLiveRange does not time at the user (hlo/liveness.hpp): control
/// flow and asynchronous chains; an edit does not move their uses.
constexpr bool times_use_elsewhere(hlo_opcode op) noexcept {
    return op == hlo_opcode::while_ || op == hlo_opcode::call || op == hlo_opcode::conditional ||
           op == hlo_opcode::async_start || op == hlo_opcode::async_update || op == hlo_opcode::async_done;
}

}  // namespace detail

template <class P = default_policy>
class basic_what_if {
public:
    using module_type = basic_hlo_module<P>;

    /// The one-time setup: liveness (dataflow, aliasing, live ranges) and the curves. O(n log n)
    /// for the liveness, linear after it.
    explicit basic_what_if(module_type const& m, what_if_options const& options = {});

    module_type const& module() const noexcept { return *m_; }
    basic_hlo_liveness<P> const& liveness() const noexcept { return *live_; }
    what_if_options const& options() const noexcept { return options_; }
    size_function_kind sizes() const noexcept { return sizes_; }

    /// Evaluates `e` on the module as edited so far; when accepted it stays applied.
    what_if_outcome apply(what_if_edit const& e);
    /// The edits accepted so far, in order.
    std::vector<what_if_outcome> const& edits() const noexcept { return accepted_; }
    /// Takes back the last accepted edit.
    void undo();

    /// XLA's peak over every color: what the derived live-range text of the edited module states.
    what_if_peak peak() const { return peak_of(xla_all_); }
    /// The peak's time before any inserted instruction: where an edit's `from` is meant.
    logical_time peak_time_original() const;
    /// One color's live peak's time before any inserted instruction.
    logical_time color_peak_time_original(std::int64_t color) const;
    /// The colors, in order.
    std::vector<std::int64_t> colors() const;
    /// XLA's peak and each color's, as the edits applied so far leave them.
    what_if_peaks peaks() const {
        what_if_peaks out;
        out.xla = peak();
        out.max = max();
        for (std::int64_t c : colors()) out.colors.emplace_back(c, color_peak(c));
        return out;
    }
    /// XLA's peak rule over the values of one color.
    what_if_peak xla_color_peak(std::int64_t color) const;
    /// The bytes the buffers of one color hold at their highest, and when first.
    what_if_peak color_peak(std::int64_t color) const;
    /// The bytes one color's buffers hold at each time of the edited module.
    std::vector<std::int64_t> color_curve(std::int64_t color) const;
    /// The edited module's schedule length (XLA's max).
    logical_time max() const { return live_->max() + static_cast<logical_time>(axis_.total_inserted()); }

    /// The time in the edited module of the original's instruction at time `t`: later by the
    /// instructions edits inserted before it (what the page of before and after draws on).
    logical_time edited_time(logical_time t) const { return axis_.rank(detail::what_if_axis::instruction_slot(t)); }
    /// The time in the edited module of an inserted instruction (inserted_instruction::slot).
    logical_time edited_time_of_slot(std::size_t slot) const { return axis_.rank(slot); }
    /// Value k's live range in the edited module, {first, last}; nullopt when it has none.
    std::optional<std::pair<logical_time, logical_time>> edited_range(std::size_t k) const {
        if (values_[k].first == npos) return std::nullopt;
        return std::make_pair(axis_.rank(values_[k].first), axis_.rank(values_[k].last));
    }
    /// Value k's color (its shape's memory space).
    std::int64_t color_of(std::size_t k) const { return values_[k].color; }

    /// The value defined at {} of `i` (an index into liveness().dataflow().values()); for a
    /// get-tuple-element, the element of its operand's tuple it reads; else npos.
    std::size_t value_of(instruction_id i) const;
    /// The instruction an edit of value k names: its defining instruction, or for an element of a
    /// tuple a get-tuple-element reading it.
    instruction_id edit_instruction(std::size_t k) const;
    /// Why value k cannot be rematerialized or offloaded; empty when it can.
    std::string why_not_movable(std::size_t k, bool remat) const;
    /// The hardware bytes of value k's buffer.
    std::int64_t buffer_bytes(std::size_t k) const { return buffers_[buffer_of_[k]].bytes; }
    /// Values live at XLA's peak, or at one color's live peak: indices into dataflow().values().
    std::vector<std::size_t> live_at_color_peak(std::int64_t color) const;

private:
    struct value_record {
        std::int64_t xla_bytes = 0;
        std::int64_t color = 0;
        std::size_t first = npos, last = npos;  // slots; npos when not on the time axis
    };
    struct buffer_record {
        std::int64_t bytes = 0;
        std::int64_t color = 0;
        std::vector<std::pair<std::size_t, std::size_t>> segments;  // slots, inclusive, disjoint
    };
    struct color_trees {
        std::size_t xla = npos, live = npos;
    };
    struct log_entry {
        enum kind_type : std::uint8_t { range, segments, hold, new_value, extra_use, flag, mark } kind;
        std::size_t subject = 0;
        std::size_t first = 0, last = 0;
        std::vector<std::pair<std::size_t, std::size_t>> old_segments;
    };

    void build_records();
    void build_trees();
    std::size_t tree_for_color(std::int64_t color, bool xla);
    std::size_t new_tree();
    void set_range(std::size_t v, std::size_t first, std::size_t last, bool logged = true);
    void add_range(value_record const& r, std::int64_t sign);
    void set_segments(std::size_t b, std::vector<std::pair<std::size_t, std::size_t>> segments, bool logged = true);
    std::size_t hold(logical_time t);
    std::size_t add_value(std::int64_t xla_bytes, std::int64_t color, std::int64_t bytes);
    what_if_peak peak_of(std::size_t tree) const;
    std::string donate(what_if_edit const& e, what_if_outcome& out);
    std::string donate_output_parameter(std::size_t k, std::string const& label, what_if_outcome& out);
    void mark_donated(std::size_t k, std::size_t o, std::vector<std::int64_t> index, what_if_outcome& out);
    std::string move(what_if_edit const& e, what_if_outcome& out);
    /// Where move() splits value k's reads: the position the later reads go through, its
    /// definition, the last read kept, the first read taken over (slots), the last read, and the
    /// time and instruction of that first read.
    struct move_split {
        std::size_t value = npos;
        instruction_id through = no_instruction;
        std::size_t def = 0, last_kept = 0, next_use = 0, last_use = 0;
        logical_time next_time = 0;
        instruction_id reader = no_instruction;
    };
    std::string remat_value(move_split const& s, std::size_t chain_bound, what_if_outcome& out);
    /// One operand read by a remat's clone (reader npos) or by an operand's clone (its value).
    struct operand_read {
        std::size_t value = npos;
        std::size_t reader = npos;
    };
    std::string remat_operands(instruction_id i, std::size_t reader, std::size_t next_use, std::size_t& chain_left,
                               std::vector<operand_read>& reads, std::vector<std::size_t>& chain) const;
    bool recomputable_operand(std::size_t w, instruction_id o) const;
    std::string element_reason(instruction_id i) const;
    void offload_values(std::size_t k, instruction_id through, std::size_t last_kept, logical_time before, std::size_t last_use, what_if_outcome& out);
    std::vector<std::size_t> use_slots(std::size_t k) const;
    bool fusion_element(std::size_t k) const;
    std::int64_t remat_values(std::size_t k, std::size_t slot, std::size_t forwarding_slot, std::size_t last_use);
    std::optional<logical_time> insertion_time_before(instruction_id i) const;
    instruction_id next_in_computation(instruction_id i) const;

    module_type const* m_;
    what_if_options options_;
    size_function_kind sizes_ = size_function_kind::xla;
    std::unique_ptr<basic_hlo_liveness<P>> live_;
    detail::what_if_axis axis_;
    std::vector<value_record> values_;             // the module's values, then those edits add
    std::vector<std::size_t> buffer_of_;           // value -> buffer
    std::vector<buffer_record> buffers_;
    std::vector<std::vector<std::size_t>> extra_uses_;  // value -> slots of uses edits added
    std::vector<bool> edited_;                     // the module's values an edit moved
    std::vector<bool> aliased_output_;             // entry root's top-level indices already aliased
    std::vector<max_tree> trees_;
    std::vector<std::vector<std::int64_t>> ends_;  // per xla tree: bytes of values ending at each slot
    std::size_t xla_all_ = npos;
    std::map<std::int64_t, color_trees> by_color_;
    std::vector<log_entry> log_;
    std::vector<what_if_outcome> accepted_;
};

using what_if = basic_what_if<>;

}  // namespace hlomem

// The parts of basic_what_if, one concept each: the time axis, curves and undo; the checks and
// the split every edit starts with; each edit kind.
#include <hlomem/whatif/what_if_model.hpp>
#include <hlomem/whatif/what_if_moves.hpp>
#include <hlomem/whatif/what_if_donate.hpp>
#include <hlomem/whatif/what_if_remat.hpp>
#include <hlomem/whatif/what_if_offload.hpp>

namespace hlomem {

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_WHAT_IF_INSTANTIATIONS(EXTERN, P) \
    EXTERN template class basic_what_if<P>;
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_WHAT_IF_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_WHAT_IF_HPP
