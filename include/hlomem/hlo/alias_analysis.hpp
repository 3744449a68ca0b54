// hlomem/hlo/alias_analysis.hpp: XLA's HloAliasAnalysis on top of the dataflow analysis — which
// logical values must share one buffer (an HloBuffer), and which instructions update an operand in
// place.
//
//   hlomem::hlo_dataflow df(m);
//   hlomem::hlo_alias_analysis aa(df);
//   for (auto const& buffer : aa.buffers()) { ... }     // value indices into df.values(), by id
//   aa.buffer_of(k);                                     // the buffer of df.values()[k]
//
// Values share a buffer (xla/hlo/analysis/hlo_alias_analysis.cc) when:
//   - a value reaches the entry root at an output index that `input_output_alias` pairs with a
//     parameter: it shares the parameter's buffer (a donated parameter);
//   - a value is the init operand of a while, the parameter of its body or condition, or the root
//     of its body: it shares the while's value at that index (the loop state lives in one buffer);
//   - a value is the root of a conditional branch: it shares the conditional's value;
//   - an instruction updates an operand in place (in_place_pairs): its output shares the operand.
#ifndef HLOMEM_HLO_ALIAS_ANALYSIS_HPP
#define HLOMEM_HLO_ALIAS_ANALYSIS_HPP

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <hlomem/hlo/dataflow.hpp>
#include <hlomem/hlo/module.hpp>

namespace hlomem {

/// Output `output_index` of an instruction must live in the buffer of operand `operand_number`
/// at `operand_index` (XLA's in-place input/output pair).
struct in_place_pair {
    std::int64_t operand_number = 0;
    std::vector<std::int64_t> operand_index;
    std::vector<std::int64_t> output_index;

