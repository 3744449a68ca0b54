// The diff of two buffer assignments (diff/assignment_diff.hpp: diff_assignments, with the value
// matching of diff/match.hpp) on the bundled pairs of real compilations
// (tests/data/corpus/compilations: the same program compiled twice). Figures are the dumps' own:
// `Total bytes used`, the stated `Live ranges at N (peak):` and its list, and the values live at
// the peaks, added up by hand from the live ranges and value lines quoted below. The matches were
// checked by hand against each side's ` from instruction:` lines.
#include <hlomem/diff.hpp>
#include <hlomem/hlomem.hpp>
#include <catch2/catch.hpp>
#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using hlomem_test::read_data;

namespace {

struct side {
    hlomem::buffer_assignment ba;
    hlomem::source_attribution sources;
};

side read_side(std::string const& name) {
    side s{hlomem::parse_buffer_assignment(read_data("corpus/compilations/" + name + ".buffer_assignment.txt"), name), {}};
    s.sources = hlomem::attribute_values(s.ba);
    return s;
}

hlomem::assignment_diff diff_of(side const& a, side const& b) { return hlomem::diff_assignments(a.ba, a.sources, b.ba, b.sources); }

/// The value of `s` defined by `name` at the empty index.
std::size_t value_named(side const& s, std::string const& name) {
    auto const i = s.ba.value_index(name, hlomem::shape_index{});
    REQUIRE(i != hlomem::npos);
    return i;
}

/// The pair that holds A's value `i`, or nullptr.
hlomem::value_pair const* pair_of(hlomem::assignment_diff const& d, std::size_t i) {
    auto it = std::find_if(d.matching.pairs.begin(), d.matching.pairs.end(), [&](auto const& p) { return p.a == i; });
    return it == d.matching.pairs.end() ? nullptr : &*it;
}

std::int64_t stated_peak_sum(side const& s) {
    std::int64_t sum = 0;
    for (auto const& e : s.ba.live_range->stated_peak->entries) sum += e.bytes;
    return sum;
}

std::vector<std::pair<std::string, std::string>> const pairs = {
    {"reshard_xfirst", "reshard_yfirst"},
    {"scan_window_a", "scan_window_b"},
    {"sternheimer_core_a", "sternheimer_core_b"},
};

}  // namespace

TEST_CASE("diff: totals and XLA's peaks are those the dumps state", "[diff]") {
    for (auto const& [name_a, name_b] : pairs) {
        INFO(name_a << " vs " << name_b);
        auto const a = read_side(name_a), b = read_side(name_b);
        auto const d = diff_of(a, b);
        CHECK(d.total_bytes.a == *a.ba.stated_total_bytes);
        CHECK(d.total_bytes.b == *b.ba.stated_total_bytes);
        CHECK(d.xla_peak_a.time == a.ba.live_range->stated_peak->time);
        CHECK(d.xla_peak_b.time == b.ba.live_range->stated_peak->time);
        CHECK(d.xla_peak_a.bytes == stated_peak_sum(a));
        CHECK(d.xla_peak_b.bytes == stated_peak_sum(b));
        std::int64_t allocated_a = 0, allocated_b = 0;
        for (auto const& c : d.colors) {
            INFO("color " << c.color);
            // Each side's peak by source line adds up to its peak, and its kinds to its allocations.
            std::int64_t by_source_a = 0, by_source_b = 0, by_kind_a = 0, by_kind_b = 0;
            for (auto const& l : c.peak_by_source) {
                by_source_a += l.bytes.a;
                by_source_b += l.bytes.b;
            }
            for (auto const& k : c.allocated_by_kind) {
                by_kind_a += k.bytes.a;
                by_kind_b += k.bytes.b;
            }
            CHECK(by_source_a == c.peak_live_bytes.a);
            CHECK(by_source_b == c.peak_live_bytes.b);
            CHECK(by_kind_a == c.allocated_bytes.a);
            CHECK(by_kind_b == c.allocated_bytes.b);
            allocated_a += c.allocated_bytes.a;
            allocated_b += c.allocated_bytes.b;
        }
        CHECK(allocated_a == d.total_bytes.a);
        CHECK(allocated_b == d.total_bytes.b);
        // Every value is paired or listed, once.
        CHECK(d.matching.pairs.size() + d.matching.only_in_a.size() == a.ba.values.size());
        CHECK(d.matching.pairs.size() + d.matching.only_in_b.size() == b.ba.values.size());
        std::set<std::size_t> seen_b;
        for (auto const& p : d.matching.pairs) CHECK(seen_b.insert(p.b).second);
    }
}

