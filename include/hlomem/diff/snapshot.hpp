// hlomem/diff/snapshot.hpp: a compilation's memory in a few kilobytes, to review and keep in git
// (`hlomem snapshot FILE -o NAME.hlomem.json`), and compared later with another compilation or
// snapshot (diff/snapshot_diff.hpp) as `hlomem diff` compares two dumps.
//
//   auto const sources = hlomem::attribute_values(ba);              // hlo/attribution.hpp
//   hlomem::memory_snapshot s = hlomem::make_snapshot(ba, sources, module_or_null);
//   hlomem::write_snapshot_json(out, s);                            // output/snapshot_report.hpp
//   hlomem::memory_snapshot back = hlomem::read_snapshot(text);     // snapshot_error on bad input
//
// It keeps what diff_assignments (diff/assignment_diff.hpp) measures per color, measured by the
// same code (detail::measure_color): the bytes by allocation kind, the peak of live bytes, its
// moment and instruction, padding, the temp arena and its lower bound, the peak by source line,
// and the `top` values that hold the most bytes at the peak with their metadata; XLA's peak
// (HloLiveRange's); and the donations (hlo/donation.hpp). It does not keep live ranges, the values
// not at a peak, or anything to match values by, which diff_snapshots says it cannot compare.
//
// Source files are kept relative, so that two checkouts and two machines write the same text:
// below a root the user strips (strip_source_roots, `--strip-root`), else below the folder that
// all the compilation's absolute source paths share (`/home/u/lorrax_B/src/common/cholesky_2d.py`
// alone is `cholesky_2d.py`; with `/home/u/lorrax_B/src/gw/ppm_sigma.py`, `common/cholesky_2d.py`
// and `gw/ppm_sigma.py`). A snapshot's files are matched with another side's by the longest common
// path tail (hlo/source_path.hpp), as two dumps' are.
#ifndef HLOMEM_DIFF_SNAPSHOT_HPP
#define HLOMEM_DIFF_SNAPSHOT_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <hlomem/core/error.hpp>
#include <hlomem/detail/json_value.hpp>
#include <hlomem/diff/assignment_diff.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/donation.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/source_path.hpp>
#include <hlomem/memory/memory_analysis.hpp>

