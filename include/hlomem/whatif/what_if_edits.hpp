// hlomem/whatif/what_if_edits.hpp: the edits of basic_what_if (whatif/what_if.hpp): donate,
// remat and offload, each checked the way XLA would refuse it before anything changes.
#ifndef HLOMEM_WHATIF_WHAT_IF_EDITS_HPP
#define HLOMEM_WHATIF_WHAT_IF_EDITS_HPP

#include <hlomem/core/shape_equal.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

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

template <class P>
what_if_outcome basic_what_if<P>::apply(what_if_edit const& e) {
    what_if_outcome out;
    out.edit = e;
    log_.push_back({log_entry::mark, 0, 0, 0, {}});
    std::string reason;
    try {
        reason = e.kind == what_if_kind::donate ? donate(e, out) : move(e, out);
    } catch (shape_error const& error) {
        reason = error.what();
    }
    if (!reason.empty()) {
        out.reason = std::move(reason);
        accepted_.push_back(out);  // undo() takes it and the log back to the mark
        undo();
        return out;
    }
    out.accepted = true;
    accepted_.push_back(out);
    return out;
}

template <class P>
std::vector<std::size_t> basic_what_if<P>::use_slots(std::size_t k) const {
    std::vector<std::size_t> out = extra_uses_[k];
    for (auto const& u : live_->dataflow().uses(live_->dataflow().values()[k])) {
        if (auto t = live_->time_of(u.instruction)) out.push_back(detail::what_if_axis::instruction_slot(*t));
    }
    std::sort(out.begin(), out.end());
    return out;
}

template <class P>
instruction_id basic_what_if<P>::next_in_computation(instruction_id i) const {
    auto const& c = m_->computation(m_->instruction(i).computation);
    return c.position_of(i) + 1 < c.instruction_count ? i + 1 : no_instruction;
}

// An element of a multi-output fusion: an array its get-tuple-elements read (XLA's fusion defines a
// value at each index of its tuple; a get-tuple-element forwards one).
template <class P>
bool basic_what_if<P>::fusion_element(std::size_t k) const {
    auto const& df = live_->dataflow();
    auto const& v = df.values()[k];
    return v.node != 0 && m_->instruction(v.instruction).opcode == hlo_opcode::fusion && df.index_of(v).size() == 1 &&
           !df.shape_of(v).is_tuple();
}

template <class P>
instruction_id basic_what_if<P>::edit_instruction(std::size_t k) const {
    auto const& df = live_->dataflow();
    auto const& v = df.values()[k];
    if (v.node == 0) return v.instruction;
    for (auto const& p : df.positions(v)) {
        if (m_->instruction(p.instruction).opcode == hlo_opcode::get_tuple_element && m_->operands(p.instruction)[0] == v.instruction) {
            return p.instruction;
        }
    }
    return v.instruction;
}

// The time an instruction written right before entry instruction `i` takes: right after the
// previous entry instruction, before the computations `i` calls are flattened (FlattenSchedule).
template <class P>
std::optional<logical_time> basic_what_if<P>::insertion_time_before(instruction_id i) const {
    auto const& c = m_->computation(i == no_instruction ? m_->entry() : m_->instruction(i).computation);
    if (i == no_instruction || c.position_of(i) == 0) return live_->span_of(i == no_instruction ? m_->entry() : m_->instruction(i).computation)->start;
    auto const t = live_->time_of(i - 1);
    if (!t) return std::nullopt;
    return *t + 1;
}

