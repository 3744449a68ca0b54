// hlomem/hlo/donation.hpp: which donated parameters a compilation used, which it did not, and
// which parameters could alias an output of the same shape — what jax's warning "Some donated
// buffers were not usable" (jax-ml/jax#9237) leaves unexplained.
//
//   auto d = hlomem::analyze_donations(ba, &module);   // module: null for a dump read alone
//   d.used      // input_output_alias={ {0}: (0, {}, may-alias) }: parameter 0 {} is output {0}
//   d.unused    // buffer_donor={ (1, {}) }: donated, and no output took it
//   d.could_alias  // a parameter and an output of one shape that no alias pairs
//
// The rule is XLA's (xla/service/optimize_input_output_buffer_alias.cc,
// OptimizeInputOutputBufferAlias::Build): a donor (an entry of `buffer_donor`) becomes an
// input/output alias when an output subshape that no alias takes has its size, and the pass then
// removes the donor (RemoveBufferDonor). So in an optimized module the entries of
// `input_output_alias` are the donations used and those left in `buffer_donor` are the ones no
// output could take. A parameter and an output of the same shape that no alias pairs are listed
// as `could_alias`: donating that parameter (donate_argnums) would let XLA reuse its buffer.
//
// A dump read without its module does not list `buffer_donor`; it states only which parameter
// allocations are also outputs (`allocation 0: size 31457280, parameter 0, shape |c128[...]| at
// ShapeIndex {}, output shape is |c128[...]|, maybe-live-out:`) and the whole output's shape
// (`output shape is |f32[1024]|` on each live-out allocation). From that the used donations and
// the pairs of one shape are found; `donors_known` is false, and which parameters were donated
// but not used is not known.
#ifndef HLOMEM_HLO_DONATION_HPP
#define HLOMEM_HLO_DONATION_HPP

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/module.hpp>

