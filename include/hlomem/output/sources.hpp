// hlomem/output/sources.hpp: where values come from in the user's program, as the commands print it:
// a value's source keys in JSON, the peak of each color by source line, by op_name and by Python
// stack frame (hlomem/hlo/attribution.hpp), in text and in JSON.
#ifndef HLOMEM_OUTPUT_SOURCES_HPP
#define HLOMEM_OUTPUT_SOURCES_HPP

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/detail/scan.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/load/source_text.hpp>
#include <hlomem/memory/peak_holdings.hpp>

#include <hlomem/output/percent.hpp>
#include <hlomem/output/json_writer.hpp>

namespace hlomem {

/// `model.py:83` for a value with a source line, `no source` without (C escapes read back).
inline std::string source_line_text(hlomem::value_source const& s) {
    if (!s.has_source_line()) return std::string(hlomem::no_source_group);
    return hlomem::c_unescape(s.source_file) + ":" + std::to_string(s.source_line);
}

/// The same for a group of a breakdown: `model.py:83`, `model.py:83 (inherited)`,
/// `model.py:83 (output)`, `argument 2 (psi, donated)` or `argument 2 (psi) (inherited)`.
inline std::string source_line_text(hlomem::source_line_key const& k) {
    if (k.is_no_source()) return std::string(hlomem::no_source_group);
    std::string s = k.is_argument() ? hlomem::c_unescape(hlomem::argument_label(k.argument, k.argument_name, k.donated))
                                    : hlomem::c_unescape(k.source_file) + ":" + std::to_string(k.source_line);
    if (k.kind == hlomem::origin_kind::inherited || k.kind == hlomem::origin_kind::output) {
        s += " (" + std::string(hlomem::to_string(k.kind)) + ")";
    }
    return s;
}

/// Where a value's bytes come from, in words: `model.py:83`, `argument 2 (psi)`, `model.py:83
/// (inherited: call_parameter, through copy.9)`, `model.py:90, output 0`, `no source`.
inline std::string origin_text(hlomem::value_origin const& o) {
    auto key = hlomem::origin_key(o);
    key.kind = hlomem::origin_kind::own;
    std::string s = source_line_text(key);
    if (o.kind == hlomem::origin_kind::inherited) {
        s += " (inherited: " + std::string(hlomem::to_string(o.how)) + ", through " + o.through + ")";
    }
    if (o.output >= 0) s += ", output " + std::to_string(o.output);
    return s;
}

/// A string of metadata as a JSON member: the text read back from XLA's C escapes, null when
/// absent.
template <std::size_t N>
void metadata_member(json_writer& json, char const (&name)[N], std::string_view text) {
    if (text.empty()) {
        json.key(name).null();
    } else if (!json.key(name).plain_value(text)) {
        // Text with nothing to escape has no backslash, and unescapes to itself: it goes out as
        // it is, checked once, with no string made for each value.
        json.value(hlomem::c_unescape(text));
    }
}

/// The keys op_type, op_name, source_file, source_line of a value (null when absent).
inline void write_value_source(json_writer& json, hlomem::value_source const& s) {
    metadata_member(json, "op_type", s.op_type);
    metadata_member(json, "op_name", s.op_name);
    metadata_member(json, "source_file", s.source_file);
    if (s.has_source_line()) {
        json.member("source_line", s.source_line);
    } else {
        json.key("source_line").null();
    }
}

/// A Python stack (hlo/stack_frames.hpp, python_stack), outermost frame first, as an array of
/// {"file_name", "function_name", "line", "column"} (C escapes read back; function_name null when
/// the location names none); null when empty (no stack tables, or no stack_frame_id).
inline void write_python_stack(json_writer& json, std::vector<hlomem::python_frame> const& stack) {
    if (stack.empty()) {
        json.null();
        return;
    }
    json.begin_array();
    for (auto const& f : stack) {
        json.begin_object();
        metadata_member(json, "file_name", f.file_name);
        metadata_member(json, "function_name", f.function_name);
        json.member("line", f.line);
        json.member("column", f.column);
        json.end_object();
    }
    json.end_array();
}

namespace detail {

/// The shape of the argument an origin is traced to (its `argument_shape`); no_shape for none.
template <class P>
hlomem::shape_id argument_shape_of(hlomem::basic_buffer_assignment<P> const& ba, hlomem::value_origin const& o) {
    return o.argument_value < ba.values.size() ? ba.values[o.argument_value].shape : hlomem::no_shape;
}

}  // namespace detail

/// The texts a report repeats across values, each made once: every distinct shape's (a large
/// dump names a few hundred shapes a hundred thousand times) and every distinct `origin` object's
/// (the 60,075 values of a 52 MB dump have 59: most values come from a few arguments and lines).
template <class P>
class value_text_cache {
public:
    explicit value_text_cache(hlomem::basic_buffer_assignment<P> const& ba) : ba_(ba), shapes_(ba.shapes.size()) {}

