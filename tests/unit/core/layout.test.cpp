// XLA layouts: the default layout of a rank, which attributes differ from their defaults, and
// equality over every field (core/layout.hpp).
#include <hlomem/core/layout.hpp>

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

using hlomem::layout;

TEST_CASE("core/layout: the default layout of a rank is descending minor_to_major", "[layout]") {
    // LayoutUtil::CreateDefaultLayoutForRank (xla/layout_util.cc): minor_to_major[i] = rank - 1 - i.
    CHECK(hlomem::default_layout(3).minor_to_major == std::vector<std::int64_t>{2, 1, 0});
    CHECK(hlomem::default_layout(1).minor_to_major == std::vector<std::int64_t>{0});
    auto const scalar = hlomem::default_layout(0);
    CHECK(scalar.minor_to_major.empty());
    CHECK(scalar.empty());  // XLA prints a scalar's layout as `{}`, then omits it
    CHECK_FALSE(hlomem::default_layout(2).has_attributes());
    CHECK_FALSE(hlomem::default_layout(2).empty());
}

TEST_CASE("core/layout: every attribute off its xla/layout.h default is an attribute, and breaks equality",
          "[layout]") {
    // The defaults of xla/layout.h: no D, no tiles, L(1), no index or pointer type, E(0), S(0),
    // no SC, no P, M(0).
    std::vector<std::pair<char const*, std::function<void(layout&)>>> const changes = {
        {"D", [](layout& l) { l.dim_level_types.push_back(hlomem::dim_level{hlomem::dim_level_type::compressed}); }},
        {"T", [](layout& l) { l.tiles.push_back(hlomem::tile{{8, 128}}); }},
        {"L", [](layout& l) { l.tail_padding_alignment_in_elements = 32; }},
        {"#", [](layout& l) { l.index_primitive_type = hlomem::primitive_type::u32; }},
        {"*", [](layout& l) { l.pointer_primitive_type = hlomem::primitive_type::u32; }},
        {"E", [](layout& l) { l.element_size_in_bits = 4; }},
        {"S", [](layout& l) { l.memory_space = 1; }},
        {"SC", [](layout& l) { l.split_configs.push_back(hlomem::split_config{1, {200}}); }},
        {"P", [](layout& l) { l.physical_shape.emplace(); }},
        {"M", [](layout& l) { l.dynamic_shape_metadata_prefix_bytes = 1024; }},
    };
    for (auto const& c : changes) {
        CAPTURE(c.first);
        layout l = hlomem::default_layout(2);
        c.second(l);
        CHECK(l.has_attributes());
        CHECK_FALSE(l.empty());
        CHECK(l != hlomem::default_layout(2));
        layout copy = l;
        CHECK(copy == l);
        layout scalar;  // the attribute alone, on a scalar: `{:T(256)}` is not empty
        c.second(scalar);
        CHECK_FALSE(scalar.empty());
    }
    layout a = hlomem::default_layout(2), b = hlomem::default_layout(2);
    a.minor_to_major = {0, 1};
    CHECK(a != b);
    // Tiles compare entry by entry, the `*` entry included.
    CHECK(hlomem::tile{{hlomem::tile::combine_dimension, 128}} != hlomem::tile{{1, 128}});
}
