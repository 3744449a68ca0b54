// Example 02: TPU tiling explained, with pictures of where each element lands.
//
// What it shows: a tiled layout such as `{1,0:T(8,128)(2,1)}` stores an array as a sequence of
// tiles (docs/tiled_layout.md: pad every dimension to a multiple of the tile, split it into
// (tile count, tile extent), move the tile extents to the minor end). Each picture below is the
// array padded to whole tiles, with `|` and `-` at tile borders; every cell holds the position
// in storage (hlomem::linear_index) of the element at that (row, col), and padding cells are in
// parentheses. The storage itself has the shape hlomem::tiled_physical_shape gives.
//
//   1. f32[3,5] with 2x2 tiles: the tiling doc's own example; element (2,3) lands at 17.
//   2. bf16[4,256] with T(8,128)(2,1), the TPU's 16-bit layout: 8x128 tiles, then (2,1) pairs
//      rows 0 and 1 (2 and 3, ...) so that two bf16 share one 32-bit word.
//   3. f32[3,200] with T(2,128), the TPU's "compact second-minor" tile, and what T(8,128) would cost.
#include <hlomem/core.hpp>
#include <hlomem/parser.hpp>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {

/// The array padded to whole first-level tiles: its storage is the same (the padding is already
/// there), but every cell, padding included, has a position that linear_index can give.
hlomem::shape padded_to_tiles(hlomem::shape const& s) {
    hlomem::shape out = s;
    auto const b = hlomem::padding_breakdown_of(s);
    for (auto const& d : b.dimensions) {
        if (d.logical.size() == 1) out.mutable_dimensions()[static_cast<std::size_t>(d.logical.front())] = d.padded_extent;
    }
    return out;
}

/// Draws rows × cols of the padded array (-1 in a list draws `...`), with tile borders every
/// `tile_rows` rows and `tile_cols` columns.
void draw(hlomem::shape const& s, std::vector<std::int64_t> const& rows, std::vector<std::int64_t> const& cols,
          std::int64_t tile_rows, std::int64_t tile_cols) {
    hlomem::shape const padded = padded_to_tiles(s);
    auto cell = [](std::string text) {
        while (text.size() < 7) text.insert(text.begin(), ' ');
        return text;
    };
    auto border_after = [&](std::vector<std::int64_t> const& list, std::size_t i, std::int64_t tile) {
        return list[i] >= 0 && i + 1 < list.size() && list[i + 1] >= 0 && (list[i] + 1) % tile == 0;
    };
    std::string header = "         ";
    for (std::size_t j = 0; j < cols.size(); ++j) {
        header += cols[j] < 0 ? cell("...") : cell(std::to_string(cols[j]));
        if (border_after(cols, j, tile_cols)) header += " |";
    }
    std::cout << "  col" << header.substr(5) << '\n';
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::string line = rows[i] < 0 ? std::string("  ...") : "  row " + std::to_string(rows[i]);
        line.resize(9, ' ');
        for (std::size_t j = 0; j < cols.size(); ++j) {
            if (rows[i] < 0 || cols[j] < 0) {
                line += cell(rows[i] < 0 && cols[j] >= 0 ? ":" : "");
            } else {
                std::int64_t const at = hlomem::linear_index(padded, {rows[i], cols[j]});
                bool const padding = rows[i] >= s.dimension(0) || cols[j] >= s.dimension(1);
                line += cell(padding ? "(" + std::to_string(at) + ")" : std::to_string(at));
            }
            if (border_after(cols, j, tile_cols)) line += " |";
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        std::cout << line << '\n';
        if (border_after(rows, i, tile_rows)) std::cout << "         " << std::string(header.size() - 9, '-') << '\n';
    }
}

/// `(2,3)`, or `.` for a storage slot that holds padding.
std::string element_at(hlomem::shape const& s, std::int64_t slot) {
    for (std::int64_t r = 0; r < s.dimension(0); ++r) {
        for (std::int64_t c = 0; c < s.dimension(1); ++c) {
            if (hlomem::linear_index(s, {r, c}) == slot) return "(" + std::to_string(r) + "," + std::to_string(c) + ")";
        }
    }
    return ".";
}

