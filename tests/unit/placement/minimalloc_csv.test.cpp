// MiniMalloc CSV (placement/minimalloc_csv.hpp, written; parser/minimalloc_csv.hpp, read): problems
// and solutions in any column order, errors with their line and column, and what CSV cannot hold.
#include <hlomem/placement/minimalloc_csv.hpp>

#include <catch2/catch.hpp>

#include "problem_helpers.hpp"

#include <hlomem/hlomem.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace {

using hlomem_test::buffer;
using hlomem_test::readme_example;


}  // namespace

TEST_CASE("MiniMalloc CSV reads problems and solutions, in any column order", "[allocation][csv]") {
    auto const p = hlomem::parse_minimalloc_csv(readme_example, "input.12.csv");
    REQUIRE(p.buffers.size() == 5);
    CHECK(p.buffers[3] == buffer("b4", 9, 21, 4));
    auto const q = hlomem::parse_minimalloc_csv("\xEF\xBB\xBFoffset, size ,upper,lower,alignment,id\r\n8,4,3,0,4, b 1 \r\n\r\n");
    REQUIRE(q.buffers.size() == 1);
    CHECK(q.buffers[0].id == "b 1");
    CHECK(q.buffers[0].span == hlomem::lifespan{0, 3});
    CHECK(q.buffers[0].alignment == 4);
    CHECK(q.buffers[0].offset == 8);
    CHECK(hlomem::to_minimalloc_csv(q) == "id,lower,upper,size,alignment,offset\nb 1,0,3,4,4,8\n");
    CHECK(hlomem::parse_minimalloc_csv(hlomem::to_minimalloc_csv(p)) == p);
    CHECK(hlomem::parse_minimalloc_csv("id,lower,upper,size\n").buffers.empty());
    CHECK(hlomem::looks_like_minimalloc_csv(readme_example));
    CHECK_FALSE(hlomem::looks_like_minimalloc_csv("BufferAssignment:\n"));
}

TEST_CASE("MiniMalloc CSV errors name the line and column", "[allocation][csv]") {
    auto error = [](std::string const& text) {
        auto r = hlomem::try_parse_minimalloc_csv(text, "in.csv");
        REQUIRE_FALSE(r);
        return r.error().to_string();
    };
    CHECK(error("") == "in.csv:1:1: error: expected a header such as id,lower,upper,size\n\n^");
    CHECK(error("id,lower,upper,size,gaps\n") ==
          "in.csv:1:21: error: unknown column 'gaps'; a MiniMalloc CSV has id, lower, upper, size, alignment and offset\n"
          "id,lower,upper,size,gaps\n                    ^");
    CHECK(error("id,lower,upper\n") ==
          "in.csv:1:1: error: the header has no 'size' column; it needs id, lower, upper and size\nid,lower,upper\n^");
    CHECK(error("id,id\n") == "in.csv:1:4: error: column 'id' appears twice\nid,id\n   ^");
    CHECK(error("id,lower,upper,size\nb1,0,3\n") == "in.csv:2:7: error: expected ','\nb1,0,3\n      ^");
    CHECK(error("id,lower,upper,size\nb1,0,3,4,5\n") == "in.csv:2:9: error: expected the end of the line\nb1,0,3,4,5\n        ^");
    CHECK(error("id,lower,upper,size\nb1,3,3,4\n") ==
          "in.csv:2:6: error: lifespan [3, 3) is empty: upper must be greater than lower\nb1,3,3,4\n     ^");
    CHECK(error("id,lower,upper,size\nb1,0,3,99999999999999999999\n") ==
          "in.csv:2:8: error: integer 99999999999999999999 does not fit in int64\nb1,0,3,99999999999999999999\n       ^");
    CHECK(error("id,lower,upper,size\nb1,0,3,-4\n") ==
          "in.csv:2:8: error: expected a non-negative integer (size)\nb1,0,3,-4\n       ^");
    CHECK(error("id,lower,upper,size\nb1,0,3,4\nb1,1,2,4\n") ==
          "in.csv:3:1: error: id 'b1' was already used on line 2\nb1,1,2,4\n^");
    CHECK(error("id,lower,upper,size,alignment\nb,0,1,4,0\n") ==
          "in.csv:2:9: error: alignment 0: it must be at least 1\nb,0,1,4,0\n        ^");
    CHECK(error("id,lower,upper,size\n,0,1,4\n") == "in.csv:2:1: error: expected an id\n,0,1,4\n^");
}

TEST_CASE("MiniMalloc CSV writing refuses what CSV cannot hold", "[allocation][csv]") {
    hlomem::allocation_problem p{{buffer("a,b", 0, 1, 4)}};
    CHECK_THROWS_AS(hlomem::to_minimalloc_csv(p), hlomem::allocation_error);
    hlomem::allocation_problem partial{{buffer("a", 0, 1, 4), buffer("b", 0, 1, 4)}};
    partial.buffers[0].offset = 0;
    CHECK_THROWS_AS(hlomem::to_minimalloc_csv(partial), hlomem::allocation_error);
}
