// hlomem/parser/oom_report.hpp: finds the out-of-memory reports in a log or a pasted issue (TPU
// summaries and `Largest program allocations in hbm:` lists, GPU `BufferAssignment OOM
// Debugging.` blocks, dump/oom_report.hpp) and reads every entry and summary that is there.
// Entry point: `try_parse_oom_reports` / `parse_oom_reports`.
//
// Reports reach hlomem as people paste them, so the reader reads line by line and never gives up
// on a whole input:
//   - whatever stands in front of the text of a line is skipped (parser/oom_lines.hpp): log
//     headers, indentation, markdown quotes, colour codes, launcher tags (`[rank3]:`, `(pid=123)`);
//   - each line is classified by its text alone (an entry head, a field, a `====` line, a report
//     header, a summary phrase, anything else); a summary phrase is found anywhere in a line
//     (`RuntimeError: ... Ran out of memory in memory space hbm. Used ...`);
//   - the pieces are grouped into reports in XLA's order (TPU: the summary, the capacity lines,
//     `Total hbm usage`, `Output size`, `Program hbm requirement`, the list, its entries; GPU: the
//     allocation that failed, the header, the stats, `Peak buffers:`, the buffers); a piece that
//     comes again, or earlier in that order, or of the other kind, starts the next report;
//   - an excerpt that starts inside an entry yields that entry without its head (the fields it
//     has; its number is the next entry's minus one when one follows); a field that an entry
//     already has starts the next entry, whose head was not copied;
//   - a line that is no part of a report is skipped; when the report goes on after such lines
//     (a remark, a traceback, `...` between entries) they are a warning with their line numbers;
//     when it does not, the report ended there, and an entry left open is cut off (a note);
//   - a line that continues a free-text field (a label or operator wrapped by the page, the next
//     line of the entry coming after it) is part of that field; a Shape wrapped over two lines is
//     read across them;
//   - a value that does not read (a Size cut to `384`, a Shape cut to `f32[29184,1,25`, a layout
//     that lists a dimension twice) is kept as text, with a note at its line and column.
// So nothing is dropped silently and nothing fails the whole input: a file without any report
// gives an empty log, which callers report as such.
#ifndef HLOMEM_PARSER_OOM_REPORT_HPP
#define HLOMEM_PARSER_OOM_REPORT_HPP

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/error.hpp>
#include <hlomem/core/printed_size.hpp>
#include <hlomem/dump/oom_report.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/oom_lines.hpp>
#include <hlomem/parser/shape.hpp>

