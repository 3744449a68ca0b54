// Logical values and live ranges from a module alone (dataflow.hpp, alias_analysis.hpp,
// liveness.hpp).
//
// The hand-written modules in data/hand/liveness_*.hlo each exercise one rule; their expected
// values, ids, ranges and peaks were worked out by hand from docs/FORMATS.md 6.2-7 and XLA's
// HloDataflowAnalysis/HloAliasAnalysis/HloLiveRange rules (the derivation is written next to
// each test). The real pairs are the 14 lorrax modules with the buffer-assignment dump XLA wrote
// for each: the derived HloLiveRange text must be XLA's.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <cstdint>
#include <vector>

namespace {

using hlomem_test::read_data;

/// "name{index}" -> "start-end" for every BufferLiveRange line.
template <class P>
std::map<std::string, std::string> ranges_of(hlomem::basic_hlo_live_range<P> const& lr) {
    std::map<std::string, std::string> out;
    for (auto const& r : lr.buffer_live_ranges) {
        out[std::string(std::string_view(r.name)) + hlomem::to_string(r.index)] =
            std::to_string(r.range.start) + "-" + std::to_string(r.range.end);
    }
    return out;
}

/// The peak list as "name: bytes" lines.
template <class P>
std::vector<std::string> peak_lines(hlomem::basic_hlo_live_range<P> const& lr) {
    std::vector<std::string> out;
    for (auto const& e : lr.stated_peak->entries) out.push_back(std::string(std::string_view(e.name)) + ": " + std::to_string(e.bytes));
    return out;
}

/// Derived with the older XLA's listing of the peak (`name: N bytes`, value order, each value
/// weighing its whole defining instruction): what the hand derivations below and the lorrax dumps
/// (an older XLA) state. The peak moment is the same under the newest listing.
hlomem::derive_options older_listing() {
    hlomem::derive_options o;
    o.peak_rule = hlomem::peak_size_rule::instruction_shape;
    return o;
}

template <class P>
std::string text_of(hlomem::basic_hlo_live_range<P> const& lr) {
    std::ostringstream os;
    hlomem::print_live_range(os, lr);
    return os.str();
}

std::vector<std::string> lines_of(std::string const& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

/// The value named `name` at `index` of a dataflow analysis, or nullptr.
template <class P>
hlomem::hlo_value const* value_named(hlomem::basic_hlo_dataflow<P> const& df, std::string const& name_and_index) {
    for (auto const& v : df.values()) {
        auto const& m = df.module();
        std::string const key = std::string(std::string_view(m.instruction(v.instruction).name)) + hlomem::to_string(df.index_of(v));
        if (key == name_and_index) return &v;
    }
    return nullptr;
}

/// The instructions of the flattened sequence, by name.
template <class P>
std::vector<std::string> sequence_names(hlomem::basic_hlo_liveness<P> const& live) {
    std::vector<std::string> out;
    for (hlomem::instruction_id i : live.sequence()) out.push_back(std::string(std::string_view(live.module().instruction(i).name)));
    return out;
}

template <class P>
std::vector<std::string> positions_of(hlomem::basic_hlo_dataflow<P> const& df, hlomem::hlo_value const& v) {
    std::vector<std::string> out;
    for (auto const& p : df.positions(v)) {
        out.push_back(std::string(std::string_view(df.module().instruction(p.instruction).name)) +
                      hlomem::to_string(df.index_of(p.instruction, p.node)));
    }
    return out;
}

template <class P>
std::vector<std::string> uses_of(hlomem::basic_hlo_dataflow<P> const& df, hlomem::hlo_value const& v) {
    std::vector<std::string> out;
    for (auto const& u : df.uses(v)) {
        auto const& m = df.module();
        hlomem::instruction_id const operand = m.operands(u.instruction)[u.operand_number];
        out.push_back(std::string(std::string_view(m.instruction(u.instruction).name)) + ", operand " +
                      std::to_string(u.operand_number) + " " + hlomem::to_string(df.index_of(operand, u.node)));
    }
    return out;
}

}  // namespace

TEST_CASE("value sets hold one id in place, more in a block; buffers are lists viewed in place",
          "[liveness][dataflow][alias]") {
    hlomem::value_id_set s;
    CHECK(s.empty());
    s.assign_one(7);
    CHECK(std::vector<hlomem::value_id>(s.begin(), s.end()) == std::vector<hlomem::value_id>{7});
    std::vector<hlomem::value_id> u{9, 3, 1, 3};  // repeats and any order, as a union gathers them
    CHECK(hlomem::instruction_value_sets::assign_sorted(s, u));
    CHECK(std::vector<hlomem::value_id>(s.begin(), s.end()) == std::vector<hlomem::value_id>{1, 3, 9});
    u = {3, 9, 1};
    CHECK_FALSE(hlomem::instruction_value_sets::assign_sorted(s, u));  // the same set: no change
    hlomem::value_id_set copy = s;
    CHECK(copy == s);
    s.assign_one(4);  // back to one id; the copy keeps its own block
    CHECK(s.size() == 1);
    CHECK(s[0] == 4);
    CHECK(copy != s);
    CHECK(std::vector<hlomem::value_id>(copy.begin(), copy.end()) == std::vector<hlomem::value_id>{1, 3, 9});
    hlomem::value_id_set moved = std::move(copy);
    CHECK(moved.size() == 3);
    CHECK(copy.empty());  // NOLINT(bugprone-use-after-move): a moved-from set is empty
    u = {2, 5, 8, 11};
    CHECK(hlomem::instruction_value_sets::assign_sorted(copy, u));  // and takes a block of its own again
    CHECK(std::vector<hlomem::value_id>(copy.begin(), copy.end()) == std::vector<hlomem::value_id>{2, 5, 8, 11});
    CHECK(std::vector<hlomem::value_id>(moved.begin(), moved.end()) == std::vector<hlomem::value_id>{1, 3, 9});

    // Items 0..4 in lists 0, 1, 0, 2, 1: each list in increasing order, the lists in order.
    hlomem::value_index_lists lists;
    lists.assign({0, 1, 0, 2, 1}, 3);
    REQUIRE(lists.size() == 3);
    std::vector<std::vector<std::size_t>> seen;
    for (auto const& l : lists) seen.emplace_back(l.begin(), l.end());
    CHECK(seen == std::vector<std::vector<std::size_t>>{{0, 2}, {1, 4}, {3}});
    CHECK(lists[2].size() == 1);
    CHECK(lists[2][0] == 3);
}

// while_phi: entry a(0) zero(1) init(2) w(14) r(15); cond p.c(3) i.c(4) n(5) lt(6); body p.b(7)
// i.b(8) x.b(9) one(10) next(11) y(12) t.b(13); max 16.
//   ids: computations in post order cond, body, main; within each, instructions in post order:
//   n 0, lt 1 | one 2, next 3, y 4, t.b 5 | zero 6, a 7, init 8; then the phis as propagation
//   creates them: p.c{} 9 and p.b{} 10 on the first pass (the body root's elements are still
//   empty, so {0} and {1} see one input), p.c{0} 11, p.c{1} 12, p.b{0} 13, p.b{1} 14 after the
//   body root is propagated, w{} 15, w{0} 16, w{1} 17. Every phi merges two distinct values, so
//   none is removed.
//   buffers: {init, p.c{}, p.b{}, t.b, w{}}, {zero, p.c{0}, p.b{0}, next, w{0}},
//   {a, p.c{1}, p.b{1}, y, w{1}}.
//   raw ranges: zero 1-7 (its use by the while counts at the body parameter, 7); a 0-16 (entry
//   parameter); init 2-7; p.c{} 3-4; p.c{0} 3-6; p.c{1} 3-3; p.b{} 7-9; p.b{0} 7-11; p.b{1}
//   7-12; next 11-14 and y 12-14 (the body root's positions end with the body, 14); t.b 13-14;
//   w{} 14-15; w{0} 14-14; w{1} 14-16 (the entry root's position ends at max).
//   normalized per buffer, sorted by (start, end, id), each ending where the next starts:
//   a 0-3 p.c{1} 3-7 p.b{1} 7-12 y 12-14 w{1} 14-16; zero 1-3 p.c{0} 3-7 p.b{0} 7-11 next 11-14
//   w{0} 14-14; init 2-3 p.c{} 3-7 p.b{} 7-9 t.b 13-14 w{} 14-15.
//   peak (adds before removes, sizes of whole instruction shapes: tuples 16, s32 4, f32[4] 16):
//   84 at 3, then 101 at 7 when the three body parameter values start; n (5-6) still counts at 7
//   (removed at 7, after the adds) but is not listed.
TEST_CASE("a while loop: phi values for the loop state, one buffer per element, normalized ranges",
          "[liveness][dataflow][while]") {
    auto const text = read_data("hand/liveness_while_phi.hlo");
    auto const m = hlomem::parse_hlo_module(text, "liveness_while_phi.hlo");
    hlomem::hlo_liveness const live(m);
    auto const& df = live.dataflow();

    CHECK(sequence_names(live) == std::vector<std::string>{"a", "zero", "init", "p.c", "i.c", "n", "lt", "p.b", "i.b", "x.b", "one",
                                            "next", "y", "t.b", "w", "r"});
    CHECK(live.max() == 16);
    REQUIRE(live.span_of(*m.find_computation("body")));
    CHECK(live.span_of(*m.find_computation("body"))->start == 7);
    CHECK(live.span_of(*m.find_computation("body"))->end == 14);

    std::vector<std::string> by_id;
    for (auto const& v : df.values()) by_id.push_back(std::to_string(v.id) + " " + df.name_of(v) + (v.is_phi ? " (phi)" : ""));
    CHECK(by_id == std::vector<std::string>{"0 n", "1 lt", "2 one", "3 next", "4 y", "5 t.b{}", "6 zero", "7 a",
                                            "8 init{}", "9 p.c{} (phi)", "10 p.b{} (phi)", "11 p.c{0} (phi)",
                                            "12 p.c{1} (phi)", "13 p.b{0} (phi)", "14 p.b{1} (phi)", "15 w{} (phi)",
                                            "16 w{0} (phi)", "17 w{1} (phi)"});

    auto const* pb1 = value_named(df, "p.b{1}");
    REQUIRE(pb1);
    CHECK(positions_of(df, *pb1) == std::vector<std::string>{"p.b{1}", "x.b{}"});
    CHECK(uses_of(df, *pb1) == std::vector<std::string>{"y, operand 0 {}", "y, operand 1 {}"});
    auto const* zero = value_named(df, "zero{}");
    REQUIRE(zero);
    CHECK(positions_of(df, *zero) == std::vector<std::string>{"zero{}", "init{0}"});
    CHECK(uses_of(df, *zero) == std::vector<std::string>{"w, operand 0 {0}"});  // the tuple only passes it on

    auto const& aa = live.alias_analysis();
    auto buffer_names = [&](std::string const& member) {
        std::vector<std::string> out;
        auto const* v = value_named(df, member);
        REQUIRE(v);
        auto const k = df.value_index(v->id);
        for (std::size_t j : aa.buffers()[aa.buffer_of(k)]) out.push_back(df.name_of(df.values()[j]));
        return out;
    };
    CHECK(buffer_names("w{1}") == std::vector<std::string>{"y", "a", "p.c{1}", "p.b{1}", "w{1}"});
    CHECK(buffer_names("init{}") == std::vector<std::string>{"t.b{}", "init{}", "p.c{}", "p.b{}", "w{}"});
    CHECK(buffer_names("n{}") == std::vector<std::string>{"n"});

    auto const ba = hlomem::derive_buffer_assignment(live, older_listing());
    CHECK(ranges_of(*ba.live_range) == std::map<std::string, std::string>{
                                           {"n{}", "5-6"},     {"lt{}", "6-7"},     {"one{}", "10-11"},
                                           {"next{}", "11-14"}, {"y{}", "12-14"},    {"t.b{}", "13-14"},
                                           {"zero{}", "1-3"},   {"a{}", "0-3"},      {"init{}", "2-3"},
                                           {"p.c{}", "3-7"},    {"p.b{}", "7-9"},    {"p.c{0}", "3-7"},
                                           {"p.c{1}", "3-7"},   {"p.b{0}", "7-11"},  {"p.b{1}", "7-12"},
                                           {"w{}", "14-15"},    {"w{0}", "14-14"},   {"w{1}", "14-16"}});
    REQUIRE(ba.live_range->stated_peak);
    CHECK(ba.live_range->stated_peak->time == 7);
    CHECK(peak_lines(*ba.live_range) ==
          std::vector<std::string>{"lt: 1", "p.c: 16", "p.b: 16", "p.c: 16", "p.c: 16", "p.b: 16", "p.b: 16"});
    auto const peak = hlomem::compute_xla_peak(ba);
    CHECK(peak.bytes == 101);

    // The derived model: the loop-state buffers are allocations of their own; the entry parameter
    // shares the while's buffer, so that allocation is a parameter allocation.
    auto const* a = ba.find_value("a", hlomem::shape_index{});
    auto const* w1 = ba.find_value("w", hlomem::shape_index{1});
    REQUIRE(a);
    REQUIRE(w1);
    CHECK(a->allocation == w1->allocation);
    CHECK(ba.allocations[a->allocation].parameter_number == 0);
    CHECK(ba.allocations[a->allocation].maybe_live_out);
    CHECK(ba.allocations[a->allocation].size == 16);
    CHECK(w1->is_phi);
    CHECK(w1->index_printed);
}

// conditional: entry pred(0) x(1) arg(2) c(9) out(10); then t.p(3) t.x(4) t.neg(5) t.r(6); else
// e.p(7) e.r(8); max 11.
//   The else branch returns a copy of its parameter tuple: copy defines only {} and forwards {0},
//   so x itself reaches the conditional's {0} through it, and c{0} is a phi of t.neg and x.
//   buffers (branch roots share the conditional's values): {t.r, e.r, c{}}, {t.neg, x, c{0}}.
//   raw: t.neg 5-7, t.r 6-7, e.r 8-9, pred 0-11, x 0-11, arg 2-9 (used by both branch
//   parameters' readers and by c itself at 9), c{} 9-10, c{0} 9-11.
//   normalized: x 0-5, t.neg 5-9, c{0} 9-11 (x is an entry parameter but aliased values do not
//   overlap).
//   peak: 81 bytes at 6 (x still counts, removed after the adds at 6, not listed).
TEST_CASE("a conditional: phi values merge the branch results, branch roots share the result's buffer",
          "[liveness][dataflow][conditional]") {
    auto const text = read_data("hand/liveness_conditional.hlo");
    auto const m = hlomem::parse_hlo_module(text, "liveness_conditional.hlo");
    hlomem::hlo_liveness const live(m);
    auto const& df = live.dataflow();
    CHECK(sequence_names(live) == std::vector<std::string>{"pred", "x", "arg", "t.p", "t.x", "t.neg", "t.r", "e.p", "e.r", "c", "out"});

    auto const* c0 = value_named(df, "c{0}");
    REQUIRE(c0);
    CHECK(c0->is_phi);
    CHECK(value_named(df, "e.r{0}") == nullptr);  // copy forwards nested values
    auto const* x = value_named(df, "x{}");
    REQUIRE(x);
    // The defining position first, then the others in module order (the branches precede main).
    CHECK(positions_of(df, *x) ==
          std::vector<std::string>{"x{}", "t.p{0}", "t.x{}", "e.p{0}", "e.r{0}", "arg{0}"});
    auto const* arg = value_named(df, "arg{}");
    REQUIRE(arg);
    CHECK(uses_of(df, *arg) == std::vector<std::string>{"c, operand 1 {}", "c, operand 2 {}", "t.x, operand 0 {}",
                                                        "e.r, operand 0 {}"});

    auto const ba = hlomem::derive_buffer_assignment(live, older_listing());
    CHECK(ranges_of(*ba.live_range) == std::map<std::string, std::string>{{"t.neg{}", "5-9"}, {"t.r{}", "6-7"},
                                                                          {"e.r{}", "8-9"},   {"pred{}", "0-11"},
                                                                          {"x{}", "0-5"},     {"arg{}", "2-9"},
                                                                          {"c{}", "9-10"},    {"c{0}", "9-11"}});
    CHECK(ba.live_range->stated_peak->time == 6);
    CHECK(peak_lines(*ba.live_range) == std::vector<std::string>{"t.neg: 32", "t.r: 8", "pred: 1", "arg: 8"});
    CHECK(hlomem::compute_xla_peak(ba).bytes == 81);
}

// async collectives: p(0) ars(1) ard(2) ags(3), the async computation w.p(4) w.a2a(5) just before
// its async-start as(6), ad(7) agd(8) m(9) t(10); max 11; sum is a reducer: not flattened.
//   all-reduce-start defines its result and updates p in place; all-reduce-done forwards it;
//   all-gather-start defines {} and {1} and forwards its operand to {0}; async-start defines its
//   tuple tables {} and {0}, forwards its operand to {0,0} and the wrapped root to {1};
//   async-done forwards the wrapped root.
//   w.a2a: defined at 5, root of the async computation (ends 6) inside an async context, so it
//   lives to the done (7); used by m through ad: 5-9.
//   ars: used last by all-gather-done (8); in one buffer with p (in place), whose range 0-11 (an
//   entry parameter) it takes over: p 0-1, ars 1-11.
TEST_CASE("asynchronous collectives: start/done pairs forward values, the async computation is inlined",
          "[liveness][dataflow][async]") {
    auto const text = read_data("hand/liveness_async.hlo");
    auto const m = hlomem::parse_hlo_module(text, "liveness_async.hlo");
    hlomem::liveness_options options;
    hlomem::hlo_liveness const live(m, options);
    auto const& df = live.dataflow();
    CHECK(sequence_names(live) == std::vector<std::string>{"p", "ars", "ard", "ags", "w.p", "w.a2a", "as", "ad", "agd", "m", "t"});
    CHECK_FALSE(live.time_of(*m.find_instruction("s")));

    auto const* ars = value_named(df, "ars{}");
    REQUIRE(ars);
    CHECK(positions_of(df, *ars) == std::vector<std::string>{"ars{}", "w.p{}", "ard{}", "ags{0}", "as{0,0}"});
    auto const* a2a = value_named(df, "w.a2a{}");
    REQUIRE(a2a);
    CHECK(positions_of(df, *a2a) == std::vector<std::string>{"w.a2a{}", "as{1}", "ad{}"});
    CHECK(value_named(df, "as{1}") == nullptr);
    CHECK(value_named(df, "ags{0}") == nullptr);
    CHECK(value_named(df, "x{}") != nullptr);  // reducer parameters define their own values

    auto const ba = hlomem::derive_buffer_assignment(live, older_listing());
    CHECK(ranges_of(*ba.live_range) == std::map<std::string, std::string>{{"w.a2a{}", "5-9"}, {"p{}", "0-1"},
                                                                          {"ars{}", "1-11"},  {"ags{}", "3-8"},
                                                                          {"ags{1}", "3-11"}, {"as{}", "6-7"},
                                                                          {"as{0}", "6-7"},   {"m{}", "9-11"},
                                                                          {"t{}", "10-11"}});
    CHECK(ba.live_range->stated_peak->time == 6);
    CHECK(peak_lines(*ba.live_range) ==
          std::vector<std::string>{"w.a2a: 32", "ars: 32", "ags: 16", "ags: 16", "as: 16", "as: 16"});
    // The reducer's values are thread-local, without live ranges.
    auto const* s = ba.find_value("s", hlomem::shape_index{});
    REQUIRE(s);
    CHECK_FALSE(s->live_range);
    CHECK(ba.allocations[s->allocation].is_thread_local);

    SECTION("newest XLA starts async values with the computation that runs the async op") {
        hlomem::liveness_options newest;
        newest.async_values_start_with_caller = true;
        newest.dataflow.async_done_uses_all_operand_values = false;
        auto const derived = hlomem::derive_buffer_assignment(hlomem::hlo_liveness(m, newest));
        CHECK(ranges_of(*derived.live_range).at("w.a2a{}") == "0-9");
        // as{0} is read by the done only in older XLA; newer XLA leaves it with its definition.
        CHECK(ranges_of(*derived.live_range).at("as{0}") == "6-6");
    }
}

// donated: buf(0) upd(1) i(2) neg(3) dus(4) out(5); max 6. input_output_alias pairs output {0}
// with parameter 0, and dynamic-update-slice updates buf in place: buf and dus share a buffer.
// buf is aliased, so it is not kept to max: its last use, dus at 4. The other parameters live to
// 6. neg reaches the root (position out{1}): 3-6. Peak 180 at 5 (buf, 64 bytes, still counts).
TEST_CASE("a donated parameter updated in place: not live to the end, shares the output's buffer",
          "[liveness][alias][donated]") {
    auto const text = read_data("hand/liveness_donated.hlo");
    auto const m = hlomem::parse_hlo_module(text, "liveness_donated.hlo");
    hlomem::hlo_liveness const live(m);
    CHECK(hlomem::in_place_pairs(m, *m.find_instruction("dus")) == std::vector<hlomem::in_place_pair>{{0, {}, {}}});
    auto const ba = hlomem::derive_buffer_assignment(live, older_listing());
    CHECK(ranges_of(*ba.live_range) == std::map<std::string, std::string>{{"buf{}", "0-4"}, {"upd{}", "0-6"},
                                                                          {"neg{}", "3-6"}, {"i{}", "0-6"},
                                                                          {"dus{}", "4-6"}, {"out{}", "5-6"}});
    CHECK(ba.live_range->stated_peak->time == 5);
    CHECK(peak_lines(*ba.live_range) == std::vector<std::string>{"upd: 16", "neg: 16", "i: 4", "dus: 64", "out: 16"});
    CHECK(hlomem::compute_xla_peak(ba).bytes == 180);

    auto const* buf = ba.find_value("buf", hlomem::shape_index{});
    auto const* dus = ba.find_value("dus", hlomem::shape_index{});
    auto const* out = ba.find_value("out", hlomem::shape_index{});
    REQUIRE((buf && dus && out));
    CHECK(buf->allocation == dus->allocation);
    auto const& shared = ba.allocations[buf->allocation];
    CHECK(shared.kind() == hlomem::allocation_kind::parameter);
    CHECK(shared.is_parameter_aliased_with_output());
    CHECK(ba.allocations[out->allocation].kind() == hlomem::allocation_kind::output);
    CHECK(ba.allocations[out->allocation].size == 16);  // the tuple's pointer table
    CHECK(out->live_range->end == 6);                   // the live-out root lives to max
}

// in_place: a(0) u(1) k(2) c(3) fu(4) cc(5) g(6) late(7) n(8); max 9. The fusion's root is a
// dynamic-update-slice of its parameter 0, so the fusion updates c in place; the custom call
// declares output {0} aliased with operand 0. {c, fu, cc{0}} is one buffer. c is still read at 7,
// but aliased values do not overlap: c 3-7, fu 4-5, cc{0} 5-8 become c 3-4, fu 4-5, cc{0} 5-8.
TEST_CASE("in-place fusions and custom calls with output_to_operand_aliasing share their operand's buffer",
          "[liveness][alias][in-place]") {
    auto const text = read_data("hand/liveness_in_place.hlo");
    auto const m = hlomem::parse_hlo_module(text, "liveness_in_place.hlo");
    CHECK(hlomem::in_place_pairs(m, *m.find_instruction("fu")) == std::vector<hlomem::in_place_pair>{{0, {}, {}}});
    CHECK(hlomem::in_place_pairs(m, *m.find_instruction("cc")) == std::vector<hlomem::in_place_pair>{{0, {}, {0}}});
    CHECK(hlomem::in_place_pairs(m, *m.find_instruction("late")).empty());
    hlomem::hlo_liveness const live(m);
    auto const ba = hlomem::derive_buffer_assignment(live, older_listing());
    CHECK(ranges_of(*ba.live_range) == std::map<std::string, std::string>{
                                           {"a{}", "0-9"},    {"c{}", "3-4"},    {"u{}", "0-9"},   {"k{}", "0-9"},
                                           {"fu{}", "4-5"},   {"cc{}", "5-6"},   {"cc{0}", "5-8"}, {"cc{1}", "5-5"},
                                           {"late{}", "7-8"}, {"n{}", "8-9"}});
    CHECK(peak_lines(*ba.live_range) ==
          std::vector<std::string>{"a: 64", "u: 16", "k: 4", "fu: 64", "cc: 16", "cc: 16", "cc: 16"});
    CHECK(hlomem::compute_xla_peak(ba).bytes == 260);
    auto const* c = ba.find_value("c", hlomem::shape_index{});
    auto const* cc0 = ba.find_value("cc", hlomem::shape_index{0});
    REQUIRE((c && cc0));
    CHECK(c->allocation == cc0->allocation);
    // Fusion bodies get no buffers.
    CHECK(ba.find_value("f.dus", hlomem::shape_index{}) == nullptr);
}

TEST_CASE("an unscheduled module is read in text order and says so", "[liveness]") {
    auto const m = hlomem::parse_hlo_module(
        "HloModule plain\n\nENTRY %main (p: f32[2]) -> f32[2] {\n  %p = f32[2]{0} parameter(0)\n"
        "  ROOT %n = f32[2]{0} negate(%p)\n}\n");
    hlomem::hlo_liveness const live(m);
    CHECK_FALSE(live.total_order_scheduled());
    CHECK(live.max() == 2);
    auto const ba = hlomem::derive_buffer_assignment(live);
    CHECK(ranges_of(*ba.live_range) == std::map<std::string, std::string>{{"p{}", "0-2"}, {"n{}", "1-2"}});
}

// ---------------------------------------------------------------------------------------------
// Real pairs: the 14 lorrax modules and the buffer-assignment dumps XLA wrote for them.
// ---------------------------------------------------------------------------------------------

namespace {

char const* const lorrax_tags[] = {
    "apply_H_sparse", "bse_full_run_large", "conditional", "cpu_broadcast_in_dim", "cpu_true_divide",
    "donated_param_output_alias", "fft_cublas_while", "iota_tiny", "post_kpath_customcall_tuple", "psum_4gpu",
    "reshard_xfirst_async_collectives", "scan_while_phi", "scatter_while_threadlocal", "svd_param_maybe_live_out",
};

}  // namespace

TEST_CASE("the 14 real module/dump pairs: XLA's HloLiveRange text is derived from the module alone",
          "[liveness][corpus]") {
    auto const tag = std::string(GENERATE(from_range(std::begin(lorrax_tags), std::end(lorrax_tags))));
    CAPTURE(tag);
    auto const module_text = read_data("corpus/lorrax/lorrax_" + tag + ".after_opt.hlo");
    auto const dump_text = read_data("corpus/lorrax/lorrax_" + tag + ".buffer_assignment.txt");
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(module_text, tag);
    auto const dump = hlomem::parse_buffer_assignment<hlomem::view_policy>(dump_text, tag);
    REQUIRE(dump.live_range);
    hlomem::basic_hlo_liveness<hlomem::view_policy> const live(m);
    // These dumps list the peak as the older XLA did; the newest listing has the same moment.
    auto const ba = hlomem::derive_buffer_assignment(live, older_listing());
    auto const& mine = *ba.live_range;
    auto const& xla = *dump.live_range;
    CHECK(hlomem::derive_buffer_assignment(live).live_range->stated_peak->time == xla.stated_peak->time);

    CHECK(mine.max == xla.max);
    CHECK(mine.instruction_sequence == xla.instruction_sequence);
    CHECK(ranges_of(mine) == ranges_of(xla));
    REQUIRE(mine.stated_peak);
    CHECK(mine.stated_peak->time == xla.stated_peak->time);
    CHECK(peak_lines(mine) == peak_lines(xla));
    CHECK(live.dataflow().notes().empty());
    CHECK(live.notes().empty());

    // The text itself: identical, except that in bse_full_run_large XLA numbered its values in an
    // order of computations the text does not show, so 50 of its 283 BufferLiveRange lines sit
    // elsewhere (dataflow.hpp).
    auto const text = text_of(mine);
    auto const expected = text_of(xla);
    if (tag == "bse_full_run_large") {
        CHECK(text != expected);
        auto a = lines_of(text), b = lines_of(expected);
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        CHECK(a == b);
    } else {
        CHECK(text == expected);
    }

    // Every value of the dump is derived, with its positions, uses, phi flag and color, and no
    // other value is; values XLA put in one HloBuffer sit at one place of one allocation.
    std::size_t checked = 0;
    for (auto const& v : dump.values) {
        auto const* w = ba.find_value(v.name, v.index);
        CAPTURE(std::string(v.name) + hlomem::to_string(v.index));
        REQUIRE(w);
        CHECK(w->is_phi == v.is_phi);
        CHECK(w->color == v.color);
        std::multiset<std::string> dp, mp, du, mu;
        for (auto const& p : v.positions) dp.insert(std::string(p.instruction) + hlomem::to_string(p.index));
        for (auto const& p : w->positions) mp.insert(std::string(p.instruction) + hlomem::to_string(p.index));
        for (auto const& u : v.uses) du.insert(std::string(u.instruction) + "," + std::to_string(u.operand_number) + hlomem::to_string(u.operand_index));
        for (auto const& u : w->uses) mu.insert(std::string(u.instruction) + "," + std::to_string(u.operand_number) + hlomem::to_string(u.operand_index));
        CHECK(dp == mp);
        CHECK(du == mu);
        ++checked;
    }
    CHECK(checked == ba.values.size());
    for (auto const& a : ba.allocations) {
        std::set<std::pair<std::size_t, std::int64_t>> places;
        for (std::size_t k : a.values) {
            auto const* v = dump.find_value(ba.values[k].name, ba.values[k].index);
            places.insert({v->allocation, v->offset});
        }
        CHECK(places.size() == 1);
    }
}

TEST_CASE("value ids follow XLA's creation order", "[liveness][corpus]") {
    // In scan_while_phi every id matches the dump's, phis and their gaps included (107 and 110
    // were phis that merged one value only).
    auto const module_text = read_data("corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo");
    auto const dump_text = read_data("corpus/lorrax/lorrax_scan_while_phi.buffer_assignment.txt");
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(module_text);
    auto const dump = hlomem::parse_buffer_assignment<hlomem::view_policy>(dump_text);
    auto const ba = hlomem::derive_buffer_assignment(hlomem::basic_hlo_liveness<hlomem::view_policy>(m));
    REQUIRE(ba.values.size() == dump.values.size());
    for (std::size_t k = 0; k < ba.values.size(); ++k) {
        CHECK(ba.values[k].id == dump.values[k].id);
        CHECK(ba.values[k].name == dump.values[k].name);
    }
    CHECK(ba.find_value(107) == nullptr);
    CHECK(ba.find_value(113)->is_phi);
}

TEST_CASE("every real module: sequence, ranges and peak are consistent", "[liveness][corpus]") {
    // The flattened sequence holds every instruction of the entry and of the computations it runs
    // through call, conditional, while and async ops, once each; every range lies within
    // [0, max]. Figures: seed 004 flattens 1855 instructions (888 in the entry, two while loops),
    // counted by walking the call graph below, not by the analysis.
    auto const path = std::string(GENERATE(as<std::string>{}, "seeds/001_a0c5460ce1af2dbe.txt", "seeds/004_c00fd3afea504246.txt",
                                           "corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_jaxfft_1024_2x4_f64_fft.hlo",
                                           "corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_pfft3d_customcall_1024_2x4_f32_fft.hlo",
                                           "corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_attention.hlo",
                                           "corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_mlp.hlo",
                                           "corpus/rudrite/cpu_scheduled_no_percent_rudrite_kernels_specimen_after_opt.hlo"));
    CAPTURE(path);
    auto const text = read_data(path);
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, path);
    hlomem::basic_hlo_liveness<hlomem::view_policy> const live(m);

