// hlomem/dump/buffer_assignment.hpp: XLA's BufferAssignment dump as a model — allocations, the
// logical values assigned to them, their positions and uses, and their live ranges.
//
//   allocation 6: size 2114011136, preallocated-temp:
//    value: <150 all-gather.30 @0> (size=117440512,offset=939606016): bf16[14336,4096]{1,0:T(8,128)(2,1)}
//   ...
//   Used values:
//   <150 all-gather.30 @0>
//    positions:
//     all-gather.30
//    uses:
//     fusion.10, operand 2
//    from instruction: %all-gather.30 = bf16[14336,4096]{1,0:T(8,128)(2,1)} all-gather(...)
//
// The model keeps what the dump states (sizes, offsets, totals, the peak) next to what can be
// recomputed from it, so that `check_consistency` can report where the dump contradicts itself.
// Values are kept sorted by id, XLA's canonical order. Shapes live once in `shapes` and are
// referred to by shape_id.
#ifndef HLOMEM_DUMP_BUFFER_ASSIGNMENT_HPP
#define HLOMEM_DUMP_BUFFER_ASSIGNMENT_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/human_bytes.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_table.hpp>
#include <hlomem/detail/scan.hpp>
#include <hlomem/dump/live_range.hpp>

namespace hlomem {

/// `name` or `name {1,0}` under ` positions:`: the value appears at that instruction output.
template <class P = default_policy>
struct basic_hlo_position {
    typename P::string_type instruction;
    basic_shape_index<P> index;
    bool index_printed = false;  ///< XLA prints ` {i}` when the instruction's shape is a tuple
    /// position_name_hash of `instruction`, which the dump parser computes while the name is at
    /// hand, so that an index of 10^5 positions (the origin walk's, hlo/origin.hpp) is built
    /// without reading each name again from wherever it lies in the text; 0 in a position made
    /// another way, whose readers hash the name themselves. Held in the record's padding.
    std::uint32_t instruction_hash = 0;
};

/// The hash of an instruction name that basic_hlo_position::instruction_hash holds: hash_text
/// folded to 32 bits, never 0.
inline std::uint32_t position_name_hash(std::string_view name) noexcept {
    std::size_t const h = detail::hash_text(name.data(), name.size());
    auto const folded = static_cast<std::uint32_t>(h ^ (std::uint64_t(h) >> 32));
    return folded == 0 ? 1 : folded;
}

/// `user, operand N` or `user, operand N {i}` under ` uses:`.
template <class P = default_policy>
struct basic_hlo_use {
    typename P::string_type instruction;
    std::int64_t operand_number = 0;
    basic_shape_index<P> operand_index;
    bool index_printed = false;  ///< XLA prints ` {i}` when the operand's shape is a tuple
};

/// One entry of an instruction's `output_to_operand_aliasing={{1}: (0, {}), ...}`: output
/// `output_index` reuses the buffer of operand `operand_number` at `operand_index`.
template <class P = default_policy>
struct basic_operand_alias {
    basic_shape_index<P> output_index;
    std::int64_t operand_number = 0;
    basic_shape_index<P> operand_index;
};

/// How the ` uses:` part of a Used-values block reads.
enum class uses_state : std::uint8_t {
    listed,           ///< one or more uses
    none,             ///< `  (none)` (newest XLA)
    empty,            ///< nothing under ` uses:` (older XLA)
    not_initialized,  ///< ` uses are not initialized yet.`
};

/// One logical value (XLA's HloValue), from its value line, its Used-values block and its
/// BufferLiveRange line.
template <class P = default_policy>
struct basic_logical_value {
    using string_type = typename P::string_type;
    template <class T>
    using vector_type = typename P::template vector_type<T>;

    // The fields are grouped by size, the small ones last, so that none is padded: a dump of 10^6
    // values holds 10^6 of these (264 bytes each, not the 288 that the order of the text's fields
    // would take). The fields that the soundness check and the XLA peak read for every value (the
    // live range, offset, size, shapes and color) come first, in the record's first 64 bytes: the
    // check visits the values allocation by allocation, in no order in memory, and each cache line
    // it fetches then serves all of a value's fields (at 10^6 values the check read some 3 lines a
    // value when they lay at both ends of the record).

    // The BufferLiveRange line.
    std::optional<live_interval> live_range;

