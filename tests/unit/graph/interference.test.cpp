// Interference graphs, soundness, lower bounds, fragmentation and padding, on the seed and corpus
// dumps, on mutated seed dumps, and on random live ranges against a brute-force reference.
#include <hlomem/hlomem.hpp>

#include <boost/graph/topological_sort.hpp>
#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

// The implicit view models the concepts it claims.
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<hlomem::interval_graph_view>));
BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<hlomem::interval_graph_view>));
BOOST_CONCEPT_ASSERT((boost::AdjacencyGraphConcept<hlomem::interval_graph_view>));
BOOST_CONCEPT_ASSERT((boost::AdjacencyMatrixConcept<hlomem::interval_graph_view>));

namespace {

using hlomem_test::read_data;

using hlomem_test::real_dumps;

/// Replaces the first occurrence of `from` (which must exist) in `text`.
void replace_once(std::string& text, std::string const& from, std::string const& to) {
    auto const at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
}

/// The value line of `v` as the dump prints it (without the leading ` value: `).
std::string value_line_key(hlomem::logical_value const& v) {
    std::string key = "<" + std::to_string(v.id) + " " + v.name;
    if (v.index_printed) key += hlomem::to_string(v.index);
    return key;
}

}  // namespace

TEST_CASE("every real dump is sound, and every byte shared by two live values is shared on purpose",
          "[soundness][seeds][corpus]") {
    std::size_t shared_pairs = 0;
    for (auto const& file : real_dumps) {
        CAPTURE(file);
        auto const ba = hlomem::parse_buffer_assignment(read_data(file), file);
        auto const violations = hlomem::check_soundness(ba);
        for (auto const& v : violations) {
            CAPTURE(v.message);
            CHECK(false);
        }
        shared_pairs += hlomem::summarize_sharing(ba).total();
    }
    // Counted independently (one pass over all pairs of values per allocation, 20 dumps): 278
    // pairs of values overlap in both time and bytes (218 in the 17 seed and lorrax dumps, 10, 25
    // and 25 in the three regressions), and each of them meets the sharing rule. The six
    // compilation dumps (corpus/compilations) add 92, each sound by the same rules, and
    // jit_apply_H_k 2 (two writes in place: `hlomem check` on its dump).
    CHECK(shared_pairs == 372);
}

TEST_CASE("the size function is chosen from the dump", "[soundness]") {
    CHECK(hlomem::size_function_of(hlomem::parse_buffer_assignment(read_data(real_dumps[1]))) ==
          hlomem::size_function_kind::tpu);
    CHECK(hlomem::size_function_of(hlomem::parse_buffer_assignment(read_data(real_dumps[0]))) ==
          hlomem::size_function_kind::xla);
    // Under XLA's generic function the TPU dump's tuple tables are too small: a 15-tuple needs
    // 120 bytes with 8-byte pointers but TPU gives it 64.
    auto const tpu = hlomem::parse_buffer_assignment(read_data(real_dumps[1]));
    hlomem::soundness_options generic;
    generic.size_function = hlomem::size_function_kind::xla;
    auto const v = hlomem::check_soundness(tpu, generic);
    REQUIRE_FALSE(v.empty());
    CHECK(std::all_of(v.begin(), v.end(), [](auto const& x) { return x.kind == hlomem::diagnostic_kind::undersized; }));
}