namespace hlomem::parser {

namespace oom {

/// A printed size at `p` (after blanks): the size and its text, or nullopt. `-2.55G` reads with
/// `negative` set when `allow_negative`.
struct size_token {
    printed_size size;
    std::string_view text;
    bool negative = false;
    char const* end = nullptr;
};

inline std::optional<size_token> read_size(char const* p, char const* end, bool allow_negative = false) {
    p = skip_blanks(p, end);
    size_token t;
    char const* q = p;
    if (allow_negative && q < end && *q == '-') {
        t.negative = true;
        ++q;
    }
    char const* stop = scan_printed_size(q, end, t.size);
    if (!stop) return std::nullopt;
    t.text = std::string_view(p, static_cast<std::size_t>(stop - p));
    t.end = stop;
    return t;
}

/// `(     554,696,704 bytes)` or `(  -2,735,391,744 bytes)` at `p`: the byte count, or nullopt.
inline std::optional<std::int64_t> read_exact_bytes(char const* p, char const* end) {
    p = skip_blanks(p, end);
    if (p == end || *p != '(') return std::nullopt;
    p = skip_blanks(p + 1, end);
    bool negative = false;
    if (p < end && *p == '-') {
        negative = true;
        ++p;
    }
    std::int64_t v = 0;
    bool any = false;
    for (; p < end && (is_digit(*p) || *p == ','); ++p) {
        if (*p == ',') continue;
        if (!::hlomem::detail::checked_mul(v, std::int64_t{10}, &v) || !::hlomem::detail::checked_add(v, std::int64_t{*p - '0'}, &v)) {
            return std::nullopt;
        }
        any = true;
    }
    p = skip_blanks(p, end);
    if (!any || !starts_with(p, end, "bytes)")) return std::nullopt;
    return negative ? -v : v;
}

/// A line of figures: `reserved        530.00M`, `HLO temp 14.31G (100.0% utilization...)`,
/// `arguments       unknown size`, `Top-of-Memory reserved:  529.00M (554,696,704 bytes)`,
/// `total fragmentation:  0B (0.00%)`: a name (words, possibly with parentheses), then a size.
struct usage_line {
    std::string_view name;
    std::optional<size_token> size;
    bool unknown = false;                 ///< `unknown size`
    std::optional<std::int64_t> exact;
    std::string_view detail;              ///< what follows the size
};

inline std::optional<usage_line> read_usage_line(char const* content, char const* end) {
    if (content == end || !(std::isalpha(static_cast<unsigned char>(*content)))) return std::nullopt;
    usage_line out;
    auto name_up_to = [&](char const* q) {
        char const* n = q;
        while (n > content && is_blank(n[-1])) --n;
        if (n > content && n[-1] == ':') --n;
        return std::string_view(content, static_cast<std::size_t>(n - content));
    };
    for (char const* q = content; q < end; ++q) {
        if (!is_blank(*q)) continue;
        char const* token = skip_blanks(q, end);
        if (token == end) break;
        if (starts_with(token, end, "unknown")) {
            out.name = name_up_to(q);
            out.unknown = true;
            return out.name.empty() ? std::nullopt : std::optional<usage_line>(out);
        }
        if (auto s = read_size(token, end, true)) {
            if (s->end < end && !is_blank(*s->end) && *s->end != '(' && *s->end != ',') continue;
            out.name = name_up_to(q);
            if (out.name.empty() || out.name.size() > 64) return std::nullopt;
            out.size = s;
            out.exact = read_exact_bytes(s->end, end);
            char const* d = skip_blanks(s->end, end);
            out.detail = std::string_view(d, static_cast<std::size_t>(end - d));
            return out;
        }
        q = token - 1;
    }
    // A name alone (`overlays`): its value was not copied.
    for (char const* q = content; q < end; ++q) {
        if (!std::isalnum(static_cast<unsigned char>(*q)) && !is_blank(*q) && *q != '_' && *q != '-') return std::nullopt;
    }
    if (end - content > 40) return std::nullopt;
    out.name = std::string_view(content, static_cast<std::size_t>(end - content));
    return out;
}

/// `Name: value`, a name of up to three words of letters, the first capitalized (`Source file:
/// /home/user/model.py:212`): a field of an entry that hlomem does not know. Returns the colon
/// after the name; nullptr when the line is not one (`Execution of replica 0 failed: ...`).
inline char const* unknown_field_end(char const* p, char const* end) {
    if (p == end || !std::isupper(static_cast<unsigned char>(*p))) return nullptr;
    char const* q = p;
    int words = 1;
    while (q < end && q - p < 40 && (std::isalpha(static_cast<unsigned char>(*q)) || *q == ' ' || *q == '_')) {
        if (*q == ' ') ++words;
        ++q;
    }
    if (q == end || *q != ':' || q[-1] == ' ' || words > 3) return nullptr;
    if (q + 1 < end && !is_blank(q[1])) return nullptr;
    return q;
}

/// The phases of a report in XLA's order; a piece of a report joins the current one only when it
/// comes later in this order (entries may repeat).
enum phase : int {
    tpu_summary = 0,   // `Ran out of memory ...`, `Attempting to reserve ...`
    tpu_capacity = 1,  // `HBM capacity 8.00G:`
    tpu_total = 2,     // `Total hbm usage >= ...:`
    tpu_heap = 3,      // `Heap allocator status:`
    tpu_persistent = 4,
    tpu_output = 5,    // `Output size ...`
    tpu_program = 6,   // `Program hbm requirement ...:`
    tpu_list = 7,      // `Largest program allocations in hbm:`
    gpu_allocate = 0,  // `Out of memory while trying to allocate N bytes.`
    gpu_header = 1,
    gpu_stats = 2,
    gpu_peak = 3,
    entries = 10,
};

/// The reader: one pass over the lines, with a look ahead where a line's meaning depends on what
/// follows (a wrapped field, the kind and number of an entry whose head was not copied).
template <class P>
class reader {
public:
    using string_type = typename P::string_type;

    reader(std::string_view text, std::string_view file, basic_oom_log<P>& log)
        : file_(file), begin_(text.data()), end_(text.data() + text.size()), log_(log) {
        for (char const* p = begin_; p < end_;) {
            char const* e = p;
            while (e < end_ && *e != '\n') ++e;
            char const* next = e < end_ ? e + 1 : e;
            char const* text_end = e;
            while (text_end > p && (text_end[-1] == '\r' || is_blank(text_end[-1]))) --text_end;
            char const* content = line_content(p, text_end);
            lines_.push_back(line{p, content, text_end, classify(content, text_end)});
            p = next;
        }
    }

    void run() {
        for (std::size_t i = 0; i < lines_.size(); ++i) i = read_line(i);
        finish_report();
        for (auto& r : log_.reports) infer_numbers(r);
    }

private:
    struct line {
        char const* begin;
        char const* content;
        char const* end;
        classified what;
    };

    enum class section : std::uint8_t { none, gpu_stats, usage };

