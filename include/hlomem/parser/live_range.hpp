// hlomem/parser/live_range.hpp: the Spirit X3 grammar for XLA's HloLiveRange text
// (HloLiveRange::ToString), as a separate `*-live-range.txt` or appended to a buffer-assignment
// dump (parser/buffer_assignment.hpp), and the entry point `try_parse_live_range`.
//
//   HloLiveRange (max 80):
//     InstructionSequence:
//       0:param.2
//     BufferLiveRange:
//       param.2{}:0-80
//     Live ranges at 78 (peak):
//       param.2: 58720256 bytes                                        (newer: `name{}: N bytes (cumulative: M bytes)`)
//     Stack trace breakdown for peak usage: 48 bytes                   (newest)
//       main (100.0%, total: 48 bytes, current: 0 bytes, remaining: 48 bytes)
//         ├── multiply (33.3%, total: 16 bytes, current: 16 bytes, remaining: 32 bytes)
#ifndef HLOMEM_PARSER_LIVE_RANGE_HPP
#define HLOMEM_PARSER_LIVE_RANGE_HPP

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <hlomem/detail/checked.hpp>
#include <hlomem/detail/scan.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/dump_common.hpp>

namespace hlomem::parser {

namespace dump {

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

/// A byte count the newest live-range text may group with spaces: `48`, `1 234 567`.
struct spaced_count_parser : token<spaced_count_parser, std::int64_t> {
    static constexpr char const* expected = "a byte count";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute& attr) const {
        skip_before(first, last, ctx);
        Iterator p = first;
        std::int64_t value = 0;
        if (!uint64_.parse(p, last, x3::unused, rctx, value)) return false;
        // Groups of exactly three digits after a single space continue the number.
        while (last - p >= 4 && p[0] == ' ' && p[1] >= '0' && p[1] <= '9' && p[2] >= '0' && p[2] <= '9' &&
               p[3] >= '0' && p[3] <= '9' && (last - p == 4 || p[4] < '0' || p[4] > '9')) {
            std::int64_t const group = (p[1] - '0') * 100 + (p[2] - '0') * 10 + (p[3] - '0');
            if (!::hlomem::detail::checked_mul(value, 1000, &value) || !::hlomem::detail::checked_add(value, group, &value)) {
                throw failure(first, "byte count does not fit in int64");
            }
            p += 4;
        }
        x3::traits::move_to(value, attr);
        first = p;
        return true;
    }
};
inline constexpr spaced_count_parser byte_count{};

/// One line of the stack-trace tree: a prefix drawn with blanks and `│ ├── └──`, a name (which
/// may hold blanks and parentheses), and `(P%, total: N bytes, current: N bytes, remaining: N bytes)`.
struct stack_trace_line {
    std::string_view name;
    int depth = 0;
    double percent = 0;
    std::int64_t total = 0, current = 0, remaining = 0;
};

struct stack_trace_line_parser : token<stack_trace_line_parser, stack_trace_line> {
    static constexpr char const* expected = "a stack trace line";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute& attr) const {
        // The prefix: two blanks, columns of 4 (`    ` or `│   `) and a connector (`├── `, `└── `, or
        // two blanks at the top): a node at depth 0 starts at column 4, one at depth d >= 1 at
        // 4d + 6. Count code points, not bytes: the box characters take three bytes each. The
        // skipper may already have passed the leading blanks, so count those backwards.
        skip_before(first, last, ctx);
        char const* const text_begin = a::builder(ctx).text_begin();
        int columns = 0;
        // A tab counts as one blank, as everywhere in dumps, so that a name never starts with one.
        for (Iterator b = first; b != text_begin && (b[-1] == ' ' || b[-1] == '\t'); --b) ++columns;
        Iterator p = first;
        while (p != last) {
            if (*p == ' ' || *p == '\t') {
                ++p;
                ++columns;
            } else if (last - p >= 3 && static_cast<unsigned char>(p[0]) == 0xE2 && static_cast<unsigned char>(p[1]) == 0x94 &&
                       (static_cast<unsigned char>(p[2]) == 0x82 || static_cast<unsigned char>(p[2]) == 0x9C ||
                        static_cast<unsigned char>(p[2]) == 0x94 || static_cast<unsigned char>(p[2]) == 0x80)) {
                p += 3;  // │ ├ └ ─
                ++columns;
            } else {
                break;
            }
        }
        if (p == last || *p == '\n' || *p == '\r') return false;
        Iterator line_end = ::hlomem::detail::line_end(p, last);
        Iterator tail_end = line_end;
        if (tail_end != p && tail_end[-1] == '\r') --tail_end;
        // The statistics are the last parenthesized group of the line.
        std::string_view const line(p, static_cast<std::size_t>(tail_end - p));
        auto const open = line.rfind(" (");
        if (open == std::string_view::npos || line.empty() || line.back() != ')') return false;
        Iterator q = p + open + 2;
        stack_trace_line out;
        out.name = line.substr(0, open);
        out.depth = columns < 10 ? 0 : (columns - 6) / 4;
        auto number = [&](auto& value) {
            while (q != tail_end && *q == ' ') ++q;
            return byte_count.parse(q, tail_end, x3::unused, rctx, value);
        };
        auto literal = [&](std::string_view text) {
            while (q != tail_end && *q == ' ') ++q;
            if (static_cast<std::size_t>(tail_end - q) < text.size() || std::string_view(q, text.size()) != text) return false;
            q += text.size();
            return true;
        };
        // The share as XLA prints it, `30.8`: digits, then optionally a point and digits.
        Iterator const pct = q;
        auto digits = [&] {
            Iterator const from = q;
            while (q != tail_end && *q >= '0' && *q <= '9') ++q;
            return q != from;
        };
        if (!digits()) return false;
        if (q != tail_end && *q == '.') {
            ++q;
            if (!digits()) return false;
        }
        out.percent = std::strtod(std::string(pct, q).c_str(), nullptr);
        // A share of the breakdown's total: never above 100 (and never infinite, as 400 digits
        // would read).
        if (!(out.percent <= 100.0)) return false;
        if (!(literal("%,") && literal("total:") && number(out.total) && literal("bytes,") && literal("current:") &&
              number(out.current) && literal("bytes,") && literal("remaining:") && number(out.remaining) &&
              literal("bytes)") && q == tail_end)) {
            return false;
        }
        x3::traits::move_to(out, attr);
        first = tail_end;
        return true;
    }
};
inline constexpr stack_trace_line_parser stack_trace_entry{};