    std::vector<bool> seen(m.computation_count(), false);
    std::vector<hlomem::computation_id> work{m.entry()};
    seen[m.entry()] = true;
    std::size_t flattened = 0;
    for (std::size_t k = 0; k < work.size(); ++k) {
        flattened += m.computation(work[k]).instruction_count;
        for (auto i : m.computation(work[k]).instructions()) {
            for (auto const& c : m.calls(i)) {
                if (hlomem::is_control_flow(c.kind) && !seen[c.callee]) {
                    seen[c.callee] = true;
                    work.push_back(c.callee);
                }
            }
        }
    }
    CHECK(static_cast<std::size_t>(live.max()) == flattened);
    if (path == "seeds/004_c00fd3afea504246.txt") CHECK(live.max() == 1855);
    std::set<hlomem::instruction_id> once(live.sequence().begin(), live.sequence().end());
    CHECK(once.size() == live.sequence().size());
    for (std::size_t k = 0; k < live.dataflow().values().size(); ++k) {
        if (auto const& r = live.range(k)) {
            CHECK(0 <= r->start);
            CHECK(r->start <= r->end);
            CHECK(r->end <= live.max());
        }
    }
    auto const ba = hlomem::derive_buffer_assignment(live);
    REQUIRE(ba.live_range->stated_peak);
    CHECK(ba.live_range->stated_peak->time < live.max());
    CHECK(live.notes().empty());