    std::string_view file_;
    char const* begin_;
    char const* end_;
    basic_oom_log<P>& log_;
    std::vector<line> lines_;

    // The report being read.
    bool open_ = false;
    int phase_ = -1;
    section section_ = section::none;
    oom_usage_part part_ = oom_usage_part::total;
    bool entry_open_ = false;
    bool waiting_used_ = false;      // `Ran out of memory ...` broken before `Used ...`
    bool waiting_exceeded_ = false;  // ... or before `Exceeded ...`
    // The free-text field a wrapped line would continue: which, where its value starts, its line.
    string_type* wrap_field_ = nullptr;
    char const* wrap_start_ = nullptr;
    std::size_t wrap_line_ = 0;
    // Lines that are no part of the report, since the last line that was.
    std::size_t skipped_first_ = 0;  // 1-based, 0: none
    std::size_t skipped_last_ = 0;
    bool entry_open_at_skip_ = false;

    static string_type str(std::string_view s) { return string_type(s); }
    static std::size_t number_of(std::size_t index) { return index + 1; }
    std::size_t column_of(std::size_t index, char const* where) const {
        return static_cast<std::size_t>(where - lines_[index].begin) + 1;
    }

    basic_oom_report<P>& report() { return log_.reports.back(); }
    basic_oom_entry<P>& entry() { return report().entries.back(); }
    std::string entry_name() {
        auto const& e = entry();
        std::string const word = report().kind == oom_report_kind::tpu ? "entry" : "buffer";
        if (!e.has_head) return "the " + word + " at line " + std::to_string(e.line);
        return word + " " + std::to_string(e.number);
    }
    void note(std::size_t index, char const* where, std::string message) {
        report().notes.push_back(oom_reader_note(number_of(index), column_of(index, where), std::move(message)));
    }
    static std::string shortened(std::string_view text, std::size_t limit = 80) {
        if (text.size() <= limit) return std::string(text);
        return std::string(text.substr(0, limit)) + "...";
    }
    std::string_view text_of(std::size_t index) const {
        auto const& l = lines_[index];
        return std::string_view(l.content, static_cast<std::size_t>(l.end - l.content));
    }

    // -- reports -------------------------------------------------------------------------------

    /// The report that a piece of kind `kind` at phase `phase` belongs to: the current one, or a
    /// new one (see the order above). Returns true when it joined the current report.
    bool enter(oom_report_kind kind, int phase, std::size_t index) {
        bool const joins = open_ && report().kind == kind && (phase > phase_ || (phase == entries && phase_ == entries));
        if (!joins) {
            finish_report();
            basic_oom_report<P> r;
            r.kind = kind;
            r.line = number_of(index);
            log_.reports.push_back(std::move(r));
            open_ = true;
        } else if (skipped_first_ != 0) {
            // The report goes on after lines that are no part of it.
            std::string const what = skipped_first_ == skipped_last_ ? "line " + std::to_string(skipped_first_)
                                                                     : "lines " + std::to_string(skipped_first_) + "-" +
                                                                           std::to_string(skipped_last_);
            report().notes.push_back(oom_reader_note(
                skipped_first_, 1, what + " inside the report " + (skipped_first_ == skipped_last_ ? "is" : "are") +
                                       " not part of it and " + (skipped_first_ == skipped_last_ ? "was" : "were") +
                                       " skipped: '" + shortened(text_of(skipped_first_ - 1)) + "'"));
        }
        skipped_first_ = skipped_last_ = 0;
        entry_open_at_skip_ = false;
        phase_ = phase;
        return joins;
    }

    /// The current report ends (a new one starts, or the input ends).
    void finish_report() {
        if (!open_) return;
        auto& r = report();
        if (entry_open_) {
            r.cut_off = true;
            if (skipped_first_ != 0 && entry_open_at_skip_) {
                r.notes.push_back(oom_reader_note(skipped_first_, 1,
                                                  entry_name() + " is cut off here, before its '====' line; the rest is not part of the report"));
            } else {
                std::size_t last = lines_.size();
                while (last > 1 && lines_[last - 1].what.kind == text_kind::blank) --last;
                r.notes.push_back(oom_reader_note(last, static_cast<std::size_t>(lines_[last - 1].end - lines_[last - 1].begin) + 1,
                                                  "the input ends inside " + entry_name() + ", before its '====' line"));
            }
        }
        if (r.kind == oom_report_kind::gpu && phase_ >= gpu_header && phase_ <= gpu_stats && r.entries.empty()) {
            r.cut_off = true;
            r.notes.push_back(oom_reader_note(r.line, 1, "the report ends before its 'Peak buffers:' line"));
        } else if (r.list_line != 0 && r.entries.empty()) {
            r.cut_off = true;
            r.notes.push_back(oom_reader_note(r.list_line, 1, "the report ends before its first entry"));
        }
        open_ = false;
        entry_open_ = false;
        phase_ = -1;
        section_ = section::none;
        wrap_field_ = nullptr;
        waiting_used_ = waiting_exceeded_ = false;
        skipped_first_ = skipped_last_ = 0;
    }

