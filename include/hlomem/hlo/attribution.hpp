// hlomem/hlo/attribution.hpp: where each logical value comes from in the user's program, and
// which lines of it hold a color's peak.
//
// A buffer-assignment dump ends each Used-values block with the defining instruction's text,
// metadata included:
//
//   <3 fusion @0>
//    ...
//    from instruction: %fusion = f32[8192,8192]{1,0} fusion(...), kind=kLoop, calls=..., metadata={op_type="aten__mul"
//        op_name="jit(f)/mul" source_file="/code/model.py" source_line=83 stack_frame_id=4}
//
// and the module it was assigned from carries the same `metadata={...}` on each instruction,
// newer ones with `stack_frame_id=N` into the FileNames / FunctionNames / FileLocations /
// StackFrames tables printed after the module header (module.hpp, basic_stack_frame_index).
// attribute_values reads the dump's text (hlo/metadata.hpp, instruction_metadata) and, given the
// module (a separate `*after_optimizations.txt`, or the module an assignment was derived from),
// takes from it what the dump lacks, joining by instruction name; the Python stack comes from
// the module's tables, and so does the source line of every value whose metadata names only a
// `stack_frame_id` (hlo/stack_frames.hpp, metadata_position: the line of that frame).
//
// Each value also gets its origin (hlo/origin.hpp, trace_origins): its own source, an argument of
// the function, or the source a copy, a loop's state or a fusion without metadata inherits. The
// breakdowns group a color's peak_holdings (memory/peak_holdings.hpp) by origin: by source line
// (or argument), by op_name prefix (a tree, as XLA's hlo_stack_trace builds one) and by Python
// stack frame (a tree, outermost frame first, as a profiler shows it). Shared bytes count once,
// so each adds up to the color's peak; values traced to nothing form the group `no source`.
#ifndef HLOMEM_HLO_ATTRIBUTION_HPP
#define HLOMEM_HLO_ATTRIBUTION_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/origin.hpp>
#include <hlomem/hlo/source_path.hpp>
#include <hlomem/hlo/stack_frames.hpp>
#include <hlomem/memory/peak_holdings.hpp>

namespace hlomem {

/// The name of the group of values without metadata in every breakdown.
inline constexpr std::string_view no_source_group = "no source";

/// The metadata of every value of a buffer assignment, and the stack tables to resolve its
/// stack_frame_ids (from the module it was joined with; null without one, or when the module
/// has no tables).
template <class Q = default_policy>
struct basic_source_attribution {
    std::vector<value_source> values;  ///< one per buffer_assignment::values, in the same order
    /// Where each value's bytes come from (hlo/origin.hpp): its own source, an argument, or the
    /// source it inherits; what every breakdown groups by. One per value, in the same order; or,
    /// when only some values were attributed (`traced`), one per traced value. Read with origin_of.
    std::vector<value_origin> origins;
    /// The values `origins` holds, ascending, when only some were attributed (a report naming
    /// the values at the peaks); empty when `origins` holds every value's.
    std::vector<std::size_t> traced;
    basic_stack_frame_index<Q> const* frames = nullptr;
    std::size_t from_dump = 0;    ///< values whose metadata the dump states
    std::size_t from_module = 0;  ///< values whose metadata only the module states
    /// Values whose source line only their stack_frame_id gives, resolved in the module's tables
    /// (hlo/stack_frames.hpp, metadata_position): the metadata newest XLA prints names no
    /// source_file.
    std::size_t lines_from_frames = 0;
    /// The roots every path is shown below (strip_source_roots); empty: paths as XLA wrote them.
    std::vector<std::string> roots;

