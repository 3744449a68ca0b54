// hlomem/diff/match.hpp: which logical value of one compilation is which of another.
//
// XLA renames instructions between compilations (`fusion.12` becomes `fusion.15` when a pass
// before it creates one more fusion), so names alone pair the wrong values or none. What survives
// a recompilation is where a value comes from, what it looks like and when it is computed:
//
//   from instruction: %fusion.15 = f32[64,128]{1,0} fusion(...), kind=kLoop, calls=%fused_add.3,
//       metadata={op_type="add" op_name="jit(step)/add" source_file="/x/model.py" source_line=83}
//
// Each value's metadata comes from hlo/attribution.hpp (attribute_values: the dump's own text,
// joined with its module where it has one). Values are paired by three rules, tried in this order on what is still unpaired:
//   metadata            the same op_type, op_name, source_file and source_line, the same opcode
//                       and the same shape index (values with metadata only);
//   shape_and_position  the same shape (with layout), opcode and shape index;
//   name                the same instruction name and shape index.
// Within a group of values with one key, values with the same name are paired first (most
// instructions keep their names), and the rest by position in the schedule: each value of the
// smaller side takes the nearest value of the larger side by relative start time (start of its
// live range over the length of the program), in order, so that pairs never cross. The rules
// and the pairing depend on nothing but the two values, so matching B against A gives the same
// pairs as A against B. Every value ends up paired or listed as unmatched; none is dropped.
// O(n log n) in the number of values: one sort of both sides per rule.
#ifndef HLOMEM_DIFF_MATCH_HPP
#define HLOMEM_DIFF_MATCH_HPP

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <hlomem/core/shape_text.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/attribution.hpp>

namespace hlomem {

/// How a pair of values was matched (the rules above, in the order they are tried).
enum class match_rule : std::uint8_t { metadata, shape_and_position, name };

inline constexpr std::array<match_rule, 3> all_match_rules = {match_rule::metadata, match_rule::shape_and_position,
                                                              match_rule::name};

inline constexpr std::string_view to_string(match_rule r) noexcept {
    switch (r) {
        case match_rule::metadata: return "metadata";
        case match_rule::shape_and_position: return "shape_and_position";
        case match_rule::name: return "name";
    }
    return "name";
}

/// A value of A (index into A's values) and its counterpart in B.
struct value_pair {
    std::size_t a = npos;
    std::size_t b = npos;
    match_rule rule = match_rule::name;
};

struct value_matching {
    std::vector<value_pair> pairs;       ///< by A's value index
    std::vector<std::size_t> only_in_a;  ///< A's unpaired values, by index
    std::vector<std::size_t> only_in_b;  ///< B's unpaired values, by index
    std::array<std::size_t, 3> by_rule{};  ///< pairs per rule, indexed by match_rule

    std::size_t count(match_rule r) const noexcept { return by_rule[static_cast<std::size_t>(r)]; }
};

namespace detail {

/// What the matcher reads of one side.
template <class P, class Q>
struct match_side {
    basic_buffer_assignment<P> const& ba;
    basic_source_attribution<Q> const& sources;
    std::vector<std::string> shape_texts;  // by shape id
    std::vector<double> position;          // by value: relative start in the schedule
    std::vector<std::size_t> name_hash;    // by value: the hash of its instruction's name
    std::vector<bool> paired;

