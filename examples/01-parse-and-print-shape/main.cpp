// Example 01: parse an XLA shape and print it back.
//
// What it shows:
//   - hlomem::parse_shape reads the text XLA prints in its dumps (`bf16[4096,3584]{1,0:T(8,128)(2,1)}`);
//   - the parts of the model: element type, dimensions, and the layout after the braces
//     (minor_to_major, tiles, memory space);
//   - hlomem::to_string prints XLA's canonical text again, so that print(parse(s)) == s, and
//     human_string prints it without the layout, as allocation headers do;
//   - the two sizes XLA distinguishes: byte_size_of (the data) and array_size (with the tiles' padding);
//   - tuples and sub-shapes by shape index;
//   - try_parse_shape, which returns a located error instead of throwing.
#include <hlomem/core.hpp>
#include <hlomem/parser.hpp>

#include <iostream>
#include <string>

namespace {

void show(std::string const& text) {
    hlomem::shape const s = hlomem::parse_shape(text);
    std::cout << "input            " << text << '\n';
    std::cout << "canonical        " << hlomem::to_string(s) << '\n';
    std::cout << "without layout   " << hlomem::human_string(s) << '\n';
    if (!s.is_array()) return;
    std::cout << "element type     " << s.element_type() << " (" << hlomem::bit_width(s.element_type()) << " bits)\n";
    std::cout << "dimensions       rank " << s.rank() << ',';
    for (std::size_t i = 0; i < s.rank(); ++i) std::cout << " [" << i << "]=" << s.dimension(i);
    std::cout << ", " << hlomem::element_count(s) << " elements\n";
    if (s.has_layout()) {
        auto const& l = s.layout();
        std::cout << "minor_to_major   ";
        for (auto d : l.minor_to_major) std::cout << d << ' ';
        std::cout << "(dimension " << l.minor_to_major.front() << " varies fastest)\n";
        for (std::size_t t = 0; t < l.tiles.size(); ++t) {
            std::cout << "tile " << t << "           (";
            for (std::size_t i = 0; i < l.tiles[t].dimensions.size(); ++i) std::cout << (i ? "," : "") << l.tiles[t].dimensions[i];
            std::cout << (t == 0 ? ")  the first tile decides the padding\n" : ")  rearranges elements inside a tile\n");
        }
        if (l.memory_space != 0) std::cout << "memory space     " << l.memory_space << '\n';
    }
    std::cout << "byte_size_of     " << hlomem::byte_size_of(s) << " bytes (" << hlomem::human_bytes(hlomem::byte_size_of(s)) << ")\n";
    std::cout << "array_size       " << hlomem::array_size(s) << " bytes (" << hlomem::human_bytes(hlomem::array_size(s)) << ")\n";
    std::cout << "stored as        " << hlomem::to_string(hlomem::tiled_physical_shape(s)) << '\n';
}

}  // namespace

int main() {
    // A TPU weight matrix: bf16 tiled by (8,128) and packed two rows per 32-bit word by (2,1),
    // in memory space 1.
    show("bf16[4096,3584]{1,0:T(8,128)(2,1)S(1)}");
    std::cout << '\n';
    // XLA accepts blanks inside shapes; the canonical text has none.
    show("f32[ 3, 5 ]{ 1, 0 : T(8,128) }");
    std::cout << '\n';

    // A tuple; XLA marks every fifth element with /*index=N*/.
    hlomem::shape const t = hlomem::parse_shape("(f32[2,3]{1,0}, (s32[], pred[4]{0}), f32[], f32[], f32[], u8[16]{0})");
    std::cout << "tuple            " << hlomem::to_string(t) << '\n';
    std::cout << "elements         " << t.tuple_shapes_size() << '\n';
    std::cout << "subshape {1,1}   " << hlomem::to_string(t.subshape(hlomem::shape_index{1, 1})) << '\n';
    std::cout << "byte_size_of     " << hlomem::byte_size_of(t) << " bytes: a tuple is its table of 8-byte pointers\n";
    std::cout << '\n';

    // An error says where and why, with the offending text.
    auto const bad = hlomem::try_parse_shape("f32[8,128]{1,1}");
    if (!bad) std::cout << bad.error() << '\n';
    return 0;
}