    value_source const& operator[](std::size_t value) const { return values[value]; }
    /// A value's origin; none for an attribution made without origins (built by hand).
    value_origin const& origin_of(std::size_t value) const {
        static value_origin const none;
        std::size_t const slot = traced.empty() ? value : detail::slot_in(traced, value);
        return slot < origins.size() ? origins[slot] : none;
    }
    std::size_t with_metadata() const noexcept { return from_dump + from_module; }
    /// The Python stack of a value, outermost first; empty without tables or a stack_frame_id.
    std::vector<python_frame> stack_of(std::size_t value) const {
        if (!frames) return {};
        auto stack = python_stack(*frames, origin_of(value).source.stack_frame_id);
        if (!roots.empty()) {
            for (auto& f : stack) f.file_name = strip_root(f.file_name, roots);
        }
        return stack;
    }
};

/// The source files of `s`'s values, each once, in the order of the values that name them.
template <class Q>
std::vector<std::string_view> source_files(basic_source_attribution<Q> const& s) {
    std::vector<std::string_view> out;
    std::unordered_set<std::string_view> seen;
    for (auto const& v : s.values) {
        if (!v.source_file.empty() && seen.insert(v.source_file).second) out.push_back(v.source_file);
    }
    return out;
}

/// Shows every path of `s` below the longest of `roots` it lies under (hlo/source_path.hpp
/// strip_root): each value's source_file now, each frame's file name in stack_of. The views
/// are narrowed, nothing is copied. With no roots, nothing changes.
template <class Q>
void strip_source_roots(basic_source_attribution<Q>& s, std::vector<std::string> roots) {
    if (roots.empty()) return;
    for (auto& v : s.values) {
        if (!v.source_file.empty()) v.source_file = strip_root(v.source_file, roots);
    }
    for (auto& o : s.origins) {
        if (!o.source.source_file.empty()) o.source.source_file = strip_root(o.source.source_file, roots);
    }
    s.roots = std::move(roots);
}
using source_attribution = basic_source_attribution<>;

namespace detail {

/// `wanted` (indices into a list of `n` values) ascending, each once, those out of range left out.
inline std::vector<std::size_t> ascending_values(std::vector<std::size_t> wanted, std::size_t n) {
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    wanted.erase(std::lower_bound(wanted.begin(), wanted.end(), n), wanted.end());
    return wanted;
}

/// The attribution of the values `wanted` lists (ascending, each once; every value when null).
template <class P, class Q>
basic_source_attribution<Q> attribute(basic_buffer_assignment<P> const& ba, basic_hlo_module<Q> const* m,
                                      std::vector<std::size_t> const* wanted = nullptr) {
    basic_source_attribution<Q> out;
    std::vector<char> flags;  // which values are wanted, for the module's instructions
    if (wanted) {
        flags.assign(ba.values.size(), 0);
        for (std::size_t i : *wanted) flags[i] = 1;
    }
    // Every value's metadata written once in place; only the values wanted among others need
    // the empty ones first.
    if (wanted) {
        out.values.resize(ba.values.size());
    } else {
        out.values.reserve(ba.values.size());
    }
    // The dump repeats each instruction's stack_frame_id but not the tables: they are the module's.
    basic_stack_frame_index<Q> const* const frames = m ? &m->stack_frame_index() : nullptr;
    if (frames && !frames->stack_frames.empty()) out.frames = frames;
    std::vector<char> line_from_frame(ba.values.size(), 0);
    // The values of one instruction (its tuple elements) follow each other by id in most dumps:
    // read each instruction's text once.
    std::string_view last_text;
    value_source last;
    bool last_from_frame = false;
    for (std::size_t k = 0, n = wanted ? wanted->size() : ba.values.size(); k < n; ++k) {
        std::size_t const i = wanted ? (*wanted)[k] : k;
        std::string_view const text(ba.values[i].instruction_text);
        if (text.empty()) {
            if (!wanted) out.values.emplace_back();
            continue;
        }
        if (text.data() != last_text.data() || text.size() != last_text.size()) {
            last = value_source{};
            last_from_frame = false;
            if (auto md = instruction_metadata(text)) {
                last = origin_source_from(*md, metadata_origin::dump, frames);
                last_from_frame = md->source_file.empty() && last.has_source_line();
            }
            last_text = text;
        }
        if (wanted) {
            out.values[i] = last;
        } else {
            out.values.push_back(last);
        }
        line_from_frame[i] = last_from_frame;
    }
    if (m) {
        // Each instruction of the module that has metadata, to the values it defines: XLA names
        // instructions uniquely within a module (NameUniquer), and the dump names each value by
        // its defining instruction. The lookup is the assignment's own index (values_of_instruction),
        // so the module is read once, with no table of its names; instructions without metadata
        // cost nothing, and fusion bodies are skipped, since buffer assignment gives their
        // instructions no values (BufferAssignment assigns only unfused instructions).
        for (computation_id c = 0; c < m->computation_count(); ++c) {
            auto const callers = m->callers(c);
            bool const fused = !callers.empty() && std::all_of(callers.begin(), callers.end(), [](hlo_call const& call) {
                return call.kind == call_kind::fusion;
            });
            if (fused) continue;
            for (instruction_id k : m->computation(c).instructions()) {
                auto const* md = m->metadata(k);
                if (!md) continue;
                auto const from_module = origin_source_from(*md, metadata_origin::module, frames);
                bool const from_frame = std::string_view(md->source_file).empty() && from_module.has_source_line();
                for (std::size_t i : ba.values_of_instruction(std::string_view(m->instruction(k).name))) {
                    if (wanted && !flags[i]) continue;
                    auto& s = out.values[i];
                    if (!s.has_metadata()) {
                        s = from_module;
                        line_from_frame[i] = from_frame;
                        continue;
                    }
                    // An older dump's text may lack what its module states: its stack frame, and
                    // the line that frame names.
                    if (s.stack_frame_id == 0) s.stack_frame_id = md->stack_frame_id;
                    if (!s.has_source_line() && from_module.has_source_line()) {
                        s.source_file = from_module.source_file;
                        s.source_line = from_module.source_line;
                        line_from_frame[i] = from_frame;
                    }
                }
            }
        }
    }
    for (auto const& s : out.values) {
        if (s.origin == metadata_origin::dump) ++out.from_dump;
        if (s.origin == metadata_origin::module) ++out.from_module;
    }
    for (char f : line_from_frame) out.lines_from_frames += f != 0;
    out.origins = trace_origins(ba, m, out.values, wanted);
    if (wanted) out.traced = *wanted;
    return out;
}

}  // namespace detail

/// The metadata of each value as the dump states it after ` from instruction: ` (values without
/// a Used-values block, or whose instruction has no metadata, have none).
template <class P>
basic_source_attribution<P> attribute_values(basic_buffer_assignment<P> const& ba) {
    return detail::attribute<P, P>(ba, nullptr);
}

/// attribute_values for the values `wanted` (indices into ba.values) alone: the others have no
/// metadata, and the counts count only these. What a report that names only the values live at
/// a peak needs, without reading every other value's text.
template <class P>
basic_source_attribution<P> attribute_values(basic_buffer_assignment<P> const& ba, std::vector<std::size_t> const& wanted) {
    auto const list = detail::ascending_values(wanted, ba.values.size());
    return detail::attribute<P, P>(ba, nullptr, &list);
}

/// The metadata of each value, the dump's joined with its module's: the dump's text where it has
/// metadata, else the module's instruction of the value's name (an assignment derived from the
/// module, or a dump whose instruction texts carry none); a stack_frame_id and the stack tables
/// from the module. The attribution refers to `m`, which must outlive it.
template <class P, class Q>
basic_source_attribution<Q> attribute_values(basic_buffer_assignment<P> const& ba, basic_hlo_module<Q> const& m) {
    return detail::attribute(ba, &m);
}

/// attribute_values with the module for the values `wanted` (indices into ba.values) alone.
template <class P, class Q>
basic_source_attribution<Q> attribute_values(basic_buffer_assignment<P> const& ba, basic_hlo_module<Q> const& m,
                                             std::vector<std::size_t> const& wanted) {
    auto const list = detail::ascending_values(wanted, ba.values.size());
    return detail::attribute(ba, &m, &list);
}

/// For the holdings of shared bytes: values whose origin has a source line first, then those
/// traced to an argument, then what earliest_value_first says. A value with no source (a copy
/// whose operand has none either) that shares its slice with one the program defined then
/// leaves the bytes to that line rather than to `no source`.
template <class P, class Q>
struct sourced_value_first {
    basic_buffer_assignment<P> const& ba;
    basic_source_attribution<Q> const& sources;
    int rank(std::size_t v) const {
        auto const& o = sources.origin_of(v);
        return o.source.has_source_line() && !o.is_argument() ? 2 : o.is_argument() ? 1 : 0;
    }
    bool operator()(std::size_t a, std::size_t b) const {
        int const ra = rank(a), rb = rank(b);
        if (ra != rb) return ra > rb;
        return earliest_value_first<P>{ba}(a, b);
    }
};

/// The holdings at each color's peak, shared bytes given by sourced_value_first.
template <class P, class Q>
std::vector<peak_holdings> peak_holdings_by_color(basic_buffer_assignment<P> const& ba,
                                                  std::vector<color_live_bytes> const& colors,
                                                  basic_source_attribution<Q> const& sources) {
    return peak_holdings_by_color(ba, colors, sourced_value_first<P, Q>{ba, sources});
}

/// Where a group of a breakdown comes from: a source line of the program (`source_file` as
/// written, `source_line`), or argument N of the function; with the kind of origin its values
/// have (own, output or inherited: a line's own values and those that inherit it are two groups).
/// The empty file and no argument is the `no source` group.
struct source_line_key {
    std::string_view source_file;
    std::int64_t source_line = 0;
    origin_kind kind = origin_kind::none;
    std::int64_t argument = -1;      ///< argument N; -1 for a source line
    std::string_view argument_name;  ///< the name JAX gave it (its parameter's op_name)
    bool donated = false;