    void skip(std::size_t index) {
        if (!open_) return;
        if (skipped_first_ == 0) {
            skipped_first_ = number_of(index);
            entry_open_at_skip_ = entry_open_;
        }
        skipped_last_ = number_of(index);
        wrap_field_ = nullptr;
        section_ = section::none;
    }

    void set_memory_space(std::string_view name) {
        if (std::string_view(report().memory_space).empty() && !name.empty()) report().memory_space = str(name);
    }

    /// A memory space name at `p`: letters, digits and underscores.
    static std::string_view space_name(char const* p, char const* end) {
        char const* q = p;
        while (q < end && (std::isalnum(static_cast<unsigned char>(*q)) || *q == '_')) ++q;
        return std::string_view(p, static_cast<std::size_t>(q - p));
    }

    basic_reported_size<P> reported(size_token const& t, std::size_t index) const {
        return basic_reported_size<P>{str(t.text), t.size, number_of(index)};
    }

    void add_usage(usage_line const& u, oom_usage_part part, std::size_t index) {
        basic_oom_usage<P> out;
        out.name = str(u.name);
        out.part = part;
        out.line = number_of(index);
        if (u.size) {
            out.size = reported(*u.size, index);
            out.negative = u.size->negative;
        }
        out.exact_bytes = u.exact;
        out.detail = str(u.detail);
        if (!u.size && !u.unknown) {
            note(index, lines_[index].content, "'" + std::string(u.name) + "' has no value (the line is cut off)");
        }
        report().usage.push_back(std::move(out));
    }

    // -- summaries -----------------------------------------------------------------------------

    /// `Used 21.95G of 15.48G hbm.` and `Exceeded hbm capacity by 6.47G.` in [p, end).
    void read_used_and_exceeded(char const* p, char const* end, std::size_t index) {
        auto& r = report();
        if (char const* used = find_in(p, end, "Used ")) {
            if (auto u = read_size(used + 5, end)) {
                r.used = reported(*u, index);
                waiting_used_ = false;
                char const* q = skip_blanks(u->end, end);
                if (starts_with(q, end, "of ")) {
                    if (auto c = read_size(q + 3, end)) r.capacity = reported(*c, index);
                }
            }
        }
        if (char const* exceeded = find_in(p, end, "Exceeded ")) {
            if (char const* by = find_in(exceeded, end, " capacity by ")) {
                if (auto x = read_size(by + 13, end)) {
                    r.exceeded = reported(*x, index);
                    waiting_exceeded_ = false;
                }
            }
        }
    }

    void ran_out(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::tpu, tpu_summary, index);
        set_memory_space(space_name(l.what.rest, l.end));
        waiting_used_ = waiting_exceeded_ = true;
        read_used_and_exceeded(l.what.rest, l.end, index);
    }

    /// `Attempting to reserve 3.95G at the bottom of memory. That was not possible. There are
    /// 1.92G free, 0B reserved, and 1.92G reservable.`
    void reservation(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::tpu, tpu_summary, index);
        if (auto s = read_size(l.what.rest, l.end)) report().requested = reported(*s, index);
        char const* there = find_in(l.what.rest, l.end, "There are ");
        if (!there) return;
        char const* p = there + 10;
        for (std::string_view what : {"free", "reserved", "reservable"}) {
            auto s = read_size(p, l.end);
            if (!s) break;
            char const* word = skip_blanks(s->end, l.end);
            if (!starts_with(word, l.end, what)) break;
            usage_line u;
            u.name = std::string_view(word, what.size());
            u.size = s;
            add_usage(u, oom_usage_part::other, index);
            p = word + what.size();
            while (p < l.end && (*p == ',' || is_blank(*p))) ++p;
            if (starts_with(p, l.end, "and ")) p += 4;
        }
    }

    /// `Total hbm usage >= 22.47G:`, `Program hbm requirement 15.03G:`, `HBM capacity 8.00G:`.
    void figure_header(std::size_t index, int phase, oom_usage_part part,
                       std::optional<basic_reported_size<P>> basic_oom_report<P>::*figure) {
        auto const& l = lines_[index];
        enter(oom_report_kind::tpu, phase, index);
        if (part != oom_usage_part::capacity) {
            // The memory space is the word after `Total ` / `Program `.
            char const* word = l.content + (part == oom_usage_part::total ? 6 : 8);
            set_memory_space(space_name(word, l.end));
        }
        if (auto s = read_size(l.what.rest, l.end)) report().*figure = reported(*s, index);
        section_ = section::usage;
        part_ = part;
    }

