// hlomem/whatif/what_if_model.hpp: the model of basic_what_if (whatif/what_if.hpp): the setup that
// lays every value and buffer on the time axis, the curves, their peaks, and undo; the edits are
// in what_if_moves.hpp, what_if_donate.hpp, what_if_remat.hpp and what_if_offload.hpp.
#ifndef HLOMEM_WHATIF_WHAT_IF_MODEL_HPP
#define HLOMEM_WHATIF_WHAT_IF_MODEL_HPP

#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

template <class P>
basic_what_if<P>::basic_what_if(module_type const& m, what_if_options const& options)
    : m_(&m), options_(options), live_(std::make_unique<basic_hlo_liveness<P>>(m, options.liveness)), axis_(live_->max()) {
    sizes_ = options.sizes ? *options.sizes : size_function_of(m.shapes());
    build_records();
    build_trees();
}

// Every value outside fusion bodies with its XLA peak size (compute_xla_peak's xla_peak_size) and
// color; every HloBuffer with its size (derive_allocations: the largest of its values) and the
// union of its values' ranges.
template <class P>
void basic_what_if<P>::build_records() {
    auto const& m = *m_;
    auto const& df = live_->dataflow();
    auto const& values = df.values();
    std::vector<bool> fused(m.computation_count(), false);
    for (computation_id c = 0; c < m.computation_count(); ++c) {
        for (auto const& call : m.callers(c)) {
            if (call.kind == call_kind::fusion) fused[c] = true;
        }
    }
    values_.assign(values.size(), value_record{});
    buffer_of_.assign(values.size(), npos);
    extra_uses_.assign(values.size(), {});
    edited_.assign(values.size(), false);
    std::vector<bool> kept(values.size(), false);
    for (std::size_t k = 0; k < values.size(); ++k) {
        auto const& v = values[k];
        if (fused[m.instruction(v.instruction).computation]) continue;
        kept[k] = true;
        auto const& shape = df.shape_of(v);
        auto& r = values_[k];
        r.color = shape.has_layout() ? shape.layout().memory_space : 0;
        try {
            r.xla_bytes = byte_size_of(m.shape_of(v.instruction), 8);
        } catch (shape_error const&) {
            r.xla_bytes = 0;
        }
        if (auto const& range = live_->range(k)) {
            r.first = detail::what_if_axis::instruction_slot(range->start);
            r.last = detail::what_if_axis::instruction_slot(range->end);
        }
    }
    for (auto const& buffer : live_->alias_analysis().buffers()) {
        buffer_record b;
        bool any = false;
        for (std::size_t k : buffer) {
            buffer_of_[k] = buffers_.size();
            if (!kept[k]) continue;
            if (!any) b.color = values_[k].color;
            any = true;
            b.bytes = std::max(b.bytes, value_size_of(df.shape_of(values[k]), sizes_).value_or(0));
            if (values_[k].first != npos) b.segments.emplace_back(values_[k].first, values_[k].last);
        }
        std::sort(b.segments.begin(), b.segments.end());
        std::vector<std::pair<std::size_t, std::size_t>> merged;
        for (auto const& s : b.segments) {
            if (!merged.empty() && s.first <= merged.back().second) {
                merged.back().second = std::max(merged.back().second, s.second);
            } else {
                merged.push_back(s);
            }
        }
        b.segments = std::move(merged);
        buffers_.push_back(std::move(b));
    }
    aliased_output_.assign(m.entry() == no_computation ? 0 : std::max<std::size_t>(1, m.shape_of(m.entry_computation().root).tuple_shapes_size()), false);
    for (auto const& a : m.input_output_aliases()) {
        std::size_t const o = a.output_index.empty() ? 0 : static_cast<std::size_t>(a.output_index[0]);
        if (o < aliased_output_.size()) aliased_output_[o] = true;
    }
}

