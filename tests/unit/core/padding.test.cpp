// Padding breakdowns, the default TPU tiling and padding fixes (padding.hpp). The breakdown's own
// arithmetic must give XLA's ArraySize for every reference vector of docs/FORMATS.md 4.5.
#include <hlomem/core/padding.hpp>
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using hlomem::padded_dimension;
using hlomem::padding_fix_kind;
using hlomem::parse_shape;

namespace {

padded_dimension dim(std::vector<std::int64_t> logical, std::int64_t extent, std::int64_t tile, std::int64_t padded,
                     bool tiled) {
    padded_dimension d;
    d.logical = std::move(logical);
    d.extent = extent;
    d.tile_extent = tile;
    d.padded_extent = padded;
    d.tiled = tiled;
    return d;
}

}  // namespace

TEST_CASE("the breakdown's arithmetic gives array_size and unpadded_byte_size for every reference vector", "[padding]") {
    // docs/FORMATS.md 4.5, rows 1-32 (the same table as shape_size.test.cpp).
    auto text = GENERATE(as<std::string>{}, "f32[3,5]{1,0:T(2,2)}", "bf16[4,8]{1,0:T(2,4)(2,1)}",
                         "bf16[32,256]{1,0:T(8,128)(2,1,1,1)}", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
                         "f32[123,456,789]{0,1,2:T(2,*,128)}", "bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}",
                         "f32[123,456]{0,1:T(2,128)}", "s4[123,456]{1,0:T(2,128)E(4)}", "pred[123,456]{1,0:T(2,128)S(3)}",
                         "pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}", "pred[123,456]{1,0:SC(1:50,200)}",
                         "f32[123,456]{1,0:T(16,128)M(1024)}", "s4[64,128]{1,0:E(4)}", "s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}",
                         "s4[0,64,128]{2,1,0:E(4)}", "f32[10,20]{1,0}", "f64[10,20]{1,0}", "c64[10,20]{1,0}", "f32[]",
                         "bf16[4096,3584]{1,0:T(8,128)(2,1)}", "f32[32,512,4096]{2,1,0:T(8,128)}", "f32[3,5]{1,0:T(8,128)}",
                         "f32[100]{0:T(8,128)}", "f32[1000]{0:T(256)}", "f32[2,3,5]{2,1,0:T(8,128)}", "f32[130,9]{1,0:T(8,128)}",
                         "f32[130,9]{0,1:T(8,128)}", "f32[3,5]{1,0:T(2,2)L(32)}", "f32[5]{0:L(16)}",
                         "s4[100,100]{1,0:T(8,128)(2,1)E(4)}", "bf16[3,5]{1,0:T(8,128)(2,1)}", "pred[3,5]{1,0:T(8,128)}",
                         "f32[1024,256]{1,0:T(8,128)SC(0:512)}", "f32[1000,300]{1,0:T(8,128)SC(1:200)}",
                         "f8e4m3fn[7,300]{1,0:T(8,128)(4,1)}", "pred[64,512,2048]{2,1,0:T(8,128)E(32)}");
    CAPTURE(text);
    auto const s = parse_shape(text);
    auto const b = hlomem::padding_breakdown_of(s);
    CHECK(b.padded_bytes == hlomem::array_size(s));
    CHECK(b.unpadded_bytes == hlomem::unpadded_byte_size(s));
    std::int64_t tiled = 1;
    for (auto const& d : b.dimensions) {
        CHECK(d.padded_extent % d.tile_extent == 0);
        CHECK(d.padded_extent >= d.extent);
        CHECK(d.padded_extent - d.extent < d.tile_extent);
        tiled *= d.padded_extent;
    }
    CHECK(b.tiled_element_count == tiled);
}

