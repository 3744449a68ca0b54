// The one way from a module to an assignment (<hlomem/assign/module_assignment.hpp>): assign_module's
// derived and predicted results on real bundled modules, one sizing rule for both and for
// derive_buffer_assignment, and the wrappers
// (derive_assignment, assign_buffers, predict_assignment) giving what assign_module gives. The
// predicted model next to its printed text, field by field: predicted_model.test.cpp.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

using hlomem_test::read_data;

namespace {

/// A module of tests/data and the size function its layouts call for.
struct bundled_module {
    char const* path;
    hlomem::size_function_kind sizes;
};

bundled_module const modules[] = {
    {"seeds/004_c00fd3afea504246.txt", hlomem::size_function_kind::xla},  // GPU, 9,917 instructions
    {"corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo", hlomem::size_function_kind::xla},  // GPU
    {"corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_jaxfft_1024_2x4_f64_fft.hlo", hlomem::size_function_kind::xla},
    {"corpus/rudrite/cpu_scheduled_no_percent_rudrite_kernels_specimen_after_opt.hlo", hlomem::size_function_kind::xla},
    // TPU: `{1,0:T(8,128)(2,1)}` layouts.
    {"corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_attention.hlo", hlomem::size_function_kind::tpu},
    {"corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_mlp.hlo", hlomem::size_function_kind::tpu},
};

constexpr char const* tiled_module = "corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_attention.hlo";

/// assign_module on the module of tests/data at `path` (read into `text`, which gives the
/// `from instruction:` lines), with the predicted result asked for, `derived` and `print` as given.
hlomem::module_assignment assign_bundled(std::string const& path, std::string& text, bool derived, bool print) {
    text = read_data(path);
    auto const m = hlomem::parse_hlo_module(text, path);
    hlomem::module_assignment_options options;
    options.derived = derived;
    options.predicted = true;
    options.print_predicted = print;
    hlomem::assign_options assigner;
    assigner.module_text = text;
    return hlomem::assign_module(m, options, assigner);
}

/// The size of the tiled module's `%copy-start` value at {}: its tuple's pointer table.
template <class P>
std::int64_t table_of(hlomem::basic_buffer_assignment<P> const& ba) {
    for (auto const& lv : ba.values) {
        if (std::string_view(lv.name) == "copy-start" && lv.index.empty()) return lv.size;
    }
    return -1;
}

}  // namespace

TEST_CASE("assign_module: the derived and the predicted assignment agree in sizes on every value",
          "[assign][module_assignment][corpus]") {
    auto const& bundled = GENERATE(from_range(std::begin(modules), std::end(modules)));
    std::string const path = bundled.path;
    CAPTURE(path);
    std::string text;
    auto const r = assign_bundled(path, text, /*derived=*/true, /*print=*/false);
    CHECK(r.sizes == bundled.sizes);
    REQUIRE(r.derived);
    REQUIRE(r.predicted);
    CHECK(r.derived->sizes == r.sizes);
    CHECK(r.predicted->sizes == r.sizes);
    CHECK(r.predicted->text.empty());  // not asked to print

    auto const& derived = r.derived->assignment;
    auto const& predicted = r.predicted->assignment;
    // Both hold the values XLA's buffer assignment sees (fusion bodies' left out), by id.
    REQUIRE(derived.values.size() == predicted.values.size());
    REQUIRE(!derived.values.empty());
    std::map<std::int64_t, std::size_t> predicted_of;
    for (std::size_t v = 0; v < predicted.values.size(); ++v) predicted_of[predicted.values[v].id] = v;
    REQUIRE(predicted_of.size() == predicted.values.size());
    // A predicted value's size is its own under the named function; a derived value's is its
    // allocation's, the largest of its HloBuffer's values (BufferAssignment::HloBufferSize).
    std::size_t checked = 0, tuples = 0;
    for (auto const& a : derived.allocations) {
        std::int64_t largest = 0;
        for (std::size_t v : a.values) {
            auto const& dv = derived.values[v];
            auto const at = predicted_of.find(dv.id);
            REQUIRE(at != predicted_of.end());
            auto const& pv = predicted.values[at->second];
            auto const& shape = derived.shapes[dv.shape];
            CHECK(hlomem::to_string(shape) == hlomem::to_string(predicted.shapes[pv.shape]));
            auto const own = hlomem::value_size_of(shape, r.sizes);
            REQUIRE(own);
            CHECK(pv.size == *own);
            CHECK(dv.size == a.size);
            largest = std::max(largest, pv.size);
            tuples += shape.is_tuple() ? 1 : 0;
            ++checked;
        }
        CHECK(a.size == largest);
    }
    CHECK(checked == derived.values.size());
    // The TPU modules hold tuples (copy-start's), where the two size functions differ.
    if (bundled.sizes == hlomem::size_function_kind::tpu) CHECK(tuples > 0);
}

