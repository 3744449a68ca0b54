// The buffer-assignment model (dump/buffer_assignment.hpp): a value's name as XLA prints it.
#include <hlomem/dump/buffer_assignment.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

TEST_CASE("display_name: a value as XLA names it in live ranges", "[load][buffer_assignment]") {
    hlomem::logical_value v;
    v.name = "tuple.3";
    v.index = hlomem::parse_shape_index("{1}");
    CHECK(v.display_name() == "tuple.3");
    v.index_printed = true;
    CHECK(v.display_name() == "tuple.3{1}");
}
