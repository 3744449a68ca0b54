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
//                       and the same shape index (values with metadata only); a source file
//                       under different roots on the two sides is one file (hlo/source_path.hpp
//                       match_source_files: two checkouts, two machines);
//   shape_and_position  the same shape (with layout), opcode and shape index;
//   name                the same instruction name and shape index.
// Within a group of values with one key, values with the same name are paired first (most
// instructions keep their names), and the rest by position in the schedule: each value of the
// smaller side takes the nearest value of the larger side by relative start time (start of its
// live range over the length of the program), in order, so that pairs never cross. The rules
// and the pairing depend on nothing but the two values, so matching B against A gives the same
// pairs as A against B. Every value ends up paired or listed as unmatched; none is dropped.
// O(n log n) in the number of values: per rule, one hash-table look-up of each value's key (its
// texts read once, in the order of the dump), a bucketing of both sides by key, and a sort by
// position within each bucket (often sorted already, when ids follow the schedule).
#ifndef HLOMEM_DIFF_MATCH_HPP
#define HLOMEM_DIFF_MATCH_HPP

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <hlomem/core/shape_text.hpp>
#include <hlomem/detail/scan.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/source_path.hpp>

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

/// What the matcher reads of one side, computed once.
template <class P, class Q>
struct match_side {
    basic_buffer_assignment<P> const& ba;
    basic_source_attribution<Q> const& sources;
    std::vector<std::string> shape_texts;  // by shape id
    std::vector<double> position;          // by value: relative start in the schedule
    std::vector<std::string_view> name;    // by value: its instruction's name (contiguous, for pairing by name)
    std::vector<std::size_t> name_hash;    // by value: the hash of that name
    std::vector<unsigned char> paired;     // by value
    std::vector<value_pair> pair_of;       // by value of A: its pair, once paired
    /// The files of both sides, when a file has a path of each (else paths are the files).
    source_file_index const* files;
    bool side_b;

    match_side(basic_buffer_assignment<P> const& a, basic_source_attribution<Q> const& s, source_file_index const& f, bool b)
        : ba(a),
          sources(s),
          shape_texts(a.shapes.size()),
          position(a.values.size(), 1.0),
          name(a.values.size()),
          name_hash(a.values.size()),
          paired(a.values.size(), 0),
          files(f.across_roots() ? &f : nullptr),
          side_b(b) {
        for (std::size_t k = 0; k < a.shapes.size(); ++k) shape_texts[k] = to_string(a.shapes[static_cast<shape_id>(k)]);
        double const length = a.live_range ? static_cast<double>(std::max<logical_time>(a.live_range->max, 0) + 1) : 1.0;
        for (std::size_t i = 0; i < a.values.size(); ++i) {
            auto const& v = a.values[i];
            if (v.live_range) position[i] = static_cast<double>(v.live_range->start) / length;
            name[i] = std::string_view(v.name);
            name_hash[i] = hash_text(name[i].data(), name[i].size());
        }
    }
    std::string_view shape(std::size_t i) const {
        auto const id = ba.values[i].shape;
        return id == no_shape ? std::string_view() : std::string_view(shape_texts[static_cast<std::size_t>(id)]);
    }
};

/// The key of a value under a rule: up to four texts, a number and the shape index, all views of
/// the side's model, and its hash. Equal keys are found through a hash table, so that each
/// value's texts are read once per rule, in the order of the values (the order of the dump's
/// text).
template <class P>
struct match_key {
    std::array<std::string_view, 4> text{};
    std::int64_t number = 0;
    basic_shape_index<P> const* index = nullptr;
    std::size_t hash = 0;  // key_hasher

    /// The hashes first: a look-up compares the key with every key of its bucket, and the texts
    /// of different keys often have the same lengths (one source file, op_names of one module).
    bool operator==(match_key const& o) const {
        if (hash != o.hash || number != o.number) return false;
        for (std::size_t f = 0; f < text.size(); ++f) {
            if (!same_text(text[f], o.text[f])) return false;
        }
        return *index == *o.index;
    }
    /// Two views of one text (the values of one instruction) are equal without reading it.
    static bool same_text(std::string_view x, std::string_view y) noexcept {
        return x.size() == y.size() && (x.data() == y.data() || x == y);
    }
};

template <class P>
struct match_key_hash {
    std::size_t operator()(match_key<P> const& k) const noexcept { return k.hash; }
};