void storage_run(hlomem::shape const& s, std::int64_t from, std::int64_t count, char const* note) {
    std::cout << "  storage " << from << "-" << from + count - 1 << ":";
    for (std::int64_t i = from; i < from + count; ++i) std::cout << ' ' << element_at(s, i);
    std::cout << "   " << note << '\n';
}

void summary(hlomem::shape const& s) {
    auto const b = hlomem::padding_breakdown_of(s);
    std::cout << "  stored as " << hlomem::to_string(hlomem::tiled_physical_shape(s)) << ": " << b.padded_element_count
              << " slots for " << b.element_count << " elements, " << hlomem::array_size(s) << " bytes for "
              << hlomem::unpadded_byte_size(s) << " bytes of data\n";
    for (auto const& sentence : hlomem::describe_padding(s, b, hlomem::size_function_kind::xla)) std::cout << "  " << sentence << '\n';
}

void check(char const* what, std::int64_t got, std::int64_t doc) {
    std::cout << "  " << what << " lands at " << got << "; the tiling doc says " << doc << (got == doc ? " (agrees)" : " (DIFFERS)")
              << '\n';
}

}  // namespace

int main() {
    std::cout << "1. f32[3,5]{1,0:T(2,2)}: 2x2 tiles, the tiling doc's figure\n";
    hlomem::shape const small = hlomem::parse_shape("f32[3,5]{1,0:T(2,2)}");
    summary(small);
    draw(small, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 5}, 2, 2);
    std::cout << "  Tile after tile in row-major order, each tile row-major inside:\n";
    storage_run(small, 0, 4, "tile (0,0)");
    storage_run(small, 4, 4, "tile (0,1)");
    storage_run(small, 20, 4, "tile (1,2): one element and three padding slots");
    check("element (2,3)", hlomem::linear_index(small, {2, 3}), 17);
    check("f32[8,8]{1,0:T(2,4)(2,1,1,1)} element (6,5)",
          hlomem::linear_index(hlomem::parse_shape("f32[8,8]{1,0:T(2,4)(2,1,1,1)}"), {6, 5}), 51);

    std::cout << "\n2. bf16[4,256]{1,0:T(8,128)(2,1)}: 8x128 tiles, rows paired into 32-bit words\n";
    hlomem::shape const bf16 = hlomem::parse_shape("bf16[4,256]{1,0:T(8,128)(2,1)}");
    summary(bf16);
    draw(bf16, {0, 1, 2, 3, 4, 5, -1, 7}, {0, 1, 2, 3, -1, 126, 127, 128, 129, -1, 255}, 8, 128);
    std::cout << "  Within a tile, (2,1) stores rows 0 and 1 side by side, then rows 2 and 3:\n";
    storage_run(bf16, 0, 6, "one 32-bit word per column pair");
    storage_run(bf16, 256, 4, "rows 2 and 3 follow all 128 columns of rows 0 and 1");
    storage_run(bf16, 512, 2, "rows 4-7 of the tile are padding, slots 512-1023");
    storage_run(bf16, 1024, 4, "the second tile, columns 128-255");
    std::cout << "  Without (2,1), bf16[4,256]{1,0:T(8,128)} would put (1,0) at "
              << hlomem::linear_index(hlomem::parse_shape("bf16[4,256]{1,0:T(8,128)}"), {1, 0}) << " instead of "
              << hlomem::linear_index(bf16, {1, 0}) << ".\n";

    std::cout << "\n3. f32[3,200]{1,0:T(2,128)}: the compact tile for a short second-most-minor dimension\n";
    hlomem::shape const compact = hlomem::parse_shape("f32[3,200]{1,0:T(2,128)}");
    summary(compact);
    draw(compact, {0, 1, 2, 3}, {0, 1, -1, 127, 128, 129, -1, 199, 200, -1, 255}, 2, 128);
    hlomem::shape const full = hlomem::parse_shape("f32[3,200]{1,0:T(8,128)}");
    std::cout << "  Under T(8,128) the same array is stored as " << hlomem::to_string(hlomem::tiled_physical_shape(full))
              << ", " << hlomem::array_size(full) << " bytes instead of " << hlomem::array_size(compact) << ".\n";
    return 0;
}