template <class P>
std::string basic_what_if<P>::why_not_movable(std::size_t k, bool remat) const {
    auto const& m = *m_;
    auto const& df = live_->dataflow();
    auto const& v = df.values()[k];
    auto const& inst = m.instruction(v.instruction);
    bool const element = fusion_element(k);
    std::string const name = element ? df.name_of(v) : std::string(std::string_view(inst.name));
    if (values_[k].first == npos) return name + " has no live range on the schedule";
    if (edited_[k]) return "an earlier edit already moved " + name;
    if (v.node != 0 && !element) return df.name_of(v) + element_reason(v.instruction);
    if (!element && m.shape_of(v.instruction).is_tuple()) {
        return name + " is a tuple's index table (HloDataflowAnalysis defines it apart from the elements); an edit moves its elements";
    }
    if (v.live_out) return name + " is an output of the module, live to the schedule's end (HloLiveRange)";
    if (inst.opcode == hlo_opcode::parameter) {
        return name + (inst.computation == m.entry() ? " is a parameter: donate it instead" : element_reason(v.instruction));
    }
    if (inst.opcode == hlo_opcode::constant) return name + " is a constant, alive for the whole program (BufferAssignment's constant allocations)";
    if (remat && !detail::rematerializable(inst.opcode)) {
        return "HloRematerialization does not re-run " + name + ", a " + std::string(m.opcode_name(v.instruction));
    }
    // A bitcast defines no value, it forwards its operand's (XLA's HloDataflowAnalysis with
    // bitcast_defines_value false; hlo/dataflow.hpp): its readers are the value's uses and an edit
    // moves them (move(): `through`). Any other forwarding position (a tuple, a parameter of a
    // called computation, an asynchronous start) carries the value where an edit does not follow;
    // a multi-output fusion's element is read through its get-tuple-elements.
    for (auto const& p : df.positions(v)) {
        auto const& forwarder = m.instruction(p.instruction);
        if (p.instruction == v.instruction || (forwarder.opcode == hlo_opcode::bitcast && forwarder.computation == inst.computation)) continue;
        if (element && forwarder.opcode == hlo_opcode::get_tuple_element && m.operands(p.instruction)[0] == v.instruction) continue;
        return name + " is forwarded by " + std::string(std::string_view(forwarder.name)) + " (a " +
               std::string(m.opcode_name(p.instruction)) + ", which defines no value of its own: HloDataflowAnalysis); its reads through it are not moved";
    }
    auto const buffer = live_->alias_analysis().buffers()[live_->alias_analysis().buffer_of(k)];
    if (buffer.size() != 1) {
        for (std::size_t other : buffer) {
            if (other == k) continue;
            return name + " shares its HloBuffer with " + df.name_of(df.values()[other]) +
                   " (HloAliasAnalysis: an in-place update or a loop's state); moving one would take a copy";
        }
    }
    std::size_t last = values_[k].first;
    for (auto const& u : df.uses(v)) {
        auto const& user = m.instruction(u.instruction);
        if (user.computation != inst.computation) {
            return name + " is read inside " + std::string(std::string_view(m.computation(user.computation).name)) +
                   ", through the operand its caller passes (HloDataflowAnalysis); a copy or clone would be passed instead, which is not modelled";
        }
        if (detail::times_use_elsewhere(user.opcode)) {
            return name + " is read by " + std::string(std::string_view(user.name)) + ", a " + std::string(m.opcode_name(u.instruction));
        }
    }
    for (std::size_t s : use_slots(k)) last = std::max(last, s);
    // HloLiveRange ends a value at its last use or position (CalculateBufferStartEndMap).
    for (auto const& p : df.positions(v)) {
        if (auto t = live_->time_of(p.instruction)) last = std::max(last, detail::what_if_axis::instruction_slot(*t));
    }
    if (last != values_[k].last) return name + "'s live range follows a rule the edits do not model";
    return {};
}

// Why an element of instruction i's tuple (or a called computation's parameter) stays where it is,
// with the XLA rule behind it: a while's state is one HloBuffer at each index from the loop's
// operand through its body's parameter and root to its result (HloAliasAnalysis), live across every
// iteration; a called computation's parameter shares its caller's operand's buffer; a custom call
// or another instruction writes its whole tuple at once, and HloRematerialization
// (CanBeRematerialized) and host offloading move arrays an instruction defines, or a multi-output
// fusion's elements.
template <class P>
std::string basic_what_if<P>::element_reason(instruction_id i) const {
    auto const& m = *m_;
    auto const& inst = m.instruction(i);
    bool loop_state = inst.opcode == hlo_opcode::while_;
    if (inst.opcode == hlo_opcode::parameter && inst.computation != m.entry()) {
        for (auto const& call : m.callers(inst.computation)) {
            loop_state |= call.kind == call_kind::while_body || call.kind == call_kind::while_condition;
        }
    }
    // The reason after the value's name is the same for every value of its kind (advise counts
    // refusals by it); the value's name says which instruction.
    if (loop_state) {
        return " is a while loop's state: HloAliasAnalysis gives the loop's operand, its body's parameter and root and its result "
               "one HloBuffer at each index, live across every iteration";
    }
    if (inst.opcode == hlo_opcode::parameter && inst.computation == m.entry()) {
        return " is an element of an entry parameter: donate it at its index instead";
    }
    if (inst.opcode == hlo_opcode::parameter) return " is a parameter of a called computation, in its caller's operand's HloBuffer (HloAliasAnalysis)";
    return " is an element of a " + std::string(m.opcode_name(i)) +
           "'s tuple, which one instruction writes whole; HloRematerialization and host offloading move an instruction's array or a "
           "multi-output fusion's elements";
}