    // The buffers partition the values: each value once, in its own buffer, ids increasing within
    // a buffer, buffers ordered by their first value.
    auto const& aa = live.alias_analysis();
    std::size_t listed = 0, previous_first = 0;
    for (std::size_t b = 0; b < aa.buffers().size(); ++b) {
        auto const buffer = aa.buffers()[b];
        REQUIRE_FALSE(buffer.empty());
        CHECK((b == 0 || buffer[0] > previous_first));
        previous_first = buffer[0];
        for (std::size_t j = 0; j < buffer.size(); ++j) {
            CHECK(aa.buffer_of(buffer[j]) == b);
            if (j > 0) CHECK(buffer[j - 1] < buffer[j]);
        }
        listed += buffer.size();
    }
    CHECK(listed == live.dataflow().values().size());
    // The call graph's compact copies are the module's.
    auto const& g = live.dataflow().call_graph();
    std::size_t mismatches = 0;
    for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
        auto const ops = m.operands(i);
        bool const same = g.opcode(i) == m.instruction(i).opcode &&
                          g.is_root(i) == (m.computation(m.instruction(i).computation).root == i) &&
                          std::equal(ops.begin(), ops.end(), g.operands(i).begin(), g.operands(i).end());
        mismatches += same ? 0 : 1;
    }
    CHECK(mismatches == 0);
    // The module's calls in one list, by caller: what the call graph walks instead of every instruction.
    std::vector<hlomem::hlo_call> each;
    for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) each.insert(each.end(), m.calls(i).begin(), m.calls(i).end());
    auto const all = m.all_calls();
    REQUIRE(all.size() == each.size());
    if (path == "seeds/004_c00fd3afea504246.txt") CHECK(all.size() >= 777);  // 777 lines of seed 004 name a callee
    for (std::size_t k = 0; k < all.size(); ++k) {
        CHECK((all[k].caller == each[k].caller && all[k].callee == each[k].callee && all[k].kind == each[k].kind));
    }
}

