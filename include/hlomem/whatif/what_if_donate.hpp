// hlomem/whatif/what_if_donate.hpp: the donation of basic_what_if (whatif/what_if.hpp): an entry
// parameter shares the buffer of an output of its shape and size (input_output_alias), refused
// where XLA would refuse it.
#ifndef HLOMEM_WHATIF_WHAT_IF_DONATE_HPP
#define HLOMEM_WHATIF_WHAT_IF_DONATE_HPP

#include <cstdint>
#include <string>
#include <vector>

#include <hlomem/core/shape_equal.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

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

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_WHAT_IF_DONATE_HPP