// input_output_alias (xla/service/hlo_input_output_alias_config.cc, Verify: the output and the
// parameter have equal sizes; copy insertion keeps the parameter from being read after the
// output is written, which a donation without copies cannot).
template <class P>
std::string basic_what_if<P>::donate(what_if_edit const& e, what_if_outcome& out) {
    auto const& m = *m_;
    auto const& df = live_->dataflow();
    auto const params = m.parameters(m.entry());
    std::string const label = "parameter " + std::to_string(e.parameter_number);
    if (e.parameter_number < 0 || static_cast<std::size_t>(e.parameter_number) >= params.size()) return "the entry has no " + label;
    instruction_id const p = params[static_cast<std::size_t>(e.parameter_number)];
    shape_node const node = df.node_of(p, e.parameter_index);
    if (node == no_node) return label + " has no index " + to_string(basic_shape_index<P>(typename basic_shape_index<P>::container_type(e.parameter_index.begin(), e.parameter_index.end())));
    std::size_t k = npos;
    for (value_id id : df.value_set(p, node)) k = df.value_index(id);
    if (k == npos || k == no_value_index) return label + " defines no value there";
    out.value = k;
    for (auto const& a : m.input_output_aliases()) {
        if (a.parameter_number == e.parameter_number && std::equal(a.parameter_index.begin(), a.parameter_index.end(),
                                                                   e.parameter_index.begin(), e.parameter_index.end())) {
            return label + " is already aliased to output " + to_string(a.output_index);
        }
    }
    if (edited_[k]) return label + " is already donated";
    auto const& v = df.values()[k];
    if (v.live_out) return donate_output_parameter(k, label, out);
    auto const& aa = live_->alias_analysis();
    if (aa.buffers()[aa.buffer_of(k)].size() != 1) return label + " shares its HloBuffer with another value (a loop or an in-place update)";
    // Its end once aliased: CalculateBufferStartEndMap without the schedule's end.
    logical_time end = *live_->time_of(p);
    std::string last_reader;
    for (auto const& u : df.uses(v)) {
        instruction_id used = u.instruction;
        if (m.instruction(used).opcode == hlo_opcode::while_) {
            for (auto const& c : m.calls(used)) {
                if (c.kind == call_kind::while_body && !m.parameters(c.callee).empty()) used = m.parameters(c.callee)[0];
            }
        }
        auto const t = live_->time_of(used);
        if (m.instruction(u.instruction).opcode == hlo_opcode::call || !t) continue;
        if (*t >= end) last_reader = std::string(std::string_view(m.instruction(u.instruction).name));
        end = std::max(end, *t);
    }
    for (auto const& position : df.positions(v)) {
        if (auto t = live_->time_of(position.instruction)) end = std::max(end, *t);
    }
    auto const& pshape = df.shape_of(v);
    instruction_id const root = m.entry_computation().root;
    bool const tuple_root = m.shape_of(root).is_tuple();
    std::string first_reason = "no output has the shape " + to_string(pshape) + " of " + label;
    bool same_shape_seen = false;
    for (std::size_t o = 0; o < aliased_output_.size(); ++o) {
        if (aliased_output_[o]) continue;
        std::vector<std::int64_t> index;
        if (tuple_root) index.push_back(static_cast<std::int64_t>(o));
        auto const set = df.value_set(root, df.node_of(root, index));
        if (set.size() != 1) continue;
        std::size_t const x = df.value_index(set[0]);
        auto const& xv = df.values()[x];
        if (m.instruction(xv.instruction).opcode == hlo_opcode::parameter || values_[x].first == npos) continue;
        // The output's shape at its index (a bitcast at the root forwards a value of another shape).
        if (!shape_equal()(m.shape_of(root).subshape(basic_shape_index<P>(typename basic_shape_index<P>::container_type(index.begin(), index.end()))), pshape)) {
            continue;
        }
        std::string const output = "output " + to_string(basic_shape_index<P>(typename basic_shape_index<P>::container_type(index.begin(), index.end())));
        std::string reason;
        if (aa.buffers()[aa.buffer_of(x)].size() != 1) {
            reason = output + " shares its HloBuffer with another value";
        } else if (values_[x].color != values_[k].color || buffer_bytes(x) != buffer_bytes(k)) {
            reason = output + " differs from " + label + " in memory space or size";
        } else if (detail::what_if_axis::instruction_slot(end) > values_[x].first) {
            reason = label + " is read by " + last_reader + " at time " + std::to_string(end) + ", after " + output +
                     " is written at time " + std::to_string(detail::what_if_axis::time_of_slot(values_[x].first));
        }
        if (!reason.empty()) {
            if (!same_shape_seen) first_reason = reason;
            same_shape_seen = true;
            continue;
        }
        std::size_t const end_slot = detail::what_if_axis::instruction_slot(end);
        set_range(k, values_[k].first, end_slot);
        auto segments = buffers_[buffer_of_[x]].segments;
        segments.insert(segments.begin(), {values_[k].first, end_slot});
        if (segments.size() > 1 && segments[1].first <= end_slot) {
            segments[0].second = std::max(end_slot, segments[1].second);
            segments.erase(segments.begin() + 1);
        }
        set_segments(buffer_of_[x], {});
        set_segments(buffer_of_[k], std::move(segments));
        mark_donated(k, o, std::move(index), out);
        return {};
    }
    return first_reason;
}