TEST_CASE("mutations of the seed dumps are reported with the right values", "[soundness][mutation]") {
    auto file = GENERATE(as<std::string>{}, "seeds/000_5960cad812240b69.txt", "seeds/002_b0117d631587537a.txt",
                         "seeds/003_3a38346822a50a7e.txt");
    CAPTURE(file);
    std::string const text = read_data(file);
    auto const ba = hlomem::parse_buffer_assignment(text, file);

    SECTION("moving a value's offset onto an interfering neighbour") {
        // For pairs of interfering values of one allocation: a value disjoint from its neighbour is
        // moved onto the neighbour's offset; a value that legally shares its neighbour's slice is
        // moved 8 bytes off it. Either way the two now overlap, and it must be reported — unless
        // the move produced exactly the in-place sharing XLA does itself (the same slice, handed
        // over where an elementwise op or loop fusion uses it), which the dump cannot tell apart
        // (soundness.hpp); those must be rare.
        std::size_t tried = 0, indistinguishable = 0;
        for (auto const& a : ba.allocations) {
            for (std::size_t x : a.values) {
                for (std::size_t y : a.values) {
                    auto const& vx = ba.values[x];
                    auto const& vy = ba.values[y];
                    if (x == y || !vx.live_range || !vy.live_range || !vx.live_range->overlaps(*vy.live_range)) continue;
                    if (vy.size == 0 || vx.size == 0 || tried >= 25) continue;
                    bool const disjoint = !(vx.offset < vy.offset + vy.size && vy.offset < vx.offset + vx.size);
                    std::int64_t const to = disjoint ? vx.offset : vx.offset + 8;
                    if ((!disjoint && vx.offset != vy.offset) || to + vy.size > a.size) continue;
                    ++tried;
                    std::string const prefix = value_line_key(vy) + (vy.color ? " @" + std::to_string(*vy.color) : std::string()) +
                                               "> (size=" + std::to_string(vy.size) + ",offset=";
                    std::string mutated = text;
                    replace_once(mutated, prefix + std::to_string(vy.offset) + ")", prefix + std::to_string(to) + ")");
                    auto const m = hlomem::parse_buffer_assignment(mutated, file);
                    auto const found = hlomem::check_soundness(m);
                    CAPTURE(vx.id, vy.id, disjoint);
                    bool reported = false;
                    for (auto const& f : found) {
                        // Only the moved value can be involved.
                        CHECK((m.values[f.first].id == vy.id || (f.second != hlomem::npos && m.values[f.second].id == vy.id)));
                        if (f.kind == hlomem::diagnostic_kind::overlap &&
                            ((m.values[f.first].id == vx.id && m.values[f.second].id == vy.id) ||
                             (m.values[f.first].id == vy.id && m.values[f.second].id == vx.id))) {
                            reported = true;
                        }
                    }
                    if (!reported) {
                        auto const why = hlomem::legal_sharing(m, m.value_index(vx.id), m.value_index(vy.id));
                        REQUIRE(why);
                        CHECK(*why == hlomem::sharing_reason::in_place);
                        auto const& later = vx.live_range->start < vy.live_range->start ? vy : vx;
                        CHECK(hlomem::updates_in_place(later.instruction_opcode, later.fusion_kind));
                        ++indistinguishable;
                    }
                }
            }
        }
        CHECK(indistinguishable * 5 <= tried);
        if (tried == 0) {
            // Seed 003: every allocation that holds values live together is exactly as large as each
            // of them (512 or 64 bytes at offset 0, handed over in place), so no move stays inside it.
            for (auto const& a : ba.allocations) {
                for (std::size_t x : a.values) {
                    for (std::size_t y : a.values) {
                        auto const& vx = ba.values[x];
                        auto const& vy = ba.values[y];
                        if (x != y && vx.live_range && vy.live_range && vx.live_range->overlaps(*vy.live_range)) {
                            CHECK(vx.size == a.size);
                        }
                    }
                }
            }
        }
    }
    SECTION("shrinking an allocation") {
        // The allocation holding the largest value, shrunk by one byte.
        auto const& biggest = *std::max_element(ba.values.begin(), ba.values.end(),
                                                [](auto const& p, auto const& q) { return p.size < q.size; });
        auto const& a = ba.allocations[biggest.allocation];
        std::string mutated = text;
        replace_once(mutated, "allocation " + std::to_string(a.index) + ": size " + std::to_string(a.size),
                     "allocation " + std::to_string(a.index) + ": size " + std::to_string(a.size - 1));
        auto const m = hlomem::parse_buffer_assignment(mutated, file);
        auto const found = hlomem::check_soundness(m);
        REQUIRE_FALSE(found.empty());
        bool overrun = false;
        for (auto const& f : found) {
            CHECK(f.kind == hlomem::diagnostic_kind::overrun);
            CHECK(f.allocation == biggest.allocation);
            if (m.values[f.first].offset + m.values[f.first].size == a.size) overrun = true;
        }
        CHECK(overrun);
    }
    SECTION("changing a value's color") {
        auto const& v = ba.values.front();
        REQUIRE(v.color);
        std::string mutated = text;
        std::string const key = value_line_key(v) + " @" + std::to_string(*v.color) + "> (size=";
        replace_once(mutated, key, value_line_key(v) + " @" + std::to_string(*v.color + 7) + "> (size=");
        auto const m = hlomem::parse_buffer_assignment(mutated, file);
        auto const found = hlomem::check_soundness(m);
        std::set<hlomem::diagnostic_kind> kinds;
        for (auto const& f : found) {
            CHECK(m.values[f.first].id == v.id);
            kinds.insert(f.kind);
        }
        CHECK(kinds == std::set<hlomem::diagnostic_kind>{hlomem::diagnostic_kind::color_mismatch,
                                                         hlomem::diagnostic_kind::memory_space_mismatch});
    }
}

