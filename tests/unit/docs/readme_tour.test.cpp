// The README's tour, statement by statement, with the values it states: if the README's code
// stops compiling or its comments stop being true, this fails.
#include <hlomem/graph.hpp>
#include <hlomem/hlomem.hpp>
#include <hlomem/load.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <sstream>
#include <string>

TEST_CASE("the README tour: shapes", "[readme]") {
    hlomem::shape s = hlomem::parse_shape("bf16[4096,3584]{1,0:T(8,128)(2,1)}");
    CHECK(hlomem::array_size(s) == 29360128);
    CHECK(hlomem::byte_size_of(s) == 29360128);
    CHECK(hlomem::unpadded_byte_size(hlomem::parse_shape("pred[64,512,2048]{2,1,0:T(8,128)E(32)}")) == 67108864);
    CHECK(hlomem::to_string(hlomem::tiled_physical_shape(s)) == "bf16[512,28,4,128,2,1]");
    CHECK(hlomem::linear_index(hlomem::parse_shape("f32[3,5]{1,0:T(2,2)}"), {2, 3}) == 17);
    CHECK(hlomem::to_string(s) == "bf16[4096,3584]{1,0:T(8,128)(2,1)}");

    auto r = hlomem::try_parse_shape("f32[8,128]{1,1}");
    REQUIRE_FALSE(r);
    CHECK(r.error().to_string() ==
          "<shape>:1:14: error: minor_to_major lists dimension 1 twice; it must be a permutation of 0..1\n"
          "f32[8,128]{1,1}\n"
          "             ^");

    auto a = hlomem::parse_shape("f32[8]{0:S(1)}");
    auto b = hlomem::parse_shape("f32[8]{0}");
    CHECK_FALSE(hlomem::shape_equal()(a, b));
    CHECK(hlomem::shape_equal().ignore_memory_space_in_layout()(a, b));

    CHECK(hlomem::xla_size_function{}(s) == 29360128);
    auto t = hlomem::parse_shape("(f32[8]{0}, f32[8]{0}, f32[8]{0})");
    CHECK(hlomem::xla_size_function{}(t) == 24);  // three pointers
    CHECK(hlomem::tpu_size_function{}(t) == 32);  // roundup(4 * 3, 32)
}

TEST_CASE("the README tour: the loader", "[readme]") {
    auto dump = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/seeds/002_b0117d631587537a.txt");
    REQUIRE(dump);
    CHECK(dump->kind() == hlomem::dump_kind::buffer_assignment);
    REQUIRE(dump->assignment() != nullptr);
    CHECK(dump->assignment()->allocations.size() == 10);
    hlomem::load_options options;
    options.derive_assignment = true;
    auto bare = hlomem::load(
        std::string(HLOMEM_TEST_DATA_DIR) + "/corpus/lorrax/lorrax_donated_param_output_alias.after_opt.hlo", options);
    REQUIRE(bare);
    CHECK(bare->kind() == hlomem::dump_kind::hlo_module);
    REQUIRE(bare->derived);
    REQUIRE(bare->derived->peak);
    CHECK(bare->derived->peak->time == 4);
    CHECK(bare->assignment() == &bare->derived->assignment);

    auto missing = hlomem::load("no-such-file.txt");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().failure == hlomem::load_failure::unreadable);
}