    /// A shape's text; nullopt for no_shape.
    std::optional<std::string> const& operator()(hlomem::shape_id id) {
        static std::optional<std::string> const none;
        if (id == hlomem::no_shape) return none;
        auto& text = shapes_[id];
        if (!text) text = hlomem::to_string(ba_.shapes[id]);
        return text;
    }

    /// The JSON text of the origin object `o` at `at` (the document's json_writer::here()): kept
    /// from an equal origin at the same depth, else written by `write` (a function of a
    /// json_writer) and kept. nullptr once most lookups have missed (origins nearly all
    /// distinct): the caller then writes each itself, with no text made and copied. A slot of a
    /// small table per hash; an origin taken for another is compared field by field first.
    template <class Write>
    std::string const* origin(hlomem::value_origin const& o, json_writer::nested_value at, Write&& write) {
        ++lookups_;
        if (lookups_ > 1024 && hits_ * 2 < lookups_) return nullptr;
        if (origins_.empty()) origins_.resize(origin_slots);
        std::size_t const h = origin_hash(o, at);
        auto& slot = origins_[h % origin_slots];
        if (slot.filled && slot.hash == h && same_origin(slot.key, o)) {
            ++hits_;
            return &slot.text;
        }
        std::ostringstream text;
        {
            json_writer w(text, at);
            write(w);
        }
        slot.filled = true;
        slot.hash = h;
        slot.key = o;
        slot.text = std::move(text).str();
        return &slot.text;
    }

private:
    static constexpr std::size_t origin_slots = 256;
    struct origin_slot {
        bool filled = false;
        std::size_t hash = 0;
        hlomem::value_origin key;
        std::string text;
    };
    /// What write_value_origin writes of `o`: the argument's shape stands for argument_value,
    /// and stack_frame_id for the stack.
    hlomem::shape_id argument_shape(hlomem::value_origin const& o) const { return detail::argument_shape_of(ba_, o); }
    std::size_t origin_hash(hlomem::value_origin const& o, json_writer::nested_value at) const {
        // The library's word-at-a-time hash (detail/scan.hpp): std::hash's Murmur over an op_name
        // of a hundred bytes was most of a lookup, once for each of 10^5 values.
        auto const text = [](auto const& s) {
            std::string_view const v(s);
            return hlomem::detail::hash_text(v.data(), v.size());
        };
        std::size_t h = text(o.source.op_name) ^ (text(o.source.source_file) * 31) ^ (text(o.through) * 131);
        for (std::int64_t x : {std::int64_t(o.kind), std::int64_t(o.how), o.source.source_line, o.source.stack_frame_id,
                               o.argument, std::int64_t(argument_shape(o)), o.output, std::int64_t(at.depth),
                               std::int64_t(at.pretty)}) {
            h = (h ^ static_cast<std::size_t>(x)) * 0x100000001b3u;
        }
        return h;
    }
    bool same_origin(hlomem::value_origin const& a, hlomem::value_origin const& b) const {
        return a.kind == b.kind && a.how == b.how && a.source.op_type == b.source.op_type &&
               a.source.op_name == b.source.op_name && a.source.source_file == b.source.source_file && a.source.source_line == b.source.source_line &&
               a.source.stack_frame_id == b.source.stack_frame_id && a.argument == b.argument &&
               a.argument_name == b.argument_name && a.donated == b.donated && argument_shape(a) == argument_shape(b) &&
               a.output == b.output && a.through == b.through;
    }

