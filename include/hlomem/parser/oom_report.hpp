// hlomem/parser/oom_report.hpp: finds the out-of-memory reports in a log (TPU `Largest program
// allocations in hbm:` and GPU `BufferAssignment OOM Debugging.` blocks, oom_report.hpp) and reads
// every field that is there. Entry point: `try_parse_oom_reports` / `parse_oom_reports`.
//
// Reports are pasted from logs, so the grammar reads any text and picks out the blocks:
//   - a log header in front of a line is skipped, wherever a report line may start:
//       E1121 10:03:12.123456 12345 pjrt_stream_executor_client.cc:2826]      (glog, absl)
//       2024-05-01 10:00:00.000000: W external/xla/xla/service/gpu/gpu_compiler.cc:1573]  (TensorFlow)
//     and so is any indentation, with tabs or spaces;
//   - a block starts at a line (after header and indentation) that begins with
//       `Largest program allocations in <memory space>:`                   TPU
//       `BufferAssignment OOM Debugging.`, `BufferAssignment stats:` or `Peak buffers:`   GPU
//     (a paste may start at any of the three GPU lines); every other line between blocks is
//     skipped;
//   - an entry is `N. Size: 570.00M` (TPU) or `Buffer N:` (GPU) followed by field lines up to a
//     line of `=`; fields may come in any order; a field hlomem does not know (`Name: value`, the
//     name made of capitalized words) is kept as read, with a note;
//   - sizes are read in both printers' forms (`570.00M`, `570.00MiB`, `4.0K`, `0B`).
//
// Reports in the wild are cut off. Cut-off and damage are told apart by what follows:
//   - the input ends, or a line that is no part of a report comes, inside an entry: the report is
//     cut off there; the entry is kept without its `====` line and a located note says so;
//   - a field value that does not read (`Size: 384`, `Shape: f32[29184,2,25`) when nothing of the
//     report follows its line: the value is cut off; the entry is kept without it, with a note;
//   - the same when the report goes on after it (a field, a `====` line or an entry follows) is
//     damage inside a block and an error at the offending line and column, as is a malformed
//     Shape, a second `Shape:` in one entry, or a line that is no field between two fields;
//   - an entry that runs into the next entry's first line without `====` is kept, with a note.
// So a pasted log is read as far as it goes, and garbage inside a block is never skipped silently.
//
// The XLA label of a TPU entry is free text (the runtime cuts long ones with `...`); when it
// reads as `%name = SHAPE opcode(...)` the name, shape and opcode are kept, otherwise only the text.
#ifndef HLOMEM_PARSER_OOM_REPORT_HPP
#define HLOMEM_PARSER_OOM_REPORT_HPP

#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <hlomem/core/printed_size.hpp>
#include <hlomem/dump/oom_report.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/oom_lines.hpp>
#include <hlomem/parser/shape.hpp>

