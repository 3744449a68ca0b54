// hlomem/core/padding.hpp: why a tiled array takes more bytes than its data, dimension by dimension,
// and which change of shape or layout would take the padding away (docs/FORMATS.md 4).
//
//   auto s = hlomem::parse_shape("f32[29184,1,2560]{2,1,0:T(2,128)}");
//   auto b = hlomem::padding_breakdown_of(s);
//   // b.dimensions: {0}: 29184 untiled | {1}: 1 -> 2 under tile entry 2 | {2}: 2560 -> 2560 under 128
//   // b.padded_bytes 597688320 (= array_size), b.unpadded_bytes 298844160, b.expansion() 2.0
//   for (auto const& fix : hlomem::padding_fixes(s)) ...
//   // relayout: f32[29184,1,2560]{2,0,1:T(2,128)}, 298844160 bytes
//   // drop_unit_dimension 1: f32[29184,2560]{1,0:T(2,128)}, 298844160 bytes
//   // round_up_extent 1 -> 2: f32[29184,2,2560]{2,1,0:T(2,128)}, the same 597688320 bytes
//   hlomem::describe_padding(s, b, hlomem::size_function_kind::tpu);   // the same in sentences
//
// Only the first tile pads (XLA's ArraySize); later tiles such as the (2,1) of T(8,128)(2,1)
// rearrange elements inside a tile. Besides tiling, padding comes from L(n) (the tiled element
// count rounded up), from an E(n) wider than the type (each pred stored in 32 bits), and from a
// tile with more entries than the array has dimensions (the missing major dimensions count as
// extent 1 and are padded to the tile entry).
//
// `default_tpu_tiles` gives the tiling the TPU compiler uses when a report prints a shape without
// one (older TPU runtimes), as listed in xla/docs/tiled_layout.md: (8,128) for 32-bit types,
// (2,128) or (4,128) when the second-most-minor dimension is that short.
#ifndef HLOMEM_CORE_PADDING_HPP
#define HLOMEM_CORE_PADDING_HPP

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <hlomem/core/error.hpp>
#include <hlomem/core/printed_size.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/tiling.hpp>
#include <hlomem/detail/checked.hpp>

namespace hlomem {

// ---------------------------------------------------------------------------------------------
// Breakdown
// ---------------------------------------------------------------------------------------------

/// One physical dimension of an array as its first tile sees it.
struct padded_dimension {
    /// The logical dimensions it holds: usually one; several when `*` merges them; none for a
    /// major dimension that a tile with more entries than the array adds.
    std::vector<std::int64_t> logical;
    /// Elements along it: the logical extent, the largest piece under a split config, the
    /// product of the extents `*` merges, or 1 for a dimension the tile adds.
    std::int64_t extent = 0;
    /// The tile entry that covers it; 1 when the first tile does not reach it.
    std::int64_t tile_extent = 1;
    /// extent rounded up to a multiple of tile_extent.
    std::int64_t padded_extent = 0;
    /// Covered by the first tile.
    bool tiled = false;

    bool padded() const noexcept { return padded_extent != extent; }

    friend bool operator==(padded_dimension const& a, padded_dimension const& b) {
        return a.logical == b.logical && a.extent == b.extent && a.tile_extent == b.tile_extent &&
               a.padded_extent == b.padded_extent && a.tiled == b.tiled;
    }
};

/// Where the padding of one array comes from. Every count is in elements unless named bytes.
struct padding_breakdown {
    /// Physical dimensions, most major first, after `*` merges.
    std::vector<padded_dimension> dimensions;
    /// The first tile as printed (`*` entries are std::numeric_limits<int64_t>::min()); empty
    /// when the layout has no tiles.
    std::vector<std::int64_t> tile;
    /// Tiling levels after the first (they add no padding).
    std::size_t later_tiles = 0;
    std::int64_t element_count = 0;           ///< product of the extents
    std::int64_t tiled_element_count = 0;     ///< product of the padded extents
    std::int64_t tail_padding_alignment = 1;  ///< L(n); 1 without (and without tiles, where L is ignored)
    std::int64_t padded_element_count = 0;    ///< tiled_element_count rounded up to L
    std::int64_t stored_bits = 0;             ///< bits one element takes in memory: E(n) or the type's width
    std::int64_t data_bits = 0;               ///< bits of data in one element, what "unpadded" counts
    bool split = false;                       ///< a split config sizes only the largest piece
    std::int64_t padded_bytes = 0;            ///< equals array_size(shape)
    std::int64_t unpadded_bytes = 0;          ///< equals unpadded_byte_size(shape)