    hlomem::basic_buffer_assignment<P> const& ba_;
    std::vector<std::optional<std::string>> shapes_;
    std::vector<origin_slot> origins_;
    std::size_t lookups_ = 0, hits_ = 0;
};

/// The origin object of write_value_origin, written at the writer's place.
template <class P>
void write_origin_object(json_writer& json, hlomem::value_origin const& o, hlomem::basic_buffer_assignment<P> const& ba,
                         std::vector<hlomem::python_frame> const& stack, value_text_cache<P>* texts) {
    json.begin_object();
    json.member("kind", hlomem::to_string(o.kind));
    json.key("how");
    if (o.how == hlomem::inheritance::none) json.null(); else json.value(hlomem::to_string(o.how));
    write_value_source(json, o.source);
    json.key("argument");
    if (o.is_argument()) json.value(o.argument); else json.null();
    metadata_member(json, "argument_name", o.is_argument() ? o.argument_name : std::string_view());
    json.key("argument_shape");
    hlomem::shape_id const shape = detail::argument_shape_of(ba, o);
    if (!o.is_argument() || shape == hlomem::no_shape) {
        json.null();
    } else if (texts) {
        json.value(*(*texts)(shape));
    } else {
        json.value(hlomem::to_string(ba.shapes[shape]));
    }
    json.key("donated");
    if (o.is_argument()) json.value(o.donated); else json.null();
    json.key("output");
    if (o.output >= 0) json.value(o.output); else json.null();
    json.key("through");
    if (o.through.empty()) json.null(); else json.value(o.through);
    json.key("stack");
    write_python_stack(json, stack);
    json.end_object();
}

/// The key `origin` of a value: {"kind", "how", "op_type", "op_name", "source_file",
/// "source_line", "argument", "argument_name", "argument_shape", "donated", "output", "through",
/// "stack"} (hlo/origin.hpp; null where it has none): the source its bytes are traced to, which
/// its own keys op_type ... source_line do not change; `stack` the Python stack of that source
/// (basic_source_attribution::stack_of, write_python_stack).
template <class P>
void write_value_origin(json_writer& json, hlomem::value_origin const& o, hlomem::basic_buffer_assignment<P> const& ba,
                        std::vector<hlomem::python_frame> const& stack = {}, value_text_cache<P>* texts = nullptr) {
    json.key("origin");
    write_origin_object(json, o, ba, stack, texts);
}

/// A value's own metadata keys (write_value_source) and its `origin` (write_value_origin), the
/// origin's text taken from `texts` when an equal one was written (its stack made only then).
template <class P, class Q>
void write_value_source(json_writer& json, hlomem::basic_source_attribution<Q> const& sources, std::size_t value,
                        hlomem::basic_buffer_assignment<P> const& ba, value_text_cache<P>* texts = nullptr) {
    write_value_source(json, sources[value]);
    hlomem::value_origin const& o = sources.origin_of(value);
    json.key("origin");
    auto const write = [&](json_writer& w) { write_origin_object(w, o, ba, sources.stack_of(value), texts); };
    if (texts) {
        if (std::string const* text = texts->origin(o, json.here(), write)) {
            json.raw_value(*text);
            return;
        }
    }
    write(json);
}

/// A breakdown tree as nested {"name", "bytes", "values": [ids held there], "children": [...]}.
template <class P>
void write_holding_tree(json_writer& json, hlomem::holding_tree const& t, hlomem::basic_buffer_assignment<P> const& ba) {
    json.begin_object();
    json.member("name", hlomem::c_unescape(t.name));
    json.member("bytes", t.bytes);
    json.key("values").begin_array();
    for (std::size_t v : t.values) json.value(ba.values[v].id);
    json.end_array();
    json.key("children").begin_array();
    for (auto const& c : t.children) write_holding_tree(json, c, ba);
    json.end_array();
    json.end_object();
}

/// The members peak_by_source, peak_by_op_name and peak_by_stack_frame of a color (`h` its
/// holdings at the peak; null: the color has no live ranges, and the lists are empty).
template <class P, class Q>
void write_peak_breakdowns(json_writer& json, hlomem::peak_holdings const* h, hlomem::basic_buffer_assignment<P> const& ba,
                           hlomem::basic_source_attribution<Q> const& sources) {
    json.key("peak_by_source").begin_array();
    if (h) {
        for (auto const& g : hlomem::peak_by_source_line(*h, sources)) {
            json.begin_object();
            metadata_member(json, "source_file", g.key.source_file);
            if (g.key.is_no_source() || g.key.is_argument()) {
                json.key("source_line").null();
            } else {
                json.member("source_line", g.key.source_line);
            }
            json.member("origin", hlomem::to_string(g.key.kind));
            json.key("argument");
            if (g.key.is_argument()) json.value(g.key.argument); else json.null();
            json.member("bytes", g.bytes);
            json.key("values").begin_array();
            for (std::size_t v : g.values) json.value(ba.values[v].id);
            json.end_array();
            json.end_object();
        }
    }
    json.end_array();
    json.key("peak_by_op_name");
    if (h) write_holding_tree(json, hlomem::peak_by_op_name(*h, sources), ba); else json.null();
    json.key("peak_by_stack_frame");
    if (h) write_holding_tree(json, hlomem::peak_by_stack_frame(*h, sources), ba); else json.null();
}

/// The holdings of `color`, or null.
inline hlomem::peak_holdings const* holdings_of(std::vector<hlomem::peak_holdings> const& holdings, std::int64_t color) {
    auto it = std::find_if(holdings.begin(), holdings.end(), [&](auto const& h) { return h.color == color; });
    return it == holdings.end() ? nullptr : &*it;
}

/// Up to `n` value ids, then how many more.
template <class P>
std::string value_ids_text(std::vector<std::size_t> const& values, hlomem::basic_buffer_assignment<P> const& ba, std::size_t n = 6) {
    std::string s;
    for (std::size_t k = 0; k < values.size() && k < n; ++k) s += (k ? " " : "") + std::to_string(ba.values[values[k]].id);
    if (values.size() > n) s += " +" + std::to_string(values.size() - n);
    return s;
}

inline void print_holding_tree(std::ostream& out, hlomem::holding_tree const& t, std::int64_t whole, std::size_t depth,
                               std::size_t level) {
    for (auto const& c : t.children) {
        // A child repeats its parent's prefix: under it, show the part it adds.
        std::string_view shown = c.name;
        if (level > 0 && shown.size() > t.name.size() + 1 && shown.compare(0, t.name.size(), t.name) == 0 &&
            shown[t.name.size()] == '/') {
            shown.remove_prefix(t.name.size() + 1);
        }
        std::string const name = hlomem::c_unescape(shown);
        std::string const b = hlomem::human_bytes(c.bytes);
        out << "  " << std::string(b.size() < 10 ? 10 - b.size() : 0, ' ') << b << "  "
            << std::string(7 - std::min<std::size_t>(7, share_text(c.bytes, whole).size()), ' ') << share_text(c.bytes, whole)
            << "  " << std::string(2 * level, ' ') << name << '\n';
        if (level + 1 < depth) print_holding_tree(out, c, whole, depth, level + 1);
    }
}

/// "what holds the color N peak, by source line": the top lines with their bytes, share and
/// values, then the op_name tree to `depth` levels; one line for a color whose values carry no
/// source line and no op_name.
template <class P, class Q>
void print_peak_by_source(std::ostream& out, hlomem::basic_buffer_assignment<P> const& ba,
                          std::vector<hlomem::peak_holdings> const& holdings, hlomem::basic_source_attribution<Q> const& sources,
                          std::size_t top, std::size_t depth) {
    for (auto const& h : holdings) {
        if (h.values.empty()) continue;
        auto const groups = hlomem::peak_by_source_line(h, sources);
        // A color whose values carry no metadata at all (seed 002, a TPU dump without
        // metadata={...}) has one group, "no source", in both breakdowns: one line says so.
        bool const no_metadata = groups.size() == 1 && groups.front().key.is_no_source() &&
                                 std::all_of(h.values.begin(), h.values.end(),
                                             [&](hlomem::value_holding const& v) { return sources.origin_of(v.value).source.op_name.empty(); });
        if (no_metadata) {
            out << "\nwhat holds the color " << h.color << " peak (time " << h.time << ", " << hlomem::human_bytes(h.bytes)
                << "): no source line or op_name in the metadata of its " << groups.front().values.size()
                << (groups.front().values.size() == 1 ? " value (" : " values (") << value_ids_text(groups.front().values, ba) << ")\n";
            continue;
        }
        std::size_t const n = std::min(top, groups.size());
        out << "\nwhat holds the color " << h.color << " peak (time " << h.time << ", " << hlomem::human_bytes(h.bytes)
            << "), by source line (" << groups.size() << (groups.size() == 1 ? " line" : " lines") << "; " << n << " shown)\n";
        out << "  " << std::string(7, ' ') << "bytes    share  values  source line (value ids)\n";
        for (std::size_t k = 0; k < n; ++k) {
            auto const& g = groups[k];
            std::string const b = hlomem::human_bytes(g.bytes), s = share_text(g.bytes, h.bytes);
            std::string const count = std::to_string(g.values.size());
            out << "  " << std::string(b.size() < 12 ? 12 - b.size() : 0, ' ') << b << std::string(s.size() < 9 ? 9 - s.size() : 0, ' ')
                << s << std::string(count.size() < 8 ? 8 - count.size() : 0, ' ') << count << "  " << source_line_text(g.key)
                << " (" << value_ids_text(g.values, ba) << ")\n";
        }
        if (n < groups.size()) {
            std::int64_t rest = 0;
            for (std::size_t k = n; k < groups.size(); ++k) rest += groups[k].bytes;
            out << "  " << std::string(hlomem::human_bytes(rest).size() < 12 ? 12 - hlomem::human_bytes(rest).size() : 0, ' ')
                << hlomem::human_bytes(rest) << "  in " << groups.size() - n << " more lines\n";
        }
        if (depth > 0) {
            out << "  by op_name (to depth " << depth << "; --depth N):\n";
            print_holding_tree(out, hlomem::peak_by_op_name(h, sources), h.bytes, depth, 0);
        }
    }
}

/// The warning for source files looked for under the user's source roots and not found:
/// `hlomem timeline: source text: 1 of 3 files not found under --source-root (/src): /w/train.py`.
/// Nothing when every file was found.
inline void print_missing_sources(std::ostream& err, std::string_view command, source_text const& text) {
    auto const& missing = text.missing();
    if (missing.empty()) return;
    err << "hlomem " << command << ": source text: " << missing.size() << " of " << missing.size() + text.found_count()
        << " files not found as written or under --source-root (";
    for (std::size_t k = 0; k < text.roots().size(); ++k) err << (k ? ", " : "") << text.roots()[k];
    err << "):";
    std::size_t const shown = std::min<std::size_t>(missing.size(), 5);
    for (std::size_t k = 0; k < shown; ++k) err << ' ' << missing[k];
    if (missing.size() > shown) err << " and " << missing.size() - shown << " more";
    err << '\n';
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_SOURCES_HPP
