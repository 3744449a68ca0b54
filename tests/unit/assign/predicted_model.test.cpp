// The predicted model is what its printed text reads back as (<hlomem/assign/module_assignment.hpp>):
// for every bundled `*.after_opt.hlo` module (the ones python/tests/test_assign.py assigns) and the
// GPU, CPU and TPU modules of module_assignment.test.cpp,
// assign_module's predicted assignment equals, field by field, the parse of the dump it prints:
// the lines of the value lines, allocation headers, Used-values blocks and live-range lines, what
// the parser reads from each `from instruction:` line (opcode, fusion kind, result shape), the
// shapes and their ids. `hlomem assign --json` and Python's hlomem.assign use the model as it is,
// without printing and reading back, so every figure they give must be the one the text gives.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

using hlomem_test::read_data;

namespace {

/// Every `corpus/*/*.after_opt.hlo` under tests/data, by name (python/tests/test_assign.py's
/// MODULES), then the other modules assign_module's tests assign.
std::vector<std::string> bundled_modules() {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    fs::path const corpus = fs::path(HLOMEM_TEST_DATA_DIR) / "corpus";
    for (auto const& dir : fs::directory_iterator(corpus)) {
        if (!dir.is_directory()) continue;
        for (auto const& file : fs::directory_iterator(dir.path())) {
            std::string const name = file.path().filename().string();
            std::string_view constexpr ending = ".after_opt.hlo";
            if (name.size() > ending.size() && name.compare(name.size() - ending.size(), ending.size(), ending) == 0) {
                out.push_back("corpus/" + dir.path().filename().string() + "/" + name);
            }
        }
    }
    std::sort(out.begin(), out.end());
    // And scheduled modules of other names: GPU (seed 004, 9,917 instructions; jaxdecomp), CPU,
    // and TPU with tiled layouts (`{1,0:T(8,128)(2,1)}`).
    for (char const* other : {"seeds/004_c00fd3afea504246.txt",
                              "corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_jaxfft_1024_2x4_f64_fft.hlo",
                              "corpus/rudrite/cpu_scheduled_no_percent_rudrite_kernels_specimen_after_opt.hlo",
                              "corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_attention.hlo",
                              "corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_mlp.hlo"}) {
        out.emplace_back(other);
    }
    return out;
}

/// Where two models differ, one line per field, at most `limit` lines.
class differences {
public:
    template <class T>
    void same(std::string const& what, T const& a, T const& b) {
        if (a == b) return;
        std::ostringstream line;
        line << what << ": " << text(a) << " (predicted) vs " << text(b) << " (parsed)";
        add(line.str());
    }
    void add(std::string line) {
        ++count_;
        if (lines_.size() < limit) lines_.push_back(std::move(line));
    }
    std::size_t count() const { return count_; }
    std::string report() const {
        std::string out;
        for (auto const& l : lines_) out += l + "\n";
        return out + std::to_string(count_) + " differences\n";
    }

private:
    static constexpr std::size_t limit = 40;
    template <class T>
    static std::string text(T const& x) {
        std::ostringstream os;
        os << x;
        return os.str();
    }
    static std::string text(hlomem::shape_index const& x) { return hlomem::to_string(x); }
    template <class T>
    static std::string text(std::optional<T> const& x) {
        return x ? text(*x) : std::string("nullopt");
    }
    static std::string text(hlomem::live_interval const& x) {
        return std::to_string(x.start) + "-" + std::to_string(x.end);
    }
    static std::string text(bool x) { return x ? "true" : "false"; }
    static std::string text(hlomem::uses_state x) { return std::to_string(static_cast<int>(x)); }
    template <class T>
    static std::string text(std::vector<T> const& x) {
        std::string out = "[";
        for (auto const& e : x) out += text(e) + " ";
        return out + "]";
    }
    std::vector<std::string> lines_;
    std::size_t count_ = 0;
};

using assignment = hlomem::buffer_assignment;

/// The shape of `id` as text, so that shapes compare across tables ("none" for no_shape).
std::string shape_text(assignment const& ba, hlomem::shape_id id) {
    return id == hlomem::no_shape ? std::string("none") : hlomem::to_string(ba.shapes[id]);
}

void compare_allocations(assignment const& a, assignment const& b, differences& d) {
    d.same("allocations", a.allocations.size(), b.allocations.size());
    for (std::size_t i = 0; i < std::min(a.allocations.size(), b.allocations.size()); ++i) {
        auto const& x = a.allocations[i];
        auto const& y = b.allocations[i];
        std::string const at = "allocation " + std::to_string(i) + " ";
        d.same(at + "index", x.index, y.index);
        d.same(at + "size", x.size, y.size);
        d.same(at + "color", x.color, y.color);
        d.same(at + "address", x.address, y.address);
        d.same(at + "parameter_number", x.parameter_number, y.parameter_number);
        d.same(at + "parameter_shape_index", x.parameter_shape_index, y.parameter_shape_index);
        d.same(at + "parameter_shape", x.parameter_shape, y.parameter_shape);
        d.same(at + "parameter_shape text", shape_text(a, x.parameter_shape), shape_text(b, y.parameter_shape));
        d.same(at + "output_shape", x.output_shape, y.output_shape);
        d.same(at + "shapes_in_bars", x.shapes_in_bars, y.shapes_in_bars);
        d.same(at + "is_constant", x.is_constant, y.is_constant);
        d.same(at + "is_thread_local", x.is_thread_local, y.is_thread_local);
        d.same(at + "maybe_live_out", x.maybe_live_out, y.maybe_live_out);
        d.same(at + "is_preallocated_temp", x.is_preallocated_temp, y.is_preallocated_temp);
        d.same(at + "values", x.values, y.values);
        d.same(at + "line", x.line, y.line);
    }
}

void compare_value(assignment const& a, assignment const& b, std::size_t i, differences& d) {
    auto const& x = a.values[i];
    auto const& y = b.values[i];
    std::string const at = "value " + std::to_string(x.id) + " " + x.name + " ";
    d.same(at + "live_range", x.live_range, y.live_range);
    d.same(at + "offset", x.offset, y.offset);
    d.same(at + "size", x.size, y.size);
    d.same(at + "shape", x.shape, y.shape);
    d.same(at + "shape text", shape_text(a, x.shape), shape_text(b, y.shape));
    d.same(at + "instruction_shape", x.instruction_shape, y.instruction_shape);
    d.same(at + "instruction_shape text", shape_text(a, x.instruction_shape), shape_text(b, y.instruction_shape));
    d.same(at + "color", x.color, y.color);
    d.same(at + "index", x.index, y.index);
    d.same(at + "id", x.id, y.id);
    d.same(at + "name", x.name, y.name);
    d.same(at + "allocation", x.allocation, y.allocation);
    d.same(at + "line", x.line, y.line);
    d.same(at + "positions", x.positions.size(), y.positions.size());
    for (std::size_t k = 0; k < std::min(x.positions.size(), y.positions.size()); ++k) {
        auto const& p = x.positions[k];
        auto const& q = y.positions[k];
        d.same(at + "position instruction", p.instruction, q.instruction);
        d.same(at + "position index", p.index, q.index);
        d.same(at + "position index_printed", p.index_printed, q.index_printed);
    }
    d.same(at + "uses", x.uses.size(), y.uses.size());
    for (std::size_t k = 0; k < std::min(x.uses.size(), y.uses.size()); ++k) {
        auto const& u = x.uses[k];
        auto const& v = y.uses[k];
        d.same(at + "use instruction", u.instruction, v.instruction);
        d.same(at + "use operand_number", u.operand_number, v.operand_number);
        d.same(at + "use operand_index", u.operand_index, v.operand_index);
        d.same(at + "use index_printed", u.index_printed, v.index_printed);
    }
    d.same(at + "instruction_text", x.instruction_text, y.instruction_text);
    d.same(at + "instruction_opcode", x.instruction_opcode, y.instruction_opcode);
    d.same(at + "fusion_kind", x.fusion_kind, y.fusion_kind);
    d.same(at + "output_to_operand_aliasing", x.output_to_operand_aliasing.size(), y.output_to_operand_aliasing.size());
    for (std::size_t k = 0; k < std::min(x.output_to_operand_aliasing.size(), y.output_to_operand_aliasing.size()); ++k) {
        auto const& p = x.output_to_operand_aliasing[k];
        auto const& q = y.output_to_operand_aliasing[k];
        d.same(at + "alias output_index", p.output_index, q.output_index);
        d.same(at + "alias operand_number", p.operand_number, q.operand_number);
        d.same(at + "alias operand_index", p.operand_index, q.operand_index);
    }
    d.same(at + "block_line", x.block_line, y.block_line);
    d.same(at + "index_printed", x.index_printed, y.index_printed);
    d.same(at + "is_phi", x.is_phi, y.is_phi);
    d.same(at + "has_block", x.has_block, y.has_block);
    d.same(at + "uses_as_printed", x.uses_as_printed, y.uses_as_printed);
    d.same(at + "instruction_text_spaced", x.instruction_text_spaced, y.instruction_text_spaced);
}

void compare_live_ranges(hlomem::live_range_text const& a, hlomem::live_range_text const& b, differences& d) {
    d.same("live range max", a.max, b.max);
    d.same("live range not_available", a.not_available, b.not_available);
    d.same("live range line", a.line, b.line);
    d.same("InstructionSequence", a.instruction_sequence, b.instruction_sequence);
    d.same("BufferLiveRange lines", a.buffer_live_ranges.size(), b.buffer_live_ranges.size());
    for (std::size_t i = 0; i < std::min(a.buffer_live_ranges.size(), b.buffer_live_ranges.size()); ++i) {
        auto const& x = a.buffer_live_ranges[i];
        auto const& y = b.buffer_live_ranges[i];
        std::string const at = "BufferLiveRange " + std::to_string(i) + " ";
        d.same(at + "name", x.name, y.name);
        d.same(at + "index", x.index, y.index);
        d.same(at + "range", x.range, y.range);
        d.same(at + "value", x.value, y.value);
        d.same(at + "line", x.line, y.line);
    }
    d.same("stated peak", a.stated_peak.has_value(), b.stated_peak.has_value());
    if (!a.stated_peak || !b.stated_peak) return;
    auto const& p = *a.stated_peak;
    auto const& q = *b.stated_peak;
    d.same("peak time", p.time, q.time);
    d.same("peak line", p.line, q.line);
    d.same("peak spaced_numbers", p.spaced_numbers, q.spaced_numbers);
    d.same("peak stack_trace_total_bytes", p.stack_trace_total_bytes, q.stack_trace_total_bytes);
    d.same("peak stack_trace", p.stack_trace.size(), q.stack_trace.size());
    d.same("peak entries", p.entries.size(), q.entries.size());
    for (std::size_t i = 0; i < std::min(p.entries.size(), q.entries.size()); ++i) {
        std::string const at = "peak entry " + std::to_string(i) + " ";
        d.same(at + "name", p.entries[i].name, q.entries[i].name);
        d.same(at + "index", p.entries[i].index, q.entries[i].index);
        d.same(at + "bytes", p.entries[i].bytes, q.entries[i].bytes);
        d.same(at + "cumulative_bytes", p.entries[i].cumulative_bytes, q.entries[i].cumulative_bytes);
        d.same(at + "line", p.entries[i].line, q.entries[i].line);
    }
}

/// Every field of `a` against `b`'s; shapes by id (the tables must be built in one order) and by text.
differences compare(assignment const& a, assignment const& b) {
    differences d;
    d.same("file", a.file, b.file);
    d.same("shapes", a.shapes.size(), b.shapes.size());
    for (hlomem::shape_id s = 0; s < std::min(a.shapes.size(), b.shapes.size()); ++s) {
        d.same("shape " + std::to_string(s), shape_text(a, s), shape_text(b, s));
        d.same("shape " + std::to_string(s) + " equal", a.shapes[s] == b.shapes[s], true);  // layouts too
    }
    compare_allocations(a, b, d);
    d.same("values", a.values.size(), b.values.size());
    for (std::size_t i = 0; i < std::min(a.values.size(), b.values.size()); ++i) compare_value(a, b, i, d);
    d.same("stated_total_bytes", a.stated_total_bytes, b.stated_total_bytes);
    d.same("stated_total_human", a.stated_total_human, b.stated_total_human);
    d.same("has_used_values", a.has_used_values, b.has_used_values);
    d.same("live_range", a.live_range.has_value(), b.live_range.has_value());
    if (a.live_range && b.live_range) compare_live_ranges(*a.live_range, *b.live_range, d);
    // The lookup by name (reindex) answers alike.
    for (auto const& v : b.values) {
        d.same("value_index of " + v.name, a.value_index(v.name, v.index), b.value_index(v.name, v.index));
    }
    return d;
}

}  // namespace