// Parameter value k now shares the buffer of the entry root's top-level output o (index: its shape
// index, empty for a root that is no tuple); both flags are logged so that undo clears them.
template <class P>
void basic_what_if<P>::mark_donated(std::size_t k, std::size_t o, std::vector<std::int64_t> index, what_if_outcome& out) {
    edited_[k] = true;
    log_.push_back({log_entry::flag, k, 0, 0, {}});
    aliased_output_[o] = true;
    log_.push_back({log_entry::flag, o, 1, 0, {}});
    out.output_index = std::move(index);
}

// A parameter that is itself an output: the entry's root returns it, directly, through a bitcast
// or through a loop that carries it unchanged. XLA aliases it to that output
// (HloInputOutputAliasConfig; the dump of a jit with donate_argnums shows `{0}: (0, {}, may-alias)`
// over `ROOT tuple(p0, ...)`), and the buffer is the parameter's with or without the alias: a
// module whose alias was taken out shows no copy, although without it copy insertion would have
// copied the parameter into its own output buffer (AddSpecialCaseCopies). So the donation changes
// no live range; it records which output the parameter now is, and that output is taken.
template <class P>
std::string basic_what_if<P>::donate_output_parameter(std::size_t k, std::string const& label, what_if_outcome& out) {
    auto const& m = *m_;
    auto const& df = live_->dataflow();
    instruction_id const root = m.entry_computation().root;
    bool const tuple_root = m.shape_of(root).is_tuple();
    auto const& pshape = df.shape_of(df.values()[k]);
    bool any = false;
    for (std::size_t o = 0; o < aliased_output_.size(); ++o) {
        std::vector<std::int64_t> index;
        if (tuple_root) index.push_back(static_cast<std::int64_t>(o));
        shape_node const at = df.node_of(root, index);
        bool is_output = false;
        for (auto const& position : df.positions(df.values()[k])) is_output |= position.instruction == root && position.node == at;
        basic_shape_index<P> const output(typename basic_shape_index<P>::container_type(index.begin(), index.end()));
        if (!is_output || !shape_equal()(m.shape_of(root).subshape(output), pshape)) continue;
        any = true;
        if (aliased_output_[o]) continue;
        mark_donated(k, o, std::move(index), out);
        return {};
    }
    return any ? label + " is itself an output of the module, which is aliased already"
               : label + " is itself an output of the module, inside a tuple or of another shape";
}