TEST_CASE("fusion bodies as ids only: the other values, their ids, ranges and buffers unchanged", "[liveness][dataflow][corpus]") {
    // dataflow_options::fusion_body_values = false numbers the values of fusion bodies without
    // analysing them. Every other value must come out as the full analysis gives it (id,
    // definition, positions, uses, live range), the next id must be the same, and the model
    // derive_buffer_assignment builds (which leaves fusion values out) must be identical.
    auto const path = std::string(GENERATE(as<std::string>{}, "seeds/004_c00fd3afea504246.txt", "seeds/001_a0c5460ce1af2dbe.txt",
                                           "corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo",
                                           "corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_jaxfft_1024_2x4_f64_fft.hlo"));
    CAPTURE(path);
    auto const text = read_data(path);
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, path);
    hlomem::basic_hlo_liveness<hlomem::view_policy> const full(m);
    hlomem::liveness_options options;
    options.dataflow.fusion_body_values = false;
    hlomem::basic_hlo_liveness<hlomem::view_policy> const lean(m, options);
    auto const& a = full.dataflow();
    auto const& b = lean.dataflow();
    CHECK(a.id_count() == b.id_count());

    auto fusion_only = [&](hlomem::computation_id c) {
        auto const callers = m.callers(c);
        return !callers.empty() && std::all_of(callers.begin(), callers.end(), [](hlomem::hlo_call const& k) {
            return k.kind == hlomem::call_kind::fusion;
        });
    };
    std::size_t fused = 0;
    for (std::size_t k = 0; k < a.values().size(); ++k) {
        auto const& v = a.values()[k];
        if (fusion_only(m.instruction(v.instruction).computation)) {
            ++fused;
            CHECK(b.find(v.id) == nullptr);
            continue;
        }
        auto const* w = b.find(v.id);
        REQUIRE(w != nullptr);
        CHECK(w->instruction == v.instruction);
        CHECK(w->node == v.node);
        CHECK(w->is_phi == v.is_phi);
        CHECK(w->live_out == v.live_out);
        auto const pa = a.positions(v), pb = b.positions(*w);
        REQUIRE(pa.size() == pb.size());
        for (std::size_t j = 0; j < pa.size(); ++j) CHECK((pa[j].instruction == pb[j].instruction && pa[j].node == pb[j].node));
        auto const ua = a.uses(v), ub = b.uses(*w);
        REQUIRE(ua.size() == ub.size());
        for (std::size_t j = 0; j < ua.size(); ++j) {
            CHECK((ua[j].instruction == ub[j].instruction && ua[j].operand_number == ub[j].operand_number && ua[j].node == ub[j].node));
        }
        CHECK(full.range(k) == lean.range(b.value_index(v.id)));
    }
    CHECK(a.values().size() == b.values().size() + fused);
    if (path == "seeds/004_c00fd3afea504246.txt") CHECK(fused > b.values().size());  // most of a large module's values

    // The left-out bodies have no value sets of their own: each of their nodes reads empty, while
    // every other instruction holds at each node what the full analysis holds there.
    std::size_t left_out_nodes = 0, set_mismatches = 0;
    for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
        bool const left_out = fusion_only(m.instruction(i).computation);
        for (hlomem::shape_node n = 0; n < b.tree(i).size(); ++n) {
            auto const sa = a.value_set(i, n), sb = b.value_set(i, n);
            if (left_out) {
                ++left_out_nodes;
                set_mismatches += sb.empty() ? 0 : 1;
            } else {
                set_mismatches += std::equal(sa.begin(), sa.end(), sb.begin(), sb.end()) ? 0 : 1;
            }
        }
    }
    CHECK(set_mismatches == 0);
    if (path == "seeds/004_c00fd3afea504246.txt") CHECK(left_out_nodes > 0);

    auto const x = hlomem::derive_buffer_assignment(full);
    auto const y = hlomem::derive_buffer_assignment(lean);
    REQUIRE(x.values.size() == y.values.size());
    for (std::size_t k = 0; k < x.values.size(); ++k) {
        CHECK(x.values[k].id == y.values[k].id);
        CHECK(x.values[k].name == y.values[k].name);
        CHECK(x.values[k].live_range == y.values[k].live_range);
        CHECK(x.values[k].size == y.values[k].size);
        CHECK(x.values[k].allocation == y.values[k].allocation);
    }
    REQUIRE(x.allocations.size() == y.allocations.size());
    for (std::size_t k = 0; k < x.allocations.size(); ++k) CHECK(x.allocations[k].values == y.allocations[k].values);
    std::ostringstream tx, ty;
    hlomem::print_live_range(tx, *x.live_range);
    hlomem::print_live_range(ty, *y.live_range);
    CHECK(tx.str() == ty.str());
}

