// The names of one scope (hlo/name_table.hpp): insert and find as XLA's HloParser resolves names
// in a computation (a name defined once), cleared between computations, grown past its first 64
// slots.
#include <hlomem/hlo/name_table.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

TEST_CASE("hlo/name_table: a name is stored once, found, and forgotten by clear", "[hlo][name_table]") {
    hlomem::name_table t;
    CHECK(t.find("add.3") == hlomem::name_table::npos);  // an empty table
    CHECK(t.insert("add.3", 7) == hlomem::name_table::npos);
    CHECK(t.insert("add.3", 9) == 7);  // already defined: the first index stays
    CHECK(t.find("add.3") == 7);
    CHECK(t.find("add.") == hlomem::name_table::npos);
    CHECK(t.find("") == hlomem::name_table::npos);
    CHECK(t.size() == 1);
    t.clear();
    CHECK(t.size() == 0);
    CHECK(t.find("add.3") == hlomem::name_table::npos);
    CHECK(t.insert("add.3", 2) == hlomem::name_table::npos);  // a new scope defines it again
    CHECK(t.find("add.3") == 2);
}

TEST_CASE("hlo/name_table: a thousand names across growth and clears keep their indices", "[hlo][name_table]") {
    std::vector<std::string> names;
    for (int i = 0; i < 1000; ++i) names.push_back("fusion." + std::to_string(i));
    hlomem::name_table t;
    for (int round = 0; round < 3; ++round) {
        // Each round a scope of a different size: 10, 500, 1000 names (the table grows from 64
        // slots, keeping the names of the scope it holds and none of the one cleared).
        std::size_t const n = round == 0 ? 10 : round == 1 ? 500 : 1000;
        t.clear();
        for (std::size_t i = 0; i < n; ++i) REQUIRE(t.insert(names[i], static_cast<std::uint32_t>(i + round)) == hlomem::name_table::npos);
        CHECK(t.size() == n);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) wrong += t.find(names[i]) != i + round;
        for (std::size_t i = n; i < names.size(); ++i) wrong += t.find(names[i]) != hlomem::name_table::npos;
        CHECK(wrong == 0);
    }
}