TEST_CASE("the padded entry of the real TPU report: (2,128) pads dimension 1 from 1 to 2", "[padding]") {
    // tests/data/oom/tpu_oom_pytorch_xla_3041.txt, entry 2: 570.00M, unpadded 285.00M, 2.0x.
    auto const s = parse_shape("f32[29184,1,2560]{2,1,0:T(2,128)}");
    auto const b = hlomem::padding_breakdown_of(s);
    CHECK(b.dimensions == std::vector<padded_dimension>{dim({0}, 29184, 1, 29184, false), dim({1}, 1, 2, 2, true),
                                                        dim({2}, 2560, 128, 2560, true)});
    CHECK(b.tile == std::vector<std::int64_t>{2, 128});
    CHECK(b.tile_text() == "(2,128)");
    CHECK(b.element_count == 29184 * 2560);
    CHECK(b.tiled_element_count == 29184 * 2 * 2560);
    CHECK(b.padded_bytes == 597688320);
    CHECK(b.unpadded_bytes == 298844160);
    CHECK(b.expansion() == 2.0);
    CHECK(hlomem::describe_padding(s, b, hlomem::size_function_kind::tpu) ==
          std::vector<std::string>{
              "The first tile (2,128) covers the 2 most-minor physical dimensions (minor_to_major {2,1,0}).",
              "Dimension 1 (extent 1), second-most-minor, is padded to 2 by the tile's 2: 2.00x.",
              "Dimension 2 (extent 2560), most-minor, is a multiple of 128: no padding.",
              "In all 597688320 bytes (570.00M) hold 298844160 bytes (285.00M) of data: 2.00x.",
          });
}