namespace hlomem::parser {

namespace oom {

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

struct builder_tag;

/// A value that may be cut off: what was read, or (when `cut`) the text that was there.
template <class Value>
struct field_value {
    std::optional<Value> value;
    std::string_view text;
    bool cut = false;
};

/// Turns a value that does not read into a cut-off one when nothing of the report follows its
/// line (the paste ends there): consumes the rest of the line and returns true. Returns false
/// when the report goes on, so that the caller's expectation reports the damage.
template <class Value, class Context>
bool cut_off_value(char const*& first, char const* last, Context const& ctx, field_value<Value>& out) {
    auto& b = x3::get<builder_tag>(ctx).get();
    if (report_continues_after(first, last, b.kind())) return false;
    char const* line_end = first;
    while (line_end < last && *line_end != '\n' && *line_end != '\r') ++line_end;
    char const* text_end = line_end;
    while (text_end > first && is_blank(text_end[-1])) --text_end;
    out.text = std::string_view(first, static_cast<std::size_t>(text_end - first));
    out.cut = true;
    first = line_end;
    return true;
}

/// A printed size (scan_printed_size: `570.00M`, `570.00MiB`, `4.0K`, `384.0KiB`, `0B`). Cut off
/// at the end of a report, the text is kept instead (cut_off_value).
struct printed_size_parser : token<printed_size_parser, field_value<printed_size>> {
    static constexpr char const* expected = "a size such as 570.00M or 384.0KiB";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        field_value<printed_size> out;
        printed_size size;
        if (char const* stop = scan_printed_size(first, last, size)) {
            out.value = size;
            out.text = std::string_view(first, static_cast<std::size_t>(stop - first));
            first = stop;
        } else if (!cut_off_value(first, last, ctx, out)) {
            return false;
        }
        x3::traits::move_to(out, attr);
        return true;
    }
};
inline constexpr printed_size_parser size_value{};

/// `(2.0x expansion)` after `Extra memory due to padding: 285.00M`.
struct expansion_parser : token<expansion_parser, field_value<std::pair<std::int64_t, int>>> {
    static constexpr char const* expected = "an expansion such as (2.0x expansion)";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        if (first == last || *first != '(') return false;
        field_value<std::pair<std::int64_t, int>> out;
        char const* p = first + 1;
        char const* const number = p;
        std::int64_t digits = 0;
        int decimals = 0;
        bool point = false;
        for (; p < last && (is_digit(*p) || (*p == '.' && !point)) && p - number < 18; ++p) {
            if (*p == '.') {
                point = true;
                continue;
            }
            digits = digits * 10 + (*p - '0');
            decimals += point ? 1 : 0;
        }
        std::string_view const tail = "x expansion)";
        if (p != number && is_digit(p[-1]) && starts_with(p, last, tail)) {
            out.value = std::make_pair(digits, decimals);
            out.text = std::string_view(number, static_cast<std::size_t>(p - number));
            first = p + tail.size();
        } else if (!cut_off_value(first, last, ctx, out)) {
            throw failure(first, "expected an expansion such as (2.0x expansion)", expected);
        }
        x3::traits::move_to(out, attr);
        return true;
    }
};
inline constexpr expansion_parser expansion{};

/// A shape read with the shape grammar; a shape cut off at the end of a report is kept as text.
/// Its errors are those of the shape grammar, located in the whole input.
template <class P>
struct shape_value_parser : token<shape_value_parser<P>, field_value<basic_shape<P>>> {
    static constexpr char const* expected = "a shape such as f32[8,128]{1,0:T(8,128)}";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        auto& b = x3::get<builder_tag>(ctx).get();
        field_value<basic_shape<P>> out;
        char const* p = first;
        try {
            out.value = parse_shape_prefix<P>(p, last, b.file, b.begin);
            out.text = std::string_view(first, static_cast<std::size_t>(p - first));
            first = p;
        } catch (parse_error const&) {
            if (!cut_off_value(first, last, ctx, out)) throw;
        }
        x3::traits::move_to(out, attr);
        return true;
    }
};

/// A leaf parser made of a plain function: `Scan::scan(first, last, value)` returns the end of
/// what it matched at `first` (after blanks) and sets `value`, or nullptr for no match.
template <class Scan, class Attribute>
struct scanned : token<scanned<Scan, Attribute>, Attribute> {
    static constexpr char const* expected = Scan::expected;

    template <class Iterator, class Context, class RContext, class Attr>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attr& attr) const {
        x3::skip_over(first, last, ctx);
        Attribute value{};
        char const* const end = Scan::scan(first, last, value);
        if (!end) return false;
        if constexpr (!std::is_same_v<Attribute, x3::unused_type>) x3::traits::move_to(std::move(value), attr);
        first = end;
        return true;
    }
};

/// A log header in front of a line (see skip_log_header); matches nothing when there is none.
struct log_header_scan {
    static constexpr char const* expected = "a log header";
    static char const* scan(char const* first, char const* last, x3::unused_type&) { return skip_log_header(first, last); }
};
inline constexpr scanned<log_header_scan, x3::unused_type> line_start{};

/// Reads the decimal number at `p` into `out`; nullptr when there is none or it overflows.
inline char const* scan_count(char const* p, char const* last, std::int64_t& out) {
    char const* const start = p;
    out = 0;
    for (; p < last && is_digit(*p); ++p) {
        if (!::hlomem::detail::checked_mul(out, 10, &out) || !::hlomem::detail::checked_add(out, *p - '0', &out)) return nullptr;
    }
    return p == start ? nullptr : p;
}