    match_side(basic_buffer_assignment<P> const& a, basic_source_attribution<Q> const& s)
        : ba(a),
          sources(s),
          shape_texts(a.shapes.size()),
          position(a.values.size(), 1.0),
          name_hash(a.values.size()),
          paired(a.values.size(), false) {
        for (std::size_t k = 0; k < a.shapes.size(); ++k) shape_texts[k] = to_string(a.shapes[static_cast<shape_id>(k)]);
        double const length = a.live_range ? static_cast<double>(std::max<logical_time>(a.live_range->max, 0) + 1) : 1.0;
        for (std::size_t i = 0; i < a.values.size(); ++i) {
            auto const& v = a.values[i];
            if (v.live_range) position[i] = static_cast<double>(v.live_range->start) / length;
            name_hash[i] = std::hash<std::string_view>{}(std::string_view(v.name));
        }
    }
    std::string_view shape(std::size_t i) const {
        auto const id = ba.values[i].shape;
        return id == no_shape ? std::string_view() : std::string_view(shape_texts[static_cast<std::size_t>(id)]);
    }
};

/// The key of value `i` under a rule, as a tuple of views compared field by field.
template <class P, class Q>
auto match_key(match_side<P, Q> const& s, std::size_t i, match_rule rule) {
    auto const& v = s.ba.values[i];
    std::string_view const none;
    switch (rule) {
        case match_rule::metadata: {
            auto const& src = s.sources[i];
            return std::make_tuple(std::string_view(src.op_name), std::string_view(src.source_file), src.source_line,
                                   std::string_view(src.op_type), std::string_view(v.instruction_opcode));
        }
        case match_rule::shape_and_position:
            return std::make_tuple(s.shape(i), none, std::int64_t{0}, none, std::string_view(v.instruction_opcode));
        case match_rule::name: break;
    }
    return std::make_tuple(std::string_view(v.name), none, std::int64_t{0}, none, none);
}

/// One value of either side in the sort of a rule: its key's hash, its side and its position,
/// so that the sort compares numbers only; equal keys are then checked string by string within
/// each run of one hash, once per value.
struct keyed_value {
    std::size_t hash;
    bool from_b;
    double position;
    std::size_t value;
};

/// Pairs within one group of equal keys: equal names first, then by position (see the file's
/// comment). `a` and `b` are value indices sorted by position.
template <class P, class Q>
void pair_group(match_side<P, Q>& sa, match_side<P, Q>& sb, std::vector<std::size_t>& a, std::vector<std::size_t>& b,
                match_rule rule, value_matching& out) {
    auto add = [&](std::size_t i, std::size_t j) {
        sa.paired[i] = sb.paired[j] = true;
        out.pairs.push_back({i, j, rule});
        ++out.by_rule[static_cast<std::size_t>(rule)];
    };
    if (rule != match_rule::name && a.size() > 0 && b.size() > 0) {
        // Equal names: B's sorted by the hash of their names, each of A's looked up there.
        std::vector<std::size_t> by_name = b;
        std::sort(by_name.begin(), by_name.end(), [&](std::size_t x, std::size_t y) {
            return sb.name_hash[x] != sb.name_hash[y] ? sb.name_hash[x] < sb.name_hash[y] : x < y;
        });
        for (std::size_t i : a) {
            std::size_t const h = sa.name_hash[i];
            auto it = std::lower_bound(by_name.begin(), by_name.end(), h, [&](std::size_t y, std::size_t v) { return sb.name_hash[y] < v; });
            for (; it != by_name.end() && sb.name_hash[*it] == h; ++it) {
                if (!sb.paired[*it] && std::string_view(sb.ba.values[*it].name) == std::string_view(sa.ba.values[i].name)) {
                    add(i, *it);
                    break;
                }
            }
        }
        a.erase(std::remove_if(a.begin(), a.end(), [&](std::size_t i) { return sa.paired[i]; }), a.end());
        b.erase(std::remove_if(b.begin(), b.end(), [&](std::size_t j) { return sb.paired[j]; }), b.end());
    }
    if (a.empty() || b.empty()) return;
    // By position: each value of the smaller side takes the nearest of the larger side not yet
    // passed, leaving enough for the values after it. Positions are sorted, so the distance falls
    // and then rises along the larger side: the scan stops where it rises.
    bool const a_smaller = a.size() <= b.size();
    auto const& small = a_smaller ? a : b;
    auto const& large = a_smaller ? b : a;
    auto const& ps = a_smaller ? sa.position : sb.position;
    auto const& pl = a_smaller ? sb.position : sa.position;
    std::size_t next = 0;
    for (std::size_t k = 0; k < small.size(); ++k) {
        std::size_t const last = large.size() - (small.size() - k);  // the last candidate that leaves enough
        std::size_t best = next;
        double best_distance = std::abs(pl[large[next]] - ps[small[k]]);
        for (std::size_t c = next + 1; c <= last; ++c) {
            double const d = std::abs(pl[large[c]] - ps[small[k]]);
            if (d >= best_distance) break;
            best = c;
            best_distance = d;
        }
        if (a_smaller) add(small[k], large[best]); else add(large[best], small[k]);
        next = best + 1;
    }
}

/// Runs one rule over the unpaired values of both sides.
template <class P, class Q>
void match_by(match_side<P, Q>& sa, match_side<P, Q>& sb, match_rule rule, value_matching& out) {
    std::vector<keyed_value> keyed;
    auto collect = [&](match_side<P, Q> const& s, bool from_b) {
        for (std::size_t i = 0; i < s.ba.values.size(); ++i) {
            if (s.paired[i]) continue;
            auto const& v = s.ba.values[i];
            if (rule == match_rule::metadata && !s.sources[i].has_metadata()) continue;
            if (rule == match_rule::shape_and_position && v.shape == no_shape) continue;
            auto const key = match_key(s, i, rule);
            std::size_t h = std::hash<std::string_view>{}(std::get<0>(key));
            auto mix = [&](std::size_t x) { h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
            mix(std::hash<std::string_view>{}(std::get<1>(key)));
            mix(std::hash<std::int64_t>{}(std::get<2>(key)));
            mix(std::hash<std::string_view>{}(std::get<3>(key)));
            mix(std::hash<std::string_view>{}(std::get<4>(key)));
            for (auto x : v.index) mix(std::hash<std::int64_t>{}(static_cast<std::int64_t>(x)));
            keyed.push_back({h, from_b, s.position[i], i});
        }
    };
    collect(sa, false);
    collect(sb, true);
    // By hash, A before B, then by position: numbers only.
    std::sort(keyed.begin(), keyed.end(), [](keyed_value const& x, keyed_value const& y) {
        return std::tie(x.hash, x.from_b, x.position, x.value) < std::tie(y.hash, y.from_b, y.position, y.value);
    });
    auto side = [&](keyed_value const& k) -> match_side<P, Q> const& { return k.from_b ? sb : sa; };
    auto same_key = [&](keyed_value const& x, keyed_value const& y) {
        auto const& ix = side(x).ba.values[x.value].index;
        auto const& iy = side(y).ba.values[y.value].index;
        return match_key(side(x), x.value, rule) == match_key(side(y), y.value, rule) &&
               std::equal(ix.begin(), ix.end(), iy.begin(), iy.end());
    };
    std::vector<std::size_t> a, b;
    std::vector<keyed_value> run, rest;
    for (std::size_t k = 0; k < keyed.size();) {
        std::size_t e = k + 1;
        while (e < keyed.size() && keyed[e].hash == keyed[k].hash) ++e;
        // A run of one hash holds one key but for a collision: split it into groups of equal
        // keys, each keeping the run's order.
        run.assign(keyed.begin() + static_cast<std::ptrdiff_t>(k), keyed.begin() + static_cast<std::ptrdiff_t>(e));
        while (!run.empty()) {
            a.clear();
            b.clear();
            rest.clear();
            for (auto const& x : run) {
                if (same_key(run.front(), x)) {
                    (x.from_b ? b : a).push_back(x.value);
                } else {
                    rest.push_back(x);
                }
            }
            if (!a.empty() && !b.empty()) pair_group(sa, sb, a, b, rule, out);
            run.swap(rest);
        }
        k = e;
    }
}

}  // namespace detail

/// Pairs the values of `a` with those of `b` (see the file's comment). `sources_a` and
/// `sources_b` give each value's metadata (attribute_values).
template <class P, class Q>
value_matching match_values(basic_buffer_assignment<P> const& a, basic_source_attribution<Q> const& sources_a,
                            basic_buffer_assignment<P> const& b, basic_source_attribution<Q> const& sources_b) {
    detail::match_side<P, Q> sa(a, sources_a), sb(b, sources_b);
    value_matching out;
    for (auto rule : all_match_rules) detail::match_by(sa, sb, rule, out);
    std::sort(out.pairs.begin(), out.pairs.end(), [](value_pair const& x, value_pair const& y) { return x.a < y.a; });
    for (std::size_t i = 0; i < a.values.size(); ++i) {
        if (!sa.paired[i]) out.only_in_a.push_back(i);
    }
    for (std::size_t j = 0; j < b.values.size(); ++j) {
        if (!sb.paired[j]) out.only_in_b.push_back(j);
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_DIFF_MATCH_HPP