namespace hlomem {

/// A parameter's buffer (its number and ShapeIndex) and, when used, the output it became.
struct parameter_donation {
    std::int64_t parameter_number = 0;
    std::string parameter_index;  ///< `{}`, `{1}`
    std::string shape;            ///< the subshape's text, layout included
    std::int64_t bytes = 0;       ///< its allocation's size in the dump; 0 where none is known
    std::string output_index;     ///< the output it aliases (used); empty for an unused donation
    /// Why no output took an unused donation, by XLA's rule (below): `no output of its size
    /// (4194304 bytes) in memory space 0`; empty for a used one, or when the outputs are not known.
    std::string why;
};

/// A parameter buffer and an output of one shape that no alias pairs.
struct alias_candidate {
    std::int64_t parameter_number = 0;
    std::string parameter_index;
    std::string output_index;
    std::string shape;
    std::int64_t bytes = 0;
    bool donated = false;  ///< the parameter is a `buffer_donor` (known only with the module)
};

struct donation_analysis {
    bool donors_known = false;  ///< the module's buffer_donor and input_output_alias were read
    std::vector<parameter_donation> used;
    std::vector<parameter_donation> unused;
    std::vector<alias_candidate> could_alias;
};

namespace detail {

/// An array leaf of a parameter's or the output's shape: its index, its shape's text, and what
/// OptimizeInputOutputBufferAlias::Build pairs donors and outputs by, its memory space and size.
struct shape_leaf {
    std::string index, shape;
    std::int64_t memory_space = 0;
    std::int64_t bytes = 0;
};

/// ShapeUtil::ForEachSubshape's array leaves: each dense array subshape with its index.
template <class P>
void array_leaves(basic_shape<P> const& s, size_function_kind size, std::vector<shape_leaf>& out, std::string const& prefix = std::string()) {
    if (s.is_tuple()) {
        for (std::size_t k = 0; k < s.tuple_shapes_size(); ++k) {
            array_leaves(s.tuple_shapes()[k], size, out, prefix.empty() ? std::to_string(k) : prefix + "," + std::to_string(k));
        }
        return;
    }
    if (!s.is_array()) return;
    out.push_back({"{" + prefix + "}", to_string(s), s.has_layout() ? s.layout().memory_space : 0, bytes_under(s, size)});
}

struct donation_leaf {
    std::int64_t parameter = -1;  ///< -1 for an output leaf
    std::string index, shape;
    bool taken = false;  ///< aliased already
    bool donated = false;
    std::int64_t memory_space = 0;
    std::int64_t bytes = 0;
};

/// Why OptimizeInputOutputBufferAlias::Build (xla/hlo/transforms/simplifiers/
/// optimize_input_output_buffer_alias.cc) left `donor` unused: it pairs each donor with an output
/// leaf that no alias takes, in the donor's memory space and of the donor's size
/// (shape_size_fn_), largest first; a donor is left when no such output remains.
inline std::string unused_donation_reason(donation_leaf const& donor, std::vector<donation_leaf> const& outputs) {
    std::string const size = std::to_string(donor.bytes) + " bytes";
    std::string const space = "memory space " + std::to_string(donor.memory_space);
    bool same_size_taken = false;
    donation_leaf const* other_space = nullptr;
    for (auto const& o : outputs) {
        if (o.bytes != donor.bytes) continue;
        if (o.memory_space != donor.memory_space) {
            if (!other_space) other_space = &o;
        } else if (!o.taken) {
            // Build would have paired them: the module did not go through the pass.
            return "output " + o.index + " has its size (" + size + ") and no alias, but the module was not paired (OptimizeInputOutputBufferAlias did not run)";
        } else {
            same_size_taken = true;
        }
    }
    if (same_size_taken) return "every output of its size (" + size + ") in " + space + " is aliased already";
    if (other_space) {
        return "the output of its size (" + size + "), " + other_space->index + ", is in memory space " +
               std::to_string(other_space->memory_space) + ", the parameter in " + std::to_string(donor.memory_space);
    }
    return "no output of its size (" + size + ") in " + space;
}

}  // namespace detail

/// The donations of the assignment `ba` (see the file's comment); `m`, the module it was assigned
/// from, when at hand.
template <class P, class Q = P>
donation_analysis analyze_donations(basic_buffer_assignment<P> const& ba, basic_hlo_module<Q> const* m = nullptr) {
    donation_analysis out;
    std::vector<detail::donation_leaf> params, outputs;
    // With the module, a leaf's bytes are its subshape's and the dump's allocation sizes are
    // looked up by (parameter, index), read once: a module of 10^5 instructions has thousands of
    // parameters, each with a candidate output or more. From the dump alone each parameter leaf
    // is an allocation, and its bytes are that allocation's size.
    std::map<std::pair<std::int64_t, std::string>, std::int64_t> parameter_bytes;
    bool const with_module = m && m->has_entry_computation_layout();
    auto allocation_bytes = [&](std::int64_t parameter, std::string const& index) -> std::int64_t {
        auto const it = parameter_bytes.find(std::pair(parameter, index));
        return it == parameter_bytes.end() ? 0 : it->second;
    };
    auto bytes_of = [&](detail::donation_leaf const& p) { return with_module ? allocation_bytes(p.parameter, p.index) : p.bytes; };
    std::vector<detail::shape_leaf> leaves;
    size_function_kind const size = size_function_of(ba.shapes);
    if (with_module) {
        out.donors_known = true;
        for (auto const& a : ba.allocations) {
            if (a.parameter_number) parameter_bytes.emplace(std::pair(*a.parameter_number, to_string(a.parameter_shape_index)), a.size);
        }
        auto const layout = m->entry_layout_parameters();
        for (std::size_t p = 0; p < layout.size(); ++p) {
            leaves.clear();
            detail::array_leaves(m->shapes()[layout[p]], size, leaves);
            for (auto& l : leaves) params.push_back({static_cast<std::int64_t>(p), l.index, l.shape, false, false, l.memory_space, l.bytes});
        }
        leaves.clear();
        detail::array_leaves(m->shapes()[m->entry_layout_result()], size, leaves);
        for (auto& l : leaves) outputs.push_back({-1, l.index, l.shape, false, false, l.memory_space, l.bytes});
        auto find = [](std::vector<detail::donation_leaf>& list, std::int64_t parameter, std::string const& index) {
            for (auto& l : list) {
                if (l.parameter == parameter && l.index == index) return &l;
            }
            return static_cast<detail::donation_leaf*>(nullptr);
        };
        for (auto const& alias : m->input_output_aliases()) {
            std::string const index = to_string(alias.parameter_index), output = to_string(alias.output_index);
            auto* p = find(params, alias.parameter_number, index);
            if (p) p->taken = true;
            if (auto* o = find(outputs, -1, output)) o->taken = true;
            out.used.push_back({alias.parameter_number, index, p ? p->shape : std::string(), allocation_bytes(alias.parameter_number, index), output, {}});
        }
        for (auto const& donor : m->buffer_donors()) {
            std::string const index = to_string(donor.parameter_index);
            auto* p = find(params, donor.parameter_number, index);
            if (p) p->donated = true;
            out.unused.push_back({donor.parameter_number, index, p ? p->shape : std::string(), allocation_bytes(donor.parameter_number, index), {},
                                  p ? detail::unused_donation_reason(*p, outputs) : std::string()});
        }
    } else {
        // The dump alone: its parameter allocations, and the output's shape on a live-out one.
        // Each distinct shape's text is printed once (a dump has thousands of parameters and a
        // few hundred shapes), and a parameter's strings are made only where it is listed: it
        // is aliased already, or an output of its shape is free.
        std::optional<shape_id> output_shape;
        std::vector<std::optional<std::string>> shape_texts(ba.shapes.size());
        auto text_of = [&](shape_id id) -> std::string {
            if (id == no_shape) return {};
            auto& t = shape_texts[id];
            if (!t) t = to_string(ba.shapes[id]);
            return *t;
        };
        auto leaf_of = [&](basic_allocation<P> const& a) {
            return detail::donation_leaf{*a.parameter_number, to_string(a.parameter_shape_index), text_of(a.parameter_shape), a.maybe_live_out,
                                         false, 0, a.size};
        };
        for (auto const& a : ba.allocations) {
            if (a.output_shape && !output_shape) output_shape = a.output_shape;
            if (a.parameter_number && a.maybe_live_out) params.push_back(leaf_of(a));
        }
        if (output_shape) {
            detail::array_leaves(ba.shapes[*output_shape], size, leaves);
            for (auto& l : leaves) outputs.push_back({-1, l.index, l.shape, false, false, l.memory_space, l.bytes});
        }
        // Which output an aliased parameter became the dump does not say: the first free one of
        // its shape.
        for (auto const& p : params) {
            std::string output;
            for (auto& o : outputs) {
                if (!o.taken && o.shape == p.shape) {
                    o.taken = true;
                    output = o.index;
                    break;
                }
            }
            out.used.push_back({p.parameter, p.index, p.shape, bytes_of(p), output.empty() ? "?" : output, {}});
        }
        // The parameters that could alias a free output (below): those of a free output's shape,
        // decided once for each distinct shape.
        std::unordered_set<std::string_view> free_shapes;
        for (auto const& o : outputs) {
            if (!o.taken) free_shapes.insert(o.shape);
        }
        if (!free_shapes.empty()) {
            std::vector<signed char> of_free_shape(ba.shapes.size(), -1);
            for (auto const& a : ba.allocations) {
                if (!a.parameter_number || a.maybe_live_out || a.parameter_shape == no_shape) continue;
                auto& known = of_free_shape[a.parameter_shape];
                if (known < 0) known = free_shapes.count(text_of(a.parameter_shape)) > 0;
                if (known) params.push_back(leaf_of(a));
            }
        }
    }
    // The free outputs of each shape, in order.
    std::map<std::string_view, std::vector<detail::donation_leaf const*>> free_outputs;
    for (auto const& o : outputs) {
        if (!o.taken) free_outputs[o.shape].push_back(&o);
    }
    for (auto const& p : params) {
        if (p.taken || p.shape.empty()) continue;
        auto const it = free_outputs.find(p.shape);
        if (it == free_outputs.end()) continue;
        for (auto const* o : it->second) {
            out.could_alias.push_back({p.parameter, p.index, o->index, p.shape, bytes_of(p), p.donated});
        }
    }
    return out;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_DONATION_INSTANTIATIONS(EXTERN, P) \
    EXTERN template donation_analysis analyze_donations<P, P>(basic_buffer_assignment<P> const&, basic_hlo_module<P> const*);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_DONATION_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_HLO_DONATION_HPP