/// `2. Size:` (TPU): the entry number.
struct tpu_entry_head_scan {
    static constexpr char const* expected = "an entry such as '1. Size: 570.00M'";
    static char const* scan(char const* first, char const* last, std::int64_t& number) {
        if (!is_tpu_entry_head(first, last)) return nullptr;
        char const* p = scan_count(first, last, number);
        return p ? skip_blanks(p + 1, last) + std::strlen("Size:") : nullptr;
    }
};
inline constexpr scanned<tpu_entry_head_scan, std::int64_t> tpu_entry_head{};

/// `Buffer 2:` (GPU): the buffer number.
struct gpu_entry_head_scan {
    static constexpr char const* expected = "a buffer such as 'Buffer 1:'";
    static char const* scan(char const* first, char const* last, std::int64_t& number) {
        if (!is_gpu_entry_head(first, last)) return nullptr;
        char const* p = scan_count(skip_blanks(first + std::strlen("Buffer"), last), last, number);
        return p ? p + 1 : nullptr;
    }
};
inline constexpr scanned<gpu_entry_head_scan, std::int64_t> gpu_entry_head{};

/// A GPU stats label and its colon, `maybe_live_out allocation:`: lower-case words.
struct stat_name_scan {
    static constexpr char const* expected = "a statistic such as 'total allocation:'";
    static char const* scan(char const* first, char const* last, std::string_view& name) {
        char const* p = first;
        while (p < last && ((*p >= 'a' && *p <= 'z') || *p == '_' || *p == '-' || (*p == ' ' && p != first))) ++p;
        if (p == first || p == last || *p != ':') return nullptr;
        char const* name_end = p;
        while (name_end > first && name_end[-1] == ' ') --name_end;
        name = std::string_view(first, static_cast<std::size_t>(name_end - first));
        return p + 1;
    }
};
inline constexpr scanned<stat_name_scan, std::string_view> stat_name{};

/// `(0.00%)` after a stats size: the text inside the parentheses. Once `(` is there, the rest
/// must follow.
struct percent_scan {
    static constexpr char const* expected = "a percentage such as (0.00%)";
    static char const* scan(char const* first, char const* last, std::string_view& text) {
        if (first == last || *first != '(') return nullptr;
        char const* p = first + 1;
        while (p < last && (is_digit(*p) || *p == '.')) ++p;
        if (p == first + 1 || !starts_with(p, last, "%)")) throw failure(first, std::string("expected ") + expected, expected);
        text = std::string_view(first + 1, static_cast<std::size_t>(p - first));
        return p + 2;
    }
};
inline constexpr scanned<percent_scan, std::string_view> percent{};

/// The `====` line that ends an entry (any number of `=`: cut-off pastes shorten it).
struct separator_scan {
    static constexpr char const* expected = "a line of '='";
    static char const* scan(char const* first, char const* last, x3::unused_type&) {
        char const* p = first;
        while (p < last && *p == '=') ++p;
        return p == first ? nullptr : p;
    }
};
inline constexpr scanned<separator_scan, x3::unused_type> separator{};

/// The name of a field hlomem does not know, with its colon: capitalized words such as
/// `Source file:`; a single word must be one capital and lower-case letters (`Operator:`), so that
/// `XlaRuntimeError: ...` in a log is not taken for a field.
struct unknown_field_scan {
    static constexpr char const* expected = "a field such as 'Shape:'";
    static char const* scan(char const* first, char const* last, std::string_view& name) {
        auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
        auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
        if (first == last || !upper(*first)) return nullptr;
        char const* p = first;
        int words = 1;
        bool inner_capital = false;
        for (++p; p < last && (upper(*p) || lower(*p) || (*p == ' ' && p + 1 < last && (upper(p[1]) || lower(p[1])))); ++p) {
            if (*p == ' ') {
                ++words;
                ++p;
            } else if (upper(*p) && words == 1) {
                inner_capital = true;
            }
        }
        if (p == last || *p != ':' || (words == 1 && inner_capital)) return nullptr;
        if (p + 1 < last && !is_blank(p[1]) && p[1] != '\n' && p[1] != '\r') return nullptr;
        name = std::string_view(first, static_cast<std::size_t>(p - first));
        return p + 1;
    }
};
inline constexpr scanned<unknown_field_scan, std::string_view> unknown_field{};