    /// `Output size 0B; shares 0B with arguments.` / `Output size unknown.`
    void output_size(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::tpu, tpu_output, index);
        usage_line out;
        out.name = std::string_view(l.content, 11);
        out.size = read_size(l.what.rest, l.end);
        out.unknown = !out.size;
        add_usage(out, oom_usage_part::other, index);
        if (char const* shares = find_in(l.what.rest, l.end, "shares ")) {
            usage_line s;
            s.size = read_size(shares + 7, l.end);
            if (s.size) {
                s.name = std::string_view(shares, 6);
                add_usage(s, oom_usage_part::other, index);
            }
        }
        section_ = section::none;
    }

    /// `Out of memory while trying to allocate 6291456 bytes.` (GPU; exact bytes).
    void gpu_allocate(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::gpu, phase::gpu_allocate, index);
        printed_size s;
        char const* p = l.what.rest;
        char const* digits = p;
        std::int64_t v = 0;
        for (; p < l.end && is_digit(*p); ++p) {
            if (!::hlomem::detail::checked_mul(v, std::int64_t{10}, &v) || !::hlomem::detail::checked_add(v, std::int64_t{*p - '0'}, &v)) return;
        }
        if (p == digits || !starts_with(p, l.end, " bytes")) return;
        s.digits = s.nominal_bytes = s.min_bytes = s.max_bytes = v;
        report().requested = basic_reported_size<P>{str(std::string_view(digits, static_cast<std::size_t>(p + 6 - digits))), s,
                                                    number_of(index)};
    }

    // -- entries -------------------------------------------------------------------------------

    /// The kind of report that a field line at `index` belongs to when no report says it: told by
    /// the field or by the entries that follow (TPU labels are `XLA label:`, GPU `XLA Label:`;
    /// GPU sizes print `iB`).
    oom_report_kind kind_of_fields(std::size_t index) const {
        for (std::size_t i = index; i < lines_.size() && i < index + 64; ++i) {
            auto const& w = lines_[i].what;
            if (w.kind == text_kind::tpu_entry_head || w.kind == text_kind::tpu_list) return oom_report_kind::tpu;
            if (w.kind == text_kind::gpu_entry_head || w.kind == text_kind::gpu_peak) return oom_report_kind::gpu;
            if (w.kind != text_kind::field) continue;
            switch (w.field) {
                case field_name::unpadded_size:
                case field_name::padding_size:
                case field_name::tpu_label:
                case field_name::allocation_type: return oom_report_kind::tpu;
                case field_name::gpu_label:
                case field_name::parameter_shape: return oom_report_kind::gpu;
                case field_name::size: {
                    if (auto s = read_size(w.rest, lines_[i].end)) return s->size.binary_suffix ? oom_report_kind::gpu : oom_report_kind::tpu;
                    break;
                }
                default: break;
            }
        }
        return oom_report_kind::tpu;
    }

    void begin_entry(std::size_t index, std::int64_t number, bool has_head) {
        basic_oom_entry<P> e;
        e.number = number;
        e.line = number_of(index);
        e.has_head = has_head;
        report().entries.push_back(std::move(e));
        entry_open_ = true;
        wrap_field_ = nullptr;
    }

    /// An entry that was not closed by its `====` line when the next one starts.
    void close_unfinished(std::size_t index, char const* where, std::string const& why) {
        if (!entry_open_) return;
        note(index, where, entry_name() + " has no '====' line " + why);
        entry_open_ = false;
    }

    void entry_head(std::size_t index, oom_report_kind kind) {
        auto const& l = lines_[index];
        enter(kind, entries, index);
        section_ = section::none;
        close_unfinished(index, l.content, "before the next entry");
        begin_entry(index, l.what.number, true);
        if (kind == oom_report_kind::tpu) size_value(index, l.what.rest, entry().size, "Size");
    }

    bool has_field(basic_oom_entry<P> const& e, field_name f) const {
        switch (f) {
            case field_name::size: return e.size.has_value();
            case field_name::unpadded_size: return e.unpadded_size.has_value();
            case field_name::padding_size: return e.padding_size.has_value();
            case field_name::shape:
            case field_name::parameter_shape: return e.shape_line != 0;
            case field_name::operator_text: return !std::string_view(e.operator_text).empty();
            case field_name::tpu_label:
            case field_name::gpu_label: return !std::string_view(e.label).empty();
            case field_name::allocation_type: return !std::string_view(e.allocation_type).empty();
        }
        return false;
    }

    static char const* field_text(field_name f) {
        switch (f) {
            case field_name::size: return "Size";
            case field_name::unpadded_size: return "Unpadded size";
            case field_name::padding_size: return "Extra memory due to padding";
            case field_name::shape: return "Shape";
            case field_name::parameter_shape: return "Entry Parameter Subshape";
            case field_name::operator_text: return "Operator";
            case field_name::tpu_label: return "XLA label";
            case field_name::gpu_label: return "XLA Label";
            case field_name::allocation_type: return "Allocation type";
        }
        return "";
    }

    /// A size field's value at `p`; a value that does not read is a note.
    void size_value(std::size_t index, char const* p, std::optional<basic_reported_size<P>>& field, char const* name) {
        auto const& l = lines_[index];
        auto s = read_size(p, l.end);
        char const* value = skip_blanks(p, l.end);
        if (!s) {
            report().cut_off = report().cut_off || index + 1 == lines_.size();
            note(index, value, "the " + std::string(name) + " of " + entry_name() + " does not read as a size: '" +
                                   std::string(value, static_cast<std::size_t>(l.end - value)) + "'");
            return;
        }
        field = reported(*s, index);
        char const* rest = skip_blanks(s->end, l.end);
        if (rest != l.end && field_name_is_padding(name)) {
            expansion(index, rest);
        } else if (rest != l.end) {
            note(index, rest, "the text after the " + std::string(name) + " of " + entry_name() + " is not part of it: '" +
                                  shortened(std::string_view(rest, static_cast<std::size_t>(l.end - rest))) + "'");
        }
    }
    static bool field_name_is_padding(char const* name) { return std::string_view(name) == "Extra memory due to padding"; }

    /// `(2.0x expansion)` after the padding size.
    void expansion(std::size_t index, char const* p) {
        auto const& l = lines_[index];
        char const* q = p + 1;
        char const* const number = q;
        std::int64_t digits = 0;
        int decimals = 0;
        bool point = false;
        for (; q < l.end && (is_digit(*q) || (*q == '.' && !point)) && q - number < 18; ++q) {
            if (*q == '.') {
                point = true;
                continue;
            }
            digits = digits * 10 + (*q - '0');
            decimals += point ? 1 : 0;
        }
        std::string_view const tail = "x expansion)";
        if (*p == '(' && q != number && is_digit(q[-1]) && starts_with(q, l.end, tail)) {
            entry().expansion = basic_reported_ratio<P>{str(std::string_view(number, static_cast<std::size_t>(q - number))), digits,
                                                        decimals, number_of(index)};
            return;
        }
        note(index, p, "the expansion of " + entry_name() + " does not read: '" +
                           shortened(std::string_view(p, static_cast<std::size_t>(l.end - p))) + "'");
    }

    /// A shape field; one wrapped over two lines is read across them. Returns the last line used.
    std::size_t shape_value(std::size_t index, char const* p, bool entry_parameter) {
        auto const& l = lines_[index];
        auto& e = entry();
        char const* const value = skip_blanks(p, l.end);
        e.shape_line = number_of(index);
        e.entry_parameter = entry_parameter;
        char const* const name = entry_parameter ? "Entry Parameter Subshape" : "Shape";
        std::string message;
        try {
            char const* q = value;
            e.shape = parse_shape_prefix<P>(q, l.end, file_, begin_);
            e.shape_text = str(std::string_view(value, static_cast<std::size_t>(q - value)));
            char const* rest = skip_blanks(q, l.end);
            if (rest != l.end) {
                note(index, rest, "the text after the " + std::string(name) + " of " + entry_name() + " is not part of it: '" +
                                      shortened(std::string_view(rest, static_cast<std::size_t>(l.end - rest))) + "'");
            }
            return index;
        } catch (parse_error const& err) {
            message = err.info().message;
            e.shape.reset();
        }
        // Wrapped by the page: the next line, with nothing between, completes it.
        if (index + 1 < lines_.size() && lines_[index + 1].what.kind == text_kind::other) {
            auto const& next = lines_[index + 1];
            std::string joined(value, static_cast<std::size_t>(l.end - value));
            joined.append(next.content, static_cast<std::size_t>(next.end - next.content));
            try {
                char const* q = joined.data();
                auto shape = parse_shape_prefix<P>(q, joined.data() + joined.size(), file_, joined.data());
                if (skip_blanks(q, joined.data() + joined.size()) == joined.data() + joined.size()) {
                    e.shape = std::move(shape);
                    e.shape_text = str(std::string_view(value, static_cast<std::size_t>(next.end - value)));
                    note(index, value, "the " + std::string(name) + " of " + entry_name() + " is wrapped over lines " +
                                           std::to_string(number_of(index)) + " and " + std::to_string(number_of(index + 1)));
                    return index + 1;
                }
            } catch (parse_error const&) {
            }
        }
        e.shape_text = str(std::string_view(value, static_cast<std::size_t>(l.end - value)));
        if (index + 1 == lines_.size() || next_is_not_report(index)) report().cut_off = true;
        note(index, value, "the " + std::string(name) + " of " + entry_name() + " does not read (" + message + "): '" +
                               shortened(std::string_view(value, static_cast<std::size_t>(l.end - value))) + "'");
        return index;
    }

    /// True when no line of a report follows line `index` (only blanks and other text).
    bool next_is_not_report(std::size_t index) const {
        for (std::size_t i = index + 1; i < lines_.size(); ++i) {
            auto const k = lines_[i].what.kind;
            if (k == text_kind::blank || k == text_kind::fence || k == text_kind::other) continue;
            return false;
        }
        return true;
    }

    void text_field(std::size_t index, char const* p, string_type& field) {
        auto const& l = lines_[index];
        char const* value = skip_blanks(p, l.end);
        field = str(std::string_view(value, static_cast<std::size_t>(l.end - value)));
        wrap_field_ = &field;
        wrap_start_ = value;
        wrap_line_ = index;
    }

    /// Returns the last line used.
    std::size_t field(std::size_t index) {
        auto const& l = lines_[index];
        field_name const f = l.what.field;
        oom_report_kind kind = open_ && phase_ >= tpu_summary ? report().kind : kind_of_fields(index);
        if (f == field_name::tpu_label || f == field_name::unpadded_size || f == field_name::padding_size ||
            f == field_name::allocation_type) {
            kind = oom_report_kind::tpu;
        } else if (f == field_name::gpu_label || f == field_name::parameter_shape) {
            kind = oom_report_kind::gpu;
        }
        bool const joined = enter(kind, entries, index);
        section_ = section::none;
        if (entry_open_ && has_field(entry(), f)) {
            close_unfinished(index, l.content, std::string("before a second '") + field_text(f) +
                                                   ":' line, which starts an entry whose first line was not copied");
        }
        if (!entry_open_) {
            bool const at_start = !joined || report().entries.empty();
            begin_entry(index, 0, false);
            note(index, l.content, std::string(at_start ? "the paste starts inside an entry" : "an entry starts without its first line") +
                                       ": its fields from '" + field_text(f) + ":' on are kept");
        }
        auto& e = entry();
        switch (f) {
            case field_name::size: size_value(index, l.what.rest, e.size, "Size"); break;
            case field_name::unpadded_size: size_value(index, l.what.rest, e.unpadded_size, "Unpadded size"); break;
            case field_name::padding_size: size_value(index, l.what.rest, e.padding_size, "Extra memory due to padding"); break;
            case field_name::shape: return shape_value(index, l.what.rest, false);
            case field_name::parameter_shape: return shape_value(index, l.what.rest, true);
            case field_name::operator_text: text_field(index, l.what.rest, e.operator_text); break;
            case field_name::tpu_label:
            case field_name::gpu_label:
                text_field(index, l.what.rest, e.label);
                e.label_instruction = read_label(std::string_view(e.label));
                break;
            case field_name::allocation_type: text_field(index, l.what.rest, e.allocation_type); wrap_field_ = nullptr; break;
        }
        return index;
    }

    /// Whether the `other` line at `index` continues the free-text field before it: nothing between,
    /// and the entry goes on right after it (a field, its `====` line, the next entry).
    bool continues_field(std::size_t index) const {
        if (!wrap_field_ || wrap_line_ + 1 != index) return false;
        for (std::size_t i = index + 1; i < lines_.size() && i <= index + 3; ++i) {
            auto const k = lines_[i].what.kind;
            if (k == text_kind::other) continue;
            return k == text_kind::field || k == text_kind::separator || k == text_kind::tpu_entry_head ||
                   k == text_kind::gpu_entry_head;
        }
        return false;
    }

    void separator(std::size_t index) {
        if (!open_ || phase_ != entries) {
            if (!open_) {
                log_.warnings.push_back(oom_reader_note(number_of(index), 1,
                                                        "a '====' line that ends an entry whose fields were not copied; skipped"));
            } else {
                skip(index);
            }
            return;
        }
        enter(report().kind, entries, index);
        if (!entry_open_) {
            note(index, lines_[index].content, "a '====' line that ends no entry; skipped");
            return;
        }
        entry().complete = true;
        entry_open_ = false;
        wrap_field_ = nullptr;
    }

    /// A line of no known form.
    void other(std::size_t index) {
        auto const& l = lines_[index];
        if (!open_) return;
        if (section_ != section::none) {
            if (auto u = read_usage_line(l.content, l.end)) {
                if (section_ == section::gpu_stats && u->size) {
                    basic_oom_stat<P> s;
                    s.name = str(u->name);
                    s.size = reported(*u->size, index);
                    if (u->detail.size() >= 2 && u->detail.front() == '(' && u->detail.back() == ')') {
                        s.percent = str(u->detail.substr(1, u->detail.size() - 2));
                    }
                    report().stats.push_back(std::move(s));
                    return;
                }
                if (section_ == section::usage) {
                    add_usage(*u, part_, index);
                    return;
                }
            }
        }
        if (phase_ == entries && entry_open_) {
            if (continues_field(index)) {
                *wrap_field_ = str(std::string_view(wrap_start_, static_cast<std::size_t>(l.end - wrap_start_)));
                wrap_line_ = index;
                if (wrap_field_ == &entry().label) entry().label_instruction = read_label(std::string_view(entry().label));
                return;
            }
            if (char const* colon = unknown_field_end(l.content, l.end); colon && skipped_first_ == 0) {
                auto& e = entry();
                char const* value = skip_blanks(colon + 1, l.end);
                e.other_fields.push_back(basic_oom_field<P>{str(std::string_view(l.content, static_cast<std::size_t>(colon - l.content))),
                                                            str(std::string_view(value, static_cast<std::size_t>(l.end - value))),
                                                            number_of(index)});
                note(index, l.content,
                     "'" + std::string(l.content, static_cast<std::size_t>(colon + 1 - l.content)) + "' is not a field hlomem knows; kept as read");
                return;
            }
        }
        skip(index);
    }

    /// Reads line `index`; returns the last line it used.
    std::size_t read_line(std::size_t index) {
        auto const& l = lines_[index];
        switch (l.what.kind) {
            case text_kind::blank:
            case text_kind::fence:
                if (section_ == section::usage) section_ = section::none;
                wrap_field_ = nullptr;
                return index;
            case text_kind::rule:
                if (!(open_ && part_ == oom_usage_part::capacity && section_ == section::usage)) other(index);
                return index;
            case text_kind::separator: separator(index); return index;
            case text_kind::tpu_entry_head: entry_head(index, oom_report_kind::tpu); return index;
            case text_kind::gpu_entry_head: entry_head(index, oom_report_kind::gpu); return index;
            case text_kind::field: return field(index);
            case text_kind::tpu_list:
                enter(oom_report_kind::tpu, tpu_list, index);
                set_memory_space(space_name(l.what.rest, l.end));
                report().list_line = number_of(index);
                section_ = section::none;
                return index;
            case text_kind::gpu_header: enter(oom_report_kind::gpu, gpu_header, index); section_ = section::none; return index;
            case text_kind::gpu_stats: enter(oom_report_kind::gpu, gpu_stats, index); section_ = section::gpu_stats; return index;
            case text_kind::gpu_peak:
                enter(oom_report_kind::gpu, gpu_peak, index);
                report().has_peak_buffers = true;
                report().list_line = number_of(index);
                section_ = section::none;
                return index;
            case text_kind::gpu_allocate: gpu_allocate(index); return index;
            case text_kind::ran_out: ran_out(index); return index;
            case text_kind::used_tail:
                if (open_ && (waiting_used_ || waiting_exceeded_)) {
                    read_used_and_exceeded(l.content, l.end, index);
                    return index;
                }
                other(index);
                return index;
            case text_kind::reservation: reservation(index); return index;
            case text_kind::capacity:
                figure_header(index, tpu_capacity, oom_usage_part::capacity, &basic_oom_report<P>::capacity);
                return index;
            case text_kind::total_usage:
                figure_header(index, tpu_total, oom_usage_part::total, &basic_oom_report<P>::total_usage);
                return index;
            case text_kind::program_requirement:
                figure_header(index, tpu_program, oom_usage_part::program, &basic_oom_report<P>::program_requirement);
                return index;
            case text_kind::heap_status:
                enter(oom_report_kind::tpu, tpu_heap, index);
                section_ = section::usage;
                part_ = oom_usage_part::heap;
                return index;
            case text_kind::persistent:
                enter(oom_report_kind::tpu, tpu_persistent, index);
                section_ = section::usage;
                part_ = oom_usage_part::persistent;
                return index;
            case text_kind::output_size: output_size(index); return index;
            case text_kind::other: other(index); return index;
        }
        return index;
    }

    /// Entries whose head was not copied take the number before the next numbered entry.
    static void infer_numbers(basic_oom_report<P>& r) {
        for (std::size_t i = r.entries.size(); i-- > 0;) {
            auto& e = r.entries[i];
            if (e.has_head || i + 1 >= r.entries.size()) continue;
            auto const& next = r.entries[i + 1];
            if (next.number > 1) {
                e.number = next.number - 1;
                e.number_inferred = true;
            }
        }
    }

public:
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
        oom::reader<P> r(text, file, log);
        r.run();
        return log;
    });
}

}  // namespace hlomem::parser

#endif  // HLOMEM_PARSER_OOM_REPORT_HPP
