// hlomem/parser/memory_usage_report.hpp: the Spirit X3 grammars for the text
// `*-memory-usage-report.txt` XLA writes (BufferAssignment::MemoryUsageReport), in its older layout
// and in the newer one of JAX 0.11's XLA (`Memory Space: default (color=0)` first, see
// dump/memory_usage_report.hpp), and the entry point `try_parse_memory_usage_report`.
// Line-structured like the other dumps (parser/dump_common.hpp); the older layout:
//
//   Total bytes used: 14745616 (14.06MiB)
//
//   Allocations sorted by size:
//
//   cumulative_size; total_size - cumulative_size; allocation
//   ------------------------------------------------------------------------------
//     14.06MiB(100%);        16B; allocation 0: size 14.06MiB, output shape is |c128[9,80,2,640]|, maybe-live-out:
//   The rest 31 allocations are less than 5% of the total size and not shown.
//
//   Allocations sorted by size with their values:
//   allocation 13: size 205.03MiB, preallocated-temp:
//
//           cumulative_size;       size;       offset; used_by_n_values; shapes_list
//           ------------------------------------------------------------
//            68.34MiB( 28%);   68.34MiB;    143327616;                5; c128[68,2,2,68], 2×f64[36,36,36,48,2]
#ifndef HLOMEM_PARSER_MEMORY_USAGE_REPORT_HPP
#define HLOMEM_PARSER_MEMORY_USAGE_REPORT_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/dump/memory_usage_report.hpp>
#include <hlomem/parser/allocation_header.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/dump_common.hpp>

