// hlomem/assign/problem_builder.hpp: XLA's BufferAssigner up to the heap on a scheduled module
// (detail::buffer_assigner, run by make_assignment_problem): the values and HloBuffers from the
// module's own analyses, the buffers in BufferOrder::kBiggestFirst, AssignSpecialHloBuffer,
// AssignSingleHloBuffer and MaybeAssignBuffer for the global computations, the heap problem of each
// color with the values that share an operand's chunk (HeapSimulator's ShareWith) and each
// HloBuffer's colocations, then the thread-local computations. The steps are told at the top of
// assign/buffer_assigner.hpp.
#ifndef HLOMEM_ASSIGN_PROBLEM_BUILDER_HPP
#define HLOMEM_ASSIGN_PROBLEM_BUILDER_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <numeric>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <hlomem/assign/backend.hpp>
#include <hlomem/assign/buffer_sharing.hpp>
#include <hlomem/assign/live_range_index.hpp>
#include <hlomem/assign/post_order.hpp>
#include <hlomem/assign/problem.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/liveness.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/memory/soundness.hpp>
#include <hlomem/placement/problem.hpp>
#include <hlomem/placement/temp_arena.hpp>

namespace hlomem {

namespace detail {

template <class P>
class buffer_assigner {
public:
    /// `live`: the analyses of `m` (assigner_liveness_options), which must outlive the assigner.
    buffer_assigner(basic_hlo_module<P> const& m, assign_options const& options, basic_hlo_liveness<P> const& live)
        : m_(m), options_(options), live_(live) {}

    basic_assignment_problem<P> run() {
        basic_assignment_problem<P> out;
        out.inference = infer_backend(m_);
        out.backend = options_.backend.value_or(out.inference.backend);
        if (options_.backend) {
            out.inference.reason = "given";
            out.inference.inferred = false;
        }
        out.alignment = options_.alignment.value_or(default_alignment(out.backend));
        out.sizes = options_.sizes.value_or(size_function_of(m_.shapes()));
        derive_options derive;
        derive.sizes = out.sizes;
        out.model = derive_buffer_assignment(live_, derive);
        out.notes = live_.dataflow().notes();
        out.notes.insert(out.notes.end(), live_.notes().begin(), live_.notes().end());
        for (auto const& a : out.model.allocations) {
            if (a.output_shape) out.output_shape = out.model.shapes.insert(without_layouts(out.model.shapes[*a.output_shape]));
        }
        out.model.allocations.clear();
        if (m_.entry() != no_computation && m_.entry_computation().root != no_instruction) {
            out.output_name = std::string(std::string_view(m_.instruction(m_.entry_computation().root).name));
        }
        p_ = &out;
        map_values();
        instruction_texts();
        make_buffers();
        assign_global();
        make_heaps();
        assign_thread_local();
        return out;
    }

private:

    // Dataflow value k -> model value (fusion bodies have none), and back.
    void map_values() {
        auto const& values = live_.dataflow().values();
        model_of_.assign(values.size(), npos);
        std::size_t next = 0;
        for (std::size_t k = 0; k < values.size() && next < p_->model.values.size(); ++k) {
            if (p_->model.values[next].id == static_cast<std::int64_t>(values[k].id)) model_of_[k] = next++;
        }
        dataflow_of_.assign(p_->model.values.size(), npos);
        for (std::size_t k = 0; k < values.size(); ++k) {
            if (model_of_[k] != npos) dataflow_of_[model_of_[k]] = k;
        }
        p_->value_sizes.assign(p_->model.values.size(), 0);
        for (std::size_t v = 0; v < p_->model.values.size(); ++v) {
            p_->value_sizes[v] = value_size_of(p_->model.shapes[p_->model.values[v].shape], p_->sizes).value_or(0);
        }
    }

