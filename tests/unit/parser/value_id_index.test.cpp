// The table from a value's id to its place in the model: flat for XLA's dense ids, a map for the
// rest, and the values in id order at the end (parser/value_id_index.hpp).
#include <hlomem/parser/value_id_index.hpp>

#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <utility>

TEST_CASE("value ids far apart: a flat table for XLA's dense ids, a map for the rest", "[buffer_assignment][ids]") {
    hlomem::parser::dump::value_id_index ids;
    CHECK(ids.emplace(7, 0) == std::pair<std::size_t, bool>{0, true});
    CHECK(ids.emplace(5000, 1) == std::pair<std::size_t, bool>{1, true});  // beyond 8·1 + 4096: the map
    CHECK(ids.emplace(1000000000000000, 2) == std::pair<std::size_t, bool>{2, true});
    CHECK(ids.emplace(-3, 3) == std::pair<std::size_t, bool>{3, true});
    for (std::int64_t id = 0; id < 6000; ++id) {
        if (id != 7 && id != 5000) ids.emplace(id, static_cast<std::size_t>(10 + id));
    }
    // 5000 stays in the map although the flat table now reaches past it.
    CHECK(ids.emplace(5000, 99) == std::pair<std::size_t, bool>{1, false});
    CHECK(ids.find(5000) == 1);
    CHECK(ids.find(7) == 0);
    CHECK(ids.find(1000000000000000) == 2);
    CHECK(ids.find(6000) == hlomem::npos);
    auto const order = ids.in_id_order();
    REQUIRE(order.size() == 6002);
    CHECK(order.front() == 3);  // id -3
    CHECK(order[1] == 10);      // id 0
    CHECK(order[8] == 0);       // id 7
    CHECK(order[5001] == 1);    // id 5000
    CHECK(order.back() == 2);   // id 10^15

    std::string const text =
        "BufferAssignment:\n"
        "allocation 0: size 16, preallocated-temp:\n"
        " value: <1000000000000000 c @0> (size=4,offset=8): f32[]\n"
        " value: <5 b @0> (size=4,offset=4): f32[]\n"
        " value: <0 a @0> (size=4,offset=0): f32[]\n"
        "\nTotal bytes used: 16 (16B)\n";
    auto const ba = hlomem::parse_buffer_assignment(text);
    REQUIRE(ba.values.size() == 3);
    CHECK(ba.values[0].id == 0);
    CHECK(ba.values[1].id == 5);
    CHECK(ba.values[2].id == 1000000000000000);
    CHECK(ba.find_value(5)->name == "b");
}