namespace hlomem {

/// The version of the snapshot format this library writes and reads; a change of a key's meaning
/// or a removed key raises it.
inline constexpr std::int64_t snapshot_format_version = 1;

/// A snapshot that cannot be read: a JSON error (with its line and column), a missing or mistyped
/// key (named by its path, `colors[0].peak_bytes`), or another format version.
/// Like every error hlomem throws, a hlomem::error.
struct snapshot_error : error {
    std::size_t line = 0, column = 0;
    snapshot_error(std::string const& message, std::size_t l = 0, std::size_t c = 0) : error(message), line(l), column(c) {}
};

/// A value that holds bytes of a color's peak.
struct snapshot_value {
    std::string name;  ///< as the dump names it (display_name)
    std::int64_t size = 0;
    std::int64_t bytes_at_peak = 0;  ///< the bytes of the peak it holds (memory/peak_holdings.hpp)
    std::string shape;
    std::string op_type, op_name, source_file;  ///< source_file relative, as the peak's lines
    std::int64_t source_line = 0;
};

/// One color (memory space) of a snapshot.
struct snapshot_color {
    std::int64_t color = 0;
    std::int64_t allocated_bytes = 0;
    std::vector<std::pair<allocation_kind, std::int64_t>> allocated_by_kind;  ///< in allocation_kind order
    bool peak_measured = false;  ///< false without live ranges
    std::int64_t peak_bytes = 0;
    logical_time peak_time = 0;
    std::string peak_instruction;
    std::int64_t padded_bytes = 0, unpadded_bytes = 0;
    std::int64_t temp_allocated_bytes = 0, temp_lower_bound_bytes = 0;
    /// The peak by source line, most bytes first (rows of equal bytes by file and line); `known`
    /// false for the values with no source line. A row of the bytes traced to argument N of the
    /// function (hlo/origin.hpp) has `argument` N and its label in `file` (`argument 0 (x)`).
    struct line_bytes {
        bool known = false;
        std::string file;
        std::int64_t line = 0;
        std::int64_t bytes = 0;
        std::int64_t argument = -1;
    };
    std::vector<line_bytes> peak_by_source;
    std::vector<snapshot_value> largest_at_peak;  ///< most bytes at the peak first
};

struct memory_snapshot {
    std::int64_t format_version = snapshot_format_version;
    std::int64_t total_bytes = 0;
    bool xla_peak_measured = false;
    std::int64_t xla_peak_bytes = 0;
    std::vector<snapshot_color> colors;  ///< by color number
    donation_analysis donations;
    /// What compiled.memory_analysis() would report (memory/memory_analysis.hpp); nullopt in a
    /// snapshot written before it was kept.
    std::optional<memory_analysis> memory;
};

/// Each path of `files` shown relative (the file's comment): below the folder every absolute path
/// of `files` shares, keeping at least the file's name; a relative path as it is.
inline std::vector<std::string> relative_source_paths(std::vector<std::string_view> const& files) {
    std::optional<std::string_view> common;  // the shared folder, with its final '/'
    for (auto f : files) {
        if (f.empty() || f.front() != '/') continue;
        std::string_view const folder = f.substr(0, f.find_last_of('/') + 1);
        if (!common) {
            common = folder;
            continue;
        }
        std::size_t n = 0;
        while (n < common->size() && n < folder.size() && (*common)[n] == folder[n]) ++n;
        common = common->substr(0, common->substr(0, n).find_last_of('/') + 1);
    }
    std::vector<std::string> out;
    for (auto f : files) {
        bool const below = common && f.size() > common->size() && f.compare(0, common->size(), *common) == 0;
        out.emplace_back(below ? f.substr(common->size()) : f);
    }
    return out;
}

/// The snapshot of `ba` (see the file's comment): `sources` its values' metadata
/// (attribute_values), `m` the module it was assigned from (null: none, and the donations are
/// those the dump states), `top` how many values at each peak it keeps.
template <class P, class Q, class R = Q>
memory_snapshot make_snapshot(basic_buffer_assignment<P> const& ba, basic_source_attribution<Q> const& sources,
                              basic_hlo_module<R> const* m = nullptr, std::size_t top = 10) {
    memory_snapshot s;
    s.total_bytes = ba.total_bytes();
    auto const xla = detail::xla_peak_of(ba);
    s.xla_peak_measured = xla.measured;
    s.xla_peak_bytes = xla.bytes;
    s.donations = analyze_donations(ba, m);
    s.memory = compute_memory_analysis(ba);
    auto const files = source_files(sources);
    auto const relative = relative_source_paths(files);
    std::map<std::string_view, std::string_view> shown;
    for (std::size_t k = 0; k < files.size(); ++k) shown.emplace(files[k], relative[k]);
    source_file_index const index(files, {});
    detail::diff_side<P, Q> const side(ba, sources);
    std::vector<std::int64_t> colors;
    for (auto const& a : ba.allocations) colors.push_back(a.color);
    std::sort(colors.begin(), colors.end());
    colors.erase(std::unique(colors.begin(), colors.end()), colors.end());
    for (std::int64_t color : colors) {
        color_diff c;
        c.color = color;
        std::map<std::tuple<bool, std::string, std::int64_t>, source_line_bytes> lines;
        detail::measure_color(side, index, c, false, lines);
        snapshot_color out;
        out.color = color;
        out.allocated_bytes = c.allocated_bytes.a;
        std::sort(c.allocated_by_kind.begin(), c.allocated_by_kind.end(), [](kind_bytes const& x, kind_bytes const& y) { return x.kind < y.kind; });
        for (auto const& k : c.allocated_by_kind) out.allocated_by_kind.emplace_back(k.kind, k.bytes.a);
        out.peak_measured = c.peak_a.measured;
        out.peak_bytes = c.peak_live_bytes.a;
        out.peak_time = c.peak_a.time;
        out.peak_instruction = c.peak_a.instruction;
        out.padded_bytes = c.padded_bytes.a;
        out.unpadded_bytes = c.unpadded_bytes.a;
        out.temp_allocated_bytes = c.temp_allocated_bytes.a;
        out.temp_lower_bound_bytes = c.temp_lower_bound_bytes.a;
        auto relative_of = [&](std::string_view file) {
            auto it = shown.find(file);
            return c_unescape(it == shown.end() ? file : it->second);
        };
        for (auto const& [key, l] : lines) {
            if (l.argument >= 0) {
                out.peak_by_source.push_back({true, l.relative_file, 0, l.bytes.a, l.argument});
                continue;
            }
            out.peak_by_source.push_back({l.known, l.known ? relative_of(std::get<1>(key)) : std::string(), l.source_line, l.bytes.a});
        }
        std::stable_sort(out.peak_by_source.begin(), out.peak_by_source.end(),
                         [](snapshot_color::line_bytes const& x, snapshot_color::line_bytes const& y) { return x.bytes > y.bytes; });
        std::vector<value_holding> held = c.peak_a.holdings;
        std::stable_sort(held.begin(), held.end(), [&](value_holding const& x, value_holding const& y) {
            if (x.bytes != y.bytes) return x.bytes > y.bytes;
            return ba.values[x.value].size != ba.values[y.value].size ? ba.values[x.value].size > ba.values[y.value].size : x.value < y.value;
        });
        if (held.size() > top) held.resize(top);
        for (auto const& h : held) {
            auto const& v = ba.values[h.value];
            auto const& src = sources[h.value];
            auto const* shape = ba.shape_of(v);
            out.largest_at_peak.push_back({v.display_name(), v.size, h.bytes, shape ? to_string(*shape) : std::string(), c_unescape(src.op_type),
                                           c_unescape(src.op_name), src.source_file.empty() ? std::string() : relative_of(src.source_file),
                                           src.source_line});
        }
        s.colors.push_back(std::move(out));
    }
    return s;
}

namespace detail {

/// Reads one snapshot's JSON value, naming each key by its path in errors.
class snapshot_reader {
public:
    static memory_snapshot read(json_value const& root) {
        snapshot_reader r;
        memory_snapshot s;
        s.format_version = r.integer(root, "format_version");
        if (s.format_version != snapshot_format_version) {
            throw snapshot_error("format_version " + std::to_string(s.format_version) + ": this hlomem reads version " +
                                 std::to_string(snapshot_format_version));
        }
        if (r.string(root, "kind") != "hlomem_snapshot") throw snapshot_error("kind: not 'hlomem_snapshot'");
        s.total_bytes = r.integer(root, "total_bytes");
        auto const& xla = r.member(root, "xla_peak_bytes");
        s.xla_peak_measured = !xla.is_null();
        if (s.xla_peak_measured) s.xla_peak_bytes = r.integer(root, "xla_peak_bytes");
        auto const& colors = r.array(root, "colors");
        for (std::size_t k = 0; k < colors.size(); ++k) {
            r.path_ = "colors[" + std::to_string(k) + "].";
            s.colors.push_back(r.color(colors[k]));
        }
        r.path_ = "";
        auto const& d = r.member(root, "donations");
        r.path_ = "donations.";
        s.donations.donors_known = r.boolean(d, "donors_known");
        for (auto const& [key, list] : {std::pair<char const*, std::vector<parameter_donation>*>{"used", &s.donations.used},
                                        std::pair<char const*, std::vector<parameter_donation>*>{"unused", &s.donations.unused}}) {
            for (auto const& e : r.array(d, key)) {
                auto const* why = e.find("why");  // since unused donations say why; absent from older snapshots
                list->push_back({r.integer(e, "parameter"), r.string(e, "parameter_index"), r.string(e, "shape"), r.integer(e, "bytes"),
                                 e.find("output_index") ? r.string(e, "output_index") : std::string(),
                                 why && !why->is_null() ? r.string(e, "why") : std::string()});
            }
        }
        for (auto const& e : r.array(d, "could_alias")) {
            s.donations.could_alias.push_back({r.integer(e, "parameter"), r.string(e, "parameter_index"), r.string(e, "output_index"),
                                               r.string(e, "shape"), r.integer(e, "bytes"), r.boolean(e, "donated")});
        }
        // Kept since memory_analysis() was: absent from older snapshots, null when not computed.
        r.path_ = "memory_analysis.";
        if (auto const* m = root.find("memory_analysis"); m && !m->is_null()) s.memory = r.memory(*m);
        return s;
    }

private:
    std::string path_;

