// hlomem/hlo/liveness.hpp: XLA's HloLiveRange computed from a scheduled HLO module alone — the
// flattened instruction sequence, every logical value's live range and the peak moment — and a
// buffer-assignment model built from them, so that every analysis of hlomem runs on a bare module.
//
//   auto m = hlomem::parse_hlo_module(text, "module.after_optimizations.txt");
//   hlomem::hlo_liveness live(m);                       // dataflow, aliasing, live ranges
//   live.sequence();                                    // the flattened schedule
//   live.range(k);                                      // value k's live range, if it has one
//   auto ba = hlomem::derive_buffer_assignment(live);   // values, HloBuffers, live ranges, peak
//   hlomem::print_live_range(std::cout, *ba.live_range); // what XLA writes after HloLiveRange
//
// The rules (docs/FORMATS.md 6.2; xla/hlo/utils/hlo_live_range.cc, module-scoped as buffer
// assignment runs it):
//   - logical time is a position in the flattened sequence: the entry's schedule, with the
//     schedules of called computations inlined just before the calling instruction (every branch
//     of a conditional, a call's callee, a while's condition then its body, an async
//     computation before the first instruction of its async chain); each computation is flattened
//     once, at its first call site; fusion bodies and reducers are not flattened;
//   - a value starts at its defining instruction, a parameter at the start of its computation;
//   - it ends at the latest of: its defining instruction, or that computation's end if the
//     instruction is the root (and, inside an async computation, the async chain's done); each
//     other position (a root position counts as its computation's end); each use, where a use by
//     `call` is ignored and a use by `while` counts as the body's parameter;
//   - an entry parameter that `input_output_alias` does not pair with an output lives to `max`;
//   - values of one HloBuffer are made not to overlap: sorted by (start, end, id), each one ends
//     where the next starts, and the next takes over the later end;
//   - the peak is XLA's ComputePeakMemoryMoment (peak.hpp), listed as the newest
//     HloLiveRange::ToString lists it, with the stack-trace breakdown of the values there
//     (FormatStackTraceBreakdown, hlo/stack_trace_breakdown.hpp).
// In a module printed with `is_scheduled=true` the order of each computation's instructions is
// its schedule; an unscheduled module is read in text order and total_order_scheduled() says so.
//
// What a module-derived model lacks next to a real dump: XLA's allocations and offsets (each
// HloBuffer becomes an allocation of its own at offset 0, what an allocator starts from; XLA would
// pack temps into one heap-simulated allocation per color), backend colors beyond the layouts'
// memory spaces, sizes the closed-source TPU compiler adds, and the `from instruction:` text.
#ifndef HLOMEM_HLO_LIVENESS_HPP
#define HLOMEM_HLO_LIVENESS_HPP

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/hlo/alias_analysis.hpp>
#include <hlomem/hlo/dataflow.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/stack_trace_breakdown.hpp>
#include <hlomem/memory/peak.hpp>

namespace hlomem {

/// Which version of XLA's HloLiveRange to follow where it changed.
struct liveness_options {
    dataflow_options dataflow;
    /// Newest XLA (2026) also starts the values of an async computation at the start of the
    /// computation that runs the async operation, so that they cannot share memory with what runs
    /// before the async-start; the real dumps we have predate it.
    bool async_values_start_with_caller = false;
};

/// A computation's place in the flattened sequence: instructions [start, end).
struct computation_span {
    logical_time start = 0;
    logical_time end = 0;  ///< one past its last instruction
};

/// XLA's HloLiveRange of a module, with the dataflow and alias analyses it is built on.
template <class P = default_policy>
class basic_hlo_liveness {
public:
    using module_type = basic_hlo_module<P>;

    explicit basic_hlo_liveness(module_type const& m, liveness_options const& options = {})
        : m_(&m),
          options_(options),
          df_(std::make_unique<basic_hlo_dataflow<P>>(m, options.dataflow)),
          aa_(std::make_unique<basic_hlo_alias_analysis<P>>(*df_)) {
        flatten_all();
        compute_ranges();
        normalize_aliased();
    }