template <class P>
std::string basic_what_if<P>::move(what_if_edit const& e, what_if_outcome& out) {
    auto const& m = *m_;
    auto const& df = live_->dataflow();
    bool const remat = e.kind == what_if_kind::remat;
    if (e.instruction >= m.instruction_count()) return "no such instruction";
    std::string const name(std::string_view(m.instruction(e.instruction).name));
    std::size_t const k = value_of(e.instruction);
    if (k == npos) return name + " defines no value of its own";
    out.value = k;
    if (std::string reason = why_not_movable(k, remat); !reason.empty()) return reason;
    auto const& v = df.values()[k];
    auto const uses = use_slots(k);
    std::size_t const split = static_cast<std::size_t>(std::max<logical_time>(e.from, 0)) * detail::what_if_axis::per_time;
    std::size_t const def = values_[k].first;
    std::string const from = std::to_string(e.from);
    if (split <= def) return "time " + from + " is not after " + name + " is defined";
    auto const first_after = std::lower_bound(uses.begin(), uses.end(), split);
    if (first_after == uses.end()) return name + " is not read at or after time " + from;
    std::size_t const next_use = *first_after;
    std::size_t last_kept = first_after == uses.begin() ? def : *(first_after - 1);
    if (next_use % detail::what_if_axis::per_time != detail::what_if_axis::per_time - 1) {
        return name + "'s next read is an instruction an earlier edit inserted";
    }
    for (std::size_t s : extra_uses_[k]) {
        if (s >= split) return name + " is read from time " + from + " on by an instruction an earlier edit inserted";
    }
    logical_time const next_time = static_cast<logical_time>(detail::what_if_axis::time_of_slot(next_use));
    instruction_id const reader = live_->sequence()[static_cast<std::size_t>(next_time)];
    std::string const reader_name(std::string_view(m.instruction(reader).name));
    // The original keeps its positions before `from` (HloLiveRange ends it at the last of its uses
    // and positions). A bitcast at or after it reads the copy back or the clone and forwards it on,
    // its readers unchanged; any other position there would keep reading the original.
    std::vector<instruction_id> later;
    for (auto const& p : df.positions(v)) {
        std::size_t const at = detail::what_if_axis::instruction_slot(*live_->time_of(p.instruction));
        if (at < split) {
            last_kept = std::max(last_kept, at);
        } else if (m.instruction(p.instruction).opcode == hlo_opcode::bitcast) {
            later.push_back(p.instruction);
        } else {
            return name + " is forwarded by " + std::string(std::string_view(m.instruction(p.instruction).name)) + " at or after time " + from +
                   ", which would keep reading the original";
        }
    }
    // The position the later reads go through: the value itself, a bitcast of it, or a fusion
    // element's get-tuple-element. Those readers are rewired to the copy back or the clone, so
    // they must all read one position.
    instruction_id through = no_instruction;
    for (auto const& u : df.uses(v)) {
        auto const t = live_->time_of(u.instruction);
        if (!t || detail::what_if_axis::instruction_slot(*t) < split) continue;
        instruction_id const read = m.operands(u.instruction)[u.operand_number];
        if (std::find(later.begin(), later.end(), read) != later.end()) continue;
        out.rewired.push_back(u.instruction);
        if (through != no_instruction && read != through) {
            return name + " is read from time " + from + " on through both " + std::string(std::string_view(m.instruction(through).name)) +
                   " and " + std::string(std::string_view(m.instruction(read).name)) + "; one copy or clone serves one of them";
        }
        through = read;
    }
    std::sort(out.rewired.begin(), out.rewired.end());
    out.rewired.erase(std::unique(out.rewired.begin(), out.rewired.end()), out.rewired.end());
    if (!remat) {
        offload_values(k, through, last_kept, next_time, uses.back(), out);
        return out.reason;
    }
    // HloRematerialization re-creates the bitcasts (and get-tuple-element) the later reads go
    // through behind the clone (RematerializeInstruction clones the candidate's forwarding users
    // with it), so those readers read what they read before: the chain from the value to `through`.
    std::vector<instruction_id> forwarders;
    for (instruction_id f = through; f != v.instruction; f = m.operands(f)[0]) forwarders.insert(forwarders.begin(), f);
    if (fusion_element(k)) {
        for (auto const& part : m.shape_of(v.instruction).tuple_shapes()) {
            if (part.is_tuple()) return name + "'s fusion has a nested tuple; its clone's values are not modelled";
        }
    }
    // The operands must be live when the clone runs (RematerializeInstruction keeps them), unless
    // recomputed in turn right before it (remat_operands).
    std::vector<operand_read> reads;
    std::vector<std::size_t> chain;
    std::size_t chain_left = e.chain;
    if (std::string reason = remat_operands(v.instruction, npos, next_use, chain_left, reads, chain); !reason.empty()) return reason;
    // Operands before their readers: in a scheduled computation, the text order.
    std::sort(chain.begin(), chain.end(), [&](std::size_t x, std::size_t y) { return df.values()[x].instruction < df.values()[y].instruction; });
    if (axis_.inserted_at(next_time) + chain.size() + 1 + forwarders.size() >= detail::what_if_axis::per_time) {
        if (chain.empty() && forwarders.empty()) return "3 instructions are already inserted before " + reader_name;
        return "no room for the clone and the " + std::to_string(chain.size() + forwarders.size()) + " instructions " +
               (chain.empty() ? "it is read through" : "recomputed or read through with it") +
               ": 3 instructions at most are inserted before " + reader_name;
    }
    std::vector<std::size_t> chain_slots;
    for (std::size_t j = 0; j < chain.size(); ++j) chain_slots.push_back(hold(next_time));
    std::size_t const slot = hold(next_time);
    std::vector<std::size_t> forwarding_slots;
    for (std::size_t j = 0; j < forwarders.size(); ++j) forwarding_slots.push_back(hold(next_time));
    auto slot_of = [&](std::size_t reader_value) {
        if (reader_value == npos) return slot;
        return chain_slots[static_cast<std::size_t>(std::find(chain.begin(), chain.end(), reader_value) - chain.begin())];
    };
    out.bytes_recomputed = remat_values(k, slot, forwarding_slots.empty() ? npos : forwarding_slots[0], uses.back());
    set_range(k, def, last_kept);
    set_segments(buffer_of_[k], {{def, last_kept}});
    // Each operand recomputed: a value of its clone's, read until the last clone reading it.
    for (std::size_t j = 0; j < chain.size(); ++j) {
        std::size_t last = chain_slots[j];
        for (auto const& r : reads) {
            if (r.value == chain[j]) last = std::max(last, slot_of(r.reader));
        }
        std::size_t const c = add_value(values_[chain[j]].xla_bytes, values_[chain[j]].color, buffer_bytes(chain[j]));
        set_range(c, chain_slots[j], last);
        set_segments(buffer_of_[c], {{chain_slots[j], last}});
        out.bytes_recomputed += buffer_bytes(chain[j]);
        out.inserted.push_back({inserted_role::clone, df.values()[chain[j]].instruction, reader, chain_slots[j]});
    }
    for (auto const& r : reads) {
        if (std::find(chain.begin(), chain.end(), r.value) != chain.end()) continue;
        std::size_t const w = r.value, at = slot_of(r.reader);
        extra_uses_[w].push_back(at);
        log_.push_back({log_entry::extra_use, w, 0, 0, {}});
        if (values_[w].last >= at) continue;
        set_range(w, values_[w].first, at);
        auto segments = buffers_[buffer_of_[w]].segments;
        segments.back().second = at;
        set_segments(buffer_of_[w], std::move(segments));
    }
    edited_[k] = true;
    log_.push_back({log_entry::flag, k, 0, 0, {}});
    out.instructions_recomputed = 1 + static_cast<std::int64_t>(chain.size());
    out.inserted.push_back({inserted_role::clone, v.instruction, reader, slot});
    for (std::size_t j = 0; j < forwarders.size(); ++j) out.inserted.push_back({inserted_role::clone, forwarders[j], reader, forwarding_slots[j]});
    return {};
}