TEST_CASE("assign_module: derive_buffer_assignment(live) sizes a tiled module as derive_assignment(m) does",
          "[assign][module_assignment][corpus]") {
    // Before: derive_buffer_assignment's default was XLA's generic function, derive_assignment the
    // module's own. On the attention module, `%copy-start = (bf16[1024,128]{1,0:T(8,128)(2,1)S(1)},
    // bf16[1024,128]{1,0:T(8,128)(2,1)}, u32[]{:S(2)}) copy-start(%q.1)` holds a tuple table of three
    // pointers: 24 bytes under XLA's generic function (8 per element), 32 as TPU sizes it
    // (roundup(4 * 3, 32)), the size a TPU dump states. Its arrays are 262144 bytes either way.
    std::string const text = read_data(tiled_module);
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, tiled_module);
    hlomem::basic_hlo_liveness<hlomem::view_policy> const live(m);
    auto const from_live = hlomem::derive_buffer_assignment(live);
    auto const from_module = hlomem::derive_assignment(m);
    CHECK(from_module.sizes == hlomem::size_function_kind::tpu);
    REQUIRE(from_live.values.size() == from_module.assignment.values.size());
    for (std::size_t v = 0; v < from_live.values.size(); ++v) {
        CAPTURE(std::string(from_live.values[v].name));
        CHECK(from_live.values[v].id == from_module.assignment.values[v].id);
        CHECK(from_live.values[v].size == from_module.assignment.values[v].size);
    }
    REQUIRE(from_live.allocations.size() == from_module.assignment.allocations.size());
    for (std::size_t a = 0; a < from_live.allocations.size(); ++a) {
        CHECK(from_live.allocations[a].size == from_module.assignment.allocations[a].size);
    }
    CHECK(table_of(from_live) == 32);
    CHECK(table_of(from_module.assignment) == 32);
    // The caller may still name another function: XLA's generic one gives the old 24.
    hlomem::derive_options generic;
    generic.sizes = hlomem::size_function_kind::xla;
    CHECK(table_of(hlomem::derive_buffer_assignment(live, generic)) == 24);
    // And so may a caller of assign_module, for both results.
    hlomem::module_assignment_options options;
    options.sizes = hlomem::size_function_kind::xla;
    CHECK(table_of(hlomem::assign_module(m, options).derived->assignment) == 24);
}