TEST_CASE("diff: the resharding done in two orders, figures by hand", "[diff]") {
    auto const a = read_side("reshard_xfirst"), b = read_side("reshard_yfirst");
    auto const d = diff_of(a, b);
    // Total bytes used: 3666346368 and 2618818944; XLA states its peaks at 11 and 7:
    //   all-to-all.1.1: 1047527424 + param.1: 523763712 + input_transpose_fusion: 1047527424
    //   all-to-all.1.1: 523763712 + param.1: 523763712 + loop_transpose_fusion.1: 523763712
    CHECK(d.total_bytes.delta() == -1047527424);
    CHECK(d.xla_peak_a.bytes == 2618818560);
    CHECK(d.xla_peak_b.bytes == 1571291136);
    REQUIRE(d.colors.size() == 1);
    auto const& c = d.colors[0];
    // Assigned bytes live at once are highest in A at 9: all-to-all.1.1{}:8-11 and
    // loop_transpose_fusion{}:5-10 (1047527424 each), param.1{}:0-13 (523763712) and the two
    // pointer tables of all-to-all-start{}:9-10 (16) and {0}:9-10 (8). In B at 11:
    // loop_transpose_fusion{}:11-13 and all-gather-start{1}:9-11 (1047527424 each) and param.1.
    CHECK(c.peak_a.time == 9);
    CHECK(c.peak_live_bytes.a == 2 * 1047527424LL + 523763712 + 16 + 8);
    CHECK(c.peak_b.time == 11);
    CHECK(c.peak_live_bytes.b == 2 * 1047527424LL + 523763712);
    CHECK(c.peak_a.live.size() == 5);
    CHECK(c.peak_b.live.size() == 3);
    // The temp arena: allocation 2 of 2095055232 bytes against 1047527808.
    CHECK(c.temp_allocated_bytes.a == 2095055232);
    CHECK(c.temp_allocated_bytes.b == 1047527808);
    // At A's peak, line 54 (the all_to_all) holds all-to-all.1.1 and the two pointer tables, line 53
    // (the all_gather) loop_transpose_fusion, and param.1, argument 0 (op_name "psi"), the rest.
    auto line = [&](std::int64_t n) {
        auto it = std::find_if(c.peak_by_source.begin(), c.peak_by_source.end(), [&](auto const& l) { return l.known && l.source_line == n; });
        REQUIRE(it != c.peak_by_source.end());
        return it->bytes;
    };
    CHECK(line(54).a == 1047527424 + 16 + 8);
    CHECK(line(53).a == 1047527424);
    auto const psi = std::find_if(c.peak_by_source.begin(), c.peak_by_source.end(), [](auto const& l) { return l.argument >= 0; });
    REQUIRE(psi != c.peak_by_source.end());
    CHECK(hlomem::line_label(*psi) == "argument 0 (psi)");
    CHECK(psi->bytes.a == 523763712);
    CHECK(psi->bytes.b == 523763712);
    CHECK(std::none_of(c.peak_by_source.begin(), c.peak_by_source.end(), [](auto const& l) { return !l.known; }));
    // A renamed fusion: A's first transpose of psi is loop_transpose_fusion.1, B's is
    // input_transpose_fusion (both `fusion(%param.1)`, metadata={op_name="psi"}, 523763712 bytes).
    auto const* p = pair_of(d, value_named(a, "loop_transpose_fusion.1"));
    REQUIRE(p);
    CHECK(b.ba.values[p->b].name == "input_transpose_fusion");
    CHECK(p->rule == hlomem::match_rule::metadata);
    auto const* param = pair_of(d, value_named(a, "param.1"));
    REQUIRE(param);
    CHECK(b.ba.values[param->b].name == "param.1");
    CHECK(param->rule == hlomem::match_rule::metadata);
    // The verdict: the temp arena is what moved (the peaks differ by 24 bytes).
    REQUIRE(d.verdict.size() == 2);
    CHECK(d.verdict[0].rfind("total bytes shrank by 999.00MiB", 0) == 0);
    CHECK(d.verdict[1].find("preallocated-temp allocations of color 0, 1.95GiB -> 999.00MiB") != std::string::npos);
}

