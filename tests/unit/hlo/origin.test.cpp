// Origins (hlo/origin.hpp): every value's bytes traced to a line of the program or an argument.
// A hand-written module (tests/data/hand/origin_walk.hlo) walked back by hand through a while
// loop, a conditional and a copy chain, once in the module and once in the dump XLA's buffer
// assignment prints for it, read alone; and on every bundled real dump and module, the bytes left
// to `no source` at each peak of 1 MiB or more, with every breakdown still adding up to the peak.
#include <hlomem/assign/predict.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/origin.hpp>
#include <hlomem/hlomem.hpp>
#include <hlomem/load/derive.hpp>
#include <hlomem/memory/peak_holdings.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using hlomem_test::read_data;

/// The origin of the value `name` `index` of `ba`.
template <class P, class Q>
hlomem::value_origin const& origin(hlomem::basic_buffer_assignment<P> const& ba, hlomem::basic_source_attribution<Q> const& s,
                                   std::string const& name, hlomem::shape_index const& index = {}) {
    std::size_t const i = ba.value_index(name, index);
    INFO(name << hlomem::to_string(index));
    REQUIRE(i != hlomem::npos);
    return s.origin_of(i);
}

/// What the walk of tests/data/hand/origin_walk.hlo finds, the same in the module and in the
/// dump alone: each row names a value, the kind, how, the line and the instruction traced to.
struct walked {
    std::string name;
    hlomem::shape_index index;
    hlomem::origin_kind kind;
    hlomem::inheritance how;
    std::int64_t line;
    std::string through;
};

template <class P, class Q>
void check_walk(hlomem::basic_buffer_assignment<P> const& ba, hlomem::basic_source_attribution<Q> const& s,
                std::vector<walked> const& rows) {
    for (auto const& row : rows) {
        INFO(row.name << hlomem::to_string(row.index));
        auto const& o = origin(ba, s, row.name, row.index);
        CHECK(o.kind == row.kind);
        CHECK(o.how == row.how);
        CHECK(o.source.source_line == row.line);
        if (row.line != 0) CHECK(std::string(o.source.source_file) == "/src/walk.py");
        CHECK(o.through == row.through);
    }
}

using k = hlomem::origin_kind;
using h = hlomem::inheritance;

// Walked by hand:
//   copy.2 = copy(copy.1), copy.1 = copy(exp): both copies of what exp (walk.py:5) made;
//   while{1} is its init's element 1, init = tuple(zero, copy.2): copy.2, so exp again;
//   b.p{1} and c.p{1}, the loop state the body and condition receive, are fed by the while's
//   init at {1}: exp; the induction variable b.p{0} is fed by the constant zero (no source) and
//   then by the body's root tuple(next, square) at {0}: next (walk.py:12);
//   sum (walk.py:30) is output 1 of the function, branch (the conditional) output 0.
std::vector<walked> const walked_in_both = {
    {"exp", {}, k::own, h::none, 5, ""},
    {"copy.1", {}, k::inherited, h::forwarded, 5, "exp"},
    {"copy.2", {}, k::inherited, h::forwarded, 5, "exp"},
    {"while", {1}, k::inherited, h::forwarded, 5, "exp"},
    {"b.p", {1}, k::inherited, h::call_parameter, 5, "exp"},
    {"c.p", {1}, k::inherited, h::call_parameter, 5, "exp"},
    {"sum", {}, k::output, h::none, 30, ""},
};

TEST_CASE("a while loop, a conditional and a copy chain walked back by hand, in the module", "[origin]") {
    auto const m = hlomem::parse_hlo_module(read_data("hand/origin_walk.hlo"));
    auto const derived = hlomem::derive_assignment(m);
    auto const& ba = derived.assignment;
    auto const s = hlomem::attribute_values(ba, m);
    check_walk(ba, s, walked_in_both);
    // With the module, the induction variable reaches the body's root, and the conditional the
    // root of its first branch: branch = conditional(p, w.x, w.x), true_computation=on_true,
    // whose ROOT neg states walk.py:20.
    check_walk(ba, s,
               {{"b.p", {0}, k::inherited, h::call_parameter, 12, "next"},
                {"c.p", {0}, k::inherited, h::call_parameter, 12, "next"},
                {"while", {0}, k::inherited, h::forwarded, 12, "next"}});
    auto const& branch = origin(ba, s, "branch");
    CHECK(branch.kind == k::output);
    CHECK(branch.output == 0);
    CHECK(branch.how == h::called_computation);
    CHECK(branch.source.source_line == 20);
    CHECK(branch.through == "neg");
    CHECK(origin(ba, s, "sum").output == 1);
    // The arguments: their number, the name JAX would give them (the parameter's op_name), and b
    // donated by input_output_alias={ {1}: (1, {}, may-alias) }.
    auto const& a = origin(ba, s, "a");
    CHECK(a.kind == k::argument);
    CHECK(a.argument == 0);
    CHECK(a.argument_name == "a");
    CHECK_FALSE(a.donated);
    auto const& b = origin(ba, s, "b");
    CHECK(b.argument == 1);
    CHECK(b.donated);
    CHECK(origin(ba, s, "p").argument == 2);
    // The own keys stay what each instruction states: a copy states nothing.
    CHECK_FALSE(s[ba.value_index("copy.2", {})].has_source_line());
}

