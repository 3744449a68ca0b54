// hlomem/load/dump_directory.hpp: the compilations of a folder XLA dumped into
// (`XLA_FLAGS=--xla_dump_to=DIR`), each with the files XLA wrote for it.
//
//   for (auto const& c : hlomem::find_compilations("/tmp/dump")) c.buffer_assignment_file ...
//
// XLA names every file of one compilation after the module and the pass it was dumped after
// (xla/service/dump.cc, FilenameFor: `module_<id>.<name>.<suffix>`), and writes the buffer
// assignment's texts beside the optimized module with a suffix each:
//   module_9945.jit_mlp_step.sm_9.0a_gpu_after_optimizations.txt                        the module
//   module_9945.jit_mlp_step.sm_9.0a_gpu_after_optimizations-buffer-assignment.txt      allocations
//   module_9945.jit_mlp_step.sm_9.0a_gpu_after_optimizations-buffer-assignment-values.txt
//   module_9945.jit_mlp_step.sm_9.0a_gpu_after_optimizations-live-range.txt
//   module_9945.jit_mlp_step.sm_9.0a_gpu_after_optimizations-memory-usage-report.txt
// So one stem names a compilation, whichever of its files is at hand. With
// --xla_dump_hlo_to_subfolder each module has a folder of its own: the folder is searched to any
// depth. A compilation is a stem with a buffer-assignment dump, or an optimized module
// (`*after_optimizations.txt`) without one; modules before optimization hold no assignment.
#ifndef HLOMEM_LOAD_DUMP_DIRECTORY_HPP
#define HLOMEM_LOAD_DUMP_DIRECTORY_HPP

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <hlomem/core/error.hpp>

namespace hlomem {

/// One compilation of a dump folder, and the files XLA wrote for it (absent: not written).
struct dump_compilation {
    std::string name;  ///< the stem, relative to the folder: `module_9945.jit_mlp_step.sm_9.0a_gpu_after_optimizations`
    std::optional<std::string> module_file;
    std::optional<std::string> buffer_assignment_file;
    std::optional<std::string> live_range_file;
    std::optional<std::string> memory_usage_report_file;
};

namespace detail {

inline bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace detail

/// The compilations of folder `dir`, by name; throws error when `dir` cannot be listed.
inline std::vector<dump_compilation> find_compilations(std::string const& dir) {
    namespace fs = std::filesystem;
    std::map<std::string, dump_compilation> by_stem;  // key: the stem's full path
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    if (ec) throw error("cannot list the folder '" + dir + "': " + ec.message());
    // The suffixes, longest first: `-buffer-assignment-values.txt` before `.txt`.
    struct suffix {
        std::string_view text;
        std::optional<std::string> dump_compilation::*file;
    };
    static constexpr std::string_view values_suffix = "-buffer-assignment-values.txt";
    suffix const suffixes[] = {{"-buffer-assignment.txt", &dump_compilation::buffer_assignment_file},
                               {"-live-range.txt", &dump_compilation::live_range_file},
                               {"-memory-usage-report.txt", &dump_compilation::memory_usage_report_file}};
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) throw error("cannot list the folder '" + dir + "': " + ec.message());
        if (!it->is_regular_file(ec)) continue;
        std::string const path = it->path().string();
        if (detail::ends_with(path, values_suffix)) continue;  // the second half of a dump (load joins it)
        bool matched = false;
        for (auto const& s : suffixes) {
            if (!detail::ends_with(path, s.text)) continue;
            std::string const stem = path.substr(0, path.size() - s.text.size());
            by_stem[stem].*(s.file) = path;
            matched = true;
            break;
        }
        if (!matched && detail::ends_with(path, "after_optimizations.txt")) {
            std::string const stem = path.substr(0, path.size() - 4);
            by_stem[stem].module_file = path;
        }
    }
    std::vector<dump_compilation> out;
    std::string base = fs::path(dir).lexically_normal().string();
    if (!base.empty() && base.back() != '/') base += '/';
    for (auto& [stem, c] : by_stem) {
        if (!c.buffer_assignment_file && !c.module_file) continue;  // a live-range text or report alone
        // The module of a dump is STEM.txt whatever the stem says (renamed files keep the suffixes).
        if (!c.module_file && fs::is_regular_file(stem + ".txt", ec)) c.module_file = stem + ".txt";
        c.name = stem.compare(0, base.size(), base) == 0 ? stem.substr(base.size()) : stem;
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_LOAD_DUMP_DIRECTORY_HPP
