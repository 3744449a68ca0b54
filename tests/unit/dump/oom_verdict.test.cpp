// The verdict on a BFC allocator's log (dump/oom_verdict.hpp, detail::bfc_verdict) at the edges of
// XLA's rule: the allocator fails a request larger than its largest free chunk even when the free
// chunks add up to more (bfc_allocator.cc, FindChunkPtr), and a request larger than what is free
// under the limit cannot fit at all. The log is the real one of JAX 0.11.2 on an H100
// (tests/data/oom/messages/h100_jax_0_11_fragmented.txt: 29 holes of 1 GiB, 2 GiB asked); only the
// request is moved to each edge.
#include <hlomem/hlomem.hpp>
#include <hlomem/parser/oom_report.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <string>

namespace {

/// The outcome and shortfall of the holes' report when the (rounded) request is `need` bytes.
struct verdict_at {
    std::string outcome;
    std::int64_t over_by;
};

verdict_at verdict_when_asking(hlomem::oom_report r, std::int64_t need) {
    r.bfc.rounded_request = need;
    auto const v = hlomem::verdict_of(r);
    return {v.outcome, v.over_by.value_or(-1)};
}

}  // namespace

TEST_CASE("oom verdict: a BFC request at each edge of FindChunkPtr's rule, on the H100 log", "[oom_verdict]") {
    auto const log = hlomem::parse_oom_reports(hlomem_test::read_data("oom/messages/h100_jax_0_11_fragmented.txt"), "h100");
    REQUIRE(log.reports.size() == 4);
    auto const& holes = log.reports[2];
    REQUIRE(holes.kind == hlomem::oom_report_kind::bfc);
    // What the log states: the limit, the bytes in use and the largest free block (Stats:).
    std::int64_t const limit = *holes.bfc.stat("Limit");
    std::int64_t const in_use = *holes.bfc.stat("InUse");
    std::int64_t const largest = *holes.bfc.stat("LargestFreeBlock");
    std::int64_t const free = limit - in_use;
    CHECK(holes.bfc.printed_stat("Limit")->text == "59.38GiB");
    CHECK(holes.bfc.printed_stat("InUse")->text == "29.00GiB");
    CHECK(holes.bfc.printed_stat("LargestFreeBlock")->text == "1.38GiB");
    REQUIRE(largest < free);

    // As logged: 2 GiB, above the largest block, below what is free.
    CHECK(hlomem::verdict_of(holes).outcome == "fragmented");
    CHECK_FALSE(hlomem::verdict_of(holes).over_by);
    // The largest free block serves a request of its size: the log cannot say why it failed.
    CHECK(verdict_when_asking(holes, largest).outcome == "fits");
    // One byte more, and no chunk can serve it although the free bytes add up to more.
    CHECK(verdict_when_asking(holes, largest + 1).outcome == "fragmented");
    CHECK(verdict_when_asking(holes, free).outcome == "fragmented");
    // One byte over what is free under the limit: it does not fit, short by that byte.
    auto const over = verdict_when_asking(holes, free + 1);
    CHECK(over.outcome == "does_not_fit");
    CHECK(over.over_by == 1);
}

TEST_CASE("oom verdict: the full pool of the same log is short by what the request exceeds", "[oom_verdict]") {
    auto const log = hlomem::parse_oom_reports(hlomem_test::read_data("oom/messages/h100_jax_0_11_fragmented.txt"), "h100");
    REQUIRE(log.reports.size() == 4);
    auto const& full = log.reports[0];
    std::int64_t const free = *full.bfc.stat("Limit") - *full.bfc.stat("InUse");
    auto const v = hlomem::verdict_of(full);
    CHECK(v.outcome == "does_not_fit");
    CHECK(v.time == "run time");
    // 1 GiB (rounded to 1073741824) against the free bytes under the limit.
    CHECK(*full.bfc.rounded_request == 1073741824);
    CHECK(*v.over_by == 1073741824 - free);
    CHECK(*v.over_by > 0);
}
