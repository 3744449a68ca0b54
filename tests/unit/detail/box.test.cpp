// An optional value on the heap with value semantics: deep copies, comparison by value
// (detail/box.hpp).
#include <hlomem/detail/box.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

using hlomem::detail::box;

TEST_CASE("detail/box: empty, filled, emplaced and reset", "[box]") {
    box<std::string> b;
    CHECK_FALSE(b);
    CHECK_FALSE(b.has_value());
    CHECK(b.get() == nullptr);
    b = box<std::string>(std::string("f32[8]"));
    REQUIRE(b);
    CHECK(*b == "f32[8]");
    CHECK(b->size() == 6);
    b.emplace() = "s32[]";
    CHECK(*b == "s32[]");
    b.reset();
    CHECK_FALSE(b.has_value());
}

TEST_CASE("detail/box: a copy owns its own value; a move leaves the source empty", "[box]") {
    box<std::vector<int>> a(std::vector<int>{1, 2, 3});
    box<std::vector<int>> copy = a;
    REQUIRE(copy);
    CHECK(copy.get() != a.get());
    copy->push_back(4);
    CHECK(a->size() == 3);
    CHECK(copy->size() == 4);
    box<std::vector<int>> assigned;
    assigned = a;
    CHECK(*assigned == std::vector<int>{1, 2, 3});
    assigned = box<std::vector<int>>();  // assigning an empty box empties
    CHECK_FALSE(assigned);
    auto& self = a;
    a = self;  // self-assignment keeps the value
    CHECK(*a == std::vector<int>{1, 2, 3});
    box<std::vector<int>> moved = std::move(a);
    CHECK(*moved == std::vector<int>{1, 2, 3});
    CHECK_FALSE(a);  // NOLINT(bugprone-use-after-move): a moved-from box is empty
}

TEST_CASE("detail/box: equality compares the values, and two empty boxes are equal", "[box]") {
    CHECK(box<int>() == box<int>());
    CHECK(box<int>(7) == box<int>(7));
    CHECK(box<int>(7) != box<int>(8));
    CHECK(box<int>(0) != box<int>());
    CHECK(box<int>() != box<int>(0));
}