    friend bool operator==(in_place_pair const& a, in_place_pair const& b) {
        return a.operand_number == b.operand_number && a.operand_index == b.operand_index &&
               a.output_index == b.output_index;
    }
};

namespace detail {

template <class P>
std::vector<in_place_pair> pairs_from_aliasing(basic_hlo_module<P> const& m, instruction_id i) {
    std::vector<in_place_pair> out;
    for (auto const& a : m.output_to_operand_aliasing(i)) {
        in_place_pair p;
        p.operand_number = a.operand_number;
        p.operand_index.assign(a.operand_index.begin(), a.operand_index.end());
        p.output_index.assign(a.output_index.begin(), a.output_index.end());
        out.push_back(std::move(p));
    }
    return out;
}

/// XLA's FollowTupleIndirection and FollowNoOpIndirection: from (instruction, index) back through
/// tuples, get-tuple-elements and bitcasts to where the array comes from.
template <class P>
std::pair<instruction_id, std::vector<std::int64_t>> follow_indirections(basic_hlo_module<P> const& m, instruction_id i,
                                                                        std::vector<std::int64_t> index) {
    for (std::size_t guard = 0; guard <= m.instruction_count(); ++guard) {
        auto const& inst = m.instruction(i);
        if (inst.opcode == hlo_opcode::tuple && !index.empty()) {
            auto const ops = m.operands(i);
            if (index.front() < 0 || static_cast<std::size_t>(index.front()) >= ops.size()) break;
            i = ops[static_cast<std::size_t>(index.front())];
            index.erase(index.begin());
            continue;
        }
        break;
    }
    for (std::size_t guard = 0; guard <= m.instruction_count(); ++guard) {
        auto const& inst = m.instruction(i);
        if (inst.opcode != hlo_opcode::get_tuple_element || m.operands(i).empty()) break;
        index.insert(index.begin(), inst.tuple_index);
        i = m.operands(i)[0];
    }
    for (std::size_t guard = 0; guard <= m.instruction_count(); ++guard) {
        if (!index.empty() || m.instruction(i).opcode != hlo_opcode::bitcast || m.operands(i).empty()) break;
        i = m.operands(i)[0];
    }
    return {i, std::move(index)};
}

inline bool contains_ignoring_case(std::string_view text, std::string_view word) {
    auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
    if (word.size() > text.size()) return false;
    for (std::size_t k = 0; k + word.size() <= text.size(); ++k) {
        bool same = true;
        for (std::size_t j = 0; j < word.size() && same; ++j) same = lower(text[k + j]) == lower(word[j]);
        if (same) return true;
    }
    return false;
}

template <class P>
void leaf_indices(basic_shape<P> const& s, std::vector<std::int64_t>& path, std::vector<std::vector<std::int64_t>>& out) {
    if (!s.is_tuple()) {
        out.push_back(path);
        return;
    }
    for (std::size_t k = 0; k < s.tuple_shapes_size(); ++k) {
        path.push_back(static_cast<std::int64_t>(k));
        leaf_indices(s.tuple_shape(k), path, out);
        path.pop_back();
    }
}

}  // namespace detail

/// XLA's AliasInfo::GetInPlaceInputOutputPairs with the default rules: dynamic-update-slice,
/// scatter and all-reduce-start update their operands; collective-permute(-start) with four
/// operands writes into operand 1; custom-call and async-start follow their
/// `output_to_operand_aliasing`; a fusion updates the parameter its root (through tuples,
/// get-tuple-elements and bitcasts) updates in place, plus its declared aliasing;
/// set-dimension-size and ragged-all-to-all update operands 0 and 1. Backends may add rules of
/// their own that the text does not show.
template <class P>
std::vector<in_place_pair> in_place_pairs(basic_hlo_module<P> const& m, instruction_id i) {
    auto const& inst = m.instruction(i);
    auto const ops = m.operands(i);
    auto single = [](std::int64_t operand, std::vector<std::int64_t> operand_index, std::vector<std::int64_t> output) {
        return std::vector<in_place_pair>{in_place_pair{operand, std::move(operand_index), std::move(output)}};
    };
    switch (inst.opcode) {
        case hlo_opcode::all_reduce_start:
        case hlo_opcode::dynamic_update_slice:
        case hlo_opcode::scatter: {
            if (inst.opcode == hlo_opcode::all_reduce_start) {
                if (auto config = m.attribute(i, "backend_config"); config && detail::contains_ignoring_case(*config, "nvshmem")) {
                    return {};
                }
            }
            std::size_t count = ops.size();
            if (inst.opcode == hlo_opcode::dynamic_update_slice) count = 1;
            if (inst.opcode == hlo_opcode::scatter) count = ops.empty() ? 0 : (ops.size() - 1) / 2;
            if (count == 0) return {};
            if (count == 1) return single(0, {}, {});
            std::vector<in_place_pair> out;
            for (std::size_t k = 0; k < count; ++k) {
                out.push_back({static_cast<std::int64_t>(k), {}, {static_cast<std::int64_t>(k)}});
            }
            return out;
        }
        case hlo_opcode::collective_permute:
        case hlo_opcode::collective_permute_start: {
            if (ops.size() != 4) return {};
            std::vector<std::int64_t> const base =
                inst.opcode == hlo_opcode::collective_permute ? std::vector<std::int64_t>{} : std::vector<std::int64_t>{1};
            std::vector<in_place_pair> out{{1, {}, base}};
            auto const& destination = m.shape_of(ops[1]);
            if (destination.is_tuple()) {
                for (std::size_t k = 0; k < destination.tuple_shapes_size(); ++k) {
                    auto output = base;
                    output.push_back(static_cast<std::int64_t>(k));
                    out.push_back({1, {static_cast<std::int64_t>(k)}, std::move(output)});
                }
            }
            return out;
        }
        case hlo_opcode::custom_call:
        case hlo_opcode::async_start:
            return detail::pairs_from_aliasing(m, i);
        case hlo_opcode::set_dimension_size:
            return single(0, {}, {});
        case hlo_opcode::ragged_all_to_all:
            return single(1, {}, {});
        case hlo_opcode::fusion:
            break;
        default:
            return {};
    }
    // A fusion: follow each output back to its source inside the fused computation; when that
    // source updates an input in place and the input leads back to a fused parameter, the fusion
    // updates that operand in place.
    std::vector<in_place_pair> out;
    computation_id fused = no_computation;
    for (auto const& c : m.calls(i)) {
        if (c.kind == call_kind::fusion) fused = c.callee;
    }
    if (fused != no_computation && m.computation(fused).root != no_instruction) {
        std::vector<std::vector<std::int64_t>> leaves;
        std::vector<std::int64_t> path;
        detail::leaf_indices(m.shape_of(i), path, leaves);
        for (auto const& leaf : leaves) {
            auto [source, source_index] = detail::follow_indirections(m, m.computation(fused).root, leaf);
            std::optional<std::pair<instruction_id, std::vector<std::int64_t>>> input;
            for (auto const& pair : in_place_pairs(m, source)) {
                if (pair.output_index != source_index) continue;
                auto const source_ops = m.operands(source);
                if (pair.operand_number < 0 || static_cast<std::size_t>(pair.operand_number) >= source_ops.size()) continue;
                auto followed = detail::follow_indirections(m, source_ops[static_cast<std::size_t>(pair.operand_number)],
                                                            pair.operand_index);
                if (m.instruction(followed.first).opcode == hlo_opcode::fusion) {
                    // A nested fusion that updates in place: look through it to its producer.
                    for (auto const& nested : in_place_pairs(m, followed.first)) {
                        if (nested.output_index != followed.second) continue;
                        auto const nested_ops = m.operands(followed.first);
                        if (nested.operand_number < 0 || static_cast<std::size_t>(nested.operand_number) >= nested_ops.size()) {
                            continue;
                        }
                        followed = detail::follow_indirections(m, nested_ops[static_cast<std::size_t>(nested.operand_number)],
                                                               nested.operand_index);
                    }
                }
                input = std::move(followed);
            }
            if (input && m.instruction(input->first).opcode == hlo_opcode::parameter) {
                out.push_back({m.instruction(input->first).parameter_number, std::move(input->second), leaf});
            }
        }
    }
    for (auto& p : detail::pairs_from_aliasing(m, i)) out.push_back(std::move(p));
    return out;
}

/// Lists of value indices stored one after another, as the HloBuffers are: `lists[b]` views list
/// `b`, and a range-for gives each list in turn (one allocation for all of them, not one each).
class value_index_lists {
public:
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = list_view<std::size_t>;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = list_view<std::size_t>;