    std::int64_t padding_bytes() const noexcept { return padded_bytes - unpadded_bytes; }
    /// The first tile as printed, `(2,128)`; empty without tiles.
    std::string tile_text() const;
    /// padded / unpadded bytes; 1 for an empty array.
    double expansion() const noexcept {
        return unpadded_bytes > 0 ? static_cast<double>(padded_bytes) / static_cast<double>(unpadded_bytes) : 1.0;
    }
};

/// An expansion factor as hlomem prints it: `2.00x`, or `1.0009x` when two decimals would hide a
/// small padding as 1.00x.
inline std::string format_expansion(double v) {
    char buf[32];
    bool const small = v != 1.0 && v > 0.995 && v < 1.005;
    std::snprintf(buf, sizeof buf, small ? "%.4fx" : "%.2fx", v);
    return buf;
}

namespace detail {

/// `(2,128)`, `(2,*,128)`.
inline std::string tile_text(std::vector<std::int64_t> const& tile) {
    std::string out = "(";
    for (std::size_t i = 0; i < tile.size(); ++i) {
        if (i > 0) out += ',';
        out += is_combine(tile[i]) ? std::string("*") : std::to_string(tile[i]);
    }
    return out + ")";
}

template <class P>
void require_sized_array(basic_shape<P> const& s, char const* what) {
    if (!s.is_array()) throw shape_error(std::string(what) + " needs an array shape, not " + to_string(s));
    for (std::size_t i = 0; i < s.rank(); ++i) {
        if (s.is_unbounded_dynamic_dimension(i)) {
            throw shape_error(std::string(what) + " of " + to_string(s) + " is undefined: it has an unbounded dimension");
        }
    }
}

inline std::int64_t checked_product(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (!checked_mul(a, b, &out)) throw shape_error("padding breakdown overflows int64");
    return out;
}

inline std::int64_t checked_round(std::int64_t a, std::int64_t m) {
    std::int64_t out = 0;
    if (!checked_round_up(a, m, &out)) throw shape_error("padding breakdown overflows int64");
    return out;
}

}  // namespace detail

inline std::string padding_breakdown::tile_text() const { return tile.empty() ? std::string() : detail::tile_text(tile); }

/// Where the padding of array `s` comes from: each physical dimension with its extent, the tile
/// entry that covers it and its padded extent, then L(n) and the element widths. Its byte counts
/// are computed from these parts alone and equal array_size and unpadded_byte_size. Throws
/// shape_error for non-arrays and unbounded dimensions.
template <class P>
padding_breakdown padding_breakdown_of(basic_shape<P> const& s) {
    detail::require_sized_array(s, "padding_breakdown_of");
    padding_breakdown b;
    auto const l = s.layout_or_default();
    std::size_t const rank = s.rank();
    b.stored_bits = l.element_size_in_bits > 0 ? l.element_size_in_bits : std::int64_t{byte_width(s.element_type())} * 8;
    b.data_bits = detail::unpadded_element_bits(s.element_type(), l.element_size_in_bits);
    b.split = !l.tiles.empty() && !l.split_configs.empty();
    auto extent_of = [&](std::size_t dim) {
        return b.split ? detail::max_split_extent(s.dimensions(), l.minor_to_major, l.split_configs, dim)
                       : static_cast<std::int64_t>(s.dimension(dim));
    };
    auto logical_at = [&](std::ptrdiff_t p) {  // physical position p (0 = most major) -> logical dimension
        return static_cast<std::int64_t>(l.minor_to_major[rank - 1 - static_cast<std::size_t>(p)]);
    };
    if (!l.tiles.empty()) {
        for (auto t : l.tiles.front().dimensions) b.tile.push_back(static_cast<std::int64_t>(t));
        b.later_tiles = l.tiles.size() - 1;
    }
    auto const k = static_cast<std::ptrdiff_t>(b.tile.size());
    auto const r = static_cast<std::ptrdiff_t>(rank);
    for (std::ptrdiff_t p = 0; p < r - k; ++p) {
        padded_dimension d;
        d.logical = {logical_at(p)};
        d.extent = d.padded_extent = extent_of(static_cast<std::size_t>(d.logical.front()));
        b.dimensions.push_back(std::move(d));
    }
    padded_dimension merged;  // what `*` entries have merged so far
    merged.extent = 1;
    for (std::ptrdiff_t j = 0; j < k; ++j) {
        std::ptrdiff_t const p = r - k + j;
        if (p >= 0) {
            merged.logical.push_back(logical_at(p));
            merged.extent = detail::checked_product(merged.extent, extent_of(static_cast<std::size_t>(logical_at(p))));
        }
        std::int64_t const t = b.tile[static_cast<std::size_t>(j)];
        if (detail::is_combine(t)) continue;
        merged.tile_extent = t;
        merged.padded_extent = detail::checked_round(merged.extent, t);
        merged.tiled = true;
        b.dimensions.push_back(std::move(merged));
        merged = padded_dimension{};
        merged.extent = 1;
    }
    b.element_count = 1;
    b.tiled_element_count = 1;
    for (auto const& d : b.dimensions) {
        b.element_count = detail::checked_product(b.element_count, d.extent);
        b.tiled_element_count = detail::checked_product(b.tiled_element_count, d.padded_extent);
    }
    if (!b.tile.empty()) b.tail_padding_alignment = l.tail_padding_alignment_in_elements;
    b.padded_element_count = b.tail_padding_alignment > 1 ? detail::checked_round(b.tiled_element_count, b.tail_padding_alignment)
                                                          : b.tiled_element_count;
    auto const bytes = detail::bytes_of_elements(b.padded_element_count, s.element_type(), l.element_size_in_bits);
    if (!bytes.ok()) throw shape_error("padded size of " + to_string(s) + " overflows int64");
    b.padded_bytes = bytes.value;
    b.unpadded_bytes = unpadded_byte_size(s);
    return b;
}

// ---------------------------------------------------------------------------------------------
// Default TPU tiling
// ---------------------------------------------------------------------------------------------

/// The tiling the TPU compiler gives an array of `type` whose second-most-minor physical
/// dimension has `second_minor_extent` elements, as xla/docs/tiled_layout.md lists the common
/// choices (docs/FORMATS.md 4.1): (8,128) for 32-bit types; (2,128) when the second-most-minor
/// extent is 1 or 2 and (4,128) when it is 3 or 4 ("compact second-minor"); followed by (2,1)
/// for 16-bit and (4,1) for 8-bit types, which pack 2 or 4 rows into 32-bit words. 64-bit types
/// are tiled like 32-bit ones (stored as two 32-bit halves, the same total). Empty for other
/// types (pred, sub-byte, 128-bit), for which hlomem knows no default.
template <class P = default_policy>
std::vector<basic_tile<P>> default_tpu_tiles(primitive_type type, std::int64_t second_minor_extent) {
    using int_type = typename P::int_type;
    int const bits = bit_width(type);
    if (type == primitive_type::pred || !(bits == 8 || bits == 16 || bits == 32 || bits == 64)) return {};
    int_type const rows = second_minor_extent <= 2 ? 2 : second_minor_extent <= 4 ? 4 : 8;
    std::vector<basic_tile<P>> tiles;
    tiles.push_back(basic_tile<P>{{rows, int_type{128}}});
    if (bits == 16) tiles.push_back(basic_tile<P>{{int_type{2}, int_type{1}}});
    if (bits == 8) tiles.push_back(basic_tile<P>{{int_type{4}, int_type{1}}});
    return tiles;
}

/// `s` with the default TPU tiling of default_tpu_tiles on its (or the default) layout, for an
/// array of rank 2 or more printed without tiles: `f32[32,128,32,64]{3,0,2,1}` gives
/// `f32[32,128,32,64]{3,0,2,1:T(8,128)}`. nullopt when `s` already has tiles, is not such an
/// array, or its type has no known default.
template <class P>
std::optional<basic_shape<P>> with_default_tpu_tiling(basic_shape<P> const& s) {
    if (!s.is_array() || s.rank() < 2 || (s.has_layout() && !s.layout().tiles.empty())) return std::nullopt;
    auto layout = s.layout_or_default();
    auto const second_minor = static_cast<std::size_t>(layout.minor_to_major[1]);
    if (s.is_unbounded_dynamic_dimension(second_minor)) return std::nullopt;
    auto tiles = default_tpu_tiles<P>(s.element_type(), static_cast<std::int64_t>(s.dimension(second_minor)));
    if (tiles.empty()) return std::nullopt;
    layout.tiles.assign(tiles.begin(), tiles.end());
    basic_shape<P> out = s;
    out.set_layout(std::move(layout));
    return out;
}

// ---------------------------------------------------------------------------------------------
// Fixes
// ---------------------------------------------------------------------------------------------

/// What a padding fix changes.
enum class padding_fix_kind : std::uint8_t {
    relayout,              ///< another minor_to_major puts better-fitting dimensions under the tile
    drop_unit_dimension,   ///< reshape away a size-1 dimension that the tile pads
    round_down_extent,     ///< shrink a padded dimension to a multiple of its tile entry
    round_up_extent,       ///< grow a padded dimension into its padding: more data, same bytes
    natural_element_size,  ///< store elements in their natural width instead of a wider E(n)
    no_tail_padding,       ///< the same array without L(n)
};

/// One change to a shape or layout and what the array would then take.
template <class P = default_policy>
struct basic_padding_fix {
    padding_fix_kind kind = padding_fix_kind::relayout;
    /// The logical dimension it changes (drop_unit_dimension, round_*); -1 otherwise.
    std::int64_t dimension = -1;
    /// Extents before and after (round_*), E(n) bits (natural_element_size), L (no_tail_padding).
    std::int64_t from = 0, to = 0;
    basic_shape<P> shape;             ///< the shape after the change
    std::int64_t padded_bytes = 0;    ///< array_size(shape)
    std::int64_t unpadded_bytes = 0;  ///< unpadded_byte_size(shape)

