// Shapes, layouts and shape tables of one policy as the same values of another (core/policy_cast.hpp).
#include <hlomem/core/policy_cast.hpp>

#include <hlomem/core/shape_table.hpp>
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

TEST_CASE("policy_cast gives a table of another policy the same shapes under the same ids", "[shape_table][policy_cast]") {
    // Shapes of real dumps: TPU tiles and a memory space, a dynamic dimension, a tuple of both.
    std::vector<std::string> const texts = {"bf16[14336,4096]{1,0:T(8,128)(2,1)}", "f32[<=16,8]{1,0}",
                                            "(s32[], f32[8,128]{1,0:T(8,128)S(1)})", "f32[8,128]"};
    hlomem::shape_table table;
    for (auto const& t : texts) {
        char const* p = t.data();
        hlomem::intern_shape(table, p, t.data() + t.size(), "<test>", t.data());
    }
    auto const view = hlomem::policy_cast<hlomem::view_policy>(table);
    REQUIRE(view.size() == table.size());
    for (hlomem::shape_id id = 0; id < table.size(); ++id) {
        CHECK(hlomem::to_string(view[id]) == texts[id]);
        CHECK(view.find(texts[id]) == id);
        CHECK(hlomem::policy_cast<hlomem::default_policy>(view[id]) == table[id]);
    }
    CHECK(view[1].is_dynamic_dimension(0));
    CHECK_FALSE(view[1].is_dynamic_dimension(1));
    CHECK(view[0].layout().tiles.size() == 2);
    CHECK(view[2].tuple_shapes()[1].layout().memory_space == 1);
}