/// A whole line of text outside any report, with its line end; no match at the end of the input.
/// (Blanks before it are skipped like any token's; the line is consumed whole either way.)
struct other_line_scan {
    static constexpr char const* expected = "a line";
    static char const* scan(char const* first, char const* last, x3::unused_type&) {
        return first == last ? nullptr : next_line(first, last);
    }
};
inline constexpr scanned<other_line_scan, x3::unused_type> other_line{};

// ---------------------------------------------------------------------------------------------
// The builder: turns what the rules read into the model, and decides about cut-off reports
// ---------------------------------------------------------------------------------------------

template <class P>
struct builder {
    using string_type = typename P::string_type;

    std::string_view file;
    char const* begin;
    char const* end;
    basic_oom_log<P>& log;
    line_counter lines;

    builder(std::string_view f, char const* b, char const* e, basic_oom_log<P>& l)
        : file(f), begin(b), end(e), log(l), lines(b) {}

    std::size_t line_of(char const* where) { return lines.line_of(where); }
    static string_type str(std::string_view s) { return string_type(s); }

    oom_report_kind kind() const { return log.reports.empty() ? oom_report_kind::tpu : log.reports.back().kind; }
    basic_oom_report<P>& report() { return log.reports.back(); }
    basic_oom_entry<P>& entry() { return report().entries.back(); }
    std::string entry_name() {
        return (kind() == oom_report_kind::tpu ? "entry " : "buffer ") + std::to_string(entry().number);
    }
    void note(char const* where, std::string message) {
        report().notes.push_back(oom_reader_note(line_of(where), lines.column_of(where), std::move(message)));
    }
    [[noreturn]] void fail(char const* where, std::string message) { throw failure(where, std::move(message)); }

    // -- reports and entries ---------------------------------------------------------------------
    void begin_report(oom_report_kind k, char const* where) {
        basic_oom_report<P> r;
        r.kind = k;
        r.line = line_of(where);
        log.reports.push_back(std::move(r));
    }
    void memory_space(std::string_view name) { report().memory_space = str(name); }
    void peak_buffers() { report().has_peak_buffers = true; }
    void begin_entry(std::int64_t number, char const* where) {
        basic_oom_entry<P> e;
        e.number = number;
        e.line = line_of(where);
        report().entries.push_back(std::move(e));
    }
    void entry_complete() { entry().complete = true; }

    /// The entry's fields stopped at `where` (a line start or the end) without a `====` line.
    void entry_interrupted(char const* where) {
        char const* const content = line_content(where, end);
        line_kind const k = classify(content, end, kind());
        if (k == line_kind::blank) {
            // The end of the input: point at the end of its last line.
            char const* last = end;
            while (last > begin && (last[-1] == '\n' || last[-1] == '\r')) --last;
            report().cut_off = true;
            note(last, "the input ends inside " + entry_name() + ", before its '====' line");
        } else if (k == line_kind::entry_head) {
            note(content, entry_name() + " has no '====' line before the next entry");
        } else if (report_continues_after(where, end, kind())) {
            fail(content, "expected a field such as 'Shape:' or the '====' line that ends " + entry_name());
        } else {
            report().cut_off = true;
            note(content, entry_name() + " is cut off here, before its '====' line; the rest is not part of the report");
        }
    }

    /// The report's entries stopped at `where`: the report ends there.
    void end_report(char const* where) {
        char const* line = where;
        while (line < end && classify(line_content(line, end), end, kind()) == line_kind::blank) {
            char const* next = next_line(line, end);
            if (next == line) break;
            line = next;
        }
        char const* const content = line_content(line, end);
        line_kind const k = classify(content, end, kind());
        if (k == line_kind::field || k == line_kind::separator) {
            fail(content, kind() == oom_report_kind::tpu ? "expected an entry such as '1. Size: 570.00M'; this field belongs to no entry"
                                                         : "expected a buffer such as 'Buffer 1:'; this field belongs to no buffer");
        }
        auto& r = report();
        if (r.kind == oom_report_kind::gpu && !r.has_peak_buffers) {
            r.cut_off = true;
            note(content, "the report ends before its 'Peak buffers:' line");
        } else if (r.entries.empty()) {
            r.cut_off = true;
            note(content, "the report ends before its first entry");
        }
    }