TEST_CASE("the same walk in the dump XLA prints for it, read alone", "[origin]") {
    std::string const text = read_data("hand/origin_walk.hlo");
    auto const m = hlomem::parse_hlo_module(text);
    hlomem::assign_options options;
    options.module_text = text;
    auto const predicted = hlomem::predict_assignment(m, options);
    auto const ba = hlomem::parse_buffer_assignment(predicted.text, "origin_walk-buffer-assignment.txt");
    auto const s = hlomem::attribute_values(ba);
    check_walk(ba, s, walked_in_both);
    // A dump states no called computation: the conditional's bytes come from its data operand
    // (operand 1, w.x: the while's element 1, so exp), not from its predicate p.
    auto const& branch = origin(ba, s, "branch");
    CHECK(branch.how == h::operands);
    CHECK(branch.source.source_line == 5);
    CHECK(branch.output == 0);
    auto const& b = origin(ba, s, "b");
    CHECK(b.kind == k::argument);
    CHECK(b.argument == 1);
    CHECK(b.argument_name == "b");
    // The parser keeps each position's name hash; positions made another way have none, and the
    // walk hashes their names itself: the same origins either way.
    for (auto const& v : ba.values) {
        for (auto const& p : v.positions) CHECK(p.instruction_hash == hlomem::position_name_hash(p.instruction));
    }
    auto unhashed = ba;
    for (auto& v : unhashed.values) {
        for (auto& p : v.positions) p.instruction_hash = 0;
    }
    auto const u = hlomem::attribute_values(unhashed);
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        CHECK(u.origin_of(i).kind == s.origin_of(i).kind);
        CHECK(u.origin_of(i).through == s.origin_of(i).through);
        CHECK(u.origin_of(i).source.source_line == s.origin_of(i).source.source_line);
    }
}

/// Every bundled real dump (alone, and with the module beside it where there is one) and every
/// bundled scheduled module (its derived assignment).
std::vector<std::pair<std::string, std::string>> bundled() {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto const& file : hlomem_test::real_dumps) {
        std::string const ending = ".buffer_assignment.txt";
        std::string module;
        if (file.size() > ending.size() && file.compare(file.size() - ending.size(), ending.size(), ending) == 0) {
            std::string const beside = file.substr(0, file.size() - ending.size()) + ".after_opt.hlo";
            if (std::ifstream(std::string(HLOMEM_TEST_DATA_DIR) + "/" + beside)) module = beside;
        }
        out.emplace_back(file, "");  // the dump alone
        if (module.empty()) continue;
        out.emplace_back(file, module);
        out.emplace_back(module, "");
    }
    for (char const* other : {"seeds/001_a0c5460ce1af2dbe.txt", "seeds/004_c00fd3afea504246.txt",
                              "corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_jaxfft_1024_2x4_f64_fft.hlo",
                              "corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_jaxfft_256_2x4_f32_ifft.hlo",
                              "corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_jaxfft_512_4x4_f32_fft_16dev.hlo",
                              "corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_pfft3d_customcall_1024_2x4_f32_fft.hlo",
                              "corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_pfft3d_v100_256_2x2_f32_ifft_noncont.hlo",
                              "corpus/rudrite/cpu_scheduled_no_percent_rudrite_kernels_specimen_after_opt.hlo",
                              "corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_attention.hlo",
                              "corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_mlp.hlo",
                              "corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_softmax.hlo"}) {
        out.emplace_back(other, "");
    }
    return out;
}

TEST_CASE("under 5% of each peak of 1 MiB or more stays no source, on every bundled dump and module", "[origin]") {
    auto const files = bundled();
    REQUIRE(files.size() >= 70);
    for (auto const& [file, module] : files) {
        INFO(file << " " << module);
        hlomem::load_options options;
        options.derive_assignment = true;
        if (!module.empty()) options.module_file = std::string(HLOMEM_TEST_DATA_DIR) + "/" + module;
        auto const loaded = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/" + file, options);
        REQUIRE(loaded);
        auto const* ba = loaded->assignment();
        REQUIRE(ba);
        auto const sources = hlomem::attribute_values(*loaded);
        for (auto const& h : hlomem::peak_holdings_by_color(*ba, hlomem::assigned_live_bytes(*ba), sources)) {
            INFO("color " << h.color << ", peak " << h.bytes);
            std::int64_t sum = 0, no_source = 0;
            for (auto const& g : hlomem::peak_by_source_line(h, sources)) {
                sum += g.bytes;
                if (g.key.is_no_source()) no_source += g.bytes;
                for (std::size_t v : g.values) CHECK(hlomem::origin_key(sources.origin_of(v)) == g.key);
            }
            CHECK(sum == h.bytes);
            CHECK(hlomem::peak_by_op_name(h, sources).bytes == h.bytes);
            CHECK(hlomem::peak_by_stack_frame(h, sources).bytes == h.bytes);
            if (h.bytes < (std::int64_t{1} << 20)) continue;
            CHECK(no_source * 20 < h.bytes);
        }
    }
}

}  // namespace