// ---------------------------------------------------------------------------------------------
// Attributes of the line rules
// ---------------------------------------------------------------------------------------------

/// `    param.2{}:0-80` under `BufferLiveRange:`.
struct range_line {
    std::string_view name;
    index_path index;
    std::int64_t start = 0, end = 0;
    char const* where = nullptr;
};

struct peak_line {
    std::string_view name;
    std::optional<index_path> index;
    std::int64_t bytes = 0;
    std::optional<std::int64_t> cumulative;
    char const* where = nullptr;
};

namespace a {

inline constexpr auto peak_start = [](auto& ctx, std::string_view n, char const* where) {
    x3::_val(ctx).name = n;
    x3::_val(ctx).where = where;
};
inline constexpr auto peak_index = [](auto& ctx, index_path& p, char const*) { x3::_val(ctx).index = std::move(p); };
inline constexpr auto on_live_range = [](auto& ctx, std::int64_t max, char const* where) { builder(ctx).live_range(max, where); };
inline constexpr auto on_peak_undetermined = [](auto& ctx, auto&, char const* where) { builder(ctx).peak_undetermined(where); };
inline constexpr auto on_live_range_unavailable = [](auto& ctx, auto&, char const* where) {
    builder(ctx).live_range_unavailable(where);
};
inline constexpr auto on_sequence_time = [](auto& ctx, std::int64_t t, char const* where) { builder(ctx).sequence_time(t, where); };
inline constexpr auto on_sequence_name = [](auto& ctx, std::string_view n, char const*) { builder(ctx).sequence_name(n); };
inline constexpr auto on_range = [](auto& ctx, range_line& r, char const*) { builder(ctx).range(r); };
inline constexpr auto on_peak = [](auto& ctx, std::int64_t t, char const* where) { builder(ctx).peak(t, where); };
inline constexpr auto on_peak_entry = [](auto& ctx, peak_line& e, char const*) { builder(ctx).peak_entry(e); };
inline constexpr auto on_stack_total = [](auto& ctx, std::int64_t n, char const* where) { builder(ctx).stack_total(n, where); };
inline constexpr auto on_stack_entry = [](auto& ctx, stack_trace_line& e, char const* where) {
    builder(ctx).stack_entry(e, where);
};

}  // namespace a

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