namespace hlomem::parser {

namespace dump {

// ---------------------------------------------------------------------------------------------
// Attributes of the line rules
// ---------------------------------------------------------------------------------------------

struct report_row {
    human_size cumulative;
    std::int64_t percent = 0;
    human_size remaining;
    allocation_header header;
};

struct slice_row {
    human_size cumulative;
    std::int64_t percent = 0;
    human_size size;
    std::int64_t offset = 0;
    std::int64_t used_by = 0;
    std::vector<report_shape_count> shapes;
    char const* where = nullptr;
};

namespace a {

inline constexpr auto slice_start = [](auto& ctx, human_size& h, char const* where) {
    x3::_val(ctx).cumulative = h;
    x3::_val(ctx).where = where;
};
inline constexpr auto slice_size = [](auto& ctx, human_size& h, char const*) { x3::_val(ctx).size = h; };
inline constexpr auto slice_shape_count = [](auto& ctx, std::int64_t n, char const*) {
    x3::_val(ctx).shapes.push_back(report_shape_count{n, no_shape});
};
inline constexpr auto slice_shape = [](auto& ctx, shape_id s, char const*) {
    auto& shapes = x3::_val(ctx).shapes;
    if (shapes.empty() || shapes.back().shape != no_shape) shapes.push_back(report_shape_count{1, no_shape});
    shapes.back().shape = s;
};

inline constexpr auto on_report_row = [](auto& ctx, report_row& r, char const*) { builder(ctx).allocation_row(r); };
inline constexpr auto on_rest_allocations = [](auto& ctx, std::int64_t n, char const*) { builder(ctx).rest_allocations(n); };
inline constexpr auto on_rest_allocations_percent = [](auto& ctx, std::int64_t n, char const*) {
    builder(ctx).rest_allocations_percent(n);
};
inline constexpr auto on_report_header = [](auto& ctx, allocation_header& h, char const*) { builder(ctx).report_header(h); };
inline constexpr auto on_slice = [](auto& ctx, slice_row& r, char const*) { builder(ctx).slice(r); };
inline constexpr auto on_rest_values = [](auto& ctx, std::int64_t n, char const*) { builder(ctx).rest_values(n); };
inline constexpr auto on_space_name = [](auto& ctx, std::string_view n, char const* where) { builder(ctx).space(n, where); };
inline constexpr auto on_space_color = [](auto& ctx, std::int64_t c, char const*) { builder(ctx).report.memory_spaces.back().color = c; };
inline constexpr auto on_space_total = [](auto& ctx, std::int64_t n, char const*) { builder(ctx).report.memory_spaces.back().total_bytes = n; };
inline constexpr auto on_space_total_human = [](auto& ctx, std::string_view h, char const*) { builder(ctx).space_total_human(h); };
inline constexpr auto on_unnamed_table = [](auto& ctx, x3::unused_type, char const* where) { builder(ctx).unnamed_table(where); };
inline constexpr auto on_rest_values_percent = [](auto& ctx, std::int64_t n, char const*) { builder(ctx).rest_values_percent(n); };

}  // namespace a

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

using x3::lit;

struct report_row_id;
struct slice_row_id;
struct memory_usage_report_id;

inline constexpr x3::rule<report_row_id, report_row> report_row_rule{"an allocation row"};
inline constexpr x3::rule<slice_row_id, slice_row> slice_row_rule{"a value row"};
inline constexpr x3::rule<memory_usage_report_id> memory_usage_report_rule{"a memory-usage report"};

// The memory-usage report.
inline auto const report_row_rule_def = on_match(human_size_, a::set_cumulative) > '(' > on_match(int64_, a::set_percent) >
                                        lit("%)") > ';' > on_match(human_size_, a::set_remaining) > ';' >
                                        on_match(report_header_rule, a::set_header);
inline auto const shape_entry = -(on_match(uint64_, a::slice_shape_count) >> lit("\xC3\x97")) >> on_match(shape, a::slice_shape);
inline auto const slice_row_rule_def = on_match(human_size_, a::slice_start) > '(' > on_match(int64_, a::set_percent) >
                                       lit("%)") > ';' > on_match(human_size_, a::slice_size) > ';' >
                                       on_match(uint64_, a::set_offset) > ';' > on_match(uint64_, a::set_used_by) > ';' >
                                       named("a shapes list", shape_entry) > *(',' > shape_entry);
inline auto const dashes = +lit('-');
inline auto const rest_allocations = lit("The rest") > on_match(uint64_, a::on_rest_allocations) >
                                     lit("allocations are less than") > on_match(uint64_, a::on_rest_allocations_percent) >
                                     lit("% of the total size and not shown.") > eol;
inline auto const rest_values = lit("The rest") > on_match(uint64_, a::on_rest_values) > lit("values are less than") >
                                on_match(uint64_, a::on_rest_values_percent) >
                                lit("% of the total size and not shown.") > eol;
inline auto const value_table = lit("cumulative_size;") > rest_of_line > eol > dashes > eol >
                                *(on_match(slice_row_rule, a::on_slice) > eol) > -rest_values;
inline auto const memory_usage_report_rule_def =
    blank_lines > named("'Total bytes used:'", total_line) > blank_lines > lit("Allocations sorted by size:") >
    eol > blank_lines > lit("cumulative_size; total_size - cumulative_size; allocation") > eol > dashes > eol >
    *(on_match(report_row_rule, a::on_report_row) > eol) > -rest_allocations > blank_lines >
    named("an allocation row or 'Allocations sorted by size with their values:'",
          lit("Allocations sorted by size with their values:")) >
    eol > *((blank_lines >> on_match(report_header_rule, a::on_report_header)) > eol > -(blank_lines >> value_table)) >
    blank_lines >
    named("an allocation header, a value table or the end of the report", end_of_input);

// The newer layout (JAX 0.11's XLA): per memory space, its total and one value table per
// allocation, without allocation headers.
inline auto const memory_space_header = lit("Memory Space:") > on_match(text_until_parser<'('>{}, a::on_space_name) > lit("(color=") >
                                        on_match(int64_, a::on_space_color) > ')' > eol > lit("Total bytes:") >
                                        on_match(uint64_, a::on_space_total) > '(' >
                                        on_match(text_until_parser<')'>{}, a::on_space_total_human) > ')' > eol;
inline auto const unnamed_value_table = on_match(lit("cumulative_size;"), a::on_unnamed_table) > rest_of_line > eol > dashes >
                                        eol > *(on_match(slice_row_rule, a::on_slice) > eol) > -rest_values;
struct newer_memory_usage_report_id;
inline constexpr x3::rule<newer_memory_usage_report_id> newer_memory_usage_report{"a memory-usage report"};
inline auto const newer_memory_usage_report_def = (blank_lines >> +(memory_space_header > *(blank_lines >> unnamed_value_table))) >
                                                  blank_lines > named("a value table, 'Memory Space:' or the end of the report", end_of_input);

BOOST_SPIRIT_DEFINE(report_row_rule, slice_row_rule, memory_usage_report_rule, newer_memory_usage_report)

// ---------------------------------------------------------------------------------------------
// The builder
// ---------------------------------------------------------------------------------------------

/// Reads a memory-usage report.
template <class P>
struct memory_usage_report_builder : builder_base<P> {
    using base = builder_base<P>;
    basic_memory_usage_report<P>& report;