/// Hashes keys in the order of the values. Neighbouring values often view the same text (the
/// elements of one tuple share their instruction's), so a text at the previous key's address
/// reuses its hash. (Comparing the bytes of texts at other addresses with the previous key's cost
/// more than hash_text, eight bytes a multiplication, saves.)
template <class P>
class key_hasher {
public:
    void operator()(match_key<P>& k) {
        std::size_t h = std::hash<std::int64_t>{}(k.number);
        auto mix = [&](std::size_t x) { h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
        for (std::size_t f = 0; f < k.text.size(); ++f) {
            if (k.text[f].data() != last_[f].data() || k.text[f].size() != last_[f].size()) {
                last_[f] = k.text[f];
                last_hash_[f] = hash_text(k.text[f].data(), k.text[f].size());  // detail/scan.hpp: a word at a time
            }
            mix(last_hash_[f]);
        }
        for (auto x : *k.index) mix(std::hash<std::int64_t>{}(static_cast<std::int64_t>(x)));
        k.hash = h;
    }

private:
    std::array<std::string_view, 4> last_{};
    std::array<std::size_t, 4> last_hash_{hash_text(nullptr, 0), hash_text(nullptr, 0), hash_text(nullptr, 0), hash_text(nullptr, 0)};
};

/// The key of value `i` under `rule`; none when the rule does not apply to it (no metadata, no
/// shape).
template <class P, class Q>
std::optional<match_key<P>> key_of(match_side<P, Q> const& s, std::size_t i, match_rule rule) {
    auto const& v = s.ba.values[i];
    match_key<P> k;
    k.index = &v.index;
    switch (rule) {
        case match_rule::metadata: {
            auto const& src = s.sources[i];
            if (!src.has_metadata()) return std::nullopt;
            k.text = {std::string_view(src.op_name), s.files ? s.files->key_of(src.source_file, s.side_b) : std::string_view(src.source_file),
                      std::string_view(src.op_type),
                      std::string_view(v.instruction_opcode)};
            k.number = src.source_line;
            return k;
        }
        case match_rule::shape_and_position:
            if (v.shape == no_shape) return std::nullopt;
            k.text[0] = s.shape(i);
            k.text[1] = std::string_view(v.instruction_opcode);
            return k;
        case match_rule::name: break;
    }
    k.text[0] = std::string_view(v.name);
    return k;
}

/// One value in the grouping of a rule: the number of its key, its position and its index.
struct keyed_value {
    std::uint32_t key;
    double position;
    std::size_t value;
};

/// Scratch space of one matching, reused from rule to rule and from group to group.
struct match_scratch {
    std::vector<keyed_value> keyed_a, keyed_b, sorted_a, sorted_b;
    std::vector<std::size_t> first_a, first_b, next;
    std::vector<std::size_t> a, b;
    std::vector<std::pair<std::size_t, std::size_t>> by_name;  // (name hash, value) of B's group
};

/// Pairs within one group of equal keys: equal names first, then by position (see the file's
/// comment). `a` and `b` are value indices sorted by position (ties by index).
template <class P, class Q>
void pair_group(match_side<P, Q>& sa, match_side<P, Q>& sb, std::vector<std::size_t>& a, std::vector<std::size_t>& b,
                match_rule rule, std::vector<std::pair<std::size_t, std::size_t>>& by_name, value_matching& out) {
    auto add = [&](std::size_t i, std::size_t j) {
        sa.paired[i] = sb.paired[j] = 1;
        sa.pair_of[i] = {i, j, rule};
        ++out.by_rule[static_cast<std::size_t>(rule)];
    };
    if (rule != match_rule::name) {
        // Equal names: each of A's takes the first unpaired of B's (by index) with its name,
        // looked up among B's sorted by the hash of their names.
        by_name.clear();
        for (std::size_t j : b) by_name.emplace_back(sb.name_hash[j], j);
        std::sort(by_name.begin(), by_name.end());
        for (std::size_t i : a) {
            std::size_t const h = sa.name_hash[i];
            auto it = std::lower_bound(by_name.begin(), by_name.end(), std::pair<std::size_t, std::size_t>(h, 0));
            for (; it != by_name.end() && it->first == h; ++it) {
                if (!sb.paired[it->second] && sb.name[it->second] == sa.name[i]) {
                    add(i, it->second);
                    break;
                }
            }
        }
        a.erase(std::remove_if(a.begin(), a.end(), [&](std::size_t i) { return sa.paired[i] != 0; }), a.end());
        b.erase(std::remove_if(b.begin(), b.end(), [&](std::size_t j) { return sb.paired[j] != 0; }), b.end());
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

/// Runs one rule over the unpaired values of both sides: each value's key gets a number (one
/// hash table for both sides), the values of each side are bucketed by that number in index
/// order, and each bucket holding values of both sides is sorted by position and paired.
template <class P, class Q>
void match_by(match_side<P, Q>& sa, match_side<P, Q>& sb, match_rule rule, match_scratch& scratch, value_matching& out) {
    std::unordered_map<match_key<P>, std::uint32_t, match_key_hash<P>> numbers;
    auto collect = [&](match_side<P, Q> const& s, std::vector<keyed_value>& keyed) {
        keyed.clear();
        key_hasher<P> hash;
        for (std::size_t i = 0; i < s.ba.values.size(); ++i) {
            if (s.paired[i]) continue;
            auto key = key_of(s, i, rule);
            if (!key) continue;
            hash(*key);
            auto const number = static_cast<std::uint32_t>(numbers.size());
            keyed.push_back({numbers.emplace(*key, number).first->second, s.position[i], i});
        }
    };
    collect(sa, scratch.keyed_a);
    collect(sb, scratch.keyed_b);
    // Each side's values bucketed by key number, keeping index order (a counting sort).
    std::size_t const keys = numbers.size();
    auto bucket = [&](std::vector<keyed_value> const& keyed, std::vector<std::size_t>& first, std::vector<keyed_value>& sorted) {
        first.assign(keys + 1, 0);
        for (auto const& k : keyed) ++first[k.key + 1];
        for (std::size_t k = 0; k < keys; ++k) first[k + 1] += first[k];
        sorted.resize(keyed.size());
        scratch.next.assign(first.begin(), first.end() - 1);
        for (auto const& k : keyed) sorted[scratch.next[k.key]++] = k;
    };
    bucket(scratch.keyed_a, scratch.first_a, scratch.sorted_a);
    bucket(scratch.keyed_b, scratch.first_b, scratch.sorted_b);
    auto by_position = [](keyed_value const& x, keyed_value const& y) {
        return x.position != y.position ? x.position < y.position : x.value < y.value;
    };
    auto group = [&](std::vector<keyed_value>& sorted, std::vector<std::size_t> const& first, std::size_t key, std::vector<std::size_t>& values) {
        auto const begin = sorted.begin() + static_cast<std::ptrdiff_t>(first[key]);
        auto const end = sorted.begin() + static_cast<std::ptrdiff_t>(first[key + 1]);
        if (!std::is_sorted(begin, end, by_position)) std::sort(begin, end, by_position);
        values.clear();
        for (auto it = begin; it != end; ++it) values.push_back(it->value);
    };
    for (std::size_t key = 0; key < keys; ++key) {
        if (scratch.first_a[key] == scratch.first_a[key + 1] || scratch.first_b[key] == scratch.first_b[key + 1]) continue;
        group(scratch.sorted_a, scratch.first_a, key, scratch.a);
        group(scratch.sorted_b, scratch.first_b, key, scratch.b);
        pair_group(sa, sb, scratch.a, scratch.b, rule, scratch.by_name, out);
    }
}

}  // namespace detail

/// Pairs the values of `a` with those of `b` (see the file's comment). `sources_a` and
/// `sources_b` give each value's metadata (attribute_values); `files`, their source files
/// matched (source_file_index of source_files(sources_a) and source_files(sources_b)), which the
/// matcher builds when not given.
template <class P, class Q>
value_matching match_values(basic_buffer_assignment<P> const& a, basic_source_attribution<Q> const& sources_a,
                            basic_buffer_assignment<P> const& b, basic_source_attribution<Q> const& sources_b,
                            source_file_index const* files = nullptr) {
    std::optional<source_file_index> own;
    if (!files) files = &own.emplace(source_files(sources_a), source_files(sources_b));
    detail::match_side<P, Q> sa(a, sources_a, *files, false), sb(b, sources_b, *files, true);
    sa.pair_of.resize(a.values.size());
    value_matching out;
    detail::match_scratch scratch;
    for (auto rule : all_match_rules) detail::match_by(sa, sb, rule, scratch, out);
    out.pairs.reserve(out.by_rule[0] + out.by_rule[1] + out.by_rule[2]);
    for (std::size_t i = 0; i < a.values.size(); ++i) {
        if (sa.paired[i]) {
            out.pairs.push_back(sa.pair_of[i]);
        } else {
            out.only_in_a.push_back(i);
        }
    }
    for (std::size_t j = 0; j < b.values.size(); ++j) {
        if (!sb.paired[j]) out.only_in_b.push_back(j);
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_DIFF_MATCH_HPP