    json_value const& member(json_value const& o, char const* key) const {
        if (o.kind() != json_value::type::object) throw snapshot_error(path_ + key + ": inside something that is not an object");
        auto const* v = o.find(key);
        if (!v) throw snapshot_error(path_ + key + ": missing");
        return *v;
    }
    template <class F>
    auto typed(json_value const& o, char const* key, F get) const -> decltype(get(o)) {
        try {
            return get(member(o, key));
        } catch (json_error const& e) {
            throw snapshot_error(path_ + key + ": " + e.what());
        }
    }
    std::int64_t integer(json_value const& o, char const* key) const { return typed(o, key, [](json_value const& v) { return v.integer(); }); }
    bool boolean(json_value const& o, char const* key) const { return typed(o, key, [](json_value const& v) { return v.boolean(); }); }
    std::string string(json_value const& o, char const* key) const { return typed(o, key, [](json_value const& v) { return v.string(); }); }
    std::vector<json_value> const& array(json_value const& o, char const* key) const {
        return typed(o, key, [](json_value const& v) -> std::vector<json_value> const& { return v.array(); });
    }

    std::optional<std::int64_t> optional_integer(json_value const& o, char const* key) const {
        auto const& v = member(o, key);
        if (v.is_null()) return std::nullopt;
        return integer(o, key);
    }