    // -- fields ----------------------------------------------------------------------------------
    template <class Value>
    bool take_cut(field_value<Value> const& v, char const* where, char const* field) {
        if (!v.cut) return false;
        report().cut_off = true;
        note(where, std::string("the ") + field + " of " + entry_name() + " is cut off: '" + std::string(v.text) + "'");
        return true;
    }
    /// A field may appear once per entry; `first_line` is where it was, 0 when not known.
    void once(bool present, std::size_t first_line, char const* where, char const* name) {
        if (!present) return;
        fail(where, entry_name() + " has a second '" + name + ":' line" +
                        (first_line ? "; the first is on line " + std::to_string(first_line) : std::string()));
    }
    void reported(std::optional<basic_reported_size<P>>& field, field_value<printed_size> const& v, char const* where,
                  char const* name) {
        once(field.has_value(), field ? field->line : 0, where, name);
        if (take_cut(v, where, name)) return;
        field = basic_reported_size<P>{str(v.text), *v.value, line_of(where)};
    }
    void size(field_value<printed_size> const& v, char const* where) { reported(entry().size, v, where, "Size"); }
    void unpadded_size(field_value<printed_size> const& v, char const* where) {
        reported(entry().unpadded_size, v, where, "Unpadded size");
    }
    void padding_size(field_value<printed_size> const& v, char const* where) {
        reported(entry().padding_size, v, where, "Extra memory due to padding");
    }
    void expansion(field_value<std::pair<std::int64_t, int>> const& v, char const* where) {
        if (take_cut(v, where, "expansion")) return;
        entry().expansion = basic_reported_ratio<P>{str(v.text), v.value->first, v.value->second, line_of(where)};
    }
    void shape(field_value<basic_shape<P>> const& v, char const* where, bool entry_parameter) {
        auto& e = entry();
        char const* const name = entry_parameter ? "Entry Parameter Subshape" : "Shape";
        once(!e.shape_text.empty(), e.shape_line, where, name);
        e.shape_text = str(v.text);
        e.shape_line = line_of(where);
        e.entry_parameter = entry_parameter;
        if (take_cut(v, where, name)) return;
        e.shape = *v.value;
    }
    void text_field(string_type& field, std::string_view text, char const* where, char const* name) {
        once(!std::string_view(field).empty(), 0, where, name);
        field = str(text);
    }
    void operator_text(std::string_view text, char const* where) { text_field(entry().operator_text, text, where, "Operator"); }
    void allocation_type(std::string_view text, char const* where) {
        text_field(entry().allocation_type, text, where, "Allocation type");
    }
    void label(std::string_view text, char const* where) {
        text_field(entry().label, text, where, "XLA label");
        entry().label_instruction = read_label(text);
    }
    void field_name(std::string_view name, char const* where) {
        entry().other_fields.push_back(basic_oom_field<P>{str(name), string_type{}, line_of(where)});
        note(where, "'" + std::string(name) + ":' is not a field hlomem knows; kept as read");
    }
    void field_value_text(std::string_view text) { entry().other_fields.back().value = str(text); }

    // -- GPU stats -------------------------------------------------------------------------------
    void stat(std::string_view name, char const* where) {
        basic_oom_stat<P> s;
        s.name = str(name);
        s.size.line = line_of(where);
        report().stats.push_back(std::move(s));
    }
    void stat_size(field_value<printed_size> const& v, char const* where) {
        auto& s = report().stats.back();
        if (v.cut) {
            report().cut_off = true;
            note(where, "the value of '" + std::string(std::string_view(s.name)) + "' is cut off: '" + std::string(v.text) + "'");
            return;
        }
        s.size.text = str(v.text);
        s.size.size = *v.value;
    }
    void stat_percent(std::string_view text) { report().stats.back().percent = str(text); }