    bool is_no_source() const noexcept { return source_file.empty() && argument < 0; }
    bool is_argument() const noexcept { return argument >= 0; }
    friend bool operator<(source_line_key const& a, source_line_key const& b) {
        // Lines first, then arguments; `no source` sorts last among groups of equal bytes.
        return std::make_tuple(a.is_no_source(), a.is_argument(), a.source_file, a.source_line, a.argument, a.kind) <
               std::make_tuple(b.is_no_source(), b.is_argument(), b.source_file, b.source_line, b.argument, b.kind);
    }
    friend bool operator==(source_line_key const& a, source_line_key const& b) {
        return a.source_file == b.source_file && a.source_line == b.source_line && a.argument == b.argument && a.kind == b.kind;
    }
};

/// The group of a value's origin.
inline source_line_key origin_key(value_origin const& o) {
    if (o.is_argument()) return {{}, 0, o.kind, o.argument, o.argument_name, o.donated};
    if (o.source.has_source_line()) return {o.source.source_file, o.source.source_line, o.kind, -1, {}, false};
    return {};
}

/// The group of a value's origin without its kind: the line (or argument) its bytes come from,
/// whether the value made them, inherits them or is an output (the timeline's hue families).
inline source_line_key origin_line_key(value_origin const& o) {
    auto key = origin_key(o);
    key.kind = key.is_no_source() ? origin_kind::none : origin_kind::own;
    return key;
}

/// The peak by origin: by the source line each value's bytes are traced to, or the argument;
/// largest first; the bytes add up to h.bytes.
template <class Q>
std::vector<holding_group<source_line_key>> peak_by_source_line(peak_holdings const& h,
                                                                basic_source_attribution<Q> const& sources) {
    return group_holdings(h, [&](std::size_t v) { return origin_key(sources.origin_of(v)); });
}

/// `argument 2 (psi, donated)`: an argument as the breakdowns name it (C escapes kept).
inline std::string argument_label(std::int64_t argument, std::string_view name, bool donated) {
    std::string s = "argument " + std::to_string(argument);
    if (!name.empty() || donated) {
        s += " (" + std::string(name) + (name.empty() || !donated ? "" : ", ") + (donated ? "donated" : "") + ")";
    }
    return s;
}

/// The parts of an op_name, split at each '/' outside brackets and quotes:
///   "jit(f)/while/body/dot_general" -> "jit(f)", "while", "body", "dot_general"
///   "jit(f)/transpose(jvp(g))/mul"  -> "jit(f)", "transpose(jvp(g))", "mul"
/// (JAX writes transformations as `transpose(jvp(...))`, whose names may hold a '/' of their own.)
inline std::vector<std::string_view> op_name_parts(std::string_view op_name) {
    std::vector<std::string_view> out;
    int depth = 0;
    bool quoted = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i < op_name.size(); ++i) {
        char const c = op_name[i];
        if (quoted) {
            if (c == '\\') ++i;
            else if (c == '\'') quoted = false;
        } else if (c == '\'') {
            quoted = true;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            --depth;
        } else if (c == '/' && depth == 0) {
            if (i > start) out.push_back(op_name.substr(start, i - start));
            start = i + 1;
        }
    }
    if (start < op_name.size()) out.push_back(op_name.substr(start));
    return out;
}