// The trees of each color and of all colors, built from difference arrays in one pass.
template <class P>
void basic_what_if<P>::build_trees() {
    std::size_t const slots = axis_.slots();
    std::map<std::int64_t, std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> diffs;  // xla, live
    std::map<std::int64_t, std::vector<std::int64_t>> ends;
    auto diff_of = [&](std::int64_t color) -> auto& {
        auto& d = diffs[color];
        if (d.first.empty()) {
            d.first.assign(slots + 1, 0);
            d.second.assign(slots + 1, 0);
            ends[color].assign(slots, 0);
        }
        return d;
    };
    for (auto const& r : values_) {
        if (r.first == npos) continue;
        auto& d = diff_of(r.color);
        d.first[r.first] += r.xla_bytes;
        d.first[r.last + 1] -= r.xla_bytes;
        std::size_t const next = axis_.next_held(r.last);
        d.first[next] += r.xla_bytes;
        d.first[next + 1] -= r.xla_bytes;
        ends[r.color][r.last] += r.xla_bytes;
    }
    for (auto const& b : buffers_) {
        if (b.segments.empty()) continue;
        auto& d = diff_of(b.color);
        for (auto const& [first, last] : b.segments) {
            d.second[first] += b.bytes;
            d.second[last + 1] -= b.bytes;
        }
    }
    if (diffs.empty()) diff_of(0);
    auto leaves_of = [&](std::vector<std::int64_t> const& diff) {
        std::vector<std::int64_t> leaves(slots);
        std::int64_t running = 0;
        for (std::size_t s = 0; s < slots; ++s) {
            running += diff[s];
            leaves[s] = axis_.held(s) ? running : max_tree::lowest + running;
        }
        return leaves;
    };
    std::vector<std::int64_t> all(slots + 1, 0), all_ends(slots, 0);
    for (auto& [color, d] : diffs) {
        color_trees t;
        t.xla = trees_.size();
        trees_.emplace_back(leaves_of(d.first));
        ends_.push_back(ends[color]);
        t.live = trees_.size();
        trees_.emplace_back(leaves_of(d.second));
        ends_.emplace_back();
        by_color_[color] = t;
        for (std::size_t s = 0; s <= slots; ++s) all[s] += d.first[s];
        for (std::size_t s = 0; s < slots; ++s) all_ends[s] += ends[color][s];
    }
    if (by_color_.size() == 1) {
        xla_all_ = by_color_.begin()->second.xla;  // one color: its curve is the module's
    } else {
        xla_all_ = trees_.size();
        trees_.emplace_back(leaves_of(all));
        ends_.push_back(std::move(all_ends));
    }
}

// A color an edit brings in (memory space 5): its trees, empty; the all-colors tree is split off
// the one color's when it stood for it.
template <class P>
std::size_t basic_what_if<P>::tree_for_color(std::int64_t color, bool xla) {
    auto found = by_color_.find(color);
    if (found == by_color_.end()) {
        if (by_color_.size() == 1 && xla_all_ == by_color_.begin()->second.xla) {
            trees_.push_back(trees_[xla_all_]);
            ends_.push_back(ends_[xla_all_]);
            xla_all_ = trees_.size() - 1;
        }
        color_trees t;
        t.xla = new_tree();
        t.live = new_tree();
        ends_[t.xla].assign(axis_.slots(), 0);
        found = by_color_.emplace(color, t).first;
    }
    return xla ? found->second.xla : found->second.live;
}

template <class P>
std::size_t basic_what_if<P>::new_tree() {
    std::vector<std::int64_t> leaves(axis_.slots());
    for (std::size_t s = 0; s < leaves.size(); ++s) leaves[s] = axis_.held(s) ? 0 : max_tree::lowest;
    trees_.emplace_back(leaves);
    ends_.emplace_back();
    return trees_.size() - 1;
}