        iterator() noexcept = default;
        iterator(value_index_lists const* lists, std::size_t b) noexcept : lists_(lists), b_(b) {}
        list_view<std::size_t> operator*() const noexcept { return (*lists_)[b_]; }
        iterator& operator++() noexcept { return ++b_, *this; }
        iterator operator++(int) noexcept { return iterator(lists_, b_++); }
        friend bool operator==(iterator const& a, iterator const& b) noexcept { return a.b_ == b.b_; }
        friend bool operator!=(iterator const& a, iterator const& b) noexcept { return a.b_ != b.b_; }

    private:
        value_index_lists const* lists_ = nullptr;
        std::size_t b_ = 0;
    };

    std::size_t size() const noexcept { return begins_.empty() ? 0 : begins_.size() - 1; }
    bool empty() const noexcept { return size() == 0; }
    list_view<std::size_t> operator[](std::size_t b) const noexcept {
        return list_view<std::size_t>(items_.data() + begins_[b], begins_[b + 1] - begins_[b]);
    }
    iterator begin() const noexcept { return iterator(this, 0); }
    iterator end() const noexcept { return iterator(this, size()); }

    /// The lists of `of` (the list of each item, numbered from 0 in order of first appearance,
    /// `count` of them): item k goes to list of[k], items in increasing order within a list.
    void assign(std::vector<std::size_t> const& of, std::size_t count) {
        begins_.assign(count + 1, 0);
        for (std::size_t b : of) ++begins_[b + 1];
        for (std::size_t b = 1; b <= count; ++b) begins_[b] += begins_[b - 1];
        items_.resize(of.size());
        std::vector<std::size_t> fill(begins_.begin(), begins_.end() - 1);
        for (std::size_t k = 0; k < of.size(); ++k) items_[fill[of[k]]++] = k;
    }

private:
    std::vector<std::size_t> items_;
    std::vector<std::size_t> begins_;  // size() + 1 offsets into items_
};

