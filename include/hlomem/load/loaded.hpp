// hlomem/load/loaded.hpp: an XLA text read into its model, whatever its kind, with the files
// that belong to it.
//
//   hlomem::load_options options;
//   options.find_live_range = true;
//   auto r = hlomem::load("module-buffer-assignment.txt", options);
//   if (!r) { std::cerr << r.error().message << '\n'; return 2; }
//   std::visit([](auto const& model) { ... }, r->model);    // or switch (r->kind())
//
// What it does for each kind (load/kind.hpp tells them apart by content):
//   buffer-assignment dump  parsed; live ranges attached from load_options::live_range_file or,
//                           when asked and the dump has none, from X-live-range.txt beside
//                           X-buffer-assignment.txt; likewise X-memory-usage-report.txt; and
//                           the module it was assigned from (load_options::module_file, or
//                           X.txt beside X-buffer-assignment.txt), for the metadata of its
//                           values (attribute_values, hlo/attribution.hpp)
//   HLO module(s)           every module parsed; with derive_assignment, the file must hold one
//                           module, and its buffer assignment is derived (load/derive.hpp)
//   live ranges, memory-usage report, OOM log, MiniMalloc CSV: parsed
// With view_policy the models view the texts they were read from; the loaded value keeps those
// texts alive (`texts`), so it may be moved and kept as long as needed; with default_policy the
// models own their strings, and no text is kept.
#ifndef HLOMEM_LOAD_LOADED_HPP
#define HLOMEM_LOAD_LOADED_HPP

#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <hlomem/core/policy.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/dump/memory_usage_report.hpp>
#include <hlomem/dump/oom_report.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/load/derive.hpp>
#include <hlomem/load/input.hpp>
#include <hlomem/load/kind.hpp>
#include <hlomem/parser.hpp>
#include <hlomem/placement/problem.hpp>

namespace hlomem {

/// The model of each kind, in the order of dump_kind.
template <class P = default_policy>
using basic_loaded_model =
    std::variant<basic_buffer_assignment<P>, basic_hlo_live_range<P>, basic_memory_usage_report<P>,
                 std::vector<basic_hlo_module<P>>, basic_oom_log<P>, allocation_problem>;

/// An input read into its model, with the sibling files read with it.
template <class P = default_policy>
struct basic_loaded {
    std::string path;  ///< as given; "-" for standard input
    basic_loaded_model<P> model;
    /// Buffer-assignment dumps: the separate live-range file attached, when one was.
    std::optional<std::string> live_range_file;
    /// Buffer-assignment dumps that state no live ranges (JAX 0.11's split dumps, when XLA wrote
    /// no -live-range.txt): the live ranges were derived from `module` (hlo/liveness.hpp).
    bool live_ranges_from_module = false;
    /// Buffer-assignment dumps: the memory-usage report read with it, and its file.
    std::optional<basic_memory_usage_report<P>> memory_usage_report;
    std::optional<std::string> memory_usage_report_file;
    /// Buffer-assignment dumps: the module the dump was assigned from, read with it, and its file.
    std::optional<basic_hlo_module<P>> module;
    std::optional<std::string> module_file;
    /// The text `module` was parsed from (one of `texts`): what an edit of the module rewrites
    /// (whatif/apply.hpp); for a file of modules read with a policy that views its text, that
    /// text; empty otherwise.
    std::string_view module_text;
    /// A file of one module loaded with derive_assignment: the assignment derived from it.
    std::optional<basic_derived_assignment<P>> derived;
    /// The texts the models view (kept for view policies only).
    std::vector<std::shared_ptr<std::string const>> texts;

    dump_kind kind() const noexcept { return static_cast<dump_kind>(model.index()); }

    /// The buffer assignment: the dump's, or the one derived from the module; null otherwise.
    basic_buffer_assignment<P> const* assignment() const noexcept {
        if (auto const* ba = std::get_if<basic_buffer_assignment<P>>(&model)) return ba;
        return derived ? &derived->assignment : nullptr;
    }
    basic_buffer_assignment<P>* assignment() noexcept {
        return const_cast<basic_buffer_assignment<P>*>(std::as_const(*this).assignment());
    }