template <class P>
void basic_what_if<P>::add_range(value_record const& r, std::int64_t sign) {
    if (r.first == npos || r.xla_bytes == 0) return;
    std::size_t const color_tree = tree_for_color(r.color, true);
    std::int64_t const bytes = sign * r.xla_bytes;
    for (std::size_t t : {xla_all_, color_tree}) {
        trees_[t].add(r.first, r.last, bytes);
        // A value counts at the next time held after its end too (adds before removes).
        std::size_t const next = axis_.next_held(r.last);
        trees_[t].add(next, next, bytes);
        ends_[t][r.last] += bytes;
        if (t == color_tree) break;  // one color: the same tree
    }
}

template <class P>
void basic_what_if<P>::set_range(std::size_t v, std::size_t first, std::size_t last, bool logged) {
    auto& r = values_[v];
    if (logged) log_.push_back({log_entry::range, v, r.first, r.last, {}});
    add_range(r, -1);
    r.first = first;
    r.last = last;
    add_range(r, +1);
}

template <class P>
void basic_what_if<P>::set_segments(std::size_t b, std::vector<std::pair<std::size_t, std::size_t>> segments, bool logged) {
    auto& r = buffers_[b];
    std::size_t const t = tree_for_color(r.color, false);
    for (auto const& [first, last] : r.segments) trees_[t].add(first, last, -r.bytes);
    if (logged) log_.push_back({log_entry::segments, b, 0, 0, std::move(r.segments)});
    r.segments = std::move(segments);
    for (auto const& [first, last] : r.segments) trees_[t].add(first, last, r.bytes);
}

// Holds an insertion slot before time t: it stops reading `lowest`, and the values that ended at
// the slot held before it count at it now instead of at the one after (adds before removes).
template <class P>
std::size_t basic_what_if<P>::hold(logical_time t) {
    std::size_t const s = axis_.hold(t);
    for (auto& tree : trees_) tree.add(s, s, -max_tree::lowest);
    std::size_t const before = axis_.previous_held(s), after = axis_.next_held(s);
    for (std::size_t k = 0; k < trees_.size() && before != npos; ++k) {
        if (ends_[k].empty() || ends_[k][before] == 0) continue;
        trees_[k].add(after, after, -ends_[k][before]);
        trees_[k].add(s, s, ends_[k][before]);
    }
    log_.push_back({log_entry::hold, static_cast<std::size_t>(t), s, 0, {}});
    return s;
}

template <class P>
std::size_t basic_what_if<P>::add_value(std::int64_t xla_bytes, std::int64_t color, std::int64_t bytes) {
    tree_for_color(color, true);
    values_.push_back({xla_bytes, color, npos, npos});
    buffers_.push_back({bytes, color, {}});
    buffer_of_.push_back(buffers_.size() - 1);
    extra_uses_.emplace_back();
    log_.push_back({log_entry::new_value, values_.size() - 1, 0, 0, {}});
    return values_.size() - 1;
}

template <class P>
void basic_what_if<P>::undo() {
    if (accepted_.empty()) return;
    accepted_.pop_back();
    while (!log_.empty()) {
        log_entry e = std::move(log_.back());
        log_.pop_back();
        switch (e.kind) {
            case log_entry::mark: return;
            case log_entry::range: set_range(e.subject, e.first, e.last, false); break;
            case log_entry::segments: set_segments(e.subject, std::move(e.old_segments), false); break;
            case log_entry::new_value:
                values_.pop_back();
                buffers_.pop_back();
                buffer_of_.pop_back();
                extra_uses_.pop_back();
                break;
            case log_entry::extra_use: extra_uses_[e.subject].pop_back(); break;
            case log_entry::flag: (e.first == 0 ? edited_ : aliased_output_)[e.subject] = false; break;
            case log_entry::hold: {
                std::size_t const s = e.first;
                std::size_t const before = axis_.previous_held(s), after = axis_.next_held(s);
                for (std::size_t k = 0; k < trees_.size() && before != npos; ++k) {
                    if (ends_[k].empty() || ends_[k][before] == 0) continue;
                    trees_[k].add(after, after, ends_[k][before]);
                    trees_[k].add(s, s, -ends_[k][before]);
                }
                for (auto& tree : trees_) tree.add(s, s, max_tree::lowest);
                axis_.release(static_cast<logical_time>(e.subject));
                break;
            }
        }
    }
}