/// XLA's HloAliasAnalysis: the values grouped into HloBuffers. Holds a reference to the dataflow
/// analysis, which must outlive it.
template <class P = default_policy>
class basic_hlo_alias_analysis {
public:
    explicit basic_hlo_alias_analysis(basic_hlo_dataflow<P> const& df) : df_(df) { run(); }

    basic_hlo_dataflow<P> const& dataflow() const noexcept { return df_; }
    /// The buffers, each a list of value indices (into dataflow().values()) sorted by id; buffers
    /// are ordered by their first value. `buffers()[b]` is a list_view of buffer b.
    value_index_lists const& buffers() const noexcept { return buffers_; }
    /// The buffer of value index `k`.
    std::size_t buffer_of(std::size_t k) const { return buffer_of_[k]; }
    /// The in-place pairs of instruction `i` (cached).
    std::vector<in_place_pair> const& pairs(instruction_id i) const {
        static std::vector<in_place_pair> const none;
        hlo_opcode const op = df_.call_graph().opcode(i);
        if (!may_update_in_place(op)) return none;
        if (op == hlo_opcode::fusion && df_.module().output_to_operand_aliasing(i).empty()) {
            // A fusion updates in place only through an instruction of its body that does.
            bool in_place_body = false;
            for (auto const& c : df_.module().calls(i)) {
                if (c.kind == call_kind::fusion && updates_in_place_[c.callee]) in_place_body = true;
            }
            if (!in_place_body) return none;
        }
        auto [at, added] = pairs_.try_emplace(i);
        if (added) at->second = in_place_pairs(df_.module(), i);
        return at->second;
    }

private:
    void run();

    basic_hlo_dataflow<P> const& df_;
    value_index_lists buffers_;
    std::vector<std::size_t> buffer_of_;
    // By instruction, for those asked about that may update in place: a few in a large module,
    // where a slot for every instruction took more memory than the rest of the analysis.
    mutable std::unordered_map<instruction_id, std::vector<in_place_pair>> pairs_;
    std::vector<std::uint8_t> updates_in_place_;  // by computation: holds an instruction in_place_pairs covers
};

using hlo_alias_analysis = basic_hlo_alias_analysis<>;

