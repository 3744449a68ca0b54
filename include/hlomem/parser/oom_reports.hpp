// hlomem/parser/oom_reports.hpp: the first half of the out-of-memory report reader
// (parser/oom_report.hpp has the rules it follows): the lines of the input, each classified by its
// text (parser/oom_lines.hpp); which report a piece of a report belongs to, in XLA's order of
// pieces; the lines skipped inside a report; and the summary lines before a report's entries
// (`Ran out of memory ...`, `Total hbm usage >= ...:`, `Output size ...`, `Out of memory while
// trying to allocate N bytes.`, the lines of figures under them). The entries and the reading of
// each line by its kind are parser/oom_report.hpp's (oom::reader, which derives from this one).
#ifndef HLOMEM_PARSER_OOM_REPORTS_HPP
#define HLOMEM_PARSER_OOM_REPORTS_HPP

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/printed_size.hpp>
#include <hlomem/detail/checked.hpp>
#include <hlomem/dump/oom_log.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/oom_figures.hpp>
#include <hlomem/parser/oom_lines.hpp>

namespace hlomem::parser::oom {

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

/// The lines of the input and the report being read: which report each piece joins, and the
/// summaries. oom::reader (parser/oom_report.hpp) reads the entries and runs the pass.
template <class P>
class report_reader {
public:
    using string_type = typename P::string_type;

    report_reader(std::string_view text, std::string_view file, basic_oom_log<P>& log)
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

protected:
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
    /// A piece that `repeats` (a BFC bin, a chunk line) joins a report at its own phase too.
    bool enter(oom_report_kind kind, int phase, std::size_t index, bool repeats = false) {
        bool const joins = open_ && report().kind == kind &&
                           (phase > phase_ || (phase == entries && phase_ == entries) || (repeats && phase == phase_));
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
        if (p == digits || !starts_with(p, l.end, " bytes")) {
            // Newer XLA: `Out of memory while trying to allocate 1.00GiB with allocator GPU_0_bfc on device 0.`
            if (auto size = read_size(l.what.rest, l.end)) report().requested = reported(*size, index);
            return;
        }
        s.digits = s.nominal_bytes = s.min_bytes = s.max_bytes = v;
        report().requested = basic_reported_size<P>{str(std::string_view(digits, static_cast<std::size_t>(p + 6 - digits))), s,
                                                    number_of(index)};
    }
};

}  // namespace hlomem::parser::oom

#endif  // HLOMEM_PARSER_OOM_REPORTS_HPP