/// The peak as a tree of op_name prefixes: each node is named by its whole prefix (`jit(f)`,
/// `jit(f)/while`, `jit(f)/while/body`, ...), holds the values whose op_name is exactly that and
/// the bytes of every value below it. Values without an op_name hang from the child `no
/// source`. The root (name empty) holds h.bytes.
template <class Q>
holding_tree peak_by_op_name(peak_holdings const& h, basic_source_attribution<Q> const& sources) {
    return tree_of_holdings(h, [&](std::size_t v) {
        std::vector<std::string> path;
        auto const& o = sources.origin_of(v);
        if (o.is_argument()) {
            path.push_back(argument_label(o.argument, o.argument_name, o.donated));
            return path;
        }
        auto const parts = op_name_parts(o.source.op_name);
        if (parts.empty()) {
            path.emplace_back(no_source_group);
            return path;
        }
        std::string_view const whole = o.source.op_name;
        for (auto part : parts) {
            path.emplace_back(whole.substr(0, static_cast<std::size_t>(part.data() + part.size() - whole.data())));
        }
        return path;
    });
}

/// A stack frame as a breakdown names it: `function (file:line)`, or `file:line` when the
/// location names no function (C escapes kept, as everywhere).
inline std::string frame_label(python_frame const& f) {
    std::string where = std::string(f.file_name) + ":" + std::to_string(f.line);
    if (f.function_name.empty()) return where;
    return std::string(f.function_name) + " (" + where + ")";
}