using x3::lit;

struct range_line_id;
struct peak_line_id;
struct live_range_id;

inline constexpr x3::rule<range_line_id, range_line> range_line_rule{"a live range"};
inline constexpr x3::rule<peak_line_id, peak_line> peak_line_rule{"a peak entry"};
inline constexpr x3::rule<live_range_id> live_range_rule{"an HloLiveRange text"};

inline auto const sequence_line = (on_match(uint64_, a::on_sequence_time) >> lit(':')) > on_match(name, a::on_sequence_name) > eol;
inline auto const range_line_rule_def = (on_match(name, a::name_start) >> on_match(index, a::set_index_field) >> lit(':')) >
                                        on_match(int64_, a::set_start) > '-' > on_match(int64_, a::set_end);
inline auto const range_entry = on_match(range_line_rule, a::on_range) > eol;
inline auto const peak_line_rule_def = (on_match(name, a::peak_start) >> -on_match(index, a::peak_index) >> lit(':')) >
                                       on_match(byte_count, a::set_bytes) > lit("bytes") >
                                       -(lit('(') > lit("cumulative:") > on_match(byte_count, a::set_cumulative) >
                                         lit("bytes") > ')');
inline auto const stack_trace = lit("Stack trace breakdown for peak usage:") > on_match(byte_count, a::on_stack_total) >
                                lit("bytes") > eol > *(on_match(stack_trace_entry, a::on_stack_entry) > eol);
inline auto const peak_section = lit("Live ranges at") > on_match(int64_, a::on_peak) > lit("(peak):") > eol >
                                 *(on_match(peak_line_rule, a::on_peak_entry) > eol) > -stack_trace;
inline auto const live_range_text =
    (on_match(lit("HloLiveRange not available (finalized or constructed from proto)"), a::on_live_range_unavailable) > eol) |
    (lit("HloLiveRange (max") > on_match(int64_, a::on_live_range) > lit("):") > eol > lit("InstructionSequence:") > eol >
     *sequence_line > named("a sequence entry such as '0:param.2' or 'BufferLiveRange:'", lit("BufferLiveRange:")) >
     eol > *range_entry > -(peak_section | (on_match(lit(peak_undetermined_text), a::on_peak_undetermined) > eol)) >
     named("a live range such as 'param.2{}:0-80', 'Live ranges at N (peak):', a peak entry or a blank line",
           &(blank_line | end_of_input)));

inline auto const live_range_rule_def = blank_lines > named("'HloLiveRange (max N):'", live_range_text) > blank_lines >
                                        named("the end of the live ranges", end_of_input);

BOOST_SPIRIT_DEFINE(range_line_rule, peak_line_rule, live_range_rule)

// ---------------------------------------------------------------------------------------------
// The builder
// ---------------------------------------------------------------------------------------------

/// Reads the HloLiveRange text into `target`.
template <class P>
struct live_range_builder : builder_base<P> {
    using base = builder_base<P>;
    std::optional<basic_hlo_live_range<P>>* target;
    basic_shape_table<P> unused_shapes;
    logical_time expected_time = 0;

    live_range_builder(std::string_view f, char const* b, char const* e, std::optional<basic_hlo_live_range<P>>* t)
        : base(f, b, e), target(t) {}

    basic_hlo_live_range<P>& lr() { return **target; }
    basic_shape_table<P>& shapes() { return unused_shapes; }