    double expansion() const noexcept {
        return unpadded_bytes > 0 ? static_cast<double>(padded_bytes) / static_cast<double>(unpadded_bytes) : 1.0;
    }
};

using padding_fix = basic_padding_fix<>;

namespace detail {

template <class P>
basic_padding_fix<P> make_fix(padding_fix_kind kind, std::int64_t dimension, std::int64_t from, std::int64_t to,
                              basic_shape<P> shape) {
    basic_padding_fix<P> f;
    f.kind = kind;
    f.dimension = dimension;
    f.from = from;
    f.to = to;
    f.padded_bytes = array_size(shape);
    f.unpadded_bytes = unpadded_byte_size(shape);
    f.shape = std::move(shape);
    return f;
}

/// `s` without logical dimension `d` (which must have extent 1), its layout renumbered.
template <class P>
basic_shape<P> without_dimension(basic_shape<P> const& s, std::size_t d) {
    basic_shape<P> out = basic_shape<P>::make_array(s.element_type(), {});
    for (std::size_t i = 0; i < s.rank(); ++i) {
        if (i != d) out.add_dimension(s.dimension(i), s.is_dynamic_dimension(i));
    }
    auto layout = s.layout_or_default();
    using int_type = typename P::int_type;
    auto& m = layout.minor_to_major;
    m.erase(std::remove(m.begin(), m.end(), static_cast<int_type>(d)), m.end());
    for (auto& v : m) {
        if (v > static_cast<int_type>(d)) --v;
    }
    out.set_layout(std::move(layout));
    return out;
}

/// The best minor_to_major for `s` under its own tiles: every choice of dimensions for the
/// positions the first tile covers, the others kept in their order; the smallest array_size wins,
/// then the fewest changed entries, then the lowest order. nullopt when nothing beats the current.
template <class P>
std::optional<basic_shape<P>> best_relayout(basic_shape<P> const& s, std::int64_t current) {
    auto const& l = s.layout();
    std::size_t const rank = s.rank();
    auto const& tile = l.tiles.front().dimensions;
    bool const combines = std::any_of(tile.begin(), tile.end(), [](auto t) { return is_combine(t); });
    std::size_t const covered = std::min(tile.size(), rank);
    if (rank < 2 || combines || !l.split_configs.empty()) return std::nullopt;
    // Choices grow as rank!/(rank-covered)!; tiles reach 2 or 3 dimensions in practice.
    std::size_t choices = 1;
    for (std::size_t i = 0; i < covered; ++i) choices *= rank - i;
    if (choices > 5040) return std::nullopt;
    using int_type = typename P::int_type;
    std::vector<int_type> minor(covered);  // minor[i]: the logical dimension at minor position i
    std::vector<bool> used(rank, false);
    std::optional<basic_shape<P>> best;
    std::int64_t best_bytes = current;
    std::size_t best_changes = 0;
    auto consider = [&] {
        basic_shape<P> candidate = s;
        auto& m = candidate.mutable_layout().minor_to_major;
        std::size_t at = 0;
        for (auto v : minor) m[at++] = v;
        for (std::size_t i = 0; i < rank; ++i) {  // the rest keep their relative order
            auto const v = l.minor_to_major[i];
            if (!used[static_cast<std::size_t>(v)]) m[at++] = v;
        }
        std::int64_t const bytes = array_size(candidate);
        std::size_t changes = 0;
        for (std::size_t i = 0; i < rank; ++i) changes += m[i] != l.minor_to_major[i] ? 1 : 0;
        if (bytes < best_bytes || (best && bytes == best_bytes && changes < best_changes)) {
            best = std::move(candidate);
            best_bytes = bytes;
            best_changes = changes;
        }
    };
    // Depth-first over ordered choices; lexicographic order, so ties keep the first found.
    auto choose = [&](auto&& self, std::size_t position) -> void {
        if (position == covered) {
            consider();
            return;
        }
        for (std::size_t d = 0; d < rank; ++d) {
            if (used[d]) continue;
            used[d] = true;
            minor[position] = static_cast<int_type>(d);
            self(self, position + 1);
            used[d] = false;
        }
    };
    choose(choose, 0);
    return best;
}

}  // namespace detail

/// Changes to `s` that reduce its padding, each with the size it would give: a layout that puts
/// better-fitting dimensions under the tile (same tiles), reshaping away size-1 dimensions the tile
/// pads, extents rounded down to (or, at no cost, up to) a multiple of their tile entry, elements
/// at their natural width instead of a wider E(n), no L(n). Only changes that lower the padded
/// size are listed, except round_up_extent, which keeps it and fills the padding with data.
/// Extent and layout changes are not offered for layouts with split configs or `*` tile entries.
/// Empty for arrays without padding and for non-arrays.
template <class P>
std::vector<basic_padding_fix<P>> padding_fixes(basic_shape<P> const& s) {
    std::vector<basic_padding_fix<P>> fixes;
    if (!s.is_array() || !s.has_layout()) return fixes;
    padding_breakdown const b = padding_breakdown_of(s);
    if (b.padded_bytes <= b.unpadded_bytes) return fixes;
    auto const& l = s.layout();
    using int_type = typename P::int_type;
    bool const reshapeable = !b.tile.empty() && l.split_configs.empty() &&
                             std::none_of(b.tile.begin(), b.tile.end(), [](auto t) { return detail::is_combine(t); });
    if (reshapeable) {
        if (auto relayout = detail::best_relayout(s, b.padded_bytes)) {
            fixes.push_back(detail::make_fix(padding_fix_kind::relayout, -1, 0, 0, std::move(*relayout)));
        }
        for (auto const& d : b.dimensions) {
            if (!d.tiled || !d.padded() || d.logical.size() != 1) continue;
            auto const dim = static_cast<std::size_t>(d.logical.front());
            if (d.extent == 1 && s.rank() > 1) {
                auto fix = detail::make_fix(padding_fix_kind::drop_unit_dimension, d.logical.front(), 1, 1,
                                            detail::without_dimension(s, dim));
                if (fix.padded_bytes < b.padded_bytes) fixes.push_back(std::move(fix));
            }
            std::int64_t const down = d.extent / d.tile_extent * d.tile_extent;
            if (down > 0) {
                basic_shape<P> smaller = s;
                smaller.mutable_dimensions()[dim] = static_cast<int_type>(down);
                auto fix = detail::make_fix(padding_fix_kind::round_down_extent, d.logical.front(), d.extent, down,
                                            std::move(smaller));
                if (fix.padded_bytes < b.padded_bytes) fixes.push_back(std::move(fix));
            }
            basic_shape<P> larger = s;
            larger.mutable_dimensions()[dim] = static_cast<int_type>(d.padded_extent);
            auto fix = detail::make_fix(padding_fix_kind::round_up_extent, d.logical.front(), d.extent, d.padded_extent,
                                        std::move(larger));
            if (fix.padded_bytes <= b.padded_bytes) fixes.push_back(std::move(fix));
        }
    }
    if (b.stored_bits > b.data_bits && l.element_size_in_bits > 0) {
        basic_shape<P> natural = s;
        natural.mutable_layout().element_size_in_bits = 0;
        fixes.push_back(detail::make_fix(padding_fix_kind::natural_element_size, -1, b.stored_bits, b.data_bits,
                                         std::move(natural)));
    }
    if (b.padded_element_count > b.tiled_element_count) {
        basic_shape<P> untailed = s;
        untailed.mutable_layout().tail_padding_alignment_in_elements = 1;
        fixes.push_back(detail::make_fix(padding_fix_kind::no_tail_padding, -1, b.tail_padding_alignment, 1,
                                         std::move(untailed)));
    }
    return fixes;
}

// ---------------------------------------------------------------------------------------------
// Sentences
// ---------------------------------------------------------------------------------------------

namespace detail {

/// `298844160 bytes (285.00M)`.
inline std::string bytes_text(std::int64_t bytes, size_function_kind style) {
    return std::to_string(bytes) + " bytes (" + format_size(bytes, style) + ")";
}

/// `most-minor`, `second-most-minor`, `third-most-minor`, `4th-most-minor`.
inline std::string minor_position(std::size_t from_minor) {
    static char const* const words[] = {"most-minor", "second-most-minor", "third-most-minor"};
    if (from_minor < 3) return words[from_minor];
    return std::to_string(from_minor + 1) + "th-most-minor";
}

/// `dimension 1 (extent 1)`, `dimensions 0 and 1 merged by '*' (123 × 456 = 56088)`.
template <class P>
std::string dimension_text(basic_shape<P> const& s, padded_dimension const& d) {
    if (d.logical.empty()) return "a major dimension the tile adds (extent 1)";
    if (d.logical.size() == 1) {
        std::string out = "dimension " + std::to_string(d.logical.front()) + " (extent ";
        auto const full = static_cast<std::int64_t>(s.dimension(static_cast<std::size_t>(d.logical.front())));
        if (full != d.extent) return out + std::to_string(d.extent) + ", the largest split piece of " + std::to_string(full) + ")";
        return out + std::to_string(d.extent) + ")";
    }
    std::string names, product;
    for (std::size_t i = 0; i < d.logical.size(); ++i) {
        names += (i == 0 ? "" : i + 1 == d.logical.size() ? " and " : ", ") + std::to_string(d.logical[i]);
        product += (i == 0 ? "" : " x ") + std::to_string(s.dimension(static_cast<std::size_t>(d.logical[i])));
    }
    return "dimensions " + names + " merged by '*' (" + product + " = " + std::to_string(d.extent) + ")";
}

}  // namespace detail

/// Where the padding of array `s` comes from, in plain sentences, with sizes printed in `style`:
///   "The first tile (2,128) covers the 2 most-minor physical dimensions (minor_to_major {2,1,0})."
///   "Dimension 1 (extent 1), second-most-minor, is padded to 2 by the tile's 2: 2.00x."
///   "Dimension 2 (extent 2560), most-minor, is a multiple of 128: no padding."
///   "In all 597688320 bytes (570.00M) hold 298844160 bytes (285.00M) of data: 2.00x."
template <class P>
std::vector<std::string> describe_padding(basic_shape<P> const& s, padding_breakdown const& b, size_function_kind style) {
    using detail::bytes_text;
        std::vector<std::string> out;
    auto const l = s.layout_or_default();
    auto capitalized = [](std::string text) {
        if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
        return text;
    };
    if (b.tile.empty()) {
        out.push_back("The layout has no tiles: the array is stored densely in " + bytes_text(b.padded_bytes, style) + ".");
    } else {
        std::size_t const tiled = static_cast<std::size_t>(
            std::count_if(b.dimensions.begin(), b.dimensions.end(), [](padded_dimension const& d) { return d.tiled; }));
        std::string first = "The first tile " + detail::tile_text(b.tile) + " covers the " +
                            (tiled == 1 ? std::string("most-minor physical dimension") : std::to_string(tiled) + " most-minor physical dimensions") +
                            " (minor_to_major " + to_string(l).substr(0, to_string(l).find_first_of(":}")) + "})";
        if (b.tile.size() > s.rank()) {
            std::size_t const added = b.tile.size() - s.rank();
            first += "; it has more entries than the array has dimensions, so " + std::to_string(added) +
                     (added == 1 ? " major dimension of extent 1 is added" : " major dimensions of extent 1 are added");
        }
        out.push_back(first + ".");
        if (b.later_tiles > 0) {
            std::string later;
            for (std::size_t i = 1; i < l.tiles.size(); ++i) {
                later += detail::tile_text(std::vector<std::int64_t>(l.tiles[i].dimensions.begin(), l.tiles[i].dimensions.end()));
            }
            out.push_back("The later tiling " + later + (b.later_tiles == 1 ? " only rearranges elements inside a tile and adds"
                                                                            : " only rearrange elements inside a tile and add") +
                          " no padding.");
        }
        std::size_t from_minor = tiled;
        for (auto const& d : b.dimensions) {
            if (!d.tiled) continue;
            --from_minor;
            std::string sentence = capitalized(detail::dimension_text(s, d)) + ", " + detail::minor_position(from_minor) + ", ";
            if (d.padded()) {
                sentence += "is padded to " + std::to_string(d.padded_extent) + " by the tile's " + std::to_string(d.tile_extent) +
                            ": " + format_expansion(static_cast<double>(d.padded_extent) / static_cast<double>(d.extent)) + ".";
            } else {
                sentence += "is a multiple of " + std::to_string(d.tile_extent) + ": no padding.";
            }
            out.push_back(sentence);
        }
        if (b.padded_element_count != b.tiled_element_count) {
            out.push_back("L(" + std::to_string(b.tail_padding_alignment) + ") rounds the " + std::to_string(b.tiled_element_count) +
                          " tiled elements up to " + std::to_string(b.padded_element_count) + ": " +
                          format_expansion(static_cast<double>(b.padded_element_count) / static_cast<double>(b.tiled_element_count)) + ".");
        }
        if (b.split) {
            out.push_back("Its split configs size only the largest piece, so the padded size is that of one piece while the "
                          "unpadded size counts the whole array.");
        }
    }
    if (b.stored_bits > b.data_bits) {
        out.push_back("E(" + std::to_string(b.stored_bits) + ") stores each " + std::string(to_string(s.element_type())) +
                      " element in " + std::to_string(b.stored_bits) + " bits where its data takes " +
                      std::to_string(b.data_bits) + ": " +
                      format_expansion(static_cast<double>(b.stored_bits) / static_cast<double>(b.data_bits)) + ".");
    }
    if (b.padded_bytes == b.unpadded_bytes) {
        if (!b.tile.empty()) out.push_back("No padding: " + bytes_text(b.padded_bytes, style) + ".");
    } else {
        out.push_back("In all " + bytes_text(b.padded_bytes, style) + " hold " + bytes_text(b.unpadded_bytes, style) +
                      " of data: " + format_expansion(b.expansion()) + ".");
    }
    return out;
}

/// One fix in a sentence:
///   "Reshaping away dimension 1 (extent 1): f32[29184,2560]{1,0:T(2,128)} takes 298844160 bytes
///   (285.00M), 1.00x."
template <class P>
std::string describe(basic_padding_fix<P> const& fix, basic_shape<P> const& original, size_function_kind style) {
    std::string const result = to_string(fix.shape) + " takes " + detail::bytes_text(fix.padded_bytes, style) + ", " +
                               format_expansion(fix.expansion()) + ".";
    std::string const dim = "dimension " + std::to_string(fix.dimension);
    switch (fix.kind) {
        case padding_fix_kind::relayout: {
            auto const& before = original.layout().minor_to_major;
            auto const& after = fix.shape.layout().minor_to_major;
            std::size_t const covered = std::min(original.layout().tiles.front().dimensions.size(), original.rank());
            std::string moved;
            for (std::size_t i = covered; i-- > 0;) {
                auto const d = static_cast<std::size_t>(after[i]);
                if (!moved.empty()) moved += " and ";
                moved += "dimension " + std::to_string(d) + " (extent " + std::to_string(original.dimension(d)) + ") " +
                         detail::minor_position(i);
            }
            std::string const changed = after[0] == before[0] ? "keeping the most-minor dimension" : "changing the most-minor dimension";
            return "A layout with " + moved + " (same tiles, " + changed + "): " + result;
        }
        case padding_fix_kind::drop_unit_dimension:
            return "Reshaping away " + dim + " (extent 1): " + result;
        case padding_fix_kind::round_down_extent:
            return "Making " + dim + " a multiple of its tile entry, " + std::to_string(fix.from) + " -> " + std::to_string(fix.to) +
                   ": " + result;
        case padding_fix_kind::round_up_extent:
            return "Growing " + dim + " from " + std::to_string(fix.from) + " to " + std::to_string(fix.to) +
                   " costs no memory, the padding already holds it: " + result;
        case padding_fix_kind::natural_element_size:
            return "Storing elements in their natural " + std::to_string(fix.to) + " bits instead of E(" + std::to_string(fix.from) +
                   "): " + result;
        case padding_fix_kind::no_tail_padding:
            return "Without L(" + std::to_string(fix.from) + "): " + result;
    }
    return result;
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_PADDING_HPP