    // The `from instruction:` text of every value, and `uses:` printed as XLA prints it: nothing
    // under ` uses:` when there are none (uses_state::empty, what the parser reads it as).
    void instruction_texts() {
        using string_type = typename P::string_type;
        std::string_view const text = options_.module_text;
        for (std::size_t v = 0; v < p_->model.values.size(); ++v) {
            auto& lv = p_->model.values[v];
            lv.uses_as_printed = lv.uses.empty() ? uses_state::empty : uses_state::listed;
            instruction_id const i = instruction_of(v);
            auto const& inst = m_.instruction(i);
            if (!text.empty() && inst.offset < text.size()) {
                std::size_t begin = inst.offset;
                std::size_t const end = std::min(text.find('\n', begin), text.size());
                while (begin < end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
                if (text.compare(begin, 5, "ROOT ") == 0) begin += 5;
                std::size_t stop = end;
                while (stop > begin && (text[stop - 1] == '\r' || text[stop - 1] == ' ')) --stop;
                lv.instruction_text = string_type(text.substr(begin, stop - begin));
            } else if constexpr (std::is_same_v<string_type, std::string>) {
                std::string line = "%" + std::string(std::string_view(inst.name)) + " = " + to_string(m_.shape_of(i)) + " " +
                                   std::string(m_.opcode_name(i)) + "(";
                auto const ops = m_.operands(i);
                for (std::size_t k = 0; k < ops.size(); ++k) {
                    line += (k ? ", %" : "%") + std::string(std::string_view(m_.instruction(ops[k]).name));
                }
                lv.instruction_text = line + ")";
            }
        }
    }

    void make_buffers() {
        auto const& aa = live_.alias_analysis();
        auto const& values = live_.dataflow().values();
        auto const position = post_order_positions(m_);
        struct keyed {
            assignment_buffer buffer;
            std::int64_t position;
            std::size_t id;
        };
        std::vector<keyed> all;
        for (std::size_t b = 0; b < aa.buffers().size(); ++b) {
            keyed k{{}, 0, b};
            bool first = true;
            for (std::size_t dk : aa.buffers()[b]) {
                std::size_t const v = model_of_[dk];
                if (v == npos) continue;
                auto const& lv = p_->model.values[v];
                k.buffer.values.push_back(v);
                k.buffer.size = std::max(k.buffer.size, p_->value_sizes[v]);
                if (first) k.buffer.color = lv.color.value_or(0);
                if (lv.live_range) {
                    k.buffer.range = k.buffer.range ? live_interval{std::min(k.buffer.range->start, lv.live_range->start),
                                                                    std::max(k.buffer.range->end, lv.live_range->end)}
                                                    : *lv.live_range;
                } else {
                    k.buffer.is_thread_local = true;
                }
                k.buffer.live_out = k.buffer.live_out || values[dk].live_out;
                instruction_id const at = values[dk].instruction;
                std::int64_t pos = position.instruction[at];
                if (position.async_root[at] >= 0 && live_.dataflow().tree(at).top_index(values[dk].node) == 1) {
                    pos = position.async_root[at];  // defined in the computation the sugar hides
                }
                k.position = first ? pos : std::min(k.position, pos);
                first = false;
            }
            if (!k.buffer.values.empty()) all.push_back(std::move(k));
        }
        // BufferOrder::kBiggestFirst: CompareSize, CompareLiveOut, ComparePosition, then the id.
        std::sort(all.begin(), all.end(), [](keyed const& a, keyed const& b) {
            return std::make_tuple(-a.buffer.size, !a.buffer.live_out, a.position, a.id) <
                   std::make_tuple(-b.buffer.size, !b.buffer.live_out, b.position, b.id);
        });
        for (auto& k : all) p_->buffers.push_back(std::move(k.buffer));
    }

    std::size_t new_allocation(assignment_buffer& b, buffer_assignment_kind kind, int pass) {
        assigned_allocation a;
        a.size = b.size;
        a.color = b.color;
        a.pass = pass;
        p_->allocations.push_back(std::move(a));
        add(p_->allocations.size() - 1, b, kind);
        return p_->allocations.size() - 1;
    }
    void add(std::size_t ai, assignment_buffer& b, buffer_assignment_kind kind) {
        auto& a = p_->allocations[ai];
        a.values.insert(a.values.end(), b.values.begin(), b.values.end());
        if (ranges_.size() <= ai) ranges_.resize(ai + 1);
        for (std::size_t v : b.values) {
            auto const& r = p_->model.values[v].live_range;
            if (r) {
                ranges_[ai].index.insert(r->start, r->end);
            } else {
                ++ranges_[ai].without_range;
            }
        }
        if (b.live_out) a.maybe_live_out = true;  // AddAssignment marks live-out buffers' allocations
        b.allocation = ai;
        b.kind = kind;
    }

    instruction_id instruction_of(std::size_t v) const { return live_.dataflow().values()[dataflow_of_[v]].instruction; }

    // AssignSpecialHloBuffer.
    bool assign_special(assignment_buffer& b, int pass) {
        auto const& df = live_.dataflow();
        for (std::size_t v : b.values) {
            instruction_id const i = instruction_of(v);
            auto const& inst = m_.instruction(i);
            if (inst.opcode == hlo_opcode::constant) {
                if (options_.allocate_buffers_for_constants) {
                    p_->allocations[new_allocation(b, buffer_assignment_kind::constant, pass)].is_constant = true;
                } else {
                    b.kind = buffer_assignment_kind::constant;
                }
                return true;
            }
            if (inst.opcode == hlo_opcode::parameter && inst.computation == m_.entry()) {
                auto const& hv = df.values()[dataflow_of_[v]];
                auto [path, count] = df.tree(i).path(hv.node);
                bool aliased = false;
                for (auto const& alias : m_.input_output_aliases()) {
                    aliased = aliased || (alias.parameter_number == inst.parameter_number &&
                                          std::equal(alias.parameter_index.begin(), alias.parameter_index.end(), path, path + count));
                }
                std::size_t const ai = new_allocation(b, buffer_assignment_kind::entry_parameter, pass);
                auto& a = p_->allocations[ai];
                a.parameter_number = inst.parameter_number;
                a.parameter_index.assign(path, path + count);
                a.parameter_value = v;
                a.parameter_aliased = aliased;
                if (aliased) candidates_.push_back(ai);  // RegisterAliasedEntryParameterAllocation
                return true;
            }
        }
        if (b.is_thread_local) {
            p_->allocations[new_allocation(b, buffer_assignment_kind::thread_local_, pass)].is_thread_local = true;
            return true;
        }
        for (std::size_t v : b.values) {
            if (p_->model.shapes[p_->model.values[v].shape].is_tuple()) {
                p_->allocations[new_allocation(b, buffer_assignment_kind::tuple, pass)].is_tuple = true;
                return true;
            }
        }
        return false;
    }

    // BufferAssigner::LiveRangeInterferes's can_share_as_operand.
    bool can_share_as_operand(std::size_t user, std::size_t operand) const {
        auto const& df = live_.dataflow();
        instruction_id const u = instruction_of(user);
        if (m_.instruction(u).opcode == hlo_opcode::copy) return false;
        auto const ops = m_.operands(u);
        for (auto const& pos : df.positions(df.values()[dataflow_of_[operand]])) {
            if (std::find(ops.begin(), ops.end(), pos.instruction) == ops.end()) continue;
            if (can_share_operand_buffer_with_user(live_.alias_analysis(), pos.instruction, df.index_of(pos.instruction, pos.node), u,
                                                   p_->model.values[user].index, p_->backend == xla_backend::gpu)) {
                return true;
            }
        }
        return false;
    }

    bool live_range_interferes(std::size_t a, std::size_t b) const {
        auto const& ra = p_->model.values[a].live_range;
        auto const& rb = p_->model.values[b].live_range;
        if (!ra || !rb) return true;
        if (ra->start > rb->end || rb->start > ra->end) return false;
        if (ra->end == rb->start) return !can_share_as_operand(b, a);
        if (rb->end == ra->start) return !can_share_as_operand(a, b);
        return true;
    }

    // BufferAssigner::MaybeAssignBuffer. XLA compares the buffer's values with every value the
    // allocation holds (LiveRangeInterferes, and the copy rule); the same answer comes from the
    // allocation's live_range_index (a range overlapping by more than an end point interferes
    // whatever else holds) and from the few values that start where the new one ends or end where
    // it starts, found by time, on which LiveRangeInterferes itself decides. The copy rule is
    // asked of the values at the copy's operand, whose positions are those operands.
    bool maybe_assign(std::size_t ai, assignment_buffer& b) {
        auto const& a = p_->allocations[ai];
        bool const input_or_output = a.parameter_number.has_value() || a.maybe_live_out;
        if (input_or_output && b.color != a.color) return false;
        if (b.color != a.color) return false;
        if (b.size > a.size) return false;
        if ((a.parameter_number && !a.parameter_aliased) || a.is_constant) return false;  // is_readonly
        if (a.is_thread_local || a.is_tuple) return false;                                  // !is_reusable
        if (!a.values.empty()) {
            auto const& held = ranges_[ai];
            auto const& df = live_.dataflow();
            auto const held_here = [&](std::size_t x) {
                std::size_t const owner = buffer_of_value(x);
                return owner != npos && p_->buffers[owner].allocation == ai;
            };
            for (std::size_t v : b.values) {
                auto const& r = p_->model.values[v].live_range;
                if (!r || held.without_range > 0) return false;  // no range: interferes with everything
                if (held.index.overlaps_inside(r->start, r->end)) return false;
                for (auto const& [time, list] : {std::pair{r->end, &starting_at_}, std::pair{r->start, &ending_at_}}) {
                    for (std::size_t x : list->at(time)) {
                        if (held_here(x) && live_range_interferes(v, x)) return false;
                    }
                }
                instruction_id const i = instruction_of(v);
                if (m_.instruction(i).opcode == hlo_opcode::copy) {  // a copy never takes its operand's place
                    for (instruction_id operand : m_.operands(i)) {
                        for (shape_node n = 0; n < df.tree(operand).size(); ++n) {
                            for (value_id id : df.value_set(operand, n)) {
                                std::size_t const dk = df.value_index(id);
                                if (dk != no_value_index && model_of_[dk] != npos && held_here(model_of_[dk])) return false;
                            }
                        }
                    }
                }
            }
        }
        if (b.live_out && a.size != b.size) return false;
        add(ai, b, buffer_assignment_kind::reused);
        return true;
    }

    // AssignSingleHloBuffer.
    void assign_single(assignment_buffer& b) {
        auto const& df = live_.dataflow();
        for (std::size_t v : b.values) {
            auto const& lv = p_->model.values[v];
            if (!lv.index.empty() || p_->model.shapes[lv.shape].is_tuple()) continue;
            for (instruction_id operand : m_.operands(instruction_of(v))) {
                shape_node const top = df.node_of(operand, std::initializer_list<std::int64_t>{});
                if (top == no_node) continue;
                for (value_id id : df.value_set(operand, top)) {
                    std::size_t const dk = df.value_index(id);
                    if (dk == no_value_index || model_of_[dk] == npos) continue;
                    std::size_t const owner = buffer_of_value(model_of_[dk]);
                    if (owner == npos || p_->buffers[owner].allocation == npos) continue;
                    if (maybe_assign(p_->buffers[owner].allocation, b)) return;
                }
            }
        }
        for (std::size_t k = candidates_.size(); k-- > 0;) {
            if (maybe_assign(candidates_[k], b)) return;
        }
        if (!b.live_out && b.range) {  // DelayTemporaryBufferAssignment
            b.kind = buffer_assignment_kind::heap;
            return;
        }
        candidates_.push_back(new_allocation(b, buffer_assignment_kind::own, 0));  // RegisterNewAllocation
    }

    std::size_t buffer_of_value(std::size_t v) const { return v < buffer_of_.size() ? buffer_of_[v] : npos; }

    void assign_global() {
        buffer_of_.assign(p_->model.values.size(), npos);
        for (std::size_t b = 0; b < p_->buffers.size(); ++b) {
            for (std::size_t v : p_->buffers[b].values) buffer_of_[v] = b;
        }
        auto const& values = p_->model.values;
        starting_at_.build(values.size(), [&](std::size_t v) { return values[v].live_range ? values[v].live_range->start : -1; });
        ending_at_.build(values.size(), [&](std::size_t v) { return values[v].live_range ? values[v].live_range->end : -1; });
        for (auto& b : p_->buffers) {
            if (b.is_thread_local) continue;
            if (!assign_special(b, 0)) assign_single(b);
        }
    }

    void assign_thread_local() {
        for (auto& b : p_->buffers) {
            if (b.is_thread_local) assign_special(b, 2);
        }
    }

    // HeapSimulator over the whole module, one problem per color.
    void make_heaps() {
        auto& model = p_->model;
        std::map<std::int64_t, std::vector<std::size_t>> by_color;  // heap values by color
        for (auto const& b : p_->buffers) {
            if (b.is_thread_local || b.kind != buffer_assignment_kind::heap || b.allocation != npos) continue;
            // Values of size 0 too: XLA lists them in the temp allocation (at their group's offset).
            by_color[b.color].insert(by_color[b.color].end(), b.values.begin(), b.values.end());
        }
        // Groups: an HloBuffer, joined with an operand whose last use defines a value that may
        // take its place (HeapSimulator: ShareWith after CanShareOperandBufferWithUser).
        std::vector<std::size_t> parent(model.values.size());
        std::iota(parent.begin(), parent.end(), std::size_t{0});
        auto find = [&](std::size_t x) {
            while (parent[x] != x) x = parent[x] = parent[parent[x]];
            return x;
        };
        for (auto const& b : p_->buffers) {
            for (std::size_t k = 1; k < b.values.size(); ++k) parent[find(b.values[k])] = find(b.values[0]);
        }
        std::vector<char> in_heap(model.values.size(), 0);
        for (auto const& [color, vs] : by_color) {
            for (std::size_t v : vs) in_heap[v] = 1;
        }
        auto const& df = live_.dataflow();
        for (auto const& [color, vs] : by_color) {
            std::vector<std::size_t> order(vs);
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                auto const& ra = *model.values[a].live_range;
                auto const& rb = *model.values[b].live_range;
                return std::make_tuple(ra.start, ra.end, model.values[a].id) < std::make_tuple(rb.start, rb.end, model.values[b].id);
            });
            std::vector<char> taken(model.values.size(), 0);  // an operand chunk already passed on
            for (std::size_t v : order) {
                auto const& lv = model.values[v];
                // HeapSimulator::Run: a value shares an operand's chunk only when its HloBuffer
                // holds it alone ("we don't support sharing an aliased buffer"), from the
                // operand's top-level value set, a value held alone too, freed at this time and
                // not passed on yet, whose defining instruction the user reads directly (a value
                // reached through a get-tuple-element or bitcast is not shared: XLA asks
                // IsUserOf(operand_value->instruction())), and never for a copy.
                if (!single_valued(v)) continue;
                instruction_id const user = instruction_of(v);
                if (m_.instruction(user).opcode == hlo_opcode::copy) continue;
                auto const user_ops = m_.operands(user);
                bool shared = false;
                for (std::size_t k = 0; k < user_ops.size() && !shared; ++k) {
                    instruction_id const operand = user_ops[k];
                    shape_node const top = df.node_of(operand, std::initializer_list<std::int64_t>{});
                    if (top == no_node) continue;
                    for (value_id id : df.value_set(operand, top)) {
                        std::size_t const dk = df.value_index(id);
                        if (dk == no_value_index || model_of_[dk] == npos) continue;
                        std::size_t const a = model_of_[dk];
                        auto const& la = model.values[a];
                        if (!in_heap[a] || taken[a] || !la.live_range || la.live_range->end != lv.live_range->start) continue;
                        if (la.color != lv.color || !single_valued(a) || find(a) == find(v)) continue;
                        instruction_id const defining = instruction_of(a);
                        if (std::find(user_ops.begin(), user_ops.end(), defining) == user_ops.end()) continue;
                        if (!can_share_operand_buffer_with_user(live_.alias_analysis(), defining, la.index, user, lv.index,
                                                                p_->backend == xla_backend::gpu)) {
                            continue;
                        }
                        taken[a] = 1;
                        parent[find(v)] = find(a);
                        shared = true;
                        break;
                    }
                }
            }
        }
        // The problems, with the heap values in one provisional allocation so that XLA's event
        // keys (temp_arena.hpp) can be replayed: the model's placement fields are set so for that
        // and put back after (a copy of the model held as much memory again as the model).
        struct placement {
            std::size_t allocation;
            std::int64_t offset, size;
        };
        std::vector<placement> kept(model.values.size());
        for (std::size_t v = 0; v < model.values.size(); ++v) {
            auto& lv = model.values[v];
            kept[v] = {lv.allocation, lv.offset, lv.size};
            lv.allocation = 0;
            lv.offset = 0;
            lv.size = p_->value_sizes[v];
        }
        for (auto const& [color, vs] : by_color) {
            heap_problem h;
            h.color = color;
            std::map<std::size_t, std::size_t> group_of_root;
            for (std::size_t v : vs) {
                auto [it, fresh] = group_of_root.emplace(find(v), h.groups.size());
                if (fresh) h.groups.emplace_back();
                h.groups[it->second].push_back(v);
            }
            for (auto& g : h.groups) std::sort(g.begin(), g.end());
            std::sort(h.groups.begin(), h.groups.end(), [&](auto const& a, auto const& b) { return a.front() < b.front(); });
            h.keys = xla_heap_keys(model, h.groups);
            for (std::size_t g = 0; g < h.groups.size(); ++g) {
                problem_buffer pb;
                pb.id = std::to_string(model.values[h.groups[g].front()].id);
                live_interval hull = *model.values[h.groups[g].front()].live_range;
                for (std::size_t v : h.groups[g]) {
                    hull.start = std::min(hull.start, model.values[v].live_range->start);
                    hull.end = std::max(hull.end, model.values[v].live_range->end);
                    pb.size = std::max(pb.size, p_->value_sizes[v]);
                }
                pb.span = to_lifespan(hull);
                // GlobalDecreasingSizeBestFitHeap places a buffer with its colocations (the other
                // values of its HloBuffer, the values that share its chunk), each over its own
                // live range (FindChunkCandidate asks the interval tree per colocation): a while
                // loop's state leaves its chunk free between the body's last read of its parameter
                // and the write of the body's result.
                pb.segments = live_segments(model, h.groups[g]);
                pb.alignment = p_->alignment;
                h.problem.buffers.push_back(std::move(pb));
            }
            p_->heaps.push_back(std::move(h));
        }
        for (std::size_t v = 0; v < model.values.size(); ++v) {
            auto& lv = model.values[v];
            lv.allocation = kept[v].allocation;
            lv.offset = kept[v].offset;
            lv.size = kept[v].size;
        }
    }

    bool single_valued(std::size_t v) const {
        std::size_t const b = buffer_of_value(v);
        return b == npos || p_->buffers[b].values.size() == 1;
    }


    basic_hlo_module<P> const& m_;
    assign_options const& options_;
    basic_hlo_liveness<P> const& live_;
    basic_assignment_problem<P>* p_ = nullptr;
    std::vector<std::size_t> model_of_, dataflow_of_, buffer_of_;
    std::vector<std::size_t> candidates_;  // allocation indices TryAssignToExistingAllocation scans
    struct held_ranges {
        live_range_index index;
        std::size_t without_range = 0;
    };
    std::vector<held_ranges> ranges_;  // per allocation, the live ranges of its values
    values_by_time starting_at_, ending_at_;  // the model values whose range starts (ends) at a time
};

}  // namespace detail

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_PROBLEM_BUILDER_HPP