template <class P>
void basic_hlo_alias_analysis<P>::run() {
    auto const& m = df_.module();
    auto const& values = df_.values();
    updates_in_place_.assign(m.computation_count(), 0);
    for (instruction_id i = 0; i < m.instruction_count(); ++i) {
        if (may_update_in_place(df_.call_graph().opcode(i))) updates_in_place_[m.instruction(i).computation] = 1;
    }
    std::vector<std::size_t> parent(values.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    auto find = [&](std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    auto unite_with_set = [&](std::size_t k, instruction_id i, shape_node n) {
        if (i == no_instruction || n == no_node) return;
        for (value_id id : df_.value_set(i, n)) {
            std::size_t const other = df_.value_index(id);
            if (other != no_value_index) parent[find(other)] = find(k);
        }
    };
    // The node of `i` at the path of node `n` of `j` (their shapes agree where this is used).
    auto same_index = [&](instruction_id i, instruction_id j, shape_node n) {
        auto [p, count] = df_.tree(j).path(n);
        return df_.tree(i).find(std::vector<std::int64_t>(p, p + count));
    };
    auto const& graph = df_.call_graph();
    auto is_root = [&](instruction_id i) { return graph.is_root(i); };
    auto called = [&](instruction_id i, call_kind kind) {
        for (auto const& c : m.calls(i)) {
            if (c.kind == kind) return c.callee;
        }
        return no_computation;
    };
    instruction_id const entry_root = m.entry() == no_computation ? no_instruction : m.entry_computation().root;

    for (std::size_t k = 0; k < values.size(); ++k) {
        auto const& v = values[k];
        auto const positions = df_.positions(v);
        // Donated parameters: the entry result at an aliased index shares the parameter's buffer.
        for (auto const& p : positions) {
            if (p.instruction != entry_root) continue;
            auto [path, count] = df_.tree(p.instruction).path(p.node);
            for (auto const& alias : m.input_output_aliases()) {
                if (!std::equal(alias.output_index.begin(), alias.output_index.end(), path, path + count)) continue;
                auto const params = m.parameters(m.entry());
                if (alias.parameter_number < 0 || static_cast<std::size_t>(alias.parameter_number) >= params.size()) continue;
                instruction_id const param = params[static_cast<std::size_t>(alias.parameter_number)];
                unite_with_set(k, param, df_.node_of(param, alias.parameter_index));
            }
        }
        // While loops: init value, body and condition parameters, body root and the while share.
        for (auto const& u : df_.uses(v)) {
            if (graph.opcode(u.instruction) != hlo_opcode::while_) continue;
            auto const ops = m.operands(u.instruction);
            if (u.operand_number < ops.size()) unite_with_set(k, u.instruction, same_index(u.instruction, ops[u.operand_number], u.node));
        }
        if (graph.opcode(v.instruction) == hlo_opcode::parameter) {
            for (auto const& c : m.callers(m.instruction(v.instruction).computation)) {
                if (m.instruction(c.caller).opcode == hlo_opcode::while_) unite_with_set(k, c.caller, same_index(c.caller, v.instruction, v.node));
            }
        }
        for (auto const& p : positions) {
            if (!is_root(p.instruction)) continue;
            computation_id const c = m.instruction(p.instruction).computation;
            for (auto const& call : m.callers(c)) {
                auto const op = m.instruction(call.caller).opcode;
                if ((op == hlo_opcode::while_ && called(call.caller, call_kind::while_body) == c) ||
                    op == hlo_opcode::conditional) {
                    unite_with_set(k, call.caller, same_index(call.caller, p.instruction, p.node));
                }
            }
        }
        // In-place updates, seen from the output and from the operand.
        for (auto const& p : positions) {
            auto const& position_pairs = pairs(p.instruction);
            if (position_pairs.empty()) continue;
            auto [path, count] = df_.tree(p.instruction).path(p.node);
            for (auto const& pair : position_pairs) {
                if (!std::equal(pair.output_index.begin(), pair.output_index.end(), path, path + count)) continue;
                auto const ops = m.operands(p.instruction);
                if (pair.operand_number < 0 || static_cast<std::size_t>(pair.operand_number) >= ops.size()) continue;
                instruction_id const operand = ops[static_cast<std::size_t>(pair.operand_number)];
                unite_with_set(k, operand, df_.node_of(operand, pair.operand_index));
            }
        }
        for (auto const& u : df_.uses(v)) {
            auto const& use_pairs = pairs(u.instruction);
            if (use_pairs.empty()) continue;
            auto const ops = graph.operands(u.instruction);
            auto [path, count] = df_.tree(ops[u.operand_number]).path(u.node);
            for (auto const& pair : use_pairs) {
                if (pair.operand_number != static_cast<std::int64_t>(u.operand_number) ||
                    !std::equal(pair.operand_index.begin(), pair.operand_index.end(), path, path + count)) {
                    continue;
                }
                unite_with_set(k, u.instruction, df_.node_of(u.instruction, pair.output_index));
            }
        }
    }
    buffer_of_.assign(values.size(), 0);
    std::vector<std::size_t> buffer_of_root(values.size(), no_value_index);
    std::size_t count = 0;
    for (std::size_t k = 0; k < values.size(); ++k) {
        std::size_t const r = find(k);
        if (buffer_of_root[r] == no_value_index) buffer_of_root[r] = count++;
        buffer_of_[k] = buffer_of_root[r];
    }
    buffers_.assign(buffer_of_, count);
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_ALIAS_ANALYSIS_INSTANTIATIONS(EXTERN, P) \
    EXTERN template class basic_hlo_alias_analysis<P>;
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_ALIAS_ANALYSIS_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_HLO_ALIAS_ANALYSIS_HPP