TEST_CASE("the lower bound never exceeds what XLA allocated", "[bounds][seeds][corpus]") {
    for (auto const& file : real_dumps) {
        CAPTURE(file);
        auto const ba = hlomem::parse_buffer_assignment(read_data(file), file);
        auto const buffers = hlomem::shared_buffers(ba);
        for (auto const& c : hlomem::lower_bounds(ba, buffers)) {
            CAPTURE(c.color);
            CHECK(c.temp.bytes <= c.temp_allocated_bytes);
            CHECK(c.all.bytes <= c.allocated_bytes);
        }
        for (auto const& f : hlomem::fragmentation(ba, buffers)) CHECK(f.fragmentation_bytes >= 0);
    }
}

TEST_CASE("shared buffers, bounds and fragmentation of a while loop, by hand", "[bounds]") {
    // lorrax_scan_while_phi, allocation 7 (size 129, preallocated-temp): pred[] loop_compare_fusion
    // (live 9-10) at offset 128, and five 24-byte tuple tables of the loop state at offset 0:
    // tuple.14{} (6-7) hands over to the phi param.5{} (7-10) and then param.1.0{} (10-14);
    // tuple.16{} (16-17) hands over to the phi while.2.0{} (17-20). Two shared buffers at offset
    // 0, one at 128; at most one table and the predicate are live at once: 25 bytes of 129.
    auto const ba = hlomem::parse_buffer_assignment(read_data("corpus/lorrax/lorrax_scan_while_phi.buffer_assignment.txt"));
    auto const buffers = hlomem::shared_buffers(ba);
    std::vector<hlomem::shared_buffer> in7;
    for (auto const& b : buffers) {
        if (ba.allocations[b.allocation].index == 7) in7.push_back(b);
    }
    REQUIRE(in7.size() == 3);
    std::vector<std::pair<hlomem::live_interval, std::size_t>> tables;
    for (auto const& b : in7) {
        if (b.offset == 0) tables.emplace_back(*b.range, b.values.size());
    }
    std::sort(tables.begin(), tables.end(), [](auto const& p, auto const& q) { return p.first.start < q.first.start; });
    REQUIRE(tables.size() == 2);
    CHECK(tables[0].first == hlomem::live_interval{6, 14});
    CHECK(tables[0].second == 3);
    CHECK(tables[1].first == hlomem::live_interval{16, 20});
    CHECK(tables[1].second == 2);
    auto const frag = hlomem::fragmentation(ba, buffers);
    CHECK(frag[7].size == 129);
    CHECK(frag[7].max_live_bytes == 25);
    CHECK(frag[7].fragmentation_bytes == 104);
    auto const bounds = hlomem::lower_bounds(ba, buffers);
    REQUIRE(bounds.size() == 1);
    CHECK(bounds[0].temp.bytes == 25);
    CHECK(bounds[0].temp_allocated_bytes == 129);
}

