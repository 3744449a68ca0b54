// hlomem/output/dump_directory_report.hpp: `hlomem report DIR` of a folder XLA dumped into: every
// compilation in it (load/dump_directory.hpp) with what its compiled.memory_analysis() would report,
// the largest peak first.
//
//   XLA dump folder /tmp/dump: 5 compilations, the largest memory_analysis() peak first
//             peak  (human)     from    compilation
//         67108896  64.00MiB    dump    module_51605.jit_grad_ckpt.sm_9.0a_gpu_after_optimizations
//
// `from` says what the figures were computed from: `dump` (its buffer assignment, exactly as XLA
// computes them) or `module` (the assignment hlomem predicts for a module dumped without one).
#ifndef HLOMEM_OUTPUT_DUMP_DIRECTORY_REPORT_HPP
#define HLOMEM_OUTPUT_DUMP_DIRECTORY_REPORT_HPP

#include <algorithm>
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/assign/predict.hpp>
#include <hlomem/core/human_bytes.hpp>
#include <hlomem/load.hpp>
#include <hlomem/load/dump_directory.hpp>
#include <hlomem/memory/memory_analysis.hpp>

#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/memory_analysis_report.hpp>

namespace hlomem {

/// One compilation of a dump folder and its memory_analysis(), or why it has none.
struct compilation_memory {
    dump_compilation files;
    std::optional<memory_analysis> memory;
    std::string source;  ///< "dump" or "module"
    std::string error;   ///< why `memory` is absent
};

/// memory_analysis() of each compilation of `dir`, the largest peak first (compilations without
/// a peak last, by name). Throws error when `dir` cannot be listed.
inline std::vector<compilation_memory> dump_directory_memory(std::string const& dir) {
    std::vector<compilation_memory> out;
    for (auto& c : find_compilations(dir)) {
        compilation_memory r{std::move(c), std::nullopt, {}, {}};
        try {
            if (r.files.buffer_assignment_file) {
                load_options options;
                options.live_range_file = r.files.live_range_file;
                options.module_file = r.files.module_file;
                auto loaded = load<view_policy>(*r.files.buffer_assignment_file, options);
                if (!loaded) {
                    r.error = loaded.error().message;
                } else {
                    r.memory = compute_memory_analysis(*loaded->assignment());
                    r.source = "dump";
                }
            } else {
                auto in = read_input(*r.files.module_file);
                if (!in) {
                    r.error = in.error().message;
                } else if (auto modules = try_parse_hlo_modules<view_policy>(in->text, *r.files.module_file); !modules) {
                    r.error = modules.error().to_string();
                } else if (modules->size() != 1) {
                    r.error = std::to_string(modules->size()) + " modules in one file";
                } else {
                    r.memory = predicted_memory_analysis(modules->front());
                    r.source = "module";
                }
            }
        } catch (error const& e) {
            r.memory.reset();
            r.error = e.what();
        }
        out.push_back(std::move(r));
    }
    auto peak = [](compilation_memory const& c) {
        return c.memory && c.memory->peak_memory_in_bytes ? *c.memory->peak_memory_in_bytes : std::int64_t{-1};
    };
    std::stable_sort(out.begin(), out.end(), [&](compilation_memory const& a, compilation_memory const& b) { return peak(a) > peak(b); });
    return out;
}

/// The text of `hlomem report DIR`.
inline void print_dump_directory_text(std::ostream& out, std::string const& dir, std::vector<compilation_memory> const& list) {
    out << "XLA dump folder " << dir << ": " << list.size() << (list.size() == 1 ? " compilation" : " compilations")
        << ", the largest memory_analysis() peak first\n";
    out << "              peak  (human)       from    compilation\n";
    for (auto const& c : list) {
        std::string bytes = "-", human;
        if (c.memory && c.memory->peak_memory_in_bytes) {
            bytes = std::to_string(*c.memory->peak_memory_in_bytes);
            human = human_bytes(*c.memory->peak_memory_in_bytes);
        }
        bytes.insert(0, bytes.size() < 18 ? 18 - bytes.size() : 0, ' ');
        human.resize(std::max<std::size_t>(human.size(), 12), ' ');
        std::string source = c.source.empty() ? "-" : c.source;
        source.resize(std::max<std::size_t>(source.size(), 8), ' ');
        out << bytes << "  " << human << "  " << source << c.files.name << '\n';
        if (!c.error.empty()) out << "                    " << c.error << '\n';
    }
}

/// The JSON of `hlomem report --json DIR`: {kind: "dump_directory", directory, compilations: [{name,
/// module_file, buffer_assignment_file, live_range_file, memory_usage_report_file, source,
/// memory_analysis (write_memory_analysis_json's object, or null), error}]}.
inline void print_dump_directory_json(std::ostream& os, std::string const& dir, std::vector<compilation_memory> const& list) {
    json_writer json(os);
    json.begin_object();
    json.member("kind", "dump_directory");
    json.member("directory", dir);
    json.key("compilations").begin_array();
    for (auto const& c : list) {
        json.begin_object();
        json.member("name", c.files.name);
        json.member("module_file", c.files.module_file);
        json.member("buffer_assignment_file", c.files.buffer_assignment_file);
        json.member("live_range_file", c.files.live_range_file);
        json.member("memory_usage_report_file", c.files.memory_usage_report_file);
        json.member("source", c.source.empty() ? std::nullopt : std::optional<std::string_view>(c.source));
        json.key("memory_analysis");
        if (c.memory) {
            write_memory_analysis_json(json, *c.memory);
        } else {
            json.null();
        }
        json.member("error", c.error.empty() ? std::nullopt : std::optional<std::string_view>(c.error));
        json.end_object();
    }
    json.end_array();
    json.end_object();
    json.finish();
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_DUMP_DIRECTORY_REPORT_HPP