// The values a remat's clone reads (instruction i's operands, reader npos) or an operand's clone
// reads (reader: that operand's value). Each stays live until its reader's clone runs
// (RematerializeInstruction keeps a clone's operands), unless it would otherwise end before
// `next_use` and `chain_left` allows: then it is recomputed in turn, its own operands read the
// same way (HloRematerialization's blocks of instructions, RematerializeBestBlock, bounded by
// max_block_size). An operand that cannot be recomputed is kept live instead.
template <class P>
std::string basic_what_if<P>::remat_operands(instruction_id i, std::size_t reader, std::size_t next_use, std::size_t& chain_left,
                                             std::vector<operand_read>& reads, std::vector<std::size_t>& chain) const {
    auto const& m = *m_;
    auto const& df = live_->dataflow();
    for (instruction_id o : m.operands(i)) {
        auto const set = df.value_set(o, 0);
        std::string const operand = "operand " + std::string(std::string_view(m.instruction(o).name));
        if (set.size() != 1) return operand + " may hold several values";
        std::size_t const w = df.value_index(set[0]);
        if (values_[w].first == npos) return operand + " has no live range";
        reads.push_back({w, reader});
        bool const ends_before = values_[w].last < next_use;
        if (!ends_before || std::find(chain.begin(), chain.end(), w) != chain.end()) continue;
        if (chain_left > 0 && recomputable_operand(w, o)) {
            std::size_t const reads_before = reads.size(), chain_before = chain.size(), left_before = chain_left;
            --chain_left;
            chain.push_back(w);
            if (remat_operands(o, w, next_use, chain_left, reads, chain).empty()) continue;
            reads.resize(reads_before);
            chain.resize(chain_before);
            chain_left = left_before;
        }
        if (edited_[w]) return operand + " was moved by an earlier edit";
        if (live_->alias_analysis().buffers()[live_->alias_analysis().buffer_of(w)].size() != 1) {
            return operand + " shares its HloBuffer with an in-place update; keeping it live would take a copy";
        }
    }
    return {};
}