TEST_CASE("padding per value and per color", "[padding]") {
    // A dump whose values pad under TPU tiling: f32[3,5]{1,0:T(8,128)} takes 4096 bytes for 60 of
    // data (docs/FORMATS.md 4.5, row 19); bf16[4096,3584]{1,0:T(8,128)(2,1)} pads nothing (row 17).
    std::string const text =
        "BufferAssignment:\n"
        "allocation 0: size 33554432, preallocated-temp:\n"
        " value: <1 a @0> (size=4096,offset=0): f32[3,5]{1,0:T(8,128)}\n"
        " value: <2 b @0> (size=29360128,offset=4096): bf16[4096,3584]{1,0:T(8,128)(2,1)}\n"
        "\n"
        "Total bytes used: 33554432 (32.00MiB)\n"
        "\n"
        "Used values:\n"
        "<1 a @0>\n positions:\n  a\n uses:\n  b, operand 0\n from instruction: %a = f32[3,5]{1,0:T(8,128)} parameter(0)\n"
        "<2 b @0>\n positions:\n  b\n uses:\n  (none)\n from instruction: %b = bf16[4096,3584]{1,0:T(8,128)(2,1)} fusion(%a)\n"
        "\n\n"
        "HloLiveRange (max 2):\n  InstructionSequence:\n    0:a\n    1:b\n  BufferLiveRange:\n    a{}:0-1\n    b{}:1-2\n"
        "  Live ranges at 1 (peak):\n    a: 60 bytes\n    b: 29360128 bytes\n";
    auto const ba = hlomem::parse_buffer_assignment(text);
    CHECK(hlomem::check_soundness(ba).empty());
    CHECK(hlomem::compare_stated_peak(ba, hlomem::compute_xla_peak(ba)).empty());
    auto const per_value = hlomem::padding_of_values(ba, hlomem::size_function_kind::tpu);
    REQUIRE(per_value.size() == 2);
    CHECK(per_value[0].padded_bytes == 4096);
    CHECK(per_value[0].unpadded_bytes == 60);
    CHECK(per_value[1].padding_bytes() == 0);
    auto const colors = hlomem::padding_by_color(ba, hlomem::shared_buffers(ba), hlomem::size_function_kind::tpu);
    REQUIRE(colors.size() == 1);
    CHECK(colors[0].padded_bytes == 4096 + 29360128);
    CHECK(colors[0].unpadded_bytes == 60 + 29360128);
    CHECK(colors[0].peak_time == 1);
    CHECK(colors[0].peak_padded_bytes - colors[0].peak_unpadded_bytes == 4036);
}

TEST_CASE("interference graphs of a seed dump", "[graph][seeds]") {
    auto const ba = hlomem::parse_buffer_assignment(read_data(real_dumps[1]));
    auto const g = hlomem::make_interference_graph(ba);
    // Every value of the TPU dump has a live range: 83 vertices.
    CHECK(num_vertices(g) == 83);
    auto const csr = hlomem::make_interference_csr(ba);
    CHECK(num_vertices(csr) == 83);
    CHECK(num_edges(csr) == 2 * num_edges(g));
    // Color 1 holds the seven bf16[3584,4096]-sized values that move through VMEM one after another:
    // convert (4-7), convert.1 (5-8), async-collective-start{0} (8-24), fusion.10{1} (24-41),
    // copy-start{0} (40-43), async-collective-start.1{0} (43-59), fusion.17{1} (59-75).
    hlomem::interference_options vmem;
    vmem.color = 1;
    auto const g1 = hlomem::make_interference_graph(ba, vmem);
    CHECK(num_vertices(g1) == 7);
    CHECK(num_edges(g1) == 6);
    // The heaviest moment of color 1: two 28 MiB values at once, the whole 56 MiB arena.
    auto const peak1 = hlomem::interval_peak(g1, get(&hlomem::value_vertex::range, g1), get(&hlomem::value_vertex::size, g1));
    CHECK(peak1.weight == 58720256);
    // On a sound dump the only byte overlaps between interfering values are the legal ones.
    auto const clashes = hlomem::find_byte_overlaps(g, get(&hlomem::value_vertex::allocation, g),
                                                    get(&hlomem::value_vertex::offset, g), get(&hlomem::value_vertex::size, g));
    CHECK(clashes.size() == hlomem::summarize_sharing(ba).total());
    for (auto const& [u, v] : clashes) CHECK(hlomem::legal_sharing(ba, g[u].value, g[v].value).has_value());
    // Allocations that interfere: the temp arena (6) interferes with the output (1), parameters...
    auto const ag = hlomem::make_allocation_interference_graph(ba);
    CHECK(num_vertices(ag) == 10);
    CHECK(boost::edge(6, 1, ag).second);
    CHECK_FALSE(boost::edge(6, 7, ag).second);  // different colors never interfere
}

