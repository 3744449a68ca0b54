// hlomem/dump/policy_cast.hpp: a buffer assignment (with its live ranges) of one policy as the
// same assignment of another (core/policy.hpp).
//
//   auto owned = std::make_unique<hlomem::buffer_assignment>(hlomem::assign_buffers(m));
//   auto view = hlomem::policy_cast<hlomem::view_policy>(*owned);  // views *owned's strings
//
// Every field is copied; strings become the other policy's string type: to view_policy they view
// the source's strings (no text is written or read again), so the source must outlive the result
// and stay where it is, its own strings included (`stated_total_human` lives in the assignment
// object itself, where a short string keeps its characters: keep the source on the heap and do
// not move it); to default_policy they are copied. The lookup by name is rebuilt (reindex).
// Python's hlomem.assign makes its Dump's view of the assigner's model so (python/src/module.cpp).
#ifndef HLOMEM_DUMP_POLICY_CAST_HPP
#define HLOMEM_DUMP_POLICY_CAST_HPP

#include <string_view>
#include <utility>

#include <hlomem/core/policy_cast.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>

namespace hlomem {

namespace detail {

template <class Q, class String>
typename Q::string_type string_cast(String const& s) {
    return typename Q::string_type(std::string_view(s));
}

template <class Q, class P>
basic_logical_value<Q> value_cast(basic_logical_value<P> const& v) {
    basic_logical_value<Q> out;
    out.live_range = v.live_range;
    out.offset = v.offset;
    out.size = v.size;
    out.shape = v.shape;
    out.instruction_shape = v.instruction_shape;
    out.color = v.color;
    out.index = policy_cast<Q>(v.index);
    out.id = v.id;
    out.name = string_cast<Q>(v.name);
    out.allocation = v.allocation;
    out.line = v.line;
    out.positions.reserve(v.positions.size());
    for (auto const& p : v.positions) {
        out.positions.push_back({string_cast<Q>(p.instruction), policy_cast<Q>(p.index), p.index_printed});
    }
    out.uses.reserve(v.uses.size());
    for (auto const& u : v.uses) {
        out.uses.push_back(
            {string_cast<Q>(u.instruction), u.operand_number, policy_cast<Q>(u.operand_index), u.index_printed});
    }
    out.instruction_text = string_cast<Q>(v.instruction_text);
    out.instruction_opcode = string_cast<Q>(v.instruction_opcode);
    out.fusion_kind = string_cast<Q>(v.fusion_kind);
    for (auto const& a : v.output_to_operand_aliasing) {
        out.output_to_operand_aliasing.push_back(
            {policy_cast<Q>(a.output_index), a.operand_number, policy_cast<Q>(a.operand_index)});
    }
    out.block_line = v.block_line;
    out.index_printed = v.index_printed;
    out.is_phi = v.is_phi;
    out.cross_color = v.cross_color;
    out.has_block = v.has_block;
    out.uses_as_printed = v.uses_as_printed;
    out.instruction_text_spaced = v.instruction_text_spaced;
    return out;
}

template <class Q, class P>
basic_allocation<Q> allocation_cast(basic_allocation<P> const& a) {
    basic_allocation<Q> out;
    out.index = a.index;
    out.size = a.size;
    out.color = a.color;
    out.address = a.address;
    out.page = a.page;
    out.parameter_number = a.parameter_number;
    out.parameter_shape_index = policy_cast<Q>(a.parameter_shape_index);
    out.parameter_shape = a.parameter_shape;
    out.output_shape = a.output_shape;
    out.shapes_in_bars = a.shapes_in_bars;
    out.is_constant = a.is_constant;
    out.is_thread_local = a.is_thread_local;
    out.maybe_live_out = a.maybe_live_out;
    out.is_preallocated_temp = a.is_preallocated_temp;
    out.values.assign(a.values.begin(), a.values.end());
    out.line = a.line;
    return out;
}

template <class Q, class P>
basic_stated_peak<Q> stated_peak_cast(basic_stated_peak<P> const& peak) {
    basic_stated_peak<Q> out;
    out.time = peak.time;
    for (auto const& e : peak.entries) {
        basic_peak_entry<Q> entry;
        entry.name = string_cast<Q>(e.name);
        if (e.index) entry.index = policy_cast<Q>(*e.index);
        entry.bytes = e.bytes;
        entry.cumulative_bytes = e.cumulative_bytes;
        entry.line = e.line;
        out.entries.push_back(std::move(entry));
    }
    out.stack_trace_total_bytes = peak.stack_trace_total_bytes;
    out.spaced_numbers = peak.spaced_numbers;
    for (auto const& n : peak.stack_trace) {
        out.stack_trace.push_back(
            {n.name, n.depth, n.percent, n.total_bytes, n.current_bytes, n.remaining_bytes, n.line});
    }
    out.line = peak.line;
    return out;
}

}  // namespace detail

template <class Q, class P>
basic_hlo_live_range<Q> policy_cast(basic_hlo_live_range<P> const& lr) {
    basic_hlo_live_range<Q> out;
    out.max = lr.max;
    out.instruction_sequence.reserve(lr.instruction_sequence.size());
    for (auto const& name : lr.instruction_sequence) out.instruction_sequence.push_back(detail::string_cast<Q>(name));
    out.buffer_live_ranges.reserve(lr.buffer_live_ranges.size());
    for (auto const& r : lr.buffer_live_ranges) {
        out.buffer_live_ranges.push_back(
            {detail::string_cast<Q>(r.name), policy_cast<Q>(r.index), r.range, r.value, r.line});
    }
    if (lr.stated_peak) out.stated_peak = detail::stated_peak_cast<Q>(*lr.stated_peak);
    out.not_available = lr.not_available;
    out.peak_undetermined = lr.peak_undetermined;
    out.peak_undetermined_line = lr.peak_undetermined_line;
    out.line = lr.line;
    return out;
}

template <class Q, class P>
basic_buffer_assignment<Q> policy_cast(basic_buffer_assignment<P> const& ba) {
    basic_buffer_assignment<Q> out;
    out.allocations.reserve(ba.allocations.size());
    for (auto const& a : ba.allocations) out.allocations.push_back(detail::allocation_cast<Q>(a));
    out.values.reserve(ba.values.size());
    for (auto const& v : ba.values) out.values.push_back(detail::value_cast<Q>(v));
    out.shapes = policy_cast<Q>(ba.shapes);
    out.stated_total_bytes = ba.stated_total_bytes;
    out.stated_total_human = detail::string_cast<Q>(ba.stated_total_human);
    out.has_used_values = ba.has_used_values;
    if (ba.live_range) out.live_range = policy_cast<Q>(*ba.live_range);
    out.file = ba.file;
    out.reindex();
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_DUMP_POLICY_CAST_HPP