TEST_CASE("layouts decide which dimensions the tile pads", "[padding]") {
    SECTION("minor_to_major {3,0,2,1}: dimension 3 most-minor, dimension 0 second-most-minor") {
        auto const b = hlomem::padding_breakdown_of(parse_shape("f32[64,56,56,3]{3,0,2,1:T(8,128)}"));
        CHECK(b.dimensions == std::vector<padded_dimension>{dim({1}, 56, 1, 56, false), dim({2}, 56, 1, 56, false),
                                                            dim({0}, 64, 8, 64, true), dim({3}, 3, 128, 128, true)});
        CHECK(b.padded_bytes == 102760448);  // 98.00M
        CHECK(b.unpadded_bytes == 2408448);  // 2.30M
    }
    SECTION("a tile longer than the array adds major dimensions of extent 1") {
        auto const s = parse_shape("f32[100]{0:T(8,128)}");
        auto const b = hlomem::padding_breakdown_of(s);
        CHECK(b.dimensions == std::vector<padded_dimension>{dim({}, 1, 8, 8, true), dim({0}, 100, 128, 128, true)});
        CHECK(b.padded_bytes == 4096);
        CHECK(hlomem::describe_padding(s, b, hlomem::size_function_kind::xla)[0] ==
              "The first tile (8,128) covers the 2 most-minor physical dimensions (minor_to_major {0}); it has more entries "
              "than the array has dimensions, so 1 major dimension of extent 1 is added.");
        CHECK(hlomem::describe_padding(s, b, hlomem::size_function_kind::xla)[1] ==
              "A major dimension the tile adds (extent 1), second-most-minor, is padded to 8 by the tile's 8: 8.00x.");
    }
    SECTION("'*' merges dimensions before tiling") {
        auto const s = parse_shape("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
        auto const b = hlomem::padding_breakdown_of(s);
        CHECK(b.dimensions == std::vector<padded_dimension>{dim({0, 1, 2}, 112, 2, 112, true), dim({3, 4}, 110, 3, 111, true)});
        CHECK(hlomem::describe_padding(s, b, hlomem::size_function_kind::xla)[2] ==
              "Dimensions 3 and 4 merged by '*' (11 x 10 = 110), most-minor, is padded to 111 by the tile's 3: 1.01x.");
    }
    SECTION("L(n) rounds the tiled element count") {
        auto const s = parse_shape("f32[3,5]{1,0:T(2,2)L(32)}");
        auto const b = hlomem::padding_breakdown_of(s);
        CHECK(b.tiled_element_count == 24);
        CHECK(b.padded_element_count == 32);
        CHECK(b.padded_bytes == 128);
        CHECK(hlomem::describe_padding(s, b, hlomem::size_function_kind::xla)[3] ==
              "L(32) rounds the 24 tiled elements up to 32: 1.33x.");
    }
    SECTION("split configs size the largest piece") {
        auto const b = hlomem::padding_breakdown_of(parse_shape("f32[1000,300]{1,0:T(8,128)SC(1:200)}"));
        CHECK(b.split);
        CHECK(b.dimensions == std::vector<padded_dimension>{dim({0}, 1000, 8, 1000, true), dim({1}, 200, 128, 256, true)});
        CHECK(b.padded_bytes == 1024000);
    }
    SECTION("untiled arrays are dense") {
        auto const s = parse_shape("f32[10,20]{1,0}");
        auto const b = hlomem::padding_breakdown_of(s);
        CHECK(b.tile.empty());
        CHECK(b.padded_bytes == 800);
        CHECK(hlomem::describe_padding(s, b, hlomem::size_function_kind::xla) ==
              std::vector<std::string>{"The layout has no tiles: the array is stored densely in 800 bytes (800B)."});
    }
}

TEST_CASE("E(n) wider than the type is padding; packing is not", "[padding]") {
    auto const s = parse_shape("pred[64,512,2048]{2,1,0:T(8,128)E(32)}");
    auto const b = hlomem::padding_breakdown_of(s);
    CHECK(b.stored_bits == 32);
    CHECK(b.data_bits == 8);
    CHECK(b.padded_bytes == 268435456);   // 256.00M
    CHECK(b.unpadded_bytes == 67108864);  // 64.00M
    CHECK(hlomem::describe_padding(s, b, hlomem::size_function_kind::tpu)[3] ==
          "E(32) stores each pred element in 32 bits where its data takes 8: 4.00x.");
    auto const packed = hlomem::padding_breakdown_of(parse_shape("s4[64,128]{1,0:E(4)}"));
    CHECK(packed.stored_bits == 4);
    CHECK(packed.data_bits == 4);
}

TEST_CASE("the default TPU tiling follows the tiling doc's common choices", "[padding]") {
    using hlomem::primitive_type;
    auto tiles = [](primitive_type t, std::int64_t second_minor) {
        std::string out;
        for (auto const& tile : hlomem::default_tpu_tiles(t, second_minor)) {
            out += "(";
            for (std::size_t i = 0; i < tile.dimensions.size(); ++i) out += (i ? "," : "") + std::to_string(tile.dimensions[i]);
            out += ")";
        }
        return out;
    };
    CHECK(tiles(primitive_type::f32, 1000) == "(8,128)");
    CHECK(tiles(primitive_type::s32, 9) == "(8,128)");
    CHECK(tiles(primitive_type::f32, 2) == "(2,128)");  // the real report's f32[29184,2,2560] has T(2,128)
    CHECK(tiles(primitive_type::f32, 1) == "(2,128)");
    CHECK(tiles(primitive_type::s32, 4) == "(4,128)");
    CHECK(tiles(primitive_type::bf16, 4096) == "(8,128)(2,1)");
    CHECK(tiles(primitive_type::bf16, 3) == "(4,128)(2,1)");
    CHECK(tiles(primitive_type::s8, 64) == "(8,128)(4,1)");
    CHECK(tiles(primitive_type::f64, 64) == "(8,128)");
    CHECK(tiles(primitive_type::pred, 64).empty());
    CHECK(tiles(primitive_type::s4, 64).empty());

    // The older-runtime example: f32[32,128,32,64]{3,0,2,1} reported as 64.00M, unpadded 32.00M.
    auto const tiled = hlomem::with_default_tpu_tiling(parse_shape("f32[32,128,32,64]{3,0,2,1}"));
    REQUIRE(tiled);
    CHECK(hlomem::to_string(*tiled) == "f32[32,128,32,64]{3,0,2,1:T(8,128)}");
    CHECK(hlomem::array_size(*tiled) == 64 * 1024 * 1024);
    CHECK(hlomem::unpadded_byte_size(*tiled) == 32 * 1024 * 1024);
    CHECK(hlomem::to_string(*hlomem::with_default_tpu_tiling(parse_shape("bf16[1024,1000]"))) == "bf16[1024,1000]{1,0:T(8,128)(2,1)}");
    CHECK_FALSE(hlomem::with_default_tpu_tiling(parse_shape("f32[8,128]{1,0:T(8,128)}")));  // has tiles
    CHECK_FALSE(hlomem::with_default_tpu_tiling(parse_shape("f32[1000]{0}")));             // rank 1
    CHECK_FALSE(hlomem::with_default_tpu_tiling(parse_shape("pred[8,128]{1,0}")));         // no known default
}

TEST_CASE("padding fixes, each with the size it gives", "[padding]") {
    SECTION("the real report's f32[29184,1,2560]{2,1,0:T(2,128)}") {
        auto const s = parse_shape("f32[29184,1,2560]{2,1,0:T(2,128)}");
        auto const fixes = hlomem::padding_fixes(s);
        REQUIRE(fixes.size() == 3);
        CHECK(fixes[0].kind == padding_fix_kind::relayout);
        CHECK(hlomem::to_string(fixes[0].shape) == "f32[29184,1,2560]{2,0,1:T(2,128)}");
        CHECK(fixes[0].padded_bytes == 298844160);
        CHECK(fixes[1].kind == padding_fix_kind::drop_unit_dimension);
        CHECK(fixes[1].dimension == 1);
        CHECK(hlomem::to_string(fixes[1].shape) == "f32[29184,2560]{1,0:T(2,128)}");
        CHECK(fixes[1].padded_bytes == 298844160);
        CHECK(fixes[1].expansion() == 1.0);
        CHECK(fixes[2].kind == padding_fix_kind::round_up_extent);
        CHECK(hlomem::to_string(fixes[2].shape) == "f32[29184,2,2560]{2,1,0:T(2,128)}");
        CHECK(fixes[2].padded_bytes == 597688320);  // the same bytes now hold twice the data
        CHECK(fixes[2].unpadded_bytes == 597688320);
        CHECK(hlomem::describe(fixes[1], s, hlomem::size_function_kind::tpu) ==
              "Reshaping away dimension 1 (extent 1): f32[29184,2560]{1,0:T(2,128)} takes 298844160 bytes (285.00M), 1.00x.");
        CHECK(hlomem::describe(fixes[0], s, hlomem::size_function_kind::tpu) ==
              "A layout with dimension 0 (extent 29184) second-most-minor and dimension 2 (extent 2560) most-minor (same "
              "tiles, keeping the most-minor dimension): f32[29184,1,2560]{2,0,1:T(2,128)} takes 298844160 bytes (285.00M), 1.00x.");
    }
    SECTION("three channels most-minor: a layout with 64 most-minor pads 2x instead of 42.67x") {
        auto const fixes = hlomem::padding_fixes(parse_shape("f32[64,56,56,3]{3,0,2,1:T(8,128)}"));
        REQUIRE(fixes.size() == 2);
        CHECK(hlomem::to_string(fixes[0].shape) == "f32[64,56,56,3]{0,2,3,1:T(8,128)}");
        CHECK(fixes[0].padded_bytes == 4816896);  // 56·56·3·128·4: 64 -> 128 most-minor
        CHECK(fixes[0].expansion() == 2.0);
        CHECK(fixes[1].kind == padding_fix_kind::round_up_extent);
        CHECK(fixes[1].to == 128);
    }
    SECTION("a most-minor extent just past a multiple of 128") {
        auto const fixes = hlomem::padding_fixes(parse_shape("bf16[8,2048,50257]{2,1,0:T(8,128)(2,1)}"));
        REQUIRE(fixes.size() == 3);
        CHECK(fixes[1].kind == padding_fix_kind::round_down_extent);
        CHECK(fixes[1].from == 50257);
        CHECK(fixes[1].to == 50176);
        CHECK(fixes[1].padded_bytes == 8 * 2048 * 50176 * 2);
        CHECK(fixes[2].kind == padding_fix_kind::round_up_extent);
        CHECK(fixes[2].to == 50304);
    }
    SECTION("E(32) and L(n)") {
        auto const widened = hlomem::padding_fixes(parse_shape("pred[64,512,2048]{2,1,0:T(8,128)E(32)}"));
        REQUIRE(widened.size() == 1);
        CHECK(widened[0].kind == padding_fix_kind::natural_element_size);
        CHECK(widened[0].padded_bytes == 67108864);
        auto const tailed = hlomem::padding_fixes(parse_shape("f32[4,128]{1,0:T(2,128)L(1024)}"));
        REQUIRE(tailed.size() == 1);
        CHECK(tailed[0].kind == padding_fix_kind::no_tail_padding);
        CHECK(tailed[0].padded_bytes == 2048);
    }
    SECTION("nothing to fix") {
        CHECK(hlomem::padding_fixes(parse_shape("f32[29184,2,2560]{2,1,0:T(2,128)}")).empty());
        CHECK(hlomem::padding_fixes(parse_shape("f32[10,20]{1,0}")).empty());
        CHECK(hlomem::padding_fixes(parse_shape("(f32[3,5]{1,0:T(8,128)})")).empty());
    }
}

TEST_CASE("breakdowns of shapes without a size", "[padding]") {
    CHECK_THROWS_WITH(hlomem::padding_breakdown_of(parse_shape("(f32[2])")),
                      "padding_breakdown_of needs an array shape, not (f32[2])");
    CHECK_THROWS_WITH(hlomem::padding_breakdown_of(parse_shape("f32[?,8]")),
                      "padding_breakdown_of of f32[?,8] is undefined: it has an unbounded dimension");
}
