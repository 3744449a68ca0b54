// Repacking the temp arenas of a dump (placement/repack.hpp): a capacity no placement meets is a
// finding.
#include <hlomem/placement/repack.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <string>

namespace {

using hlomem_test::seed_002;

}  // namespace

TEST_CASE("repack: a capacity below every placement is a finding", "[output][placement]") {
    auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(seed_002), seed_002);
    hlomem::repack_options options;
    options.algorithms = {hlomem::allocation_algorithm::best_fit};
    options.capacity = 4095;  // color 4's arena needs 4096 bytes
    auto const r = hlomem::repack(hlomem::repack_arenas_of(ba), &ba, options);
    CHECK(r.best(3) == nullptr);
    CHECK(r.findings());
}