// An operand recomputed in turn: an array defined by its own instruction, one HloRematerialization
// may re-run (CanBeRematerialized), in a buffer of its own, untouched by an earlier edit.
template <class P>
bool basic_what_if<P>::recomputable_operand(std::size_t w, instruction_id o) const {
    auto const& df = live_->dataflow();
    auto const& v = df.values()[w];
    return v.instruction == o && v.node == 0 && !v.live_out && !edited_[w] && !m_->shape_of(o).is_tuple() &&
           detail::rematerializable(m_->instruction(o).opcode) &&
           live_->alias_analysis().buffers()[live_->alias_analysis().buffer_of(w)].size() == 1;
}

// The values the clone defines, on the axis; returns the bytes it writes. An array: one value, read
// until `last_use`. A multi-output fusion (the clone of one element's fusion): every element and
// the index table, as XLA's dataflow defines them; the get-tuple-element clone at
// `forwarding_slot` reads the table, the element edited lives until `last_use`, the others are
// read by nothing and live at the clone alone (HloLiveRange: a value without uses ends where it
// starts).
template <class P>
std::int64_t basic_what_if<P>::remat_values(std::size_t k, std::size_t slot, std::size_t forwarding_slot, std::size_t last_use) {
    auto add = [&](std::int64_t xla, std::int64_t color, std::int64_t hw, std::size_t last) {
        std::size_t const c = add_value(xla, color, hw);
        set_range(c, slot, last);
        set_segments(buffer_of_[c], {{slot, last}});
    };
    if (!fusion_element(k)) {
        add(values_[k].xla_bytes, values_[k].color, buffer_bytes(k), last_use);
        return buffer_bytes(k);
    }
    auto const& df = live_->dataflow();
    auto const& v = df.values()[k];
    auto const& whole = m_->shape_of(v.instruction);
    std::int64_t const edited = df.index_of(v)[0];
    // Each value of the tuple weighs its whole shape in XLA's peak moment (compute_xla_peak).
    std::int64_t const xla_bytes = byte_size_of(whole, 8);
    add(xla_bytes, 0, value_size_of(whole, sizes_).value_or(0), forwarding_slot);
    std::int64_t written = 0;
    for (std::size_t j = 0; j < whole.tuple_shapes_size(); ++j) {
        auto const& part = whole.tuple_shapes()[j];
        std::int64_t const bytes = value_size_of(part, sizes_).value_or(0);
        written += bytes;
        add(xla_bytes, part.has_layout() ? part.layout().memory_space : 0, bytes,
            static_cast<std::int64_t>(j) == edited ? last_use : slot);
    }
    return written;
}