    /// The module that belongs with the assignment: the dump's module read with it, or the module
    /// an assignment was derived from; null otherwise.
    basic_hlo_module<P> const* assignment_module() const noexcept {
        if (module) return &*module;
        auto const* modules = std::get_if<std::vector<basic_hlo_module<P>>>(&model);
        return derived && modules && modules->size() == 1 ? &modules->front() : nullptr;
    }
};
using loaded = basic_loaded<default_policy>;

struct load_options {
    /// Read the text as this kind whatever its content says (an OOM log reads from any text).
    std::optional<dump_kind> as;
    /// A dump's separate `-live-range.txt`, attached to it (replacing live ranges it has).
    std::optional<std::string> live_range_file;
    /// A dump's `-memory-usage-report.txt`, read with it.
    std::optional<std::string> memory_usage_report_file;
    /// Without live_range_file: attach X-live-range.txt beside X-buffer-assignment.txt when the
    /// dump has no live ranges of its own.
    bool find_live_range = false;
    /// Without memory_usage_report_file: read X-memory-usage-report.txt beside X-buffer-assignment.txt.
    bool find_memory_usage_report = false;
    /// A dump's module (its `*after_optimizations.txt`), read with it for the metadata of its values.
    std::optional<std::string> module_file;
    /// A dump with no live ranges of its own or from a live-range text: derive them from the
    /// module read with it (XLA's HloLiveRange on the scheduled module, hlo/liveness.hpp), so
    /// that its peaks and memory_analysis() can be computed.
    bool live_ranges_from_module = true;
    /// Without module_file: read X.txt beside X-buffer-assignment.txt when it is an HLO module
    /// (XLA's --xla_dump_to names them `..._after_optimizations.txt` and
    /// `..._after_optimizations-buffer-assignment.txt`).
    bool find_module = false;
    /// An HLO module file must hold exactly one module, whose buffer assignment is derived.
    bool derive_assignment = false;
};

/// `dir/x-buffer-assignment.txt` (or the `dir/x-buffer-assignment-values.txt` of a dump in two
/// files) -> `dir/x<suffix>` (`-live-range.txt`, `-memory-usage-report.txt`), when that file exists.
inline std::optional<std::string> sibling_file(std::string const& path, std::string_view suffix) {
    for (std::string_view ending : {std::string_view("-buffer-assignment.txt"), std::string_view("-buffer-assignment-values.txt")}) {
        if (path.size() <= ending.size() || path.compare(path.size() - ending.size(), ending.size(), ending) != 0) continue;
        std::string candidate = path.substr(0, path.size() - ending.size()) + std::string(suffix);
        if (!std::ifstream(candidate)) return std::nullopt;
        return candidate;
    }
    return std::nullopt;
}

namespace detail {

/// Reads `file` into `out.texts`; the text stays there while `out` is being loaded.
template <class P>
load_result<std::string_view> read_text(std::string const& file, basic_loaded<P>& out) {
    auto in = read_input(file);
    if (!in) return in.error();
    out.texts.push_back(std::make_shared<std::string const>(std::move(in->text)));
    return std::string_view(*out.texts.back());
}

/// The sibling files of a buffer-assignment dump, read into `out`.
template <class P>
std::optional<load_error> load_dump_siblings(basic_loaded<P>& out, load_options const& options) {
    auto& ba = std::get<basic_buffer_assignment<P>>(out.model);
    std::optional<std::string> live_range_file = options.live_range_file;
    if (!live_range_file && options.find_live_range && !ba.live_range) live_range_file = sibling_file(out.path, "-live-range.txt");
    if (live_range_file) {
        auto text = read_text(*live_range_file, out);
        if (!text) return text.error();
        auto lr = try_parse_live_range<P>(*text, *live_range_file);
        if (!lr) return unparsable(*live_range_file, lr.error());
        attach_live_range(ba, std::move(*lr));
        out.live_range_file = live_range_file;
    }
    std::optional<std::string> report_file = options.memory_usage_report_file;
    if (!report_file && options.find_memory_usage_report) report_file = sibling_file(out.path, "-memory-usage-report.txt");
    if (report_file) {
        auto text = read_text(*report_file, out);
        if (!text) return text.error();
        auto report = try_parse_memory_usage_report<P>(*text, *report_file);
        if (!report) return unparsable(*report_file, report.error());
        out.memory_usage_report = std::move(*report);
        out.memory_usage_report_file = report_file;
    }
    std::optional<std::string> module_file = options.module_file;
    std::optional<input> found;
    if (!module_file && options.find_module) {
        if (auto candidate = sibling_file(out.path, ".txt")) {
            auto in = read_input(*candidate);
            if (in && in->kind == dump_kind::hlo_module) {
                module_file = candidate;
                found = std::move(*in);
            }
        }
    }
    if (module_file) {
        std::string_view text;
        if (found) {
            out.texts.push_back(std::make_shared<std::string const>(std::move(found->text)));
            text = *out.texts.back();
        } else {
            auto read = read_text(*module_file, out);
            if (!read) return read.error();
            text = *read;
        }
        auto m = try_parse_hlo_module<P>(text, *module_file);
        if (!m) return unparsable(*module_file, m.error());
        out.module = std::move(*m);
        out.module_file = module_file;
        out.module_text = text;
        if (!ba.live_range && options.live_ranges_from_module) {
            // The dump's values are XLA's HloValues of this module: the derived BufferLiveRange
            // lines (`name{index}:start-end`) name them as XLA's -live-range.txt would. The peak
            // the derivation states is hlomem's, not the dump's: it is not kept as stated.
            auto derived = derive_assignment(*out.module, false);
            if (derived.assignment.live_range) {
                auto lr = std::move(*derived.assignment.live_range);
                lr.stated_peak.reset();
                attach_live_range(ba, std::move(lr));
                out.live_ranges_from_module = true;
            }
        }
    }
    return std::nullopt;
}

}  // namespace detail

namespace detail {

/// Whether `text` is one half of a dump that JAX 0.11's XLA writes in two files (allocation
/// headers carry `page N` there): `X-buffer-assignment.txt` holds `BufferAssignment:` and the
/// allocations and stops where `Total bytes used:` would follow; `X-buffer-assignment-values.txt`
/// holds `Total bytes used: N (...)` and `Used values:`. Read together they are one dump of the
/// layout older XLA writes in one file.
inline bool is_values_half(std::string_view text) {
    std::size_t const first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text.substr(first, 17) == "Total bytes used:";
}
inline bool is_allocations_half(std::string_view text) {
    return text.find("\nTotal bytes used:") == std::string_view::npos;
}

/// A buffer-assignment dump's text, joined with its other half when it is one of two files
/// (is_values_half): the joined text is kept in `out.texts`; `values_at` is set to where the
/// values file begins in it, and `values_file` to that file. Unjoined text is returned as is.
template <class P>
load_result<std::string_view> join_dump_halves(basic_loaded<P>& out, std::string_view text, std::size_t& values_at,
                                               std::string& values_file) {
    bool const values_half = is_values_half(text);
    if (!values_half && !is_allocations_half(text)) return text;
    std::string_view const have = values_half ? "-buffer-assignment-values.txt" : "-buffer-assignment.txt";
    std::string_view const want = values_half ? "-buffer-assignment.txt" : "-buffer-assignment-values.txt";
    std::string const& path = out.path;
    std::optional<std::string> other;
    if (path.size() > have.size() && path.compare(path.size() - have.size(), have.size(), have) == 0) {
        other = path.substr(0, path.size() - have.size()) + std::string(want);
    }
    auto missing = [&] {
        return load_error{load_failure::unreadable, other.value_or(path),
                          path + ": " + (values_half ? "the values" : "the allocations") +
                              " of a buffer-assignment dump that XLA wrote in two files; its " +
                              (values_half ? "allocations" : "values") + " are in " +
                              (other ? "'" + *other + "', which cannot be read" : "the file named X" + std::string(want) +
                                                                                     " beside X" + std::string(have))};
    };
    // A one-file dump cut before its end is no half: it stays an error at its end.
    if (!values_half && (!other || !std::ifstream(*other))) return text;
    if (!other) return missing();
    auto in = read_input(*other);
    if (!in) return missing();
    std::string joined = values_half ? in->text + std::string(text) : std::string(text) + in->text;
    values_at = values_half ? in->text.size() : text.size();
    values_file = values_half ? path : *other;
    if (values_half) out.path = *other;  // the dump is named by its first half, as its siblings are found
    out.texts.push_back(std::make_shared<std::string const>(std::move(joined)));
    return std::string_view(*out.texts.back());
}

/// Parses a buffer-assignment dump, joined with its other half if it has one; an error in the
/// values half names that file and its own line.
template <class P>
std::optional<load_error> load_dump(basic_loaded<P>& out, std::string_view text, load_options const& options) {
    std::size_t values_at = std::string_view::npos;
    std::string values_file;
    auto joined = join_dump_halves(out, text, values_at, values_file);
    if (!joined) return joined.error();
    auto ba = try_parse_buffer_assignment<P>(*joined, out.path);
    if (!ba) {
        parse_error_info info = ba.error();
        if (values_at != std::string_view::npos) {
            auto const lines_before = static_cast<std::size_t>(std::count(joined->begin(), joined->begin() + static_cast<std::ptrdiff_t>(values_at), '\n'));
            if (info.line > lines_before) {
                info.line -= lines_before;
                info.file = values_file;
            }
        }
        return unparsable(info.file, info);
    }
    out.model = std::move(*ba);
    return load_dump_siblings(out, options);
}

/// Reads `text` (named `path`; modules and logs by `name`) into `out` as `kind`, with its sibling
/// files. `text` must outlive `out` when P views its input.
template <class P>
std::optional<load_error> load_into(basic_loaded<P>& out, std::string_view text, dump_kind kind, std::string const& name,
                                    load_options const& options) {
    auto parsed = [&](auto&& result, std::string const& file) -> std::optional<load_error> {
        if (!result) return unparsable(file, result.error());
        out.model = std::move(*result);
        return std::nullopt;
    };
    switch (kind) {
        case dump_kind::buffer_assignment: return load_dump(out, text, options);
        case dump_kind::live_range: return parsed(try_parse_live_range<P>(text, out.path), out.path);
        case dump_kind::memory_usage_report: return parsed(try_parse_memory_usage_report<P>(text, out.path), out.path);
        case dump_kind::hlo_module:
            if (options.derive_assignment) {
                auto m = try_parse_hlo_module<P>(text, name);
                if (!m) return unparsable(name, m.error());
                out.derived = derive_assignment(*m);
                out.model = std::vector<basic_hlo_module<P>>{};
                std::get<std::vector<basic_hlo_module<P>>>(out.model).push_back(std::move(*m));
                return std::nullopt;
            }
            // A view of the text stays valid as long as `out` (load and load_view keep or borrow
            // it): a what-if rewrites it (load/editable_module.hpp).
            if constexpr (!std::is_same_v<typename P::string_type, std::string>) out.module_text = text;
            return parsed(try_parse_hlo_modules<P>(text, name), name);
        case dump_kind::oom_log: return parsed(try_parse_oom_reports<P>(text, name), name);
        case dump_kind::minimalloc_csv: return parsed(try_parse_minimalloc_csv(text, out.path), out.path);
        case dump_kind::unknown: break;
    }
    return load_error{load_failure::unknown_kind, out.path,
                      out.path + ": not a kind of XLA text hlomem reads (a buffer-assignment dump, live ranges, "
                                 "a memory-usage report, an HLO module, an out-of-memory log or a MiniMalloc CSV)"};
}

/// Reads `in` into the model of its kind (or of options.as), with its sibling files: the step
/// that load(path) and load_text share. Dumps, live ranges, reports and CSVs are named by the
/// path as given; modules and logs by input::name() (`<stdin>` for standard input).
template <class P>
load_result<basic_loaded<P>> load_input(input in, load_options const& options) {
    basic_loaded<P> out;
    out.path = in.path;
    std::string const name = in.name();
    out.texts.push_back(std::make_shared<std::string const>(std::move(in.text)));
    if (auto error = detail::load_into(out, *out.texts.back(), options.as.value_or(in.kind), name, options)) return *std::move(error);
    // Models that own their strings need the texts no longer.
    if (std::is_same_v<typename P::string_type, std::string>) out.texts.clear();
    return out;
}

}  // namespace detail

/// Loads text that the caller owns, without copying it: with view_policy the models view `text`,
/// which must stay alive and unchanged as long as the result is used (`texts` keeps only the
/// sibling files read with it). For text that already lives somewhere: a memory-mapped file, the
/// string of an embedding language (the Python module parses a `str` or `bytes` this way). Named
/// `path` in messages; siblings are looked for beside it; "-" names it `<stdin>` as load() does.
template <class P = default_policy>
load_result<basic_loaded<P>> load_view(std::string_view text, std::string path, load_options const& options = {}) {
    basic_loaded<P> out;
    out.path = std::move(path);
    std::string const name = out.path == "-" ? std::string("<stdin>") : out.path;
    if (auto error = detail::load_into(out, text, options.as.value_or(detect_dump_kind(text)), name, options)) {
        return *std::move(error);
    }
    if (std::is_same_v<typename P::string_type, std::string>) out.texts.clear();
    return out;
}

/// The metadata of each value of the loaded assignment (hlo/attribution.hpp): the dump's own,
/// joined with its module when one was read with it, or the module's for a derived assignment.
/// Refers to `loaded`, which must outlive it. Empty when nothing loaded has an assignment.
template <class P>
basic_source_attribution<P> attribute_values(basic_loaded<P> const& loaded) {
    auto const* ba = loaded.assignment();
    if (!ba) return {};
    if (auto const* m = loaded.assignment_module()) return attribute_values(*ba, *m);
    return attribute_values(*ba);
}

/// Reads `path` ("-": standard input) once and loads it.
template <class P = default_policy>
load_result<basic_loaded<P>> load(std::string const& path, load_options const& options = {}) {
    auto in = read_input(path);
    if (!in) return in.error();
    return detail::load_input<P>(std::move(*in), options);
}

/// A buffer assignment made in code as the loaded value load_view(print of it, path) gives, without
/// printing and reading it: named `path` (model and file), no sibling files looked for. For a
/// model equal to the parse of its own text: the predicted assignment (assign_module makes it so
/// with renumber_as_printed), which `hlomem assign --json` and Python's hlomem.assign report.
template <class P = default_policy>
basic_loaded<P> load_model(basic_buffer_assignment<P> model, std::string path) {
    basic_loaded<P> out;
    model.file = path;
    out.path = std::move(path);
    out.model = std::move(model);
    return out;
}

/// Loads text already in memory, named `path` in messages (siblings are looked for beside it).
template <class P = default_policy>
load_result<basic_loaded<P>> load_text(std::string text, std::string path, load_options const& options = {}) {
    return detail::load_input<P>(input_from_text(std::move(text), std::move(path)), options);
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_LOADED_INSTANTIATIONS(EXTERN, P) \
    EXTERN template load_result<basic_loaded<P>> detail::load_input<P>(input, load_options const&); \
    EXTERN template load_result<basic_loaded<P>> load<P>(std::string const&, load_options const&); \
    EXTERN template load_result<basic_loaded<P>> load_view<P>(std::string_view, std::string, load_options const&); \
    EXTERN template basic_loaded<P> load_model<P>(basic_buffer_assignment<P>, std::string); \
    EXTERN template basic_source_attribution<P> attribute_values<P>(basic_loaded<P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_LOADED_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_LOAD_LOADED_HPP
