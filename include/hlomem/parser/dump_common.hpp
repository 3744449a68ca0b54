// hlomem/parser/dump_common.hpp: what the grammars of XLA's buffer-assignment texts share
// (parser/buffer_assignment.hpp, parser/live_range.hpp, parser/memory_usage_report.hpp): shape
// indices as read, text up to a closing character, the shape token, the actions that set a field
// of a line's attribute, the builders' common part and the driver that runs a grammar over a text.
//
// These texts are line-structured (docs/FORMATS.md 5-7): blanks between tokens are skipped, line
// ends are tokens (`eol`), and every line must be one of the forms its grammar lists; a line that
// fits none is an error at that line and column, never skipped.
#ifndef HLOMEM_PARSER_DUMP_COMMON_HPP
#define HLOMEM_PARSER_DUMP_COMMON_HPP

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/shape.hpp>
#include <hlomem/detail/scan.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/shape.hpp>

namespace hlomem::parser::dump {

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

/// The numbers of a shape index as read, without allocating for the usual short ones.
class index_path {
public:
    void push_back(std::int64_t v) {
        if (size_ < inline_capacity) {
            inline_[size_] = v;
        } else {
            if (size_ == inline_capacity) spill_.assign(inline_.begin(), inline_.end());
            spill_.push_back(v);
        }
        ++size_;
    }
    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    std::int64_t const* begin() const noexcept { return size_ <= inline_capacity ? inline_.data() : spill_.data(); }
    std::int64_t const* end() const noexcept { return begin() + size_; }

private:
    static constexpr std::size_t inline_capacity = 6;
    std::array<std::int64_t, inline_capacity> inline_{};
    std::vector<std::int64_t> spill_;
    std::size_t size_ = 0;
};

/// `{}`, `{2}`, `{1,0}`. Once `{` is seen the index must be well formed.
struct index_path_parser : token<index_path_parser, index_path> {
    static constexpr char const* expected = "a shape index such as {1,0}";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute& attr) const {
        skip_before(first, last, ctx);
        if (first == last || *first != '{') return false;
        Iterator p = first + 1;
        index_path path;
        auto skip = [&] { p = ::hlomem::detail::skip_blanks(p, last); };
        skip();
        if (p != last && *p != '}') {
            for (;;) {
                skip();
                std::int64_t v = 0;
                Iterator const at = p;
                if (!uint64_.parse(p, last, x3::unused, rctx, v)) throw failure(at, "expected a shape index such as {1,0}", "a shape index such as {1,0}");
                path.push_back(v);
                skip();
                if (p != last && *p == ',') {
                    ++p;
                    continue;
                }
                break;
            }
        }
        if (p == last || *p != '}') throw failure(p, "expected ',' or '}'", "',' or '}'");
        first = p + 1;
        x3::traits::move_to(std::move(path), attr);
        return true;
    }
};
inline constexpr index_path_parser index{};

/// Text up to (not including) `stop` on the same line: the `1.02GiB` of `Total bytes used: N (1.02GiB)`.
template <char Stop>
struct text_until_parser : token<text_until_parser<Stop>, std::string_view> {
    std::string description() const { return std::string("text up to '") + Stop + "'"; }

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        skip_before(first, last, ctx);
        Iterator p = first;
        while (p != last && *p != Stop && *p != '\n' && *p != '\r') ++p;
        if (p == last || *p != Stop) return false;
        x3::traits::move_to(std::string_view(first, static_cast<std::size_t>(p - first)), attr);
        first = p;
        return true;
    }
};

/// Where the builder of the text being read sits in the X3 context.
struct builder_tag;

/// A shape, read into the shape table of the model being built; the attribute is its id.
inline constexpr table_shape_parser<builder_tag> shape{};

inline auto const eol = end_of_line;
inline auto const blank_lines = *blank_line;

// ---------------------------------------------------------------------------------------------
// Actions: (context, attribute, where). A line's rule sets the fields of its own attribute
// through _val; finished lines go to the builder in the context.
// ---------------------------------------------------------------------------------------------