    /// The object output/memory_analysis_report.hpp writes (write_memory_analysis_json).
    memory_analysis memory(json_value const& o) const {
        memory_analysis out;
        for (auto const& f : memory_analysis_members) set_value(out, f, optional_integer(o, std::string(f.name).c_str()));
        auto const& peak = member(o, "peak");
        out.static_bytes = integer(peak, "static_bytes");
        out.static_unpadded_bytes = integer(peak, "static_unpadded_bytes");
        out.heap_peak_bytes = integer(peak, "heap_bytes");
        out.peak_color = optional_integer(peak, "color");
        out.peak_time = optional_integer(peak, "time");
        if (out.peak_time) out.peak_instruction = string(peak, "instruction");
        for (auto const& v : array(peak, "values")) out.peak_value_names.push_back(item_string(v, "peak.values"));
        for (auto const& n : array(o, "notes")) out.notes.push_back(item_string(n, "notes"));
        return out;
    }
    std::string item_string(json_value const& v, char const* where) const {
        try {
            return v.string();
        } catch (json_error const& e) {
            throw snapshot_error(path_ + where + ": " + e.what());
        }
    }

    snapshot_color color(json_value const& c) {
        snapshot_color out;
        out.color = integer(c, "color");
        out.allocated_bytes = integer(c, "allocated_bytes");
        for (auto const& k : array(c, "allocated_by_kind")) {
            std::string const name = string(k, "kind");
            std::optional<allocation_kind> kind;
            for (auto candidate : {allocation_kind::parameter, allocation_kind::constant, allocation_kind::thread_local_, allocation_kind::output,
                                   allocation_kind::temp, allocation_kind::other}) {
                if (to_string(candidate) == name) kind = candidate;
            }
            if (!kind) throw snapshot_error(path_ + "allocated_by_kind: no allocation kind '" + name + "'");
            out.allocated_by_kind.emplace_back(*kind, integer(k, "bytes"));
        }
        out.peak_measured = !member(c, "peak_bytes").is_null();
        if (out.peak_measured) {
            out.peak_bytes = integer(c, "peak_bytes");
            out.peak_time = integer(c, "peak_time");
            out.peak_instruction = string(c, "peak_instruction");
        }
        out.padded_bytes = integer(c, "padded_bytes");
        out.unpadded_bytes = integer(c, "unpadded_bytes");
        out.temp_allocated_bytes = integer(c, "temp_allocated_bytes");
        out.temp_lower_bound_bytes = integer(c, "temp_lower_bound_bytes");
        for (auto const& l : array(c, "peak_by_source")) {
            if (l.find("argument")) {
                out.peak_by_source.push_back({true, string(l, "label"), 0, integer(l, "bytes"), integer(l, "argument")});
                continue;
            }
            bool const known = !member(l, "source_file").is_null();
            out.peak_by_source.push_back({known, known ? string(l, "source_file") : std::string(), known ? integer(l, "source_line") : 0,
                                          integer(l, "bytes")});
        }
        for (auto const& v : array(c, "largest_at_peak")) {
            out.largest_at_peak.push_back({string(v, "name"), integer(v, "size"), integer(v, "bytes_at_peak"), string(v, "shape"),
                                           string(v, "op_type"), string(v, "op_name"), string(v, "source_file"), integer(v, "source_line")});
        }
        return out;
    }
};

}  // namespace detail

/// The snapshot a JSON text holds (as write_snapshot_json writes it); snapshot_error otherwise.
inline memory_snapshot read_snapshot(std::string_view text) {
    detail::json_value root;
    try {
        root = detail::parse_json(text);
    } catch (detail::json_error const& e) {
        throw snapshot_error(std::string("not JSON: ") + e.what(), e.line, e.column);
    }
    return detail::snapshot_reader::read(root);
}

/// Whether `text` looks like a snapshot rather than a dump or a module: JSON, an object first.
inline bool looks_like_snapshot(std::string_view text) {
    auto const at = text.find_first_not_of(" \t\r\n");
    return at != std::string_view::npos && text[at] == '{';
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_SNAPSHOT_INSTANTIATIONS(EXTERN, P) \
    EXTERN template memory_snapshot make_snapshot<P, P, P>(basic_buffer_assignment<P> const&, basic_source_attribution<P> const&, basic_hlo_module<P> const*, std::size_t);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_SNAPSHOT_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_DIFF_SNAPSHOT_HPP