    // The value line.
    std::int64_t offset = 0;  ///< within the allocation
    std::int64_t size = 0;    ///< the assigned size (the HloBuffer's, max over aliased values)
    shape_id shape = no_shape;              ///< the value line's shape, with layout
    shape_id instruction_shape = no_shape;  ///< the defining instruction's result shape (its block)
    std::optional<std::int64_t> color;      ///< `@0`; absent in old dumps
    basic_shape_index<P> index;
    std::int64_t id = 0;
    string_type name;               ///< the defining instruction, without `%`
    std::size_t allocation = npos;  ///< index into buffer_assignment::allocations
    std::size_t line = 0;           ///< 1-based line of the value line

    // The Used-values block.
    vector_type<basic_hlo_position<P>> positions;
    vector_type<basic_hlo_use<P>> uses;
    string_type instruction_text;         ///< the defining instruction's HLO text, raw
    string_type instruction_opcode;       ///< `fusion`, `dynamic-update-slice`, `custom-call`, ...
    string_type fusion_kind;              ///< `kLoop`, `kInput`, `kOutput`, `kCustom` for fusions
    /// The instruction's `output_to_operand_aliasing`, when it has one.
    vector_type<basic_operand_alias<P>> output_to_operand_aliasing;
    std::size_t block_line = 0;

    bool index_printed = false;  ///< `<212 tuple{} @0>`: XLA prints the index for tuple-shaped instructions
    bool is_phi = false;
    /// Listed again under its allocation's ` reused by buffers of a different color:` (newer XLA,
    /// BufferAllocation::ToString): the value's color is not the allocation's, which XLA allows
    /// for temp allocations (BufferAssigner::MaybeAssignBuffer, the backend's can_use_allocation).
    bool cross_color = false;
    bool has_block = false;      ///< the value has a Used-values block
    uses_state uses_as_printed = uses_state::empty;
    bool instruction_text_spaced = true;  ///< `from instruction: %x` (newer) or `from instruction:%x` (older)

    /// `[offset, offset + size)` within the allocation.
    std::int64_t end_offset() const noexcept { return offset + size; }

    /// The value as XLA names it in `BufferLiveRange:` lines: `fusion.3`, or `tuple{1}` when the
    /// index is printed (tuple-shaped instructions; HloValue::ToShortString).
    std::string display_name() const {
        std::string s(name);
        if (index_printed) s += to_string(index);
        return s;
    }
};

/// What an allocation holds, by the flags of its header.
enum class allocation_kind : std::uint8_t {
    parameter,          ///< an entry parameter (possibly aliased with an output)
    constant,
    thread_local_,      ///< buffers of thread-local computations (reducers, sort comparators)
    output,             ///< maybe-live-out (not a parameter)
    temp,               ///< preallocated-temp: the heap-simulated temp arena of one color
    other,              ///< no flag XLA would print; a dump from an unknown version
};

inline constexpr std::string_view to_string(allocation_kind k) noexcept {
    switch (k) {
        case allocation_kind::parameter: return "parameter";
        case allocation_kind::constant: return "constant";
        case allocation_kind::thread_local_: return "thread-local";
        case allocation_kind::output: return "maybe-live-out";
        case allocation_kind::temp: return "preallocated-temp";
        case allocation_kind::other: return "other";
    }
    return "other";
}

/// One `allocation N: size S, ...:` header and its value lines.
template <class P = default_policy>
struct basic_allocation {
    std::int64_t index = 0;
    std::int64_t size = 0;
    std::int64_t color = 0;
    std::optional<std::uint64_t> address;  ///< legacy headers: `allocation 0: 0x27017c46b600, size ...`
    /// Newer XLA (JAX 0.11): `allocation 0: size 4194304, page 0, parameter 0, ...`; unset when
    /// the header has no `page` flag, as older XLA prints it.
    std::optional<std::int64_t> page;
    std::optional<std::int64_t> parameter_number;
    basic_shape_index<P> parameter_shape_index;
    shape_id parameter_shape = no_shape;   ///< no_shape when XLA printed `<unknown shape>`
    std::optional<shape_id> output_shape;  ///< `output shape is |...|`
    bool shapes_in_bars = true;            ///< `shape |f32[8]|` (newer) or `shape f32[8]` (legacy)
    bool is_constant = false;
    bool is_thread_local = false;
    bool maybe_live_out = false;
    bool is_preallocated_temp = false;
    typename P::template vector_type<std::size_t> values;  ///< indices into values, by id
    std::size_t line = 0;