TEST_CASE("diff: fusions renumbered after one is removed are matched by metadata", "[diff]") {
    // scan_window_b lost A's loop_add_fusion (c128[9,40,40], ppm_sigma.py:316, branch_0_fun/add);
    // XLA numbered the fusions after it one lower:
    //   A loop_add_fusion.1  c128[21,9,40,40]  .../cond/branch_1_fun/add       B loop_add_fusion    c128[20,9,40,40]
    //   A loop_add_fusion.2  c128[21,9,40,40]  ppm_sigma.py:369 .../add         B loop_add_fusion.1  c128[20,9,40,40]
    //   A loop_add_fusion.3  s64[]             ppm_sigma.py:645 .../while/body/add  B loop_add_fusion.2  s64[]
    // By name, A's loop_add_fusion would take B's, which is another operation.
    auto const a = read_side("scan_window_a"), b = read_side("scan_window_b");
    auto const d = diff_of(a, b);
    std::vector<std::pair<std::string, std::string>> const renamed = {
        {"loop_add_fusion.1", "loop_add_fusion"}, {"loop_add_fusion.2", "loop_add_fusion.1"}, {"loop_add_fusion.3", "loop_add_fusion.2"}};
    for (auto const& [in_a, in_b] : renamed) {
        INFO(in_a << " -> " << in_b);
        auto const* p = pair_of(d, value_named(a, in_a));
        REQUIRE(p);
        CHECK(b.ba.values[p->b].name == in_b);
        CHECK(p->rule == hlomem::match_rule::metadata);
    }
    REQUIRE(d.matching.only_in_a.size() == 1);
    CHECK(a.ba.values[d.matching.only_in_a[0]].name == "loop_add_fusion");
    CHECK(d.matching.only_in_b.empty());
    REQUIRE(d.largest_removed.size() == 1);
    CHECK(a.ba.values[d.largest_removed[0]].size == 230400);
    // The matched fusion shrank from 21 to 20 windows: 4838400 -> 4608000 bytes.
    auto const* p = pair_of(d, value_named(a, "loop_add_fusion.1"));
    auto const change = std::find_if(d.changes.begin(), d.changes.end(), [&](auto const& ch) { return ch.pair.a == p->a; });
    REQUIRE(change != d.changes.end());
    CHECK(change->size.a == 4838400);
    CHECK(change->size.b == 4608000);
    CHECK(change->shape_changed);
}

TEST_CASE("diff: a dump against itself matches every value and changes nothing", "[diff]") {
    for (auto const& name : {"reshard_xfirst", "reshard_yfirst", "scan_window_a", "scan_window_b", "sternheimer_core_a",
                             "sternheimer_core_b"}) {
        INFO(name);
        auto const a = read_side(name);
        auto const d = diff_of(a, a);
        CHECK(d.matching.pairs.size() == a.ba.values.size());
        CHECK(d.matching.only_in_a.empty());
        CHECK(d.matching.only_in_b.empty());
        for (auto const& p : d.matching.pairs) CHECK(p.a == p.b);
        CHECK(d.changes.empty());
        CHECK(d.total_bytes.delta() == 0);
        for (auto const& c : d.colors) {
            CHECK(c.peak_live_bytes.delta() == 0);
            CHECK(c.allocated_bytes.delta() == 0);
            CHECK(c.peak_a.time == c.peak_b.time);
            for (auto const& k : c.allocated_by_kind) CHECK(k.bytes.delta() == 0);
            for (auto const& l : c.peak_by_source) CHECK(l.bytes.delta() == 0);
            CHECK(c.temp_lower_bound_bytes.delta() == 0);
            CHECK(c.padded_bytes.delta() == 0);
        }
        CHECK(d.identical());
        REQUIRE(d.verdict.size() == 1);
        CHECK(d.verdict[0].rfind("no change in memory", 0) == 0);
    }
}