TEST_CASE("the README tour: a dump, its soundness, its graphs, a module", "[readme]") {
    std::string const text = hlomem_test::read_data("seeds/002_b0117d631587537a.txt");
    auto ba = hlomem::parse_buffer_assignment<hlomem::view_policy>(text, "dump.txt");
    CHECK(ba.allocations.size() == 10);
    auto peak = hlomem::compute_xla_peak(ba);
    CHECK(peak.time == 78);
    CHECK(peak.values.size() == 8);
    CHECK(peak.bytes == 830472600);  // XLA's running sum, as `hlomem report` explains
    CHECK(hlomem::check_consistency(ba).empty());
    CHECK(hlomem::size_function_of(ba.shapes) == hlomem::size_function_kind::tpu);
    CHECK(hlomem::check_soundness(ba).empty());
    CHECK(hlomem::to_string(hlomem::diagnostic_kind::overlap) == "overlap");  // what the tour prints first

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

    std::string const module_text = hlomem_test::read_data("seeds/001_a0c5460ce1af2dbe.txt");
    auto m = hlomem::parse_hlo_module<hlomem::view_policy>(module_text, "module.txt");
    std::size_t operands = 0;
    for (hlomem::instruction_id i : m.entry_computation().instructions()) operands += m.operands(i).size();
    CHECK(m.entry_computation().instructions().size() == 124);
    CHECK(operands == 126);

    // Live ranges from a module alone, checked against the peak the module's own buffer-assignment
    // dump states: "Live ranges at 4 (peak): fft.2.0: 31457280 bytes, input_transpose_fusion:
    // 31457280 bytes".
    std::string const lorrax = hlomem_test::read_data("corpus/lorrax/lorrax_donated_param_output_alias.after_opt.hlo");
    auto lm = hlomem::parse_hlo_module<hlomem::view_policy>(lorrax, "module.txt");
    hlomem::basic_hlo_liveness<hlomem::view_policy> live(lm);
    auto derived = hlomem::derive_buffer_assignment(live);
    auto derived_peak = hlomem::compute_xla_peak(derived);
    CHECK(derived_peak.time == 4);
    REQUIRE(derived_peak.values.size() == 2);
    CHECK(std::string(derived.values[derived_peak.values[0]].name) == "fft.2.0");
    CHECK(std::string(derived.values[derived_peak.values[1]].name) == "input_transpose_fusion");
    CHECK(derived_peak.sizes == std::vector<std::int64_t>{31457280, 31457280});  // counted in the text: the %names between each opcode's parentheses
}

TEST_CASE("the README tour: timeline and allocators", "[readme]") {
    std::string const tpu = hlomem_test::read_data("seeds/002_b0117d631587537a.txt");
    auto tpu_ba = hlomem::parse_buffer_assignment<hlomem::view_policy>(tpu, "dump.txt");
    auto tl = hlomem::make_timeline(tpu_ba);
    REQUIRE(!tl.colors.empty());
    CHECK(tl.colors[0].peak_bytes == 2709520384);  // `hlomem timeline` prints it for color 0
    CHECK(tl.colors[0].peak_time == 78);

    std::string const text = hlomem_test::read_data("seeds/000_5960cad812240b69.txt");
    auto ba = hlomem::parse_buffer_assignment<hlomem::view_policy>(text, "dump.txt");
    auto arenas = hlomem::temp_arenas(ba);
    REQUIRE(arenas.size() == 1);
    CHECK(hlomem::reproduce_xla_arena(arenas[0]).arena_bytes == 985504);
    CHECK(arenas[0].xla_bytes == 985504);
    auto p = arenas[0].problem;
    CHECK(p.buffers.size() == 52);
    CHECK(hlomem::lower_bound_bytes(p) == 851968);
    auto plan = hlomem::plan(p, hlomem::allocation_algorithm::exact);
    CHECK(plan.bytes == 851968);
    CHECK(plan.optimal);
    CHECK(hlomem::check_soundness(hlomem::with_placement(ba, arenas[0], p)).empty());
    std::ostringstream csv;
    hlomem::write_minimalloc_csv(csv, p);
    CHECK(csv.str().rfind("id,lower,upper,size,alignment,offset\n", 0) == 0);
}

TEST_CASE("the README tour: out-of-memory reports as pasted", "[readme]") {
    std::string const pasted_text =
        "> RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in "
        "memory space hbm. Used 21.95G of 15.48G hbm. Exceeded hbm capacity by 6.47G.\n"
        "[rank3]:      Shape: f32[16,2]{1,0:T(8,128)}\n"
        "[rank3]:      Unpadded size: 128B\n";
    auto oom = hlomem::parse_oom_reports(pasted_text, "issue.txt");
    REQUIRE(oom.reports.size() == 1);
    for (auto const& r : oom.reports) {
        CHECK(hlomem::analyze_summary(r).agrees());
        for (auto const& e : r.entries) CHECK(hlomem::analyze(e, r.kind).agrees());
        CHECK(r.entries.size() == 1);  // the paste starts inside an entry: a note says so
        CHECK_FALSE(r.notes.empty());
    }
}
