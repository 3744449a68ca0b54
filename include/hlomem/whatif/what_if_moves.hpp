// hlomem/whatif/what_if_moves.hpp: what basic_what_if (whatif/what_if.hpp) checks before any edit
// changes a live range: apply() and undo's mark, which values an edit may move and why not (each
// refusal with the XLA rule behind it), where an inserted instruction goes, and move(), which
// finds the reads a remat or an offload takes over before whatif/what_if_remat.hpp or
// whatif/what_if_offload.hpp changes anything.
#ifndef HLOMEM_WHATIF_WHAT_IF_MOVES_HPP
#define HLOMEM_WHATIF_WHAT_IF_MOVES_HPP

#include <algorithm>
#include <string>
#include <vector>

#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

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
    return remat_value({k, through, def, last_kept, next_use, uses.back(), next_time, reader}, e.chain, out);
}

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_WHAT_IF_MOVES_HPP
