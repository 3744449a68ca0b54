// hlomem/parser/minimalloc_csv.hpp: reads MiniMalloc's CSV — a problem, or a solution with
// offsets — with Spirit X3 and the shared pieces of parser/common.hpp.
//
//   id,lower,upper,size[,alignment][,offset]     the header names the columns, in any order
//   b1,0,3,4                                      one buffer per line: lifespan [lower, upper)
//   b2,3,9,4
//
// Rules, each an error with file, line and column when broken:
//   - the header holds id, lower, upper and size, and optionally alignment and offset, each once;
//     any other column (MiniMalloc's `gaps`, say) is refused rather than ignored, since ignoring
//     it would change the problem;
//   - every row has exactly the header's fields; ids are unique and non-empty;
//   - lower and upper are integers with lower < upper; size, alignment and offset are
//     non-negative integers, alignment at least 1; every number fits in int64;
//   - blanks around fields, CRLF line ends and blank lines are accepted.
#ifndef HLOMEM_PARSER_MINIMALLOC_CSV_HPP
#define HLOMEM_PARSER_MINIMALLOC_CSV_HPP

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <hlomem/detail/scan.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/placement/problem.hpp>

namespace hlomem::parser {

namespace minimalloc {

enum class column : std::uint8_t { id, lower, upper, size, alignment, offset };

inline constexpr std::array<std::string_view, 6> column_names = {"id", "lower", "upper", "size", "alignment", "offset"};

/// What a parse builds, reached through the X3 context under `builder_tag`.
struct builder {
    char const* begin = nullptr;
    std::vector<column> columns;
    allocation_problem problem;
    std::unordered_map<std::string, std::size_t> row_of_id;  // id -> 1-based line
};
struct builder_tag;

/// `id,lower,upper,size[,alignment][,offset]`: the column names, each known and given once.
struct header_parser : token<header_parser, x3::unused_type> {
    static constexpr char const* expected = "a header such as id,lower,upper,size";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        auto& b = x3::get<builder_tag>(ctx).get();
        skip_before(first, last, ctx);
        Iterator const line_start = first;
        Iterator p = first;
        std::array<bool, column_names.size()> seen{};
        while (true) {
            p = ::hlomem::detail::skip_blanks(p, last);
            Iterator const name_start = p;
            while (p != last && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_')) ++p;
            std::string_view const name(name_start, static_cast<std::size_t>(p - name_start));
            if (name.empty()) {
                if (b.columns.empty()) return false;
                throw x3::expectation_failure<Iterator>(name_start, "a column name");
            }
            std::size_t c = 0;
            while (c < column_names.size() && column_names[c] != name) ++c;
            if (c == column_names.size()) {
                throw failure(name_start, "unknown column '" + std::string(name) +
                                              "'; a MiniMalloc CSV has id, lower, upper, size, alignment and offset");
            }
            if (seen[c]) throw failure(name_start, "column '" + std::string(name) + "' appears twice");
            seen[c] = true;
            b.columns.push_back(static_cast<column>(c));
            p = ::hlomem::detail::skip_blanks(p, last);
            if (p == last || *p != ',') break;
            ++p;
        }
        for (std::size_t c = 0; c < 4; ++c) {
            if (!seen[c]) {
                throw failure(line_start, "the header has no '" + std::string(column_names[c]) +
                                              "' column; it needs id, lower, upper and size");
            }
        }
        first = p;
        return true;
    }
};
inline constexpr header_parser header{};

/// One row: the header's fields in its order, separated by commas.
struct row_parser : token<row_parser, x3::unused_type> {
    static constexpr char const* expected = "a row of comma-separated fields";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute&) const {
        auto& b = x3::get<builder_tag>(ctx).get();
        skip_before(first, last, ctx);
        if (first == last || *first == '\n' || *first == '\r') return false;
        Iterator p = first;
        problem_buffer buffer;
        Iterator id_at = p, upper_at = p, alignment_at = p;
        for (std::size_t i = 0; i < b.columns.size(); ++i) {
            if (i > 0) {
                skip_before(p, last, ctx);
                if (p == last || *p != ',') throw x3::expectation_failure<Iterator>(p, "','");
                ++p;
            }
            skip_before(p, last, ctx);
            column const c = b.columns[i];
            if (c == column::id) {
                id_at = p;
                Iterator end = p;
                while (end != last && *end != ',' && *end != '\n' && *end != '\r') ++end;
                Iterator trimmed = end;
                while (trimmed != p && (trimmed[-1] == ' ' || trimmed[-1] == '\t')) --trimmed;
                if (trimmed == p) throw x3::expectation_failure<Iterator>(p, "an id");
                buffer.id.assign(p, trimmed);
                p = end;
                continue;
            }
            std::int64_t value = 0;
            Iterator const at = p;
            bool const is_time = c == column::lower || c == column::upper;
            bool const ok = is_time ? int64_.parse(p, last, ctx, rctx, value) : uint64_.parse(p, last, ctx, rctx, value);
            if (!ok) {
                throw x3::expectation_failure<Iterator>(at, std::string(is_time ? "an integer" : "a non-negative integer") +
                                                                " (" + std::string(column_names[static_cast<std::size_t>(c)]) + ")");
            }
            switch (c) {
                case column::lower: buffer.span.lower = value; break;
                case column::upper:
                    buffer.span.upper = value;
                    upper_at = at;
                    break;
                case column::size: buffer.size = value; break;
                case column::alignment:
                    buffer.alignment = value;
                    alignment_at = at;
                    break;
                case column::offset: buffer.offset = value; break;
                case column::id: break;
            }
        }
        if (buffer.span.upper <= buffer.span.lower) {
            throw failure(upper_at, "lifespan [" + std::to_string(buffer.span.lower) + ", " + std::to_string(buffer.span.upper) +
                                        ") is empty: upper must be greater than lower");
        }
        if (buffer.alignment < 1) throw failure(alignment_at, "alignment 0: it must be at least 1");
        auto const [it, fresh] = b.row_of_id.emplace(buffer.id, ::hlomem::detail::count_lines(b.begin, id_at));
        if (!fresh) {
            throw failure(id_at, "id '" + buffer.id + "' was already used on line " + std::to_string(it->second));
        }
        b.problem.buffers.push_back(std::move(buffer));
        first = p;
        return true;
    }
};
inline constexpr row_parser row{};

inline auto const csv_rule = x3::eps > header > end_of_line > *(blank_line | (row > end_of_line)) > end_of_input;

}  // namespace minimalloc