TEST_CASE("live bytes of a derived model: the sum over whole allocations equals the general measure", "[liveness][corpus]") {
    // whole_allocation_live_bytes (memory/analysis.hpp) sums the allocations live at each time;
    // a derived model places each value over the whole of its allocation, so that sum must equal
    // the segment tree's union of slices at every time, peak and unranged counts included.
    auto const path = std::string(GENERATE(as<std::string>{}, "seeds/004_c00fd3afea504246.txt", "seeds/001_a0c5460ce1af2dbe.txt",
                                           "corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo",
                                           "corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_attention.hlo"));
    CAPTURE(path);
    auto const text = read_data(path);
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, path);
    auto ba = hlomem::derive_assignment(m, /*positions_and_uses=*/false).assignment;
    auto same = [](std::vector<hlomem::color_live_bytes> const& x, std::vector<hlomem::color_live_bytes> const& y) {
        REQUIRE(x.size() == y.size());
        for (std::size_t c = 0; c < x.size(); ++c) {
            CHECK(x[c].color == y[c].color);
            CHECK(x[c].peak_bytes == y[c].peak_bytes);
            CHECK(x[c].peak_time == y[c].peak_time);
            CHECK(x[c].bytes_at == y[c].bytes_at);
            CHECK(x[c].allocated_bytes == y[c].allocated_bytes);
            CHECK(x[c].unranged_values == y[c].unranged_values);
            CHECK(x[c].unranged_bytes == y[c].unranged_bytes);
        }
    };
    auto const general = hlomem::assigned_live_bytes(ba);
    REQUIRE(!general.empty());
    CHECK(general[0].peak_bytes > 0);
    same(hlomem::whole_allocation_live_bytes(ba), general);
    // Two values of one allocation made to overlap in time at different offsets: no longer
    // whole-allocation, so the general measure answers (and still agrees with itself).
    auto const a = std::find_if(ba.allocations.begin(), ba.allocations.end(), [](auto const& x) { return x.size > 0; });
    REQUIRE(a != ba.allocations.end());
    ba.values[a->values[0]].offset = 1;
    same(hlomem::whole_allocation_live_bytes(ba), hlomem::assigned_live_bytes(ba));
}

TEST_CASE("a module's peak from its liveness alone names the values its dump names", "[liveness]") {
    // lorrax_donated_param_output_alias.buffer_assignment.txt states "Live ranges at 4 (peak):
    // fft.2.0: 31457280 bytes, input_transpose_fusion: 31457280 bytes"; the README's tour states
    // the time and the sum.
    std::string const text = hlomem_test::read_data("corpus/lorrax/lorrax_donated_param_output_alias.after_opt.hlo");
    auto m = hlomem::parse_hlo_module<hlomem::view_policy>(text, "module.txt");
    hlomem::basic_hlo_liveness<hlomem::view_policy> live(m);
    auto derived = hlomem::derive_buffer_assignment(live);
    auto peak = hlomem::compute_xla_peak(derived);
    CHECK(peak.time == 4);
    REQUIRE(peak.values.size() == 2);
    CHECK(std::string(derived.values[peak.values[0]].name) == "fft.2.0");
    CHECK(std::string(derived.values[peak.values[1]].name) == "input_transpose_fusion");
    CHECK(peak.sizes == std::vector<std::int64_t>{31457280, 31457280});
}