template <class P>
what_if_peak basic_what_if<P>::peak_of(std::size_t tree) const {
    std::int64_t const bytes = trees_[tree].max();
    if (bytes <= 0) return {};
    return {axis_.rank(trees_[tree].first_max()), bytes};
}

template <class P>
logical_time basic_what_if<P>::peak_time_original() const {
    if (trees_[xla_all_].max() <= 0) return 0;
    return static_cast<logical_time>(detail::what_if_axis::time_of_slot(trees_[xla_all_].first_max()));
}

template <class P>
logical_time basic_what_if<P>::color_peak_time_original(std::int64_t color) const {
    auto found = by_color_.find(color);
    if (found == by_color_.end() || trees_[found->second.live].max() <= 0) return 0;
    return static_cast<logical_time>(detail::what_if_axis::time_of_slot(trees_[found->second.live].first_max()));
}

template <class P>
std::vector<std::int64_t> basic_what_if<P>::colors() const {
    std::vector<std::int64_t> out;
    for (auto const& entry : by_color_) out.push_back(entry.first);
    return out;
}

template <class P>
what_if_peak basic_what_if<P>::xla_color_peak(std::int64_t color) const {
    auto found = by_color_.find(color);
    return found == by_color_.end() ? what_if_peak{} : peak_of(found->second.xla);
}

template <class P>
what_if_peak basic_what_if<P>::color_peak(std::int64_t color) const {
    auto found = by_color_.find(color);
    return found == by_color_.end() ? what_if_peak{} : peak_of(found->second.live);
}

template <class P>
std::vector<std::int64_t> basic_what_if<P>::color_curve(std::int64_t color) const {
    std::vector<std::int64_t> out;
    auto found = by_color_.find(color);
    if (found == by_color_.end()) return out;
    auto const leaves = trees_[found->second.live].leaves();
    std::size_t const end = detail::what_if_axis::instruction_slot(live_->max());
    for (std::size_t s = 0; s <= end; ++s) {
        if (axis_.held(s)) out.push_back(leaves[s]);
    }
    return out;
}

template <class P>
std::vector<std::size_t> basic_what_if<P>::live_at_color_peak(std::int64_t color) const {
    std::vector<std::size_t> out;
    auto found = by_color_.find(color);
    if (found == by_color_.end() || trees_[found->second.live].max() <= 0) return out;
    std::size_t const s = trees_[found->second.live].first_max();
    for (std::size_t k = 0; k < live_->dataflow().values().size(); ++k) {
        auto const& b = buffers_[buffer_of_[k]];
        if (b.color != color || values_[k].first == npos) continue;
        if (values_[k].first <= s && s <= values_[k].last) out.push_back(k);
    }
    return out;
}

template <class P>
std::size_t basic_what_if<P>::value_of(instruction_id i) const {
    auto const& df = live_->dataflow();
    for (value_id id : df.value_set(i, 0)) {
        std::size_t const k = df.value_index(id);
        if (k != no_value_index && df.values()[k].instruction == i) return k;
    }
    if (m_->instruction(i).opcode != hlo_opcode::get_tuple_element) return npos;
    for (value_id id : df.value_set(i, 0)) {
        std::size_t const k = df.value_index(id);
        if (k != no_value_index && df.values()[k].instruction == m_->operands(i)[0]) return k;
    }
    return npos;
}

}  // namespace hlomem


#endif  // HLOMEM_WHATIF_WHAT_IF_MODEL_HPP