TEST_CASE("diff: A against B and B against A are mirror images", "[diff]") {
    for (auto const& [name_a, name_b] : pairs) {
        INFO(name_a << " vs " << name_b);
        auto const a = read_side(name_a), b = read_side(name_b);
        auto const ab = diff_of(a, b), ba = diff_of(b, a);
        std::set<std::tuple<std::size_t, std::size_t, hlomem::match_rule>> forward, backward;
        for (auto const& p : ab.matching.pairs) forward.insert({p.a, p.b, p.rule});
        for (auto const& p : ba.matching.pairs) backward.insert({p.b, p.a, p.rule});
        CHECK(forward == backward);
        CHECK(ab.matching.only_in_a == ba.matching.only_in_b);
        CHECK(ab.matching.only_in_b == ba.matching.only_in_a);
        CHECK(ab.total_bytes.delta() == -ba.total_bytes.delta());
        CHECK(ab.changes.size() == ba.changes.size());
        REQUIRE(ab.colors.size() == ba.colors.size());
        for (std::size_t k = 0; k < ab.colors.size(); ++k) {
            auto const& x = ab.colors[k];
            auto const& y = ba.colors[k];
            CHECK(x.peak_live_bytes.a == y.peak_live_bytes.b);
            CHECK(x.peak_live_bytes.b == y.peak_live_bytes.a);
            CHECK(x.peak_a.time == y.peak_b.time);
            CHECK(x.peak_b.time == y.peak_a.time);
            CHECK(x.temp_lower_bound_bytes.delta() == -y.temp_lower_bound_bytes.delta());
            REQUIRE(x.allocated_by_kind.size() == y.allocated_by_kind.size());
            for (std::size_t j = 0; j < x.allocated_by_kind.size(); ++j) {
                CHECK(x.allocated_by_kind[j].bytes.delta() == -y.allocated_by_kind[j].bytes.delta());
            }
            REQUIRE(x.peak_by_source.size() == y.peak_by_source.size());
            for (auto const& l : x.peak_by_source) {
                auto it = std::find_if(y.peak_by_source.begin(), y.peak_by_source.end(), [&](auto const& m) {
                    return m.known == l.known && m.source_file == l.source_file && m.source_line == l.source_line &&
                           m.argument == l.argument;
                });
                REQUIRE(it != y.peak_by_source.end());
                CHECK(it->bytes.a == l.bytes.b);
                CHECK(it->bytes.b == l.bytes.a);
            }
        }
    }
}

TEST_CASE("diff: a module's derived assignment against its own dump", "[diff]") {
    // The scheduled module gives the same values, live ranges and metadata as its dump (one
    // allocation per buffer, so more bytes allocated): every value is matched and none changed.
    auto const dump = read_side("reshard_xfirst");
    auto loaded = hlomem::load_text(read_data("corpus/compilations/reshard_xfirst.after_opt.hlo"), "reshard_xfirst.after_opt.hlo",
                                    [] {
                                        hlomem::load_options o;
                                        o.derive_assignment = true;
                                        return o;
                                    }());
    REQUIRE(loaded);
    auto const& module = std::get<std::vector<hlomem::hlo_module>>(loaded->model).front();
    auto const& derived = *loaded->assignment();
    auto const sources = hlomem::attribute_values(derived, module);
    auto const d = hlomem::diff_assignments(derived, sources, dump.ba, dump.sources);
    CHECK(d.matching.pairs.size() == dump.ba.values.size());
    CHECK(d.matching.only_in_a.empty());
    CHECK(d.matching.only_in_b.empty());
    CHECK(d.changes.empty());
    for (auto const& p : d.matching.pairs) CHECK(derived.values[p.a].display_name() == dump.ba.values[p.b].display_name());
    CHECK(d.xla_peak_a.time == 11);
    CHECK(d.xla_peak_a.bytes == d.xla_peak_b.bytes);
    REQUIRE(d.colors.size() == 1);
    CHECK(d.colors[0].peak_live_bytes.delta() == 0);
}