    bool is_entry_computation_parameter() const noexcept { return parameter_number.has_value(); }
    /// A parameter that is also maybe-live-out: donated or aliased with an output.
    bool is_parameter_aliased_with_output() const noexcept { return parameter_number.has_value() && maybe_live_out; }

    allocation_kind kind() const noexcept {
        if (parameter_number) return allocation_kind::parameter;
        if (is_constant) return allocation_kind::constant;
        if (is_thread_local) return allocation_kind::thread_local_;
        if (maybe_live_out) return allocation_kind::output;
        if (is_preallocated_temp) return allocation_kind::temp;
        return allocation_kind::other;
    }
};

/// A whole `*-buffer-assignment.txt` dump.
template <class P = default_policy>
struct basic_buffer_assignment {
    using policy_type = P;
    using string_type = typename P::string_type;
    using value_type = basic_logical_value<P>;
    using allocation_type = basic_allocation<P>;
    template <class T>
    using vector_type = typename P::template vector_type<T>;

    vector_type<allocation_type> allocations;
    vector_type<value_type> values;  ///< sorted by id
    basic_shape_table<P> shapes;

    std::optional<std::int64_t> stated_total_bytes;  ///< `Total bytes used: N (...)`
    string_type stated_total_human;                   ///< the text in parentheses: `1.02GiB`
    bool has_used_values = false;                     ///< the `Used values:` section is present
    std::optional<basic_hlo_live_range<P>> live_range;
    std::string file;  ///< the name the dump was read under, for messages

    /// Σ allocation sizes: what `Total bytes used` should state.
    std::int64_t total_bytes() const {
        std::int64_t total = 0;
        for (auto const& a : allocations) total += a.size;
        return total;
    }

    /// The value with this id, or nullptr.
    value_type const* find_value(std::int64_t id) const {
        auto it = std::lower_bound(values.begin(), values.end(), id,
                                   [](value_type const& v, std::int64_t i) { return v.id < i; });
        return it != values.end() && it->id == id ? &*it : nullptr;
    }
    std::size_t value_index(std::int64_t id) const {
        auto const* v = find_value(id);
        return v ? static_cast<std::size_t>(v - values.data()) : npos;
    }

    /// The value defined by instruction `name` at `index` (XLA's BufferLiveRange key), or npos.
    std::size_t value_index(std::string_view name, basic_shape_index<P> const& index) const {
        std::size_t const hash = name_hash(name);
        auto const [first, last] = hash_range(hash);
        auto it = std::lower_bound(first, last, hash, [&](name_entry const& e, std::size_t h) {
            if (e.hash != h) return e.hash < h;
            auto const& v = values[e.value];
            int const c = std::string_view(v.name).compare(name);
            return c < 0 || (c == 0 && v.index < index);
        });
        if (it == last || it->hash != hash) return npos;
        auto const& v = values[it->value];
        return std::string_view(v.name) == name && v.index == index ? it->value : npos;
    }
    value_type const* find_value(std::string_view name, basic_shape_index<P> const& index) const {
        std::size_t const i = value_index(name, index);
        return i == npos ? nullptr : &values[i];
    }

    /// All values defined by instruction `name` (every shape index), in index order.
    std::vector<std::size_t> values_of_instruction(std::string_view name) const {
        std::vector<std::size_t> out;
        std::size_t const hash = name_hash(name);
        auto const [first, last] = hash_range(hash);
        auto it = std::lower_bound(first, last, hash, [&](name_entry const& e, std::size_t h) {
            return e.hash < h || (e.hash == h && std::string_view(values[e.value].name) < name);
        });
        for (; it != last && it->hash == hash && std::string_view(values[it->value].name) == name; ++it) {
            out.push_back(it->value);
        }
        return out;
    }

    /// The shape of a value (with layout), or nullptr.
    basic_shape<P> const* shape_of(value_type const& v) const { return v.shape == no_shape ? nullptr : &shapes[v.shape]; }
    /// The result shape of the value's defining instruction, or nullptr without a Used-values block.
    basic_shape<P> const* instruction_shape_of(value_type const& v) const {
        return v.instruction_shape == no_shape ? nullptr : &shapes[v.instruction_shape];
    }