namespace a {

template <class Context>
auto& builder(Context const& ctx) {
    return context_object<builder_tag>(ctx);
}

#define HLOMEM_SET_FIELD(action, field) \
    inline constexpr auto action = [](auto& ctx, auto& v, char const*) { x3::_val(ctx).field = std::move(v); };
HLOMEM_SET_FIELD(set_id, id)
HLOMEM_SET_FIELD(set_name, name)
HLOMEM_SET_FIELD(set_color, color)
HLOMEM_SET_FIELD(set_size, size)
HLOMEM_SET_FIELD(set_offset, offset)
HLOMEM_SET_FIELD(set_shape, shape)
HLOMEM_SET_FIELD(set_key, key)
HLOMEM_SET_FIELD(set_index_field, index)
HLOMEM_SET_FIELD(set_address, address)
HLOMEM_SET_FIELD(set_human, human)
HLOMEM_SET_FIELD(set_flags, flags)
HLOMEM_SET_FIELD(set_bytes, bytes)
HLOMEM_SET_FIELD(set_cumulative, cumulative)
HLOMEM_SET_FIELD(set_percent, percent)
HLOMEM_SET_FIELD(set_remaining, remaining)
HLOMEM_SET_FIELD(set_header, header)
HLOMEM_SET_FIELD(set_used_by, used_by)
HLOMEM_SET_FIELD(set_operand, operand)
HLOMEM_SET_FIELD(set_start, start)
HLOMEM_SET_FIELD(set_end, end)
#undef HLOMEM_SET_FIELD

/// A name that starts the line: its text and where it is.
inline constexpr auto name_start = [](auto& ctx, std::string_view n, char const* where) {
    x3::_val(ctx).name = n;
    x3::_val(ctx).where = where;
};
/// A shape index printed after a name (`tuple.16 {0}`).
inline constexpr auto set_printed_index = [](auto& ctx, index_path& p, char const*) {
    x3::_val(ctx).index = std::move(p);
    x3::_val(ctx).index_printed = true;
};

/// `Total bytes used: N (1.02GiB)`, which a buffer-assignment dump and a memory-usage report both print.
inline constexpr auto on_total = [](auto& ctx, std::int64_t v, char const*) { builder(ctx).total(v); };
inline constexpr auto on_total_human = [](auto& ctx, std::string_view v, char const*) { builder(ctx).total_human(v); };

}  // namespace a

/// `Total bytes used: 2885767252 (2.69GiB)`.
inline auto const total_line = x3::lit("Total bytes used:") > on_match(uint64_, a::on_total) > '(' >
                               on_match(text_until_parser<')'>{}, a::on_total_human) > ')' > eol;

// ---------------------------------------------------------------------------------------------
// Builders and the driver
// ---------------------------------------------------------------------------------------------

/// What every dump builder shares: the input (for messages and shapes) and a line counter.
template <class P>
struct builder_base {
    builder_base(std::string_view f, char const* b, char const* e) : file_(f), begin_(b), end_(e), lines(b) {}

    std::string_view file() const { return file_; }
    char const* text_begin() const { return begin_; }
    char const* text_end() const { return end_; }

    /// The 1-based line of `where`; positions come in increasing order, so this is amortized O(1).
    std::size_t line_of(char const* where) { return lines.line_of(where); }
    /// Lines are counted on from `where`, the start of line `line` (a part read on its own).
    void start_lines_at(char const* where, std::size_t line) { lines.start_at(where, line); }

    /// One allocation of the exact size (none for `{}`), not one per push_back's regrowth.
    static basic_shape_index<P> to_index(index_path const& path) {
        using container = typename basic_shape_index<P>::container_type;
        if (path.empty()) return {};
        container out;
        out.reserve(path.size());
        for (auto v : path) out.push_back(static_cast<typename basic_shape_index<P>::int_type>(v));
        return basic_shape_index<P>(std::move(out));
    }
    static typename P::string_type str(std::string_view s) { return typename P::string_type(s); }

private:
    std::string_view file_;
    char const* begin_;
    char const* end_;
    line_counter lines;
};

/// Runs `rule` over [first, last), a whole text or a part of it made of whole lines, with
/// `builder` in the context and the blank skipper.
template <class Builder, class Rule>
void run(Builder& builder, Rule const& rule, char const* first, char const* last) {
    parse_state state;
    bool const ok = x3::phrase_parse(first, last, x3::with<state_tag>(state)[x3::with<builder_tag>(std::ref(builder))[rule]],
                                     blank_skipper);
    if (!ok || first != last) throw failure(first, "expected " + std::string(rule.name));
}

/// Runs `rule` over the whole text.
template <class Builder, class Rule>
void run(Builder& builder, Rule const& rule) {
    run(builder, rule, builder.text_begin(), builder.text_end());
}

}  // namespace hlomem::parser::dump

#endif  // HLOMEM_PARSER_DUMP_COMMON_HPP