    void live_range(std::int64_t max, char const* where) {
        target->emplace();
        lr().max = max;
        lr().line = this->line_of(where);
        // The sequence lists the instructions at times 0..max, each on a line of 4 bytes or more
        // (`0:a` and its line end): reserved once, within what the rest of the text can hold.
        if (max >= 0) {
            auto const room = static_cast<std::uint64_t>(this->text_end() - where) / 4;
            lr().instruction_sequence.reserve(static_cast<std::size_t>(std::min(static_cast<std::uint64_t>(max) + 1, room)));
        }
    }
    void live_range_unavailable(char const* where) {
        target->emplace();
        lr().not_available = true;
        lr().line = this->line_of(where);
    }
    void sequence_time(std::int64_t t, char const* where) {
        if (t != static_cast<std::int64_t>(lr().instruction_sequence.size())) {
            throw failure(where, "InstructionSequence entry " + std::to_string(t) + " where " +
                                     std::to_string(lr().instruction_sequence.size()) + " was expected");
        }
    }
    void sequence_name(std::string_view n) { lr().instruction_sequence.push_back(base::str(n)); }
    void range(range_line const& r) {
        // XLA ends a live range at its definition at the earliest (HloLiveRange), so `x{}:5-3`
        // is damage, not a range hlomem could reason about.
        if (r.end < r.start) {
            throw failure(r.where, "live range " + std::to_string(r.start) + "-" + std::to_string(r.end) +
                                       " ends before it starts");
        }
        basic_buffer_live_range<P> out;
        out.name = base::str(r.name);
        out.index = base::to_index(r.index);
        out.range = live_interval{r.start, r.end};
        // The BufferLiveRange lines follow each other, one line end apart (range_entry): each is
        // the line after the one before, and the count goes on from here without searching it.
        auto& ranges = lr().buffer_live_ranges;
        if (ranges.empty()) {
            out.line = this->line_of(r.where);
        } else {
            out.line = ranges.back().line + 1;
            this->start_lines_at(r.where, out.line);
        }
        ranges.push_back(std::move(out));
    }
    void peak_undetermined(char const* where) {
        lr().peak_undetermined = true;
        lr().peak_undetermined_line = this->line_of(where);
    }
    void peak(std::int64_t t, char const* where) {
        lr().stated_peak.emplace();
        lr().stated_peak->time = t;
        lr().stated_peak->line = this->line_of(where);
    }
    /// Whether the line at `where` groups a number's digits with spaces (`1 234 bytes`).
    void note_spaced_numbers(char const* where) {
        for (char const* p = where; p + 4 < this->text_end() && *p != '\n'; ++p) {
            if (p[0] >= '0' && p[0] <= '9' && p[1] == ' ' && p[2] >= '0' && p[2] <= '9' && p[3] >= '0' && p[3] <= '9' &&
                p[4] >= '0' && p[4] <= '9') {
                lr().stated_peak->spaced_numbers = true;
                return;
            }
        }
    }
    void peak_entry(peak_line const& e) {
        basic_peak_entry<P> entry;
        entry.name = base::str(e.name);
        if (e.index) entry.index = base::to_index(*e.index);
        entry.bytes = e.bytes;
        entry.cumulative_bytes = e.cumulative;
        entry.line = this->line_of(e.where);
        lr().stated_peak->entries.push_back(std::move(entry));
    }
    void stack_total(std::int64_t n, char const* where) {
        note_spaced_numbers(where);
        lr().stated_peak->stack_trace_total_bytes = n;
    }
    void stack_entry(stack_trace_line const& e, char const* where) {
        note_spaced_numbers(where);
        basic_stack_trace_node<P> node;
        node.name = std::string(e.name);
        node.depth = e.depth;
        node.percent = e.percent;
        node.total_bytes = e.total;
        node.current_bytes = e.current;
        node.remaining_bytes = e.remaining;
        node.line = this->line_of(where);
        lr().stated_peak->stack_trace.push_back(std::move(node));
    }
};

}  // namespace dump

// Declared with its default arguments and documentation in parser/api.hpp.
template <class P>
parse_result<basic_hlo_live_range<P>> try_parse_live_range(std::string_view text, std::string_view file) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    return run_parse<basic_hlo_live_range<P>>(file, begin, end, [&] {
        std::optional<basic_hlo_live_range<P>> result;
        dump::live_range_builder<P> builder(file, begin, end, &result);
        dump::run(builder, dump::live_range_rule);
        return std::move(*result);
    });
}

}  // namespace hlomem::parser

#endif  // HLOMEM_PARSER_LIVE_RANGE_HPP