/// Reads a MiniMalloc CSV (a problem, or a solution when it has an offset column).
/// Reads a MiniMalloc CSV: a problem, or a solution when it has offsets. Never throws a
/// parse_error: a bad header or row comes back as the error, with `file`, line and column.
/// (HLOMEM_PARSER_FUNCTION: inline, except under separate compilation, where parser/api.hpp
/// declares this and parser/instantiate.hpp defines it once.)
HLOMEM_PARSER_FUNCTION parse_result<allocation_problem> try_parse_minimalloc_csv(
    std::string_view text, std::string_view file HLOMEM_PARSER_DEFAULT("<minimalloc csv>")) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    return run_parse<allocation_problem>(file, begin, end, [&] {
        minimalloc::builder b;
        b.begin = begin;
        char const* first = begin;
        // A UTF-8 byte order mark, as spreadsheet programs write it, is not part of the header.
        if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") first += 3;
        x3::phrase_parse(first, end, x3::with<minimalloc::builder_tag>(std::ref(b))[minimalloc::csv_rule], blank_skipper);
        return std::move(b.problem);
    });
}

/// The same; throws hlomem::parse_error.
HLOMEM_PARSER_FUNCTION allocation_problem parse_minimalloc_csv(std::string_view text,
                                                               std::string_view file HLOMEM_PARSER_DEFAULT("<minimalloc csv>")) {
    return std::move(try_parse_minimalloc_csv(text, file).value());
}

}  // namespace hlomem::parser

namespace hlomem {
using parser::parse_minimalloc_csv;
using parser::try_parse_minimalloc_csv;
}  // namespace hlomem

#endif  // HLOMEM_PARSER_MINIMALLOC_CSV_HPP