TEST_CASE("the dataflow graph follows the Used-values blocks", "[graph][dataflow]") {
    auto const ba = hlomem::parse_buffer_assignment(read_data(real_dumps[1]));
    auto const g = hlomem::make_dataflow_graph(ba);
    CHECK(num_vertices(g) == 83);
    // <130 param.2 @0> is used by convert.1, operand 0: an edge to value 131 (convert.1).
    std::size_t p2 = 0, c1 = 0;
    for (std::size_t v = 0; v < num_vertices(g); ++v) {
        if (g[v].id == 130) p2 = v;
        if (g[v].id == 131) c1 = v;
    }
    auto const e = boost::edge(p2, c1, g);
    REQUIRE(e.second);
    CHECK(g[e.first].operand_number == 0);
    CHECK(in_degree(p2, g) == 0);
    // The graph is acyclic: a topological order exists, with param.2 before convert.1.
    std::vector<std::size_t> order;
    boost::topological_sort(g, std::back_inserter(order));
    auto const pos = [&](std::size_t v) { return std::find(order.rbegin(), order.rend(), v) - order.rbegin(); };
    CHECK(pos(p2) < pos(c1));
}

namespace {

/// A synthetic buffer assignment: one allocation per color, values with the given ranges.
hlomem::buffer_assignment synthetic(std::vector<hlomem::live_interval> const& ranges, std::vector<std::int64_t> const& colors) {
    hlomem::buffer_assignment ba;
    std::int64_t const n_colors = colors.empty() ? 1 : *std::max_element(colors.begin(), colors.end()) + 1;
    for (std::int64_t c = 0; c < n_colors; ++c) {
        hlomem::allocation a;
        a.index = c;
        a.color = c;
        a.size = 1 << 20;
        a.is_preallocated_temp = true;
        ba.allocations.push_back(a);
    }
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        hlomem::logical_value v;
        v.id = static_cast<std::int64_t>(i);
        v.name = "v" + std::to_string(i);
        v.allocation = static_cast<std::size_t>(colors.empty() ? 0 : colors[i]);
        v.size = 16;
        v.live_range = ranges[i];
        ba.allocations[v.allocation].values.push_back(i);
        ba.values.push_back(v);
    }
    ba.reindex();
    return ba;
}

}  // namespace

TEST_CASE("adjacency_list, CSR and the implicit view give identical adjacency on random live ranges",
          "[graph][random]") {
    std::mt19937 rng(5);
    for (int round = 0; round < 40; ++round) {
        int const n = std::uniform_int_distribution<int>(1, 120)(rng);
        int const horizon = std::uniform_int_distribution<int>(1, 60)(rng);
        int const n_colors = std::uniform_int_distribution<int>(1, 3)(rng);
        std::vector<hlomem::live_interval> ranges;
        std::vector<std::int64_t> colors;
        for (int i = 0; i < n; ++i) {
            int const a = std::uniform_int_distribution<int>(0, horizon)(rng);
            int const len = std::uniform_int_distribution<int>(0, round % 4 == 0 ? horizon : 5)(rng);
            ranges.push_back({a, a + len});
            colors.push_back(std::uniform_int_distribution<int>(0, n_colors - 1)(rng));
        }
        auto const ba = synthetic(ranges, colors);
        auto const g = hlomem::make_interference_graph(ba);
        auto const csr = hlomem::make_interference_csr(ba);
        auto const view = hlomem::make_interval_graph_view(ba);
        // Vertex k of every model is the same value (the same selection order).
        REQUIRE(num_vertices(g) == static_cast<std::size_t>(n));
        REQUIRE(view.values.size() == static_cast<std::size_t>(n));
        for (std::size_t u = 0; u < static_cast<std::size_t>(n); ++u) {
            std::size_t const value = g[u].value;
            REQUIRE(csr[u].value == value);
            REQUIRE(view.values[u] == value);
            // The reference: every other value of the same color whose range overlaps.
            std::set<std::size_t> expected;
            for (std::size_t w = 0; w < static_cast<std::size_t>(n); ++w) {
                if (w != u && colors[g[w].value] == colors[value] && ranges[g[w].value].overlaps(ranges[value])) {
                    expected.insert(w);
                }
            }
            std::set<std::size_t> from_list, from_csr, from_view;
            for (auto [it, end] = adjacent_vertices(u, g); it != end; ++it) from_list.insert(*it);
            for (auto [it, end] = adjacent_vertices(u, csr); it != end; ++it) from_csr.insert(*it);
            for (auto [it, end] = adjacent_vertices(u, view.graph); it != end; ++it) from_view.insert(*it);
            CHECK(from_list == expected);
            CHECK(from_csr == expected);
            CHECK(from_view == expected);
            CHECK(out_degree(u, view.graph) == expected.size());
            for (std::size_t w = 0; w < static_cast<std::size_t>(n); ++w) {
                CHECK(edge(u, w, view.graph).second == (expected.count(w) == 1));
            }
        }
    }
}