    /// `%fusion.10 = (f32[...], ...) fusion(...), kind=kLoop`: name, result shape, opcode. Labels
    /// are free text, cut with `...` when long: what does not read is simply not kept.
    static std::optional<basic_label_instruction<P>> read_label(std::string_view text) {
        auto const eq = text.find(" = ");
        if (eq == std::string_view::npos || eq == 0) return std::nullopt;
        std::string_view name = text.substr(0, eq);
        if (name.front() == '%') name.remove_prefix(1);
        if (name.empty() || name.find(' ') != std::string_view::npos) return std::nullopt;
        basic_label_instruction<P> out;
        out.name = str(name);
        char const* p = text.data() + eq + 3;
        char const* const last = text.data() + text.size();
        try {
            out.shape = parse_shape_prefix<P>(p, last, "<XLA label>");
        } catch (parse_error const&) {
            return out;
        }
        p = skip_blanks(p, last);
        char const* opcode = p;
        while (p < last && (std::isalnum(static_cast<unsigned char>(*p)) || *p == '-' || *p == '_')) ++p;
        if (p < last && *p == '(') out.opcode = str(std::string_view(opcode, static_cast<std::size_t>(p - opcode)));
        return out;
    }
};

// ---------------------------------------------------------------------------------------------
// Actions: (context, attribute, where) -> the builder in the context
// ---------------------------------------------------------------------------------------------

namespace a {

template <class Context>
auto& b(Context const& ctx) {
    return x3::get<builder_tag>(ctx).get();
}

inline constexpr auto begin_tpu = [](auto& ctx, auto&, char const* where) { b(ctx).begin_report(oom_report_kind::tpu, where); };
inline constexpr auto begin_gpu = [](auto& ctx, auto&, char const* where) { b(ctx).begin_report(oom_report_kind::gpu, where); };
inline constexpr auto begin_gpu_at_peak = [](auto& ctx, auto&, char const* where) {
    b(ctx).begin_report(oom_report_kind::gpu, where);
    b(ctx).peak_buffers();
};
inline constexpr auto peak_buffers = [](auto& ctx, auto&, char const*) { b(ctx).peak_buffers(); };
inline constexpr auto memory_space = [](auto& ctx, std::string_view name, char const*) { b(ctx).memory_space(name); };
inline constexpr auto begin_entry = [](auto& ctx, std::int64_t number, char const* where) { b(ctx).begin_entry(number, where); };
inline constexpr auto entry_complete = [](auto& ctx, auto&, char const*) { b(ctx).entry_complete(); };
inline constexpr auto entry_interrupted = [](auto& ctx, auto&, char const* where) { b(ctx).entry_interrupted(where); };
inline constexpr auto end_report = [](auto& ctx, auto&, char const* where) { b(ctx).end_report(where); };
inline constexpr auto size = [](auto& ctx, auto const& v, char const* where) { b(ctx).size(v, where); };
inline constexpr auto unpadded_size = [](auto& ctx, auto const& v, char const* where) { b(ctx).unpadded_size(v, where); };
inline constexpr auto padding_size = [](auto& ctx, auto const& v, char const* where) { b(ctx).padding_size(v, where); };
inline constexpr auto expansion = [](auto& ctx, auto const& v, char const* where) { b(ctx).expansion(v, where); };
inline constexpr auto shape = [](auto& ctx, auto const& v, char const* where) { b(ctx).shape(v, where, false); };
inline constexpr auto parameter_shape = [](auto& ctx, auto const& v, char const* where) { b(ctx).shape(v, where, true); };
inline constexpr auto operator_text = [](auto& ctx, std::string_view v, char const* where) { b(ctx).operator_text(v, where); };
inline constexpr auto label = [](auto& ctx, std::string_view v, char const* where) { b(ctx).label(v, where); };
inline constexpr auto allocation_type = [](auto& ctx, std::string_view v, char const* where) { b(ctx).allocation_type(v, where); };
inline constexpr auto field_name = [](auto& ctx, std::string_view v, char const* where) { b(ctx).field_name(v, where); };
inline constexpr auto field_value = [](auto& ctx, std::string_view v, char const*) { b(ctx).field_value_text(v); };
inline constexpr auto stat = [](auto& ctx, std::string_view v, char const* where) { b(ctx).stat(v, where); };
inline constexpr auto stat_size = [](auto& ctx, auto const& v, char const* where) { b(ctx).stat_size(v, where); };
inline constexpr auto stat_percent = [](auto& ctx, std::string_view v, char const*) { b(ctx).stat_percent(v); };

}  // namespace a

