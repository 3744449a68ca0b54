// Shape trees (hlo/shape_tree.hpp): a shape's subshapes numbered in XLA's ShapeTree order.
#include <hlomem/hlo/shape_tree.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include <vector>

TEST_CASE("subshape trees number a shape's indices in pre-order", "[liveness][dataflow]") {
    auto const s = hlomem::parse_shape("(f32[2], (s32[], u8[3]), token[])");
    hlomem::subshape_tree const t(s);
    REQUIRE(t.size() == 6);  // {}, {0}, {1}, {1,0}, {1,1}, {2}
    CHECK(t.find(std::vector<int>{1, 1}) == 4);
    CHECK(t.find(std::vector<int>{2}) == 5);
    CHECK(t.find(std::vector<int>{0, 0}) == hlomem::no_node);
    CHECK(t[2].subtree_size == 3);
    CHECK(t[2].is_tuple);
    CHECK(t[3].is_array);
    CHECK_FALSE(t[5].is_array);
    CHECK(t.top_index(4) == 1);
    CHECK(t.top_index(0) == -1);
    CHECK(hlomem::to_string(t.index_of<hlomem::default_policy>(4)) == "{1,1}");
}