    memory_usage_report_builder(std::string_view f, char const* b, char const* e, basic_memory_usage_report<P>& r)
        : base(f, b, e), report(r) {}

    basic_shape_table<P>& shapes() { return report.shapes; }

    static basic_human_size<P> human(human_size const& h) { return basic_human_size<P>{base::str(h.text), h.approx_bytes}; }
    basic_report_allocation<P> header(allocation_header const& h) {
        basic_report_allocation<P> out;
        out.index = h.index;
        out.size = human(h.human);
        copy_flags<P>(out, h.flags);
        out.line = this->line_of(h.where);
        return out;
    }

    void total(std::int64_t n) { report.total_bytes = n; }
    void total_human(std::string_view s) { report.total_human = base::str(s); }
    void allocation_row(report_row const& r) {
        report.allocations.push_back(basic_report_allocation_row<P>{human(r.cumulative), static_cast<int>(r.percent),
                                                                    human(r.remaining), header(r.header)});
    }
    void rest_allocations(std::int64_t n) { report.allocations_not_shown = n; }
    void rest_allocations_percent(std::int64_t n) { report.allocations_not_shown_percent = static_cast<int>(n); }
    void report_header(allocation_header const& h) {
        report.allocation_values.emplace_back();
        report.allocation_values.back().allocation = header(h);
    }
    void slice(slice_row const& r) {
        basic_report_slice<P> s;
        s.cumulative = human(r.cumulative);
        s.percent = static_cast<int>(r.percent);
        s.size = human(r.size);
        s.offset = r.offset;
        s.used_by_n_values = r.used_by;
        s.shapes.assign(r.shapes.begin(), r.shapes.end());
        s.line = this->line_of(r.where);
        report.allocation_values.back().slices.push_back(std::move(s));
    }
    void space(std::string_view name, char const* where) {
        report.memory_spaces.emplace_back();
        while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
        report.memory_spaces.back().name = base::str(name);
        report.memory_spaces.back().line = this->line_of(where);
    }
    void space_total_human(std::string_view h) {
        auto& space = report.memory_spaces.back();
        space.total_human = base::str(h);
        report.total_bytes += space.total_bytes;
    }
    void unnamed_table(char const* where) {
        report.allocation_values.emplace_back();
        auto& header = report.allocation_values.back().allocation;
        header.index = -1;
        header.color = report.memory_spaces.back().color;
        header.line = this->line_of(where);
    }
    void rest_values(std::int64_t n) { report.allocation_values.back().values_not_shown = n; }
    void rest_values_percent(std::int64_t n) { report.allocation_values.back().values_not_shown_percent = static_cast<int>(n); }
};

}  // namespace dump

// Declared with its default arguments and documentation in parser/api.hpp.
template <class P>
parse_result<basic_memory_usage_report<P>> try_parse_memory_usage_report(std::string_view text, std::string_view file) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    return run_parse<basic_memory_usage_report<P>>(file, begin, end, [&] {
        basic_memory_usage_report<P> report;
        report.file = std::string(file);
        dump::memory_usage_report_builder<P> builder(file, begin, end, report);
        std::string_view const first_line = text.substr(text.find_first_not_of(" \t\r\n") == std::string_view::npos ? 0 : text.find_first_not_of(" \t\r\n"), 13);
        if (first_line == "Memory Space:") {
            dump::run(builder, dump::newer_memory_usage_report);
        } else {
            dump::run(builder, dump::memory_usage_report_rule);
        }
        return report;
    });
}

}  // namespace hlomem::parser

#endif  // HLOMEM_PARSER_MEMORY_USAGE_REPORT_HPP