    /// Rebuilds the (name, index) lookup; call after changing values by hand. The parsers call it.
    void reindex() {
        reindex(1, [](std::size_t n, auto const& work) {
            for (std::size_t k = 0; k < n; ++k) work(k);
        });
    }
    /// reindex() in `pieces` pieces that `run(pieces, work)` may run at once (it calls work(k) for
    /// each k < pieces; the parser reading a large dump on several threads runs them on its
    /// threads): each piece hashes and sorts its share of the values, then neighbouring pieces are
    /// merged, then pairs of pairs (log2(pieces) passes, each also in `pieces` spans that `run`
    /// may run at once). Values of one name and index (a damaged dump) are ordered by their place,
    /// so the lookup is the same however many pieces there were.
    template <class Run>
    void reindex(std::size_t pieces, Run const& run) {
        sort_names(pieces, run);
        index_hash_prefixes();
    }

private:
    template <class Run>
    void sort_names(std::size_t pieces, Run const& run) {
        std::size_t const n = values.size();
        pieces = std::max<std::size_t>(1, std::min(pieces, n));
        by_name_.resize(n);
        auto const less = [&](name_entry const& a, name_entry const& b) {
            if (a.hash != b.hash) return a.hash < b.hash;
            auto const& va = values[a.value];
            auto const& vb = values[b.value];
            int const c = std::string_view(va.name).compare(std::string_view(vb.name));
            if (c != 0) return c < 0;
            if (va.index != vb.index) return va.index < vb.index;
            return a.value < b.value;
        };
        auto const bound = [&](std::size_t k) { return n * std::min(k, pieces) / pieces; };
        run(pieces, [&](std::size_t k) {
            sort_piece(bound(k), bound(k + 1), less);
        });
        if (pieces == 1) return;
        // Each pass merges the sorted runs [bound(k), bound(k + width)) and [bound(k + width),
        // bound(k + 2 width)) from one buffer into the other. Its output is cut into `pieces`
        // equal spans merged at once: where a span starts in each of its two runs is found by
        // binary search (the merge path), and is unique because no two entries compare equal. So
        // no pass waits on one thread, and each gives what one merge of the two runs would.
        std::vector<name_entry> other(n);
        for (std::size_t width = 1; width < pieces; width *= 2) {
            name_entry const* const from = by_name_.data();
            name_entry* const to = other.data();
            run(pieces, [&](std::size_t span) {
                std::size_t const first = n * span / pieces, last = n * (span + 1) / pieces;
                for (std::size_t k = 0; k < pieces; k += 2 * width) {
                    std::size_t const lo = bound(k), mid = bound(k + width), hi = bound(k + 2 * width);
                    if (std::max(first, lo) < std::min(last, hi)) {
                        merge_span(from + lo, mid - lo, from + mid, hi - mid, std::max(first, lo) - lo,
                                   std::min(last, hi) - lo, to + lo, less);
                    }
                }
            });
            by_name_.swap(other);
        }
    }

    // The lookup is ordered by (hash of the name, name, index) rather than by name: the values of
    // one instruction stay together in index order, and comparisons while sorting and searching
    // read the names only within one hash, not at every step. With a million values the names are
    // scattered over the whole text, and reading them made reindex and every lookup miss the cache.
    struct name_entry {
        std::size_t hash;
        std::size_t value;
    };
    static std::size_t name_hash(std::string_view name) { return detail::hash_text(name.data(), name.size()); }
    /// Places [d0, d1) of the merge of the sorted runs a[0, na) and b[0, nb), written to out[d0, d1).
    template <class Less>
    static void merge_span(name_entry const* a, std::size_t na, name_entry const* b, std::size_t nb, std::size_t d0,
                           std::size_t d1, name_entry* out, Less const& less) {
        // How many of the first d places the merge takes from a: the least i with a[i] not
        // before b[d - i - 1].
        auto const taken_from_a = [&](std::size_t d) {
            std::size_t lo = d > nb ? d - nb : 0, hi = std::min(d, na);
            while (lo < hi) {
                std::size_t const i = lo + (hi - lo) / 2;
                if (less(a[i], b[d - i - 1])) {
                    lo = i + 1;
                } else {
                    hi = i;
                }
            }
            return lo;
        };
        std::size_t const i0 = taken_from_a(d0), i1 = taken_from_a(d1);
        std::merge(a + i0, a + i1, b + (d0 - i0), b + (d1 - i1), out + d0, less);
    }