    module_type const& module() const noexcept { return *m_; }
    basic_hlo_dataflow<P> const& dataflow() const noexcept { return *df_; }
    basic_hlo_alias_analysis<P> const& alias_analysis() const noexcept { return *aa_; }
    liveness_options const& options() const noexcept { return options_; }

    /// The flattened instruction sequence: the instruction at each logical time.
    std::vector<instruction_id> const& sequence() const noexcept { return sequence_; }
    /// XLA's schedule_end_time: one past the last logical time.
    logical_time max() const noexcept { return static_cast<logical_time>(sequence_.size()); }
    /// When `i` runs, or nullopt when its computation is not flattened (fusion bodies, reducers).
    std::optional<logical_time> time_of(instruction_id i) const {
        return time_[i] < 0 ? std::nullopt : std::optional<logical_time>(time_[i]);
    }
    std::optional<computation_span> span_of(computation_id c) const { return spans_[c]; }
    /// The live range of value `k` of dataflow().values(); nullopt for values of computations
    /// that are not flattened. Inclusive at both ends, as XLA prints it.
    std::optional<live_interval> const& range(std::size_t k) const { return ranges_[k]; }
    /// False when the module is not printed as scheduled: the text order stood in for a schedule.
    bool total_order_scheduled() const noexcept { return m_->is_scheduled(); }
    /// Where the module broke a rule XLA checks (a value ending before it starts, ...): warnings
    /// of kind invalid_module whose `first` is the value (core/diagnostic.hpp).
    std::vector<diagnostic> const& notes() const noexcept { return notes_; }

private:
    void flatten_all();
    void flatten(computation_id c, computation_id async_context);
    void compute_ranges();
    void normalize_aliased();
    computation_id called(instruction_id i, call_kind kind) const {
        for (auto const& c : m_->calls(i)) {
            if (c.kind == kind) return c.callee;
        }
        return no_computation;
    }
    bool is_root(instruction_id i) const { return df_->call_graph().is_root(i); }