TEST_CASE("assign_module: the predicted model is the parse of the text it prints, field by field",
          "[assign][module_assignment][corpus]") {
    auto const modules = bundled_modules();
    REQUIRE(modules.size() >= 25);
    auto const& path = GENERATE_COPY(from_range(modules));
    CAPTURE(path);
    std::string const text = read_data(path);
    auto const m = hlomem::parse_hlo_module(text, path);
    hlomem::assign_options assigner;
    assigner.module_text = text;
    auto const predicted = hlomem::predict_assignment(m, assigner);
    // What `hlomem assign --json` read back before: the text, loaded under the module's path.
    auto const read = hlomem::load_text(predicted.text, path);
    REQUIRE(read);
    auto const& parsed = std::get<assignment>(read->model);

    // The model, loaded as it is (load_model), is that parse.
    auto const loaded = hlomem::load_model(predicted.assignment, path);
    CHECK(loaded.path == read->path);
    CHECK(loaded.kind() == hlomem::dump_kind::buffer_assignment);
    auto const d = compare(std::get<assignment>(loaded.model), parsed);
    INFO(d.report());
    CHECK(d.count() == 0);
    // And it prints as the text it was compared with.
    CHECK(hlomem::to_string(predicted.assignment) == predicted.text);

    // Python's Dump views the model's strings (policy_cast to view_policy): nothing is copied,
    // and every field survives (cast back to owned strings, it is the parse still).
    auto const view = hlomem::policy_cast<hlomem::view_policy>(predicted.assignment);
    REQUIRE(!view.values.empty());
    CHECK(view.values.front().name.data() == predicted.assignment.values.front().name.data());
    CHECK(view.stated_total_human.data() == predicted.assignment.stated_total_human.data());
    auto back = hlomem::policy_cast<hlomem::default_policy>(view);
    back.file = path;
    auto const e = compare(back, parsed);
    INFO(e.report());
    CHECK(e.count() == 0);
}
