// The facts a module's report states (output/module_report.hpp, detail::module_report::facts_of),
// on a module small enough to work each figure out by hand: tests/data/hand/liveness_donated.hlo,
//
//   ENTRY %main (buf: f32[16], upd: f32[4], i: s32[]) -> (f32[16], f32[4])
//     %buf = f32[16] parameter(0)   %upd = f32[4] parameter(1)   %i = s32[] parameter(2)
//     %neg = f32[4] negate(%upd)    %dus = f32[16] dynamic-update-slice(%buf, %neg, %i)
//     ROOT %out = (f32[16], f32[4]) tuple(%dus, %neg)      input_output_alias={ {0}: (0, {}, may-alias) }
#include <hlomem/output/module_report.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <string>
#include <utility>
#include <vector>

namespace {

namespace report = hlomem::detail::module_report;

}  // namespace

TEST_CASE("output/module_report: a module's computations, parameters, result and largest results", "[module_report]") {
    std::string const text = hlomem_test::read_data("hand/liveness_donated.hlo");
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, "liveness_donated.hlo");
    auto const f = report::facts_of(m);
    CHECK(f.computations_by_kind == std::vector<std::pair<std::string, std::size_t>>{{"entry", 1}});
    // Parameters: f32[16] 64 bytes, f32[4] 16, s32[] 4; no layout pads them.
    CHECK(f.parameters.known);
    CHECK(f.parameters.unpadded == 84);
    CHECK(f.parameters.padded == 84);
    // The result: its two arrays, and the tuple's table of two 8-byte pointers (ShapeUtil::ByteSizeOf
    // of a tuple with pointer size 8).
    CHECK(f.result.unpadded == 80);
    CHECK(f.result.tuple_tables == 16);
    // Array results by padded size, then by id: buf and dus (64), upd and neg (16), i (4); the
    // tuple is no array, and a parameter of the entry ranks.
    std::vector<std::pair<std::string, std::int64_t>> largest;
    for (auto const& r : f.largest) largest.emplace_back(std::string(std::string_view(m.instruction(r.id).name)), r.bytes.padded);
    CHECK(largest == std::vector<std::pair<std::string, std::int64_t>>{{"buf", 64}, {"dus", 64}, {"upd", 16}, {"neg", 16}, {"i", 4}});
    // One alias, may-alias: no must_alias; it names parameter 0's 64 bytes.
    CHECK(f.must_alias == 0);
    CHECK(f.aliased.unpadded == 64);
}

TEST_CASE("output/module_report: the donation the module states is used, by the output it names", "[module_report]") {
    std::string const text = hlomem_test::read_data("hand/liveness_donated.hlo");
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, "liveness_donated.hlo");
    auto const f = report::facts_of(m);
    REQUIRE(f.liveness);
    REQUIRE(f.donations);
    CHECK(f.donations->donors_known);
    REQUIRE(f.donations->used.size() == 1);
    CHECK(f.donations->used[0].parameter_number == 0);
    CHECK(f.donations->used[0].output_index == "{0}");
    CHECK(f.donations->used[0].bytes == 64);
    CHECK(f.donations->unused.empty());
    // compiled.memory_analysis() on the assignment XLA would make: the three parameters' 84
    // bytes (PopulateBufferStatsFromAllocations, an entry parameter's allocation), of which
    // parameter 0's 64 alias the output.
    REQUIRE(f.memory);
    CHECK(f.memory->argument_size_in_bytes == 84);
    CHECK(f.memory->alias_size_in_bytes == 64);
}