    module_type const* m_;
    liveness_options options_;
    std::unique_ptr<basic_hlo_dataflow<P>> df_;
    std::unique_ptr<basic_hlo_alias_analysis<P>> aa_;
    std::vector<instruction_id> sequence_;
    std::vector<logical_time> time_;
    std::vector<std::optional<computation_span>> spans_;
    std::vector<bool> in_progress_;
    std::vector<computation_id> async_context_;
    std::vector<std::optional<live_interval>> ranges_;
    std::vector<diagnostic> notes_;
};

using hlo_liveness = basic_hlo_liveness<>;

template <class P>
void basic_hlo_liveness<P>::flatten_all() {
    time_.assign(m_->instruction_count(), -1);
    spans_.assign(m_->computation_count(), std::nullopt);
    in_progress_.assign(m_->computation_count(), false);
    async_context_.assign(m_->computation_count(), no_computation);
    if (m_->entry() != no_computation) flatten(m_->entry(), no_computation);
}

// XLA's HloLiveRange::FlattenSchedule in module-scoped mode.
template <class P>
void basic_hlo_liveness<P>::flatten(computation_id c, computation_id async_context) {
    if (c == no_computation || spans_[c] || in_progress_[c]) return;
    in_progress_[c] = true;
    if (async_context != no_computation) async_context_[c] = async_context;
    computation_span span;
    span.start = static_cast<logical_time>(sequence_.size());
    for (instruction_id i : m_->computation(c).instructions()) {
        switch (m_->instruction(i).opcode) {
            case hlo_opcode::call:
            case hlo_opcode::conditional:
                for (auto const& call : m_->calls(i)) {
                    if (call.kind == call_kind::call || call.kind == call_kind::conditional_branch) {
                        flatten(call.callee, async_context);
                    }
                }
                break;
            case hlo_opcode::async_start:
            case hlo_opcode::async_update:
            case hlo_opcode::async_done: {
                computation_id const wrapped = df_->call_graph().async_wrapped_computation(i);
                flatten(wrapped, wrapped);
                break;
            }
            case hlo_opcode::while_:
                flatten(called(i, call_kind::while_condition), async_context);
                flatten(called(i, call_kind::while_body), async_context);
                break;
            default:
                break;
        }
        time_[i] = static_cast<logical_time>(sequence_.size());
        sequence_.push_back(i);
    }
    span.end = static_cast<logical_time>(sequence_.size());
    spans_[c] = span;
    in_progress_[c] = false;
}

// XLA's HloLiveRange::CalculateBufferStartEndMap.
template <class P>
void basic_hlo_liveness<P>::compute_ranges() {
    auto const& values = df_->values();
    ranges_.assign(values.size(), std::nullopt);
    for (std::size_t k = 0; k < values.size(); ++k) {
        auto const& v = values[k];
        instruction_id const i = v.instruction;
        if (time_[i] < 0) continue;
        auto const& inst = m_->instruction(i);
        computation_id const c = inst.computation;
        computation_span const span = *spans_[c];
        logical_time start = inst.opcode == hlo_opcode::parameter ? span.start : time_[i];
        logical_time definition_end = is_root(i) ? span.end : time_[i];
        if (computation_id const context = async_context_[c]; context != no_computation) {
            // Values of an async computation live until its async chain is done.
            for (auto const& call : m_->callers(context)) {
                auto const op = m_->instruction(call.caller).opcode;
                if (op != hlo_opcode::async_start && op != hlo_opcode::async_update && op != hlo_opcode::async_done) continue;
                instruction_id done = no_instruction;
                if (op == hlo_opcode::async_done) {
                    done = call.caller;
                } else {
                    instruction_id const chain_start = m_->async_start_of(call.caller);
                    if (chain_start != no_instruction) done = m_->async_done_of(chain_start);
                }
                if (done != no_instruction && time_[done] >= 0) {
                    definition_end = std::max(definition_end, time_[done]);
                } else {
                    definition_end = std::max(definition_end, span.end);
                }
                if (options_.async_values_start_with_caller) {
                    if (auto const& outer = spans_[m_->instruction(call.caller).computation]) start = std::min(start, outer->start);
                }
            }
        }
        // The last non-defining position: a root position lasts to its computation's end.
        logical_time end = definition_end;
        auto const positions = df_->positions(v);
        for (std::size_t p = 1; p < positions.size(); ++p) {
            instruction_id const at = positions[p].instruction;
            if (is_root(at)) {
                if (auto const& s = spans_[m_->instruction(at).computation]) end = std::max(end, s->end);
            } else if (time_[at] >= 0) {
                end = std::max(end, time_[at]);
            }
        }
        bool aliased_parameter = false;
        if (inst.opcode == hlo_opcode::parameter && c == m_->entry()) {
            auto [path, count] = df_->tree(i).path(v.node);
            for (auto const& a : m_->input_output_aliases()) {
                if (a.parameter_number == inst.parameter_number &&
                    std::equal(a.parameter_index.begin(), a.parameter_index.end(), path, path + count)) {
                    aliased_parameter = true;
                }
            }
            if (!aliased_parameter) end = max();
        }
        if (inst.opcode != hlo_opcode::parameter || c != m_->entry() || aliased_parameter) {
            for (auto const& u : df_->uses(v)) {
                instruction_id used = u.instruction;
                auto const op = df_->call_graph().opcode(used);
                if (op == hlo_opcode::call) {
                    computation_id const callee = called(used, call_kind::call);
                    if (callee != no_computation && spans_[callee]) continue;
                }
                if (op == hlo_opcode::while_) {
                    computation_id const body = called(used, call_kind::while_body);
                    if (body != no_computation && spans_[body] && !m_->parameters(body).empty()) used = m_->parameters(body)[0];
                }
                if (time_[used] >= 0) end = std::max(end, time_[used]);
            }
        }
        if (end < start) {
            notes_.push_back(make_diagnostic(diagnostic_kind::invalid_module, severity::warning,
                                             "the live range of " + df_->name_of(v) + " would end at " +
                                                 std::to_string(end) + " before it starts at " + std::to_string(start) +
                                                 "; XLA stops on such a module")
                                 .about(k));
            end = start;
        }
        ranges_[k] = live_interval{start, end};
    }
}

// XLA's HloLiveRange::NormalizeAliasedBuffers.
template <class P>
void basic_hlo_liveness<P>::normalize_aliased() {
    auto const& values = df_->values();
    std::vector<std::size_t> ranged;
    for (auto const& buffer : aa_->buffers()) {
        if (buffer.size() < 2) continue;
        ranged.clear();
        for (std::size_t k : buffer) {
            if (ranges_[k]) ranged.push_back(k);
        }
        if (ranged.size() < 2) continue;
        std::sort(ranged.begin(), ranged.end(), [&](std::size_t a, std::size_t b) {
            return std::make_tuple(ranges_[a]->start, ranges_[a]->end, values[a].id) <
                   std::make_tuple(ranges_[b]->start, ranges_[b]->end, values[b].id);
        });
        for (std::size_t j = 0; j + 1 < ranged.size(); ++j) {
            auto& first = *ranges_[ranged[j]];
            auto& second = *ranges_[ranged[j + 1]];
            second.end = std::max(first.end, second.end);
            first.end = std::min(first.end, second.start);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A buffer-assignment model from the live ranges
// ---------------------------------------------------------------------------------------------

/// The word reports use for the sizes of a module-derived model: `padded` (XLA's generic size
/// function), `tpu` or `unpadded` (the `sizes` key of `hlomem report --json` on a module).
constexpr std::string_view derived_sizes_name(size_function_kind sizes) noexcept {
    return sizes == size_function_kind::xla ? "padded" : to_string(sizes);
}

/// The bytes one buffer of `s` takes under `sizes`; nullopt when it has none (an unbounded
/// dynamic dimension, or a size past int64).
template <class P>
std::optional<std::int64_t> value_size_of(basic_shape<P> const& s, size_function_kind sizes) {
    try {
        return bytes_under(s, sizes);
    } catch (shape_error const&) {
    }
    return std::nullopt;
}

struct derive_options {
    /// The size function of the values (core/size_function.hpp); unset, the module's own:
    /// size_function_of(m.shapes()), TPU's when any layout is tiled, XLA's generic otherwise (the
    /// one rule wherever a module becomes an assignment: assign/module_assignment.hpp).
    std::optional<size_function_kind> sizes;
    /// The listing of the peak in the derived live-range text (peak.hpp): the newest XLA's, by
    /// size with running sums and the stack-trace breakdown (hlo/stack_trace_breakdown.hpp), or
    /// with instruction_shape the older XLA's, in value order (no breakdown; older XLA printed none).
    /// The peak moment is the same under both.
    peak_size_rule peak_rule = peak_size_rule::value_subshape;
    /// Each value's positions and uses, as a dump's Used-values block lists them. Without them
    /// (false) the values keep their sizes, colors, shapes, live ranges and allocations, which is
    /// all that peaks, live bytes and the HloLiveRange text read, and the derivation skips two
    /// lists per value; printed as a dump, such a model shows no positions and no uses.
    bool positions_and_uses = true;
};

/// The size function derive_options::sizes names for `m`: the one given, or the module's own.
template <class P>
size_function_kind derived_sizes_of(basic_hlo_module<P> const& m, derive_options const& options) {
    return options.sizes ? *options.sizes : size_function_of(m.shapes());
}

namespace detail {

/// Step 1 of derive_buffer_assignment: one logical value per dataflow value outside fusion bodies,
/// with its shape interned into `ba.shapes`, its positions and uses (when asked) and its live
/// range; returns, per dataflow value, its index in `ba.values` (npos for the fusion bodies').
template <class P>
std::vector<std::size_t> derive_values(basic_hlo_liveness<P> const& live, derive_options const& options,
                                       basic_buffer_assignment<P>& ba) {
    using string_type = typename P::string_type;
    auto const& m = live.module();
    auto const& df = live.dataflow();
    auto const& values = df.values();

    // Computations whose values get no buffers: fusion bodies.
    std::vector<bool> fused(m.computation_count(), false);
    for (computation_id c = 0; c < m.computation_count(); ++c) {
        for (auto const& call : m.callers(c)) {
            if (call.kind == call_kind::fusion) fused[c] = true;
        }
    }
    // The assignment's id of each shape of the module's table, interned once: instructions with
    // equal shapes share one module shape id, and interning copies and prints the shape.
    std::vector<shape_id> interned(m.shapes().size(), no_shape);
    auto intern_instruction_shape = [&](instruction_id i) {
        shape_id const s = m.instruction(i).shape;
        if (interned[s] == no_shape) interned[s] = ba.shapes.insert(m.shape(s));
        return interned[s];
    };

    // The same for the subshapes of tuple-shaped results: (module shape id, node) -> assignment id.
    std::unordered_map<std::uint64_t, shape_id> interned_subshapes;
    auto intern_subshape = [&](instruction_id i, shape_node node, basic_shape<P> const& shape) {
        std::uint64_t const key = (static_cast<std::uint64_t>(m.instruction(i).shape) << 32) | node;
        auto [at, added] = interned_subshapes.try_emplace(key, no_shape);
        if (added) at->second = ba.shapes.insert(shape);
        return at->second;
    };

    std::vector<std::size_t> value_of(values.size(), npos);  // dataflow value -> ba value
    std::size_t kept = 0;
    for (auto const& v : values) kept += fused[m.instruction(v.instruction).computation] ? 0 : 1;
    ba.values.reserve(kept);
    for (std::size_t k = 0; k < values.size(); ++k) {
        auto const& v = values[k];
        auto const& inst = m.instruction(v.instruction);
        if (fused[inst.computation]) continue;
        basic_logical_value<P> lv;
        lv.id = static_cast<std::int64_t>(v.id);
        lv.name = inst.name;
        lv.index = df.index_of(v);
        lv.index_printed = m.shape_of(v.instruction).is_tuple();
        lv.is_phi = v.is_phi;
        auto const& shape = m.shape_of(v.instruction).subshape(lv.index);
        lv.color = shape.has_layout() ? shape.layout().memory_space : 0;
        lv.shape = lv.index.empty() ? intern_instruction_shape(v.instruction) : intern_subshape(v.instruction, v.node, shape);
        lv.has_block = true;
        if (options.positions_and_uses) {
            lv.positions.reserve(df.positions(v).size());
            lv.uses.reserve(df.uses(v).size());
        }
        for (auto const& p : options.positions_and_uses ? df.positions(v) : list_view<hlo_value_position>()) {
            basic_hlo_position<P> pos;
            pos.instruction = m.instruction(p.instruction).name;
            pos.index = df.index_of(p.instruction, p.node);
            pos.index_printed = m.shape_of(p.instruction).is_tuple();
            lv.positions.push_back(std::move(pos));
        }
        for (auto const& u : options.positions_and_uses ? df.uses(v) : list_view<hlo_value_use>()) {
            basic_hlo_use<P> use;
            use.instruction = m.instruction(u.instruction).name;
            use.operand_number = u.operand_number;
            instruction_id const operand = m.operands(u.instruction)[u.operand_number];
            use.operand_index = df.index_of(operand, u.node);
            use.index_printed = m.shape_of(operand).is_tuple();
            lv.uses.push_back(std::move(use));
        }
        lv.uses_as_printed = lv.uses.empty() ? uses_state::none : uses_state::listed;
        lv.instruction_shape = intern_instruction_shape(v.instruction);
        lv.instruction_opcode = string_type(m.opcode_name(v.instruction));
        if (inst.fusion != fusion_kind::none) lv.fusion_kind = string_type(to_string(inst.fusion));
        for (auto const& a : m.output_to_operand_aliasing(v.instruction)) {
            lv.output_to_operand_aliasing.push_back({a.output_index, a.operand_number, a.operand_index});
        }
        lv.live_range = live.range(k);
        value_of[k] = ba.values.size();
        ba.values.push_back(std::move(lv));
    }
    return value_of;
}

/// Step 2: one allocation per HloBuffer that holds a value of step 1 (offset 0, its size the
/// largest of its values' under `sizes`, each distinct shape sized once), flagged as XLA flags it;
/// every value takes its allocation's size.
template <class P>
void derive_allocations(basic_hlo_liveness<P> const& live, size_function_kind sizes,
                        std::vector<std::size_t> const& value_of, basic_buffer_assignment<P>& ba) {
    auto const& m = live.module();
    auto const& values = live.dataflow().values();
    std::vector<std::optional<std::int64_t>> size_of_shape(ba.shapes.size());
    std::vector<bool> sized(ba.shapes.size(), false);
    auto size_of = [&](shape_id id) {
        if (!sized[id]) {
            sized[id] = true;
            size_of_shape[id] = value_size_of(ba.shapes[id], sizes);
        }
        return size_of_shape[id];
    };
    std::optional<shape_id> output_shape;  // the entry result's, interned on first need
    // At most one allocation per value kept: reserved once, so that the records are never moved
    // (room left unused is never touched).
    ba.allocations.reserve(ba.values.size());
    for (auto const& buffer : live.alias_analysis().buffers()) {
        // Most HloBuffers of a large module hold values of fusion bodies only: no allocation.
        if (std::none_of(buffer.begin(), buffer.end(), [&](std::size_t k) { return value_of[k] != npos; })) continue;
        basic_allocation<P> a;
        a.index = static_cast<std::int64_t>(ba.allocations.size());
        bool any = false, temp = true;
        for (std::size_t k : buffer) {
            if (value_of[k] == npos) continue;
            auto& lv = ba.values[value_of[k]];
            auto const& v = values[k];
            auto const& inst = m.instruction(v.instruction);
            if (!any) a.color = lv.color.value_or(0);
            any = true;
            a.size = std::max(a.size, size_of(lv.shape).value_or(0));
            if (inst.opcode == hlo_opcode::parameter && inst.computation == m.entry()) {
                a.parameter_number = inst.parameter_number;
                a.parameter_shape_index = lv.index;
                a.parameter_shape = lv.shape;
                temp = false;
            }
            if (inst.opcode == hlo_opcode::constant) a.is_constant = true;
            if (!live.range(k)) a.is_thread_local = true;
            if (v.live_out) a.maybe_live_out = true;
        }
        if (!any) continue;
        if (a.maybe_live_out && m.entry() != no_computation) {
            // The shape table interns by text: the root's shape keeps the id step 1 gave it.
            if (!output_shape) output_shape = ba.shapes.insert(m.shape_of(m.entry_computation().root));
            a.output_shape = *output_shape;
        }
        a.is_preallocated_temp = temp && !a.is_constant && !a.is_thread_local && !a.maybe_live_out;
        for (std::size_t k : buffer) {
            if (value_of[k] == npos) continue;
            ba.values[value_of[k]].allocation = ba.allocations.size();
            ba.values[value_of[k]].offset = 0;
            a.values.push_back(value_of[k]);
        }
        ba.allocations.push_back(std::move(a));
    }
    for (auto& lv : ba.values) lv.size = ba.allocations[lv.allocation].size;
}

/// Step 3: the HloLiveRange text (the sequence, a BufferLiveRange line per value with a range, by
/// id) and the peak compute_xla_peak finds, listed under `peak_rule`, stated in it and put in
/// `peak_out`; under the newest listing, with the breakdown of the values listed (each of which
/// `value_of`, per dataflow value its index in `ba.values`, names with its defining instruction).
template <class P>
void derive_live_range_text(basic_hlo_liveness<P> const& live, peak_size_rule peak_rule,
                            std::vector<std::size_t> const& value_of, basic_buffer_assignment<P>& ba,
                            std::optional<xla_peak>& peak_out) {
    auto const& m = live.module();
    basic_hlo_live_range<P> lr;
    lr.max = live.max();
    for (instruction_id i : live.sequence()) lr.instruction_sequence.push_back(m.instruction(i).name);
    for (std::size_t k = 0; k < ba.values.size(); ++k) {
        auto const& lv = ba.values[k];
        if (!lv.live_range) continue;
        basic_buffer_live_range<P> r;
        r.name = lv.name;
        r.index = lv.index;
        r.range = *lv.live_range;
        r.value = k;
        lr.buffer_live_ranges.push_back(std::move(r));
    }
    ba.live_range = std::move(lr);
    try {
        xla_peak const peak = compute_xla_peak(ba, peak_rule);
        basic_stated_peak<P> stated;
        stated.time = peak.time;
        std::int64_t cumulative = 0;
        for (std::size_t j = 0; j < peak.values.size(); ++j) {
            auto const& lv = ba.values[peak.values[j]];
            basic_peak_entry<P> e;
            e.name = lv.name;
            e.bytes = peak.sizes[j];
            if (peak_rule == peak_size_rule::value_subshape) {
                e.index = lv.index;
                cumulative += e.bytes;
                e.cumulative_bytes = cumulative;
            }
            stated.entries.push_back(std::move(e));
        }
        if (peak_rule == peak_size_rule::value_subshape) {
            // The module is known: HloLiveRange::ToString appends FormatStackTraceBreakdown of
            // the listed values, (bytes, value) in the listing's order.
            std::vector<instruction_id> instruction_of(ba.values.size(), no_instruction);
            auto const& values = live.dataflow().values();
            for (std::size_t k = 0; k < value_of.size(); ++k) {
                if (value_of[k] != npos) instruction_of[value_of[k]] = values[k].instruction;
            }
            std::vector<basic_sized_buffer<P>> buffers;
            buffers.reserve(peak.values.size());
            for (std::size_t j = 0; j < peak.values.size(); ++j) {
                buffers.push_back({peak.sizes[j], instruction_of[peak.values[j]], ba.values[peak.values[j]].index});
            }
            auto breakdown = format_stack_trace_breakdown(buffers, m);
            stated.stack_trace_total_bytes = breakdown.total_bytes;
            // FormatBytesWithSpaces groups every figure; none exceeds the total, so below 1000
            // none shows a space, and the text read back says plain, as this model then does.
            stated.spaced_numbers = breakdown.total_bytes >= 1000;
            stated.stack_trace.assign(breakdown.nodes.begin(), breakdown.nodes.end());
        }
        ba.live_range->stated_peak = std::move(stated);
        peak_out = peak;
    } catch (shape_error const&) {
        // An unbounded dynamic shape: XLA states no peak either; the newest text says so in a
        // line of its own (basic_hlo_live_range::peak_undetermined).
        if (peak_rule == peak_size_rule::value_subshape) ba.live_range->peak_undetermined = true;
    }
}

}  // namespace detail

/// A buffer-assignment model of the module: one logical value per value XLA's buffer assignment
/// sees (values of fusion bodies are left out; those of reducers and other embedded computations
/// are kept, without live ranges, as thread-local), with positions, uses and live ranges; one
/// allocation per HloBuffer (offset 0, size the largest of its values under `options.sizes`, the
/// module's own size function when unset, color the memory space of the values' layouts, flagged
/// as parameter, constant, thread-local, maybe-live-out, or else preallocated-temp); and the
/// HloLiveRange text with the peak computed by compute_xla_peak (stated_peak holds it, so that
/// print_live_range prints it). Names are of the module's string type: with view_policy they view
/// the module's text. assign/module_assignment.hpp's assign_module gives it with the peak and the
/// analyses' notes (its `derived` result).
template <class P>
basic_buffer_assignment<P> derive_buffer_assignment(basic_hlo_liveness<P> const& live, derive_options const& options = {}) {
    std::optional<xla_peak> peak;
    return derive_buffer_assignment(live, options, peak);
}

/// The same, with XLA's peak that the live-range text states put in `peak` (nullopt when it
/// states none), so that a caller needs not compute it a second time.
template <class P>
basic_buffer_assignment<P> derive_buffer_assignment(basic_hlo_liveness<P> const& live, derive_options const& options,
                                                    std::optional<xla_peak>& peak_out) {
    basic_buffer_assignment<P> ba;
    ba.file = std::string(std::string_view(live.module().name()));
    auto const value_of = detail::derive_values(live, options, ba);
    detail::derive_allocations(live, derived_sizes_of(live.module(), options), value_of, ba);
    ba.has_used_values = true;
    ba.reindex();
    detail::derive_live_range_text(live, options.peak_rule, value_of, ba, peak_out);
    return ba;
}

/// The whole chain on a module: dataflow, aliasing, live ranges and the derived model.
template <class P>
basic_buffer_assignment<P> derive_buffer_assignment(basic_hlo_module<P> const& m, liveness_options const& liveness = {},
                                                    derive_options const& options = {}) {
    return derive_buffer_assignment(basic_hlo_liveness<P>(m, liveness), options);
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_LIVENESS_INSTANTIATIONS(EXTERN, P) \
    EXTERN template class basic_hlo_liveness<P>;
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_LIVENESS_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_HLO_LIVENESS_HPP