// ---------------------------------------------------------------------------------------------
// Grammar (blanks are skipped between tokens; line ends are tokens)
// ---------------------------------------------------------------------------------------------

template <class P>
inline auto const log_def = [] {
    using x3::lit;
    auto const eol = end_of_line;
    auto const blank = line_start >> blank_line;
    auto const shape_value = shape_value_parser<P>{};
    auto const size_field = named(printed_size_parser::expected, size_value);

    // `Shape: f32[8,128]{1,0:T(8,128)}`: every field commits on its name.
    auto const field =
        (lit("Size:") > on_match(size_field, a::size)) |
        (lit("Unpadded size:") > on_match(size_field, a::unpadded_size)) |
        (lit("Extra memory due to padding:") > on_match(size_field, a::padding_size) > -on_match(expansion, a::expansion)) |
        (lit("Shape:") > on_match(shape_value, a::shape)) |
        (lit("Entry Parameter Subshape:") > on_match(shape_value, a::parameter_shape)) |
        (lit("Operator:") > on_match(rest_of_line, a::operator_text)) |
        ((lit("XLA label:") | lit("XLA Label:")) > on_match(rest_of_line, a::label)) |
        (lit("Allocation type:") > on_match(rest_of_line, a::allocation_type)) |
        (on_match(unknown_field, a::field_name) > on_match(rest_of_line, a::field_value));
    auto const field_line = (line_start >> field) > eol;
    // The fields of one entry, up to its `====` line or wherever the report stops.
    auto const entry_body = *(blank | field_line) >
                            (on_match((line_start >> separator) > eol, a::entry_complete) | on_match(x3::eps, a::entry_interrupted));

    // TPU: `Largest program allocations in hbm:` then `1. Size: 570.00M` entries.
    auto const tpu_entry = (line_start >> on_match(tpu_entry_head, a::begin_entry)) > on_match(size_field, a::size) > eol > entry_body;
    auto const tpu_report = (line_start >> on_match(lit("Largest program allocations in"), a::begin_tpu)) >
                            on_match(named("a memory space such as hbm", name), a::memory_space) > ':' > eol >
                            *(*blank >> tpu_entry) > on_match(x3::eps, a::end_report);

    // GPU: `BufferAssignment OOM Debugging.`, `BufferAssignment stats:` lines, `Peak buffers:`, buffers.
    auto const stat_line = (line_start >> on_match(stat_name, a::stat)) > on_match(size_field, a::stat_size) >
                           -on_match(percent, a::stat_percent) > eol;
    auto const stats_header = line_start >> lit("BufferAssignment stats:");
    auto const peak_header = line_start >> lit("Peak buffers:");
    auto const gpu_entry = (line_start >> on_match(gpu_entry_head, a::begin_entry)) > eol > entry_body;
    auto const gpu_entries = *(*blank >> gpu_entry);
    auto const peak_part = (*blank >> on_match(peak_header, a::peak_buffers)) > eol > gpu_entries;
    auto const gpu_report =
        (((line_start >> on_match(lit("BufferAssignment OOM Debugging."), a::begin_gpu)) > eol >
          -((*blank >> stats_header) > eol > *stat_line) > -peak_part) |
         (on_match(stats_header, a::begin_gpu) > eol > *stat_line > -peak_part) |
         (on_match(peak_header, a::begin_gpu_at_peak) > eol > gpu_entries)) >
        on_match(x3::eps, a::end_report);

    return *(tpu_report | gpu_report | other_line) > end_of_input;
}();

}  // namespace oom

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

// Declared with its default arguments and documentation in parser/api.hpp.
template <class P>
parse_result<basic_oom_log<P>> try_parse_oom_reports(std::string_view text, std::string_view file) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    return run_parse<basic_oom_log<P>>(file, begin, end, [&] {
        basic_oom_log<P> log;
        log.file = std::string(file);
        oom::builder<P> builder(file, begin, end, log);
        parse_state state;
        char const* first = begin;
        x3::phrase_parse(first, end,
                         x3::with<state_tag>(state)[x3::with<oom::builder_tag>(std::ref(builder))[oom::log_def<P>]],
                         blank_skipper);
        return log;
    });
}

}  // namespace hlomem::parser


#endif  // HLOMEM_PARSER_OOM_REPORT_HPP