    /// Fills by_name_[first, last) with the values [first, last) sorted by `less`, which orders by
    /// hash first: the entries are spread into buckets by the hash's top bits (one counting pass,
    /// one scatter), and each bucket (some eight entries, in cache) is sorted on its own. A
    /// std::sort of the whole piece compared each entry some 20 times, with a mispredicted branch
    /// at most of them: 4.4% of the parse of a dump of 10^6 values.
    template <class Less>
    void sort_piece(std::size_t first, std::size_t last, Less const& less) {
        std::size_t const m = last - first;
        unsigned bits = 0;
        while (bits < 16 && (std::size_t(8) << bits) < m) ++bits;
        if (bits < 4) {
            for (std::size_t i = first; i < last; ++i) by_name_[i] = name_entry{name_hash(std::string_view(values[i].name)), i};
            std::sort(by_name_.begin() + static_cast<std::ptrdiff_t>(first), by_name_.begin() + static_cast<std::ptrdiff_t>(last), less);
            return;
        }
        unsigned const shift = static_cast<unsigned>(std::numeric_limits<std::size_t>::digits) - bits;
        std::vector<name_entry> hashed(m);
        std::vector<std::size_t> start((std::size_t(1) << bits) + 1, 0);
        for (std::size_t i = first; i < last; ++i) {
            std::size_t const h = name_hash(std::string_view(values[i].name));
            hashed[i - first] = name_entry{h, i};
            ++start[(h >> shift) + 1];
        }
        for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
        std::vector<std::size_t> next(start.begin(), start.end() - 1);
        for (auto const& e : hashed) by_name_[first + next[e.hash >> shift]++] = e;
        for (std::size_t b = 0; b + 1 < start.size(); ++b) {
            if (start[b + 1] - start[b] < 2) continue;
            std::sort(by_name_.begin() + static_cast<std::ptrdiff_t>(first + start[b]),
                      by_name_.begin() + static_cast<std::ptrdiff_t>(first + start[b + 1]), less);
        }
    }
    /// The entries of by_name_ whose hash shares the top bits of `hash`: one bucket of the
    /// directory, about one entry, where a binary search of the whole list probed some 17 entries
    /// of a 10^5-value dump, each a cache miss once the search left the list's top levels (the
    /// origin walk looks up every operand it crosses).
    std::pair<typename std::vector<name_entry>::const_iterator, typename std::vector<name_entry>::const_iterator>
    hash_range(std::size_t hash) const {
        if (prefix_start_.empty()) return {by_name_.begin(), by_name_.end()};
        std::size_t const b = hash >> prefix_shift_;
        return {by_name_.begin() + static_cast<std::ptrdiff_t>(prefix_start_[b]),
                by_name_.begin() + static_cast<std::ptrdiff_t>(prefix_start_[b + 1])};
    }
    /// prefix_start_[b]: the first entry of by_name_ whose hash's top bits are b or more (the list
    /// is sorted by hash first), for as many top bits as make about one entry a bucket.
    void index_hash_prefixes() {
        std::size_t const n = by_name_.size();
        prefix_start_.clear();
        if (n < 64 || n > std::numeric_limits<std::uint32_t>::max()) return;  // a binary search of the whole
        unsigned bits = 0;
        while ((std::size_t(1) << bits) < n) ++bits;
        prefix_shift_ = static_cast<unsigned>(std::numeric_limits<std::size_t>::digits) - bits;
        prefix_start_.assign((std::size_t(1) << bits) + 1, 0);
        std::size_t k = 0;
        for (std::size_t b = 0; b + 1 < prefix_start_.size(); ++b) {
            while (k < n && (by_name_[k].hash >> prefix_shift_) < b) ++k;
            prefix_start_[b] = static_cast<std::uint32_t>(k);
        }
        prefix_start_.back() = static_cast<std::uint32_t>(n);
    }
    std::vector<name_entry> by_name_;  // value indices sorted by (hash of name, name, index)
    std::vector<std::uint32_t> prefix_start_;  // index_hash_prefixes; empty: search all of by_name_
    unsigned prefix_shift_ = 0;
};

using logical_value = basic_logical_value<>;
using allocation = basic_allocation<>;
using buffer_assignment = basic_buffer_assignment<>;
using hlo_position = basic_hlo_position<>;
using hlo_use = basic_hlo_use<>;

/// Matches the live-range lines from `line` on as attach_live_range does, `next` being the value
/// after the last one matched, and returns where it stopped. With `lookup` false it needs no
/// lookup by name (a reader builds it meanwhile, reindex): a line that does not name the value
/// after the last one matched (XLA skips values without a live range) is matched with the first
/// value of its name and index among the next `guess_window` values, and its index appended to
/// `guessed`; it stops at a line that this does not match. The lookup would give such a line the
/// first value of that name and index: the same one unless an earlier value repeats it (a
/// damaged dump), which the caller checks for each line in `guessed`.
template <class P>
std::size_t attach_live_range_lines(basic_buffer_assignment<P>& ba, basic_hlo_live_range<P>& live_range, std::size_t line,
                                    std::size_t& next, bool lookup, std::vector<std::size_t>* guessed = nullptr) {
    constexpr std::size_t guess_window = 64;
    auto& lines = live_range.buffer_live_ranges;
    auto const names = [&](std::size_t value, auto const& r) {
        return std::string_view(ba.values[value].name) == std::string_view(r.name) && ba.values[value].index == r.index;
    };
    for (; line < lines.size(); ++line) {
        auto& r = lines[line];
        if (next < ba.values.size() && names(next, r)) {
            r.value = next;
        } else if (lookup) {
            r.value = ba.value_index(std::string_view(r.name), r.index);
        } else {
            std::size_t const last = std::min(ba.values.size(), next + guess_window);
            std::size_t found = next + 1;
            while (found < last && !names(found, r)) ++found;
            if (found >= last || !guessed) break;
            r.value = found;
            guessed->push_back(line);
        }
        if (r.value != npos) {
            ba.values[r.value].live_range = r.range;
            next = r.value + 1;
        }
    }
    return line;
}

/// Attaches a live-range text (appended to the dump or read from a separate `-live-range.txt`)
/// to a buffer assignment: every `name{index}:start-end` line is matched with its value.
/// Lines that name no value keep `value == npos` (check_consistency reports them).
/// XLA prints the lines in value-id order, the order of `ba.values`, so the value after the last
/// one matched is tried first: a million lines then cost a pass over the values, not a million
/// searches that each miss the cache.
template <class P>
void attach_live_range(basic_buffer_assignment<P>& ba, basic_hlo_live_range<P> live_range) {
    for (auto& v : ba.values) v.live_range.reset();
    std::size_t next = 0;
    attach_live_range_lines(ba, live_range, 0, next, true);
    ba.live_range = std::move(live_range);
}

// ---------------------------------------------------------------------------------------------
// What the dump asserts about itself
// ---------------------------------------------------------------------------------------------

/// A place where a dump contradicts itself or breaks a rule XLA checks when it writes it: a
/// warning of kind inconsistent_dump at `line` (1-based; 0 when the problem has no single line).
inline diagnostic dump_inconsistency(std::size_t line, std::string message) {
    return make_diagnostic(diagnostic_kind::inconsistent_dump, severity::warning, std::move(message)).at(line);
}

/// Checks what the dump itself asserts (docs/FORMATS.md 5):
///   - the allocations are numbered 0..n-1;
///   - the sum of allocation sizes equals `Total bytes used`, and its human form is XLA's;
///   - every value satisfies offset + size <= its allocation's size;
///   - a value's `@color` equals its allocation's color, unless the allocation lists it under
///     ` reused by buffers of a different color:` (then it must differ);
///   - every value line has a Used-values block and every block a value line (when the dump
///     has a `Used values:` section);
///   - every BufferLiveRange line names a known value, lies within [0, max], and the
///     instruction sequence is numbered 0..max-1;
///   - the live-range text ends with its peak (and a stack-trace breakdown, when present, with 0
///     bytes remaining): otherwise it was cut short.
/// The peak (docs/FORMATS.md 6.2) is checked by compare_stated_peak in peak.hpp.
template <class P>
std::vector<diagnostic> check_consistency(basic_buffer_assignment<P> const& ba) {
    std::vector<diagnostic> out;
    auto say = [&](std::size_t line, std::string message) { out.push_back(dump_inconsistency(line, std::move(message))); };
    for (std::size_t i = 0; i < ba.allocations.size(); ++i) {
        auto const& a = ba.allocations[i];
        if (a.index != static_cast<std::int64_t>(i)) {
            say(a.line, "allocation " + std::to_string(a.index) + " is listed at position " + std::to_string(i) +
                            "; XLA numbers allocations 0..n-1 in order");
        }
    }
    if (ba.stated_total_bytes) {
        std::int64_t const total = ba.total_bytes();
        if (*ba.stated_total_bytes != total) {
            say(0, "Total bytes used states " + std::to_string(*ba.stated_total_bytes) +
                       " but the allocation sizes add up to " + std::to_string(total));
        }
        std::string const human = human_bytes(*ba.stated_total_bytes);
        if (!std::string_view(ba.stated_total_human).empty() && std::string_view(ba.stated_total_human) != human) {
            say(0, "Total bytes used prints " + std::string(std::string_view(ba.stated_total_human)) + " for " +
                       std::to_string(*ba.stated_total_bytes) + " bytes; XLA prints " + human);
        }
    } else {
        say(0, "the dump has no 'Total bytes used' line");
    }
    for (auto const& v : ba.values) {
        if (v.allocation == npos) {
            if (v.has_block) say(v.block_line, "value " + std::to_string(v.id) + " has a Used-values block but no value line");
            continue;
        }
        auto const& a = ba.allocations[v.allocation];
        if (v.offset < 0 || v.size < 0 || v.offset + v.size > a.size) {
            say(v.line, "value " + std::to_string(v.id) + " (" + std::string(std::string_view(v.name)) + ") occupies [" +
                            std::to_string(v.offset) + ", " + std::to_string(v.offset + v.size) +
                            ") beyond allocation " + std::to_string(a.index) + " of size " + std::to_string(a.size));
        }
        if (v.color && *v.color != a.color && !v.cross_color) {
            say(v.line, "value " + std::to_string(v.id) + " has color " + std::to_string(*v.color) + " but allocation " +
                            std::to_string(a.index) + " has color " + std::to_string(a.color) +
                            " and does not list it as reused by a different color");
        }
        if (v.cross_color && v.color.value_or(a.color) == a.color) {
            say(v.line, "value " + std::to_string(v.id) + " is listed as reused by a different color of allocation " +
                            std::to_string(a.index) + " but has its color, " + std::to_string(a.color));
        }
        if (ba.has_used_values && !v.has_block) {
            say(v.line, "value " + std::to_string(v.id) + " (" + std::string(std::string_view(v.name)) +
                            ") has no Used-values block");
        }
    }
    if (ba.live_range) {
        auto const& lr = *ba.live_range;
        for (std::size_t t = 0; t < lr.instruction_sequence.size(); ++t) {
            if (std::string_view(lr.instruction_sequence[t]).empty()) {
                say(lr.line, "InstructionSequence has no instruction at time " + std::to_string(t));
            }
        }
        if (!lr.not_available && static_cast<std::size_t>(lr.max) != lr.instruction_sequence.size()) {
            say(lr.line, "HloLiveRange (max " + std::to_string(lr.max) + ") but InstructionSequence lists " +
                             std::to_string(lr.instruction_sequence.size()) + " instructions");
        }
        // XLA always ends the text with the peak; without it the text was cut short.
        if (!lr.not_available && !lr.stated_peak && !lr.peak_undetermined) {
            say(lr.line, "the HloLiveRange text ends before 'Live ranges at N (peak):'; it looks truncated");
        }
        if (lr.stated_peak && !lr.stated_peak->stack_trace.empty() &&
            lr.stated_peak->stack_trace.back().remaining_bytes != 0) {
            say(lr.stated_peak->stack_trace.back().line,
                "the stack-trace breakdown ends with " + std::to_string(lr.stated_peak->stack_trace.back().remaining_bytes) +
                    " bytes remaining; it looks truncated");
        }
        for (auto const& r : lr.buffer_live_ranges) {
            // The name is made only for a message: a dump lists 10^5 ranges, nearly always sound.
            auto const key = [&r] { return std::string(std::string_view(r.name)) + to_string(r.index); };
            if (r.value == npos) say(r.line, "BufferLiveRange names " + key() + ", which is not a value of this dump");
            if (r.range.start < 0 || r.range.start > r.range.end || r.range.end > lr.max) {
                say(r.line, "live range of " + key() + " " + std::to_string(r.range.start) + "-" +
                                std::to_string(r.range.end) + " is not within 0-" + std::to_string(lr.max));
            }
        }
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_DUMP_BUFFER_ASSIGNMENT_HPP