namespace {

/// max_weight_moment against the largest sum of weights covering one of `times` (ascending),
/// the earliest of equal sums.
void check_heaviest_moment(std::vector<hlomem::live_interval> const& ranges, std::vector<std::int64_t> const& weights,
                           std::vector<hlomem::logical_time> const& times) {
    std::int64_t best = 0;
    hlomem::logical_time when = 0;
    for (hlomem::logical_time t : times) {
        std::int64_t sum = 0;
        for (std::size_t i = 0; i < ranges.size(); ++i) sum += ranges[i].contains(t) ? weights[i] : 0;
        if (sum > best) {
            best = sum;
            when = t;
        }
    }
    auto const m = hlomem::max_weight_moment(
        ranges.size(), [&](std::size_t i) { return ranges[i]; }, [&](std::size_t i) { return weights[i]; });
    CHECK(m.weight == best);
    CHECK(m.time == when);
}

}  // namespace

TEST_CASE("the heaviest moment equals the largest live sum", "[graph][random]") {
    std::mt19937 rng(11);
    for (int round = 0; round < 30; ++round) {
        int const n = std::uniform_int_distribution<int>(1, 80)(rng);
        std::vector<hlomem::live_interval> ranges;
        std::vector<std::int64_t> weights;
        for (int i = 0; i < n; ++i) {
            int const a = std::uniform_int_distribution<int>(0, 40)(rng);
            ranges.push_back({a, a + std::uniform_int_distribution<int>(0, 10)(rng)});
            weights.push_back(std::uniform_int_distribution<int>(1, 1000)(rng));
        }
        std::vector<hlomem::logical_time> times;
        for (hlomem::logical_time t = 0; t <= 50; ++t) times.push_back(t);
        check_heaviest_moment(ranges, weights, times);
    }
}

namespace {

void check_same_live_bytes(std::vector<hlomem::color_live_bytes> const& got, std::vector<hlomem::color_live_bytes> const& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t c = 0; c < got.size(); ++c) {
        CAPTURE(want[c].color);
        CHECK(got[c].color == want[c].color);
        CHECK(got[c].allocated_bytes == want[c].allocated_bytes);
        CHECK(got[c].bytes_at == want[c].bytes_at);
        CHECK(got[c].peak_time == want[c].peak_time);
        CHECK(got[c].peak_bytes == want[c].peak_bytes);
        CHECK(got[c].unranged_values == want[c].unranged_values);
        CHECK(got[c].unranged_bytes == want[c].unranged_bytes);
    }
}

}  // namespace

TEST_CASE("live bytes summed over shared buffers equal the union of live slices", "[peak][seeds][corpus]") {
    // Every real dump is sound, so the sum over shared buffers is what is taken: it must give
    // the segment tree's union at every time, in every color.
    for (auto const& file : real_dumps) {
        CAPTURE(file);
        auto const ba = hlomem::parse_buffer_assignment(read_data(file), file);
        auto const soundness = hlomem::check_soundness(ba);
        REQUIRE(soundness.empty());
        check_same_live_bytes(hlomem::assigned_live_bytes(ba, hlomem::shared_buffers(ba), soundness), hlomem::assigned_live_bytes(ba));
    }
}