/// The peak as a tree of Python stack frames, outermost first (a profiler's top-down tree).
/// A value without a stack (no tables, or no stack_frame_id) but with a source line hangs from
/// the single frame `file:line`; a value with neither from `no source`. The root (name empty)
/// holds h.bytes.
template <class Q>
holding_tree peak_by_stack_frame(peak_holdings const& h, basic_source_attribution<Q> const& sources) {
    return tree_of_holdings(h, [&](std::size_t v) {
        std::vector<std::string> path;
        auto const& o = sources.origin_of(v);
        if (o.is_argument()) {
            path.push_back(argument_label(o.argument, o.argument_name, o.donated));
            return path;
        }
        for (auto const& f : sources.stack_of(v)) path.push_back(frame_label(f));
        if (path.empty()) {
            auto const& s = o.source;
            if (s.has_source_line()) {
                path.push_back(std::string(s.source_file) + ":" + std::to_string(s.source_line));
            } else {
                path.emplace_back(no_source_group);
            }
        }
        return path;
    });
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_ATTRIBUTION_INSTANTIATIONS(EXTERN, P) \
    EXTERN template void strip_source_roots<P>(basic_source_attribution<P>&, std::vector<std::string>); \
    EXTERN template basic_source_attribution<P> attribute_values<P>(basic_buffer_assignment<P> const&); \
    EXTERN template basic_source_attribution<P> attribute_values<P>(basic_buffer_assignment<P> const&, std::vector<std::size_t> const&); \
    EXTERN template basic_source_attribution<P> attribute_values<P, P>(basic_buffer_assignment<P> const&, basic_hlo_module<P> const&); \
    EXTERN template basic_source_attribution<P> attribute_values<P, P>(basic_buffer_assignment<P> const&, basic_hlo_module<P> const&, std::vector<std::size_t> const&); \
    EXTERN template std::vector<peak_holdings> peak_holdings_by_color<P, P>(basic_buffer_assignment<P> const&, std::vector<color_live_bytes> const&, basic_source_attribution<P> const&); \
    EXTERN template std::vector<holding_group<source_line_key>> peak_by_source_line<P>(peak_holdings const&, basic_source_attribution<P> const&); \
    EXTERN template holding_tree peak_by_op_name<P>(peak_holdings const&, basic_source_attribution<P> const&); \
    EXTERN template holding_tree peak_by_stack_frame<P>(peak_holdings const&, basic_source_attribution<P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_ATTRIBUTION_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_HLO_ATTRIBUTION_HPP