// Host offloading's four instructions (xla/service/host_offloader.cc): copy-start to S(5) and its
// copy-done right after the last read kept, copy-start back and its copy-done right before the
// next read. Copy-done reads every buffer of its copy-start (HloValue::ComputeUses), so the
// device value lives until the first copy-done and the host value until the second.
template <class P>
void basic_what_if<P>::offload_values(std::size_t k, instruction_id x, std::size_t last_kept, logical_time before,
                                      std::size_t last_use, what_if_outcome& out) {
    auto const& m = *m_;
    auto const& shape = m.shape_of(x);  // the position copied: the value, or a bitcast of it
    std::string const name(std::string_view(m.instruction(x).name));
    if (!shape.has_layout()) {
        out.reason = name + " has no layout to put in memory space 5";
        return;
    }
    // Where the copies to host go: right after the last read kept (an entry instruction or the
    // definition), so right before the entry instruction that follows it.
    if (last_kept % detail::what_if_axis::per_time != detail::what_if_axis::per_time - 1) {
        out.reason = name + "'s last read before the copy is an instruction an earlier edit inserted";
        return;
    }
    instruction_id const kept = live_->sequence()[detail::what_if_axis::time_of_slot(last_kept)];
    instruction_id const after = next_in_computation(kept);
    logical_time const to_host = *insertion_time_before(after);
    if (to_host == before || axis_.inserted_at(to_host) + 2 >= detail::what_if_axis::per_time ||
        axis_.inserted_at(before) + 2 >= detail::what_if_axis::per_time) {
        out.reason = to_host == before ? name + " is read again right after: nothing to free between"
                                       : "no room for the copies: 3 instructions at most are inserted before one";
        return;
    }
    auto host = shape;
    host.mutable_layout().memory_space = 5;
    auto const context = basic_shape<P>::make_array(primitive_type::u32, {});
    auto const to_host_shape = basic_shape<P>::make_tuple({host, shape, context});
    auto const to_device_shape = basic_shape<P>::make_tuple({shape, host, context});
    // Each value of a copy-start weighs its whole tuple in XLA's peak moment (compute_xla_peak).
    std::int64_t const to_host_xla = byte_size_of(to_host_shape, 8), to_device_xla = byte_size_of(to_device_shape, 8);
    std::int64_t const bytes = buffer_bytes(k);
    std::int64_t const table = value_size_of(to_host_shape, sizes_).value_or(0);
    std::int64_t const context_bytes = value_size_of(context, sizes_).value_or(0);
    std::size_t const cs0 = hold(to_host), cd0 = hold(to_host), cs1 = hold(before), cd1 = hold(before);
    auto add = [&](std::int64_t xla, std::int64_t color, std::int64_t hw, std::size_t first, std::size_t last) {
        std::size_t const v = add_value(xla, color, hw);
        set_range(v, first, last);
        set_segments(buffer_of_[v], {{first, last}});
    };
    std::int64_t const color = values_[k].color;
    add(to_host_xla, 0, table, cs0, cd0);
    add(to_host_xla, 5, value_size_of(host, sizes_).value_or(0), cs0, cd1);
    add(to_host_xla, 0, context_bytes, cs0, cd0);
    add(to_device_xla, 0, table, cs1, cd1);
    add(to_device_xla, color, bytes, cs1, last_use);
    add(to_device_xla, 0, context_bytes, cs1, cd1);
    set_range(k, values_[k].first, cd0);
    set_segments(buffer_of_[k], {{values_[k].first, cd0}});
    edited_[k] = true;
    log_.push_back({log_entry::flag, k, 0, 0, {}});
    out.bytes_to_host = out.bytes_to_device = bytes;
    instruction_id const reader = live_->sequence()[static_cast<std::size_t>(before)];
    out.inserted.push_back({inserted_role::copy_start_to_host, x, after, cs0});
    out.inserted.push_back({inserted_role::copy_done_to_host, x, after, cd0});
    out.inserted.push_back({inserted_role::copy_start_to_device, x, reader, cs1});
    out.inserted.push_back({inserted_role::copy_done_to_device, x, reader, cd1});
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_WHAT_IF_INSTANTIATIONS(EXTERN, P) \
    EXTERN template class basic_what_if<P>;
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_WHAT_IF_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_WHAT_IF_EDITS_HPP