TEST_CASE("assign_module: the wrappers give its results", "[assign][module_assignment][corpus]") {
    std::string const text = read_data(tiled_module);
    auto const m = hlomem::parse_hlo_module(text, tiled_module);
    hlomem::assign_options assigner;
    assigner.module_text = text;

    // predict_assignment: the predicted result, printed, with how its backend was decided.
    auto const predicted = hlomem::predict_assignment(m, assigner);
    CHECK(predicted.backend == hlomem::xla_backend::tpu);
    CHECK(predicted.backend_source == "inferred");
    CHECK(predicted.alignment == 512);
    CHECK(predicted.sizes == hlomem::size_function_kind::tpu);
    CHECK(predicted.backend_note() ==
          "backend tpu (inferred: tiled layouts (T(...)) are written by the TPU compiler only), temp alignment 512");
    CHECK(hlomem::to_string(predicted.assignment) == predicted.text);
    // assign_buffers: its model alone.
    CHECK(hlomem::to_string(hlomem::assign_buffers(m, assigner)) == predicted.text);
    CHECK(table_of(predicted.assignment) == 32);
    // A size function named for both results: XLA's generic one sizes the table 24 in each.
    hlomem::module_assignment_options generic;
    generic.predicted = true;
    generic.sizes = hlomem::size_function_kind::xla;
    auto const both = hlomem::assign_module(m, generic, assigner);
    CHECK(both.sizes == hlomem::size_function_kind::xla);
    CHECK(table_of(both.derived->assignment) == 24);
    CHECK(table_of(both.predicted->assignment) == 24);
    CHECK(both.predicted->sizes == hlomem::size_function_kind::xla);

    // derive_assignment: the derived result, positions and uses left out on request.
    auto const derived = hlomem::derive_assignment(m);
    auto const same = hlomem::assign_module(m);
    REQUIRE(same.derived);
    CHECK(!same.predicted);
    CHECK(hlomem::to_string(derived.assignment) == hlomem::to_string(same.derived->assignment));
    REQUIRE(derived.peak);
    REQUIRE(same.derived->peak);
    CHECK(derived.peak->time == same.derived->peak->time);
    CHECK(derived.scheduled);
    auto const lean = hlomem::derive_assignment(m, /*positions_and_uses=*/false);
    CHECK(std::all_of(lean.assignment.values.begin(), lean.assignment.values.end(),
                      [](auto const& lv) { return lv.positions.empty() && lv.uses.empty(); }));
    CHECK(std::any_of(derived.assignment.values.begin(), derived.assignment.values.end(),
                      [](auto const& lv) { return !lv.positions.empty(); }));
}

TEST_CASE("assign_module: a module that views its text is predicted and printed as the owning one is", "[assign][module_assignment]") {
    // finish_assignment cannot write `Total bytes used: N (…)` into a view of the module's text:
    // the viewed model keeps it empty and the printer writes HumanReadableNumBytes as XLA does, so
    // that the printed dump is the owning one's byte for byte (hlomem assign reads the module with
    // view_policy); the derived result views the text as before.
    std::string const text = read_data(tiled_module);
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, tiled_module);
    hlomem::module_assignment_options options;
    options.predicted = true;
    options.print_predicted = true;
    hlomem::assign_options assigner;
    assigner.module_text = text;
    auto const viewed = hlomem::assign_module(m, options, assigner);
    auto const owned = hlomem::assign_module(hlomem::parse_hlo_module<hlomem::default_policy>(text, tiled_module), options, assigner);
    REQUIRE(viewed.predicted);
    REQUIRE(owned.predicted);
    CHECK(viewed.predicted->assignment.total_bytes() == owned.predicted->assignment.total_bytes());
    CHECK(viewed.predicted->assignment.allocations.size() == owned.predicted->assignment.allocations.size());
    CHECK(std::string_view(viewed.predicted->assignment.stated_total_human).empty());
    CHECK_FALSE(std::string_view(owned.predicted->assignment.stated_total_human).empty());
    CHECK(viewed.predicted->text.find("\nTotal bytes used: ") != std::string::npos);
    CHECK(viewed.predicted->text == owned.predicted->text);
    // (memory_analysis.test.cpp holds the viewed prediction to JAX's compiled.memory_analysis().)
    options.predicted = false;
    auto const r = hlomem::assign_module(m, options);
    REQUIRE(r.derived);
    CHECK(r.derived->assignment.values.front().name.data() >= text.data());
    CHECK(r.derived->assignment.values.front().name.data() < text.data() + text.size());
}