TEST_CASE("live bytes of a dump with an overlap are the union, not the sum", "[peak][mutation]") {
    // Seed 000's first two values of one allocation that are live together in disjoint slices:
    // the second moved onto the first's offset overlaps it, so summing their buffers would count
    // the shared bytes twice.
    std::string const file = "seeds/000_5960cad812240b69.txt";
    std::string const text = read_data(file);
    auto const ba = hlomem::parse_buffer_assignment(text, file);
    std::string mutated;
    for (auto const& a : ba.allocations) {
        for (std::size_t x : a.values) {
            for (std::size_t y : a.values) {
                auto const& vx = ba.values[x];
                auto const& vy = ba.values[y];
                if (!mutated.empty() || x == y || !vx.live_range || !vy.live_range || !vx.live_range->overlaps(*vy.live_range)) continue;
                if (vx.size == 0 || vy.size == 0 || vx.offset + vx.size > vy.offset || vx.offset + vy.size > a.size) continue;
                // Live together at more than one time: no sharing rule can accept the move.
                if (std::min(vx.live_range->end, vy.live_range->end) <= std::max(vx.live_range->start, vy.live_range->start)) continue;
                std::string const prefix = value_line_key(vy) + (vy.color ? " @" + std::to_string(*vy.color) : std::string()) +
                                           "> (size=" + std::to_string(vy.size) + ",offset=";
                mutated = text;
                replace_once(mutated, prefix + std::to_string(vy.offset) + ")", prefix + std::to_string(vx.offset) + ")");
            }
        }
    }
    REQUIRE(!mutated.empty());
    auto const m = hlomem::parse_buffer_assignment(mutated, file);
    auto const soundness = hlomem::check_soundness(m);
    REQUIRE(std::any_of(soundness.begin(), soundness.end(), [](auto const& d) { return d.kind == hlomem::diagnostic_kind::overlap; }));
    auto const buffers = hlomem::shared_buffers(m);
    auto const unioned = hlomem::assigned_live_bytes(m);
    check_same_live_bytes(hlomem::assigned_live_bytes(m, buffers, soundness), unioned);
    // Told it was sound, the sum counts the overlap twice somewhere: the check is what keeps it right.
    auto const summed = hlomem::assigned_live_bytes(m, buffers, {});
    bool differs = false;
    for (std::size_t c = 0; c < summed.size(); ++c) differs = differs || summed[c].bytes_at != unioned[c].bytes_at;
    CHECK(differs);
}

TEST_CASE("the heaviest moment over a wide span of times", "[graph][random]") {
    // Times spread far beyond the number of intervals (summed by a sorted sweep, not in buckets),
    // against the largest sum at any interval's start (where, with positive weights, it is).
    std::mt19937 rng(12);
    for (int round = 0; round < 30; ++round) {
        int const n = std::uniform_int_distribution<int>(1, 60)(rng);
        std::vector<hlomem::live_interval> ranges;
        std::vector<std::int64_t> weights;
        for (int i = 0; i < n; ++i) {
            std::int64_t const a = std::uniform_int_distribution<std::int64_t>(-1000000, 1000000)(rng);
            ranges.push_back({a, a + std::uniform_int_distribution<std::int64_t>(0, 300000)(rng)});
            weights.push_back(std::uniform_int_distribution<int>(1, 1000)(rng));
        }
        std::vector<hlomem::logical_time> starts;
        for (auto const& r : ranges) starts.push_back(r.start);
        std::sort(starts.begin(), starts.end());
        check_heaviest_moment(ranges, weights, starts);
    }
}

TEST_CASE("seed 002: lower bounds by color, and one interference graph three ways", "[graph][bounds]") {
    // Moved from the README tour's hand copy; the README's tour states color 0's bound and the
    // graph's 83 vertices and 725 edges.
    std::string const text = hlomem_test::read_data("seeds/002_b0117d631587537a.txt");
    auto ba = hlomem::parse_buffer_assignment<hlomem::view_policy>(text, "dump.txt");
    auto bounds = hlomem::lower_bounds(ba, hlomem::shared_buffers(ba));
    REQUIRE(bounds.size() == 4);
    CHECK(bounds[0].color == 0);
    CHECK(bounds[0].all.bytes == 2709520384);
    CHECK(bounds[0].temp.bytes == 2113929408);
    CHECK(bounds[0].temp_allocated_bytes == 2114011136);

    auto g = hlomem::make_interference_graph(ba);
    auto csr = hlomem::make_interference_csr(ba);
    auto view = hlomem::make_interval_graph_view(ba);
    using boost::num_edges;  // Boost.Graph's functions are found by argument-dependent lookup
    using boost::num_vertices;
    CHECK(num_vertices(g) == 83);
    CHECK(num_edges(g) == 725);
    CHECK(num_edges(csr) == 2 * 725);  // both directions of each edge
    CHECK(num_vertices(view.graph) == 83);
    std::size_t degrees = 0;
    for (std::size_t v = 0; v < num_vertices(view.graph); ++v) degrees += out_degree(v, view.graph);
    CHECK(degrees == 2 * 725);
}
