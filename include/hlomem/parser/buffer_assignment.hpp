// hlomem/parser/buffer_assignment.hpp: Spirit X3 grammars for the buffer-assignment text XLA
// dumps — `*-buffer-assignment.txt` (with or without the HloLiveRange text appended), a separate
// `*-live-range.txt`, and the older `*-memory-usage-report.txt` — and their entry points.
//
// The formats are line-structured (docs/xla-formats.md 5-7): blanks between tokens are skipped,
// line ends are tokens, and every line must be one of the forms below; a line that fits none is an
// error at that line and column, never skipped.
//
//   BufferAssignment:
//   allocation 2: size 268435456, parameter 2, shape |f32[32,512,4096]| at ShapeIndex {}:
//    value: <151 param @0> (size=268435456,offset=0): f32[32,512,4096]{2,1,0:T(8,128)}
//   allocation 0: 0x27017c46b600, size 32768, maybe-live-out:          (legacy: an address)
//
//   Total bytes used: 2885767252 (2.69GiB)
//
//   Used values:
//   <130 param.2 @0>                                                   (or `<106 param.5{1} (phi) @0>`)
//    positions:
//     param.2                                                          (or `tuple.16 {0}`)
//    uses:                                                             (or ` uses are not initialized yet.`)
//     convert.1, operand 0                                             (or `while.2.0, operand 0 {1}`, `(none)`)
//    from instruction: %param.2 = f32[3584,4096]{1,0:T(8,128)} parameter(1), ...
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
//
// Every shape (value lines, allocation headers, the defining instruction's result shape) is read
// into the model's shape table, each distinct text parsed once.
#ifndef HLOMEM_PARSER_BUFFER_ASSIGNMENT_HPP
#define HLOMEM_PARSER_BUFFER_ASSIGNMENT_HPP

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/dump/memory_usage_report.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/shape.hpp>

namespace hlomem::parser {

namespace dump {

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
        x3::skip_over(first, last, ctx);
        if (first == last || *first != '{') return false;
        Iterator p = first + 1;
        index_path path;
        auto skip = [&] {
            while (p != last && (*p == ' ' || *p == '\t')) ++p;
        };
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

/// A byte count the newest live-range text may group with spaces: `48`, `1 234 567`.
struct spaced_count_parser : token<spaced_count_parser, std::int64_t> {
    static constexpr char const* expected = "a byte count";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
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

/// XLA's human-readable size: `512B`, `1.5KiB`, `1.33MiB`.
struct human_size {
    std::string_view text;
    double approx_bytes = 0;
};

struct human_size_parser : token<human_size_parser, human_size> {
    static constexpr char const* expected = "a size such as 1.33MiB";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        Iterator p = first;
        bool const negative = p != last && *p == '-';
        if (negative) ++p;
        Iterator const digits = p;
        double value = 0;
        while (p != last && *p >= '0' && *p <= '9') value = value * 10 + (*p++ - '0');
        if (p == digits) return false;
        if (p != last && *p == '.') {
            double scale = 0.1;
            for (++p; p != last && *p >= '0' && *p <= '9'; ++p, scale /= 10) value += (*p - '0') * scale;
        }
        double multiplier = 0;
        if (p != last && *p == 'B') {
            multiplier = 1;
            ++p;
        } else if (last - p >= 3 && p[1] == 'i' && p[2] == 'B') {
            std::string_view const units = "KMGTPE";
            auto const u = units.find(*p);
            if (u == std::string_view::npos) return false;
            multiplier = std::pow(1024.0, static_cast<double>(u + 1));
            p += 3;
        } else {
            return false;
        }
        x3::traits::move_to(human_size{std::string_view(first, static_cast<std::size_t>(p - first)),
                                       (negative ? -value : value) * multiplier},
                            attr);
        first = p;
        return true;
    }
};
inline constexpr human_size_parser human_size_{};

/// Text up to (not including) `stop` on the same line: the `1.02GiB` of `Total bytes used: N (1.02GiB)`.
template <char Stop>
struct text_until_parser : token<text_until_parser<Stop>, std::string_view> {
    std::string description() const { return std::string("text up to '") + Stop + "'"; }

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        Iterator p = first;
        while (p != last && *p != Stop && *p != '\n' && *p != '\r') ++p;
        if (p == last || *p != Stop) return false;
        x3::traits::move_to(std::string_view(first, static_cast<std::size_t>(p - first)), attr);
        first = p;
        return true;
    }
};

/// `0x27017c46b600`: the allocation's address in legacy headers.
struct address_parser : token<address_parser, std::uint64_t> {
    static constexpr char const* expected = "an address such as 0x7f00";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        if (last - first < 3 || first[0] != '0' || (first[1] != 'x' && first[1] != 'X')) return false;
        Iterator p = first + 2;
        std::uint64_t v = 0;
        Iterator const digits = p;
        for (; p != last; ++p) {
            int d = -1;
            if (*p >= '0' && *p <= '9') d = *p - '0';
            if (*p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
            if (*p >= 'A' && *p <= 'F') d = *p - 'A' + 10;
            if (d < 0) break;
            if (v >> 60) throw failure(first, "address does not fit in 64 bits");
            v = v * 16 + static_cast<std::uint64_t>(d);
        }
        if (p == digits) return false;
        x3::traits::move_to(v, attr);
        first = p;
        return true;
    }
};
inline constexpr address_parser address{};

struct builder_tag;

/// A shape, read into the shape table of the model being built (found in the context under
/// builder_tag); the attribute is its id.
struct interned_shape_parser : token<interned_shape_parser, shape_id> {
    static constexpr char const* expected = "a shape";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        if (first == last || *first == '\n' || *first == '\r') return false;
        auto& b = x3::get<builder_tag>(ctx).get();
        x3::traits::move_to(intern_shape(b.shapes(), first, last, b.file, b.begin), attr);
        return true;
    }
};
inline constexpr interned_shape_parser shape{};

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
        x3::skip_over(first, last, ctx);
        char const* const text_begin = x3::get<builder_tag>(ctx).get().begin;
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
        auto const* nl = static_cast<char const*>(std::memchr(p, '\n', static_cast<std::size_t>(last - p)));
        Iterator line_end = nl ? nl : last;
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
// Attributes of the line rules (policy-free; the builders turn them into the model)
// ---------------------------------------------------------------------------------------------

/// `<150 all-gather.30{2} (phi) @0>`.
struct value_key {
    std::int64_t id = 0;
    std::string_view name;
    index_path index;
    bool index_printed = false;
    bool is_phi = false;
    std::optional<std::int64_t> color;
    char const* where = nullptr;
};

/// The flags after `allocation N: size S`.
struct allocation_flags {
    std::int64_t color = 0;
    std::optional<std::int64_t> parameter_number;
    index_path parameter_shape_index;
    shape_id parameter_shape = no_shape;
    std::optional<shape_id> output_shape;
    bool shapes_in_bars = true;
    bool is_constant = false, is_thread_local = false, maybe_live_out = false, is_preallocated_temp = false;
};

struct allocation_header {
    std::int64_t index = 0;
    std::optional<std::uint64_t> address;
    std::int64_t size = 0;
    human_size human;
    allocation_flags flags;
    char const* where = nullptr;
};

struct value_line {
    value_key key;
    std::int64_t size = 0;
    std::int64_t offset = 0;
    shape_id shape = no_shape;
};

/// `  tuple.16 {0}` under ` positions:`.
struct position_line {
    std::string_view name;
    index_path index;
    bool index_printed = false;
};

/// `  while.2.0, operand 0 {1}` under ` uses:`.
struct use_line {
    std::string_view name;
    std::int64_t operand = 0;
    index_path index;
    bool index_printed = false;
};

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

// ---------------------------------------------------------------------------------------------
// Actions: (context, attribute, where). Fields of a rule's own attribute are set through _val;
// finished lines go to the builder in the context.
// ---------------------------------------------------------------------------------------------

namespace a {

template <class Context>
auto& builder(Context const& ctx) {
    return x3::get<builder_tag>(ctx).get();
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
#undef HLOMEM_SET_FIELD

inline constexpr auto key_start = [](auto& ctx, auto&, char const* where) { x3::_val(ctx).where = where; };
inline constexpr auto key_index = [](auto& ctx, index_path& path, char const*) {
    x3::_val(ctx).index = std::move(path);
    x3::_val(ctx).index_printed = true;
};
inline constexpr auto key_phi = [](auto& ctx, auto&, char const*) { x3::_val(ctx).is_phi = true; };
inline constexpr auto flag_color = [](auto& ctx, std::int64_t v, char const*) { x3::_val(ctx).color = v; };
inline constexpr auto flag_parameter = [](auto& ctx, std::int64_t v, char const*) { x3::_val(ctx).parameter_number = v; };
inline constexpr auto flag_parameter_shape = [](auto& ctx, shape_id s, char const*) { x3::_val(ctx).parameter_shape = s; };
inline constexpr auto flag_parameter_index = [](auto& ctx, index_path& p, char const*) {
    x3::_val(ctx).parameter_shape_index = std::move(p);
};
inline constexpr auto flag_output = [](auto& ctx, shape_id s, char const*) { x3::_val(ctx).output_shape = s; };
inline constexpr auto flag_constant = [](auto& ctx, auto&, char const*) { x3::_val(ctx).is_constant = true; };
inline constexpr auto flag_thread_local = [](auto& ctx, auto&, char const*) { x3::_val(ctx).is_thread_local = true; };
inline constexpr auto flag_live_out = [](auto& ctx, auto&, char const*) { x3::_val(ctx).maybe_live_out = true; };
inline constexpr auto flag_temp = [](auto& ctx, auto&, char const*) { x3::_val(ctx).is_preallocated_temp = true; };
inline constexpr auto header_start = [](auto& ctx, std::int64_t v, char const* where) {
    x3::_val(ctx).index = v;
    x3::_val(ctx).where = where;
};
inline constexpr auto human_as_size = [](auto& ctx, human_size& h, char const*) { x3::_val(ctx).human = h; };
inline constexpr auto peak_start = [](auto& ctx, std::string_view n, char const* where) {
    x3::_val(ctx).name = n;
    x3::_val(ctx).where = where;
};
inline constexpr auto peak_index = [](auto& ctx, index_path& p, char const*) { x3::_val(ctx).index = std::move(p); };
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

// Builder calls: one per finished line.
inline constexpr auto on_allocation = [](auto& ctx, allocation_header& h, char const*) { builder(ctx).allocation(h); };
inline constexpr auto on_value_line = [](auto& ctx, value_line& v, char const*) { builder(ctx).value(v); };
inline constexpr auto on_total = [](auto& ctx, std::int64_t v, char const*) { builder(ctx).total(v); };
inline constexpr auto on_total_human = [](auto& ctx, std::string_view v, char const*) { builder(ctx).total_human(v); };
inline constexpr auto on_used_values = [](auto& ctx, auto&, char const*) { builder(ctx).used_values(); };
inline constexpr auto on_block = [](auto& ctx, value_key& k, char const*) { builder(ctx).block(k); };
inline constexpr auto on_position = [](auto& ctx, position_line& p, char const*) { builder(ctx).position(p); };
inline constexpr auto on_use = [](auto& ctx, use_line& u, char const*) { builder(ctx).use(u); };
inline constexpr auto set_operand = [](auto& ctx, std::int64_t n, char const*) { x3::_val(ctx).operand = n; };
inline constexpr auto set_printed_index = [](auto& ctx, index_path& p, char const*) {
    x3::_val(ctx).index = std::move(p);
    x3::_val(ctx).index_printed = true;
};
inline constexpr auto set_start = [](auto& ctx, std::int64_t n, char const*) { x3::_val(ctx).start = n; };
inline constexpr auto set_end = [](auto& ctx, std::int64_t n, char const*) { x3::_val(ctx).end = n; };
inline constexpr auto name_start = [](auto& ctx, std::string_view n, char const* where) {
    x3::_val(ctx).name = n;
    x3::_val(ctx).where = where;
};
inline constexpr auto on_uses = [](auto& ctx, auto&, char const*) { builder(ctx).uses(uses_state::empty); };
inline constexpr auto on_uses_none = [](auto& ctx, auto&, char const*) { builder(ctx).uses(uses_state::none); };
inline constexpr auto on_uses_uninitialized = [](auto& ctx, auto&, char const*) {
    builder(ctx).uses(uses_state::not_initialized);
};
inline constexpr auto on_instruction = [](auto& ctx, std::string_view text, char const* where) {
    builder(ctx).instruction(text, where);
};
inline constexpr auto on_live_range = [](auto& ctx, std::int64_t max, char const* where) { builder(ctx).live_range(max, where); };
inline constexpr auto on_live_range_unavailable = [](auto& ctx, auto&, char const* where) {
    builder(ctx).live_range_unavailable(where);
};
inline constexpr auto on_sequence_time = [](auto& ctx, std::int64_t t, char const* where) { builder(ctx).sequence_time(t, where); };
inline constexpr auto on_sequence_name = [](auto& ctx, std::string_view n, char const*) { builder(ctx).sequence_name(n); };
inline constexpr auto on_range = [](auto& ctx, range_line& r, char const*) { builder(ctx).range(r); };
inline constexpr auto on_peak = [](auto& ctx, std::int64_t t, char const* where) { builder(ctx).peak(t, where); };
inline constexpr auto on_peak_entry = [](auto& ctx, peak_line& e, char const*) { builder(ctx).peak_entry(e); };
inline constexpr auto on_stack_total = [](auto& ctx, std::int64_t n, char const*) { builder(ctx).stack_total(n); };
inline constexpr auto on_stack_entry = [](auto& ctx, stack_trace_line& e, char const* where) {
    builder(ctx).stack_entry(e, where);
};
inline constexpr auto on_report_row = [](auto& ctx, report_row& r, char const*) { builder(ctx).allocation_row(r); };
inline constexpr auto on_rest_allocations = [](auto& ctx, std::int64_t n, char const*) { builder(ctx).rest_allocations(n); };
inline constexpr auto on_rest_allocations_percent = [](auto& ctx, std::int64_t n, char const*) {
    builder(ctx).rest_allocations_percent(n);
};
inline constexpr auto on_report_header = [](auto& ctx, allocation_header& h, char const*) { builder(ctx).report_header(h); };
inline constexpr auto on_slice = [](auto& ctx, slice_row& r, char const*) { builder(ctx).slice(r); };
inline constexpr auto on_rest_values = [](auto& ctx, std::int64_t n, char const*) { builder(ctx).rest_values(n); };
inline constexpr auto on_rest_values_percent = [](auto& ctx, std::int64_t n, char const*) { builder(ctx).rest_values_percent(n); };

}  // namespace a

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

using x3::lit;

struct value_key_id;
struct flags_id;
struct header_shape_id;
struct allocation_header_id;
struct report_header_id;
struct value_line_id;
struct position_line_id;
struct use_line_id;
struct range_line_id;
struct peak_line_id;
struct report_row_id;
struct slice_row_id;
struct buffer_assignment_id;
struct live_range_id;
struct memory_usage_report_id;

inline constexpr x3::rule<value_key_id, value_key> value_key_rule{"a value such as <150 all-gather.30 @0>"};
inline constexpr x3::rule<flags_id, allocation_flags> flags_rule{"allocation flags"};
inline constexpr x3::rule<header_shape_id, shape_id> header_shape_rule{"a shape such as |f32[8]|"};
inline constexpr x3::rule<allocation_header_id, allocation_header> allocation_header_rule{"an allocation header"};
inline constexpr x3::rule<report_header_id, allocation_header> report_header_rule{"an allocation header"};
inline constexpr x3::rule<value_line_id, value_line> value_line_rule{"a value line"};
inline constexpr x3::rule<position_line_id, position_line> position_line_rule{"a position"};
inline constexpr x3::rule<use_line_id, use_line> use_line_rule{"a use"};
inline constexpr x3::rule<range_line_id, range_line> range_line_rule{"a live range"};
inline constexpr x3::rule<peak_line_id, peak_line> peak_line_rule{"a peak entry"};
inline constexpr x3::rule<report_row_id, report_row> report_row_rule{"an allocation row"};
inline constexpr x3::rule<slice_row_id, slice_row> slice_row_rule{"a value row"};
inline constexpr x3::rule<buffer_assignment_id> buffer_assignment_rule{"a buffer assignment"};
inline constexpr x3::rule<live_range_id> live_range_rule{"an HloLiveRange text"};
inline constexpr x3::rule<memory_usage_report_id> memory_usage_report_rule{"a memory-usage report"};

inline auto const eol = end_of_line;
inline auto const blank_lines = *blank_line;

// `<150 all-gather.30{2} (phi) @0>`: after '<' the rest must follow.
inline auto const value_key_rule_def = on_match(lit('<'), a::key_start) > on_match(uint64_, a::set_id) >
                                       on_match(name, a::set_name) > -on_match(index, a::key_index) >
                                       -on_match(lit("(phi)"), a::key_phi) > -(lit('@') > on_match(int64_, a::set_color)) >
                                       named("'>'", lit('>'));

// `|f32[3584,4096]|`, `|<unknown shape>|`, or (legacy) the shape without bars.
inline constexpr auto set_shape_value = [](auto& ctx, shape_id v, char const*) { x3::_val(ctx) = v; };
inline constexpr auto no_bars = [](auto& ctx, auto&, char const*) { x3::_val(ctx).shapes_in_bars = false; };
inline constexpr auto set_unknown_shape = [](auto& ctx, auto&, char const*) { x3::_val(ctx) = no_shape; };
inline auto const header_shape_rule_def =
    (lit('|') > (on_match(lit("<unknown shape>"), set_unknown_shape) | on_match(named("a shape", shape), set_shape_value)) >
     '|') |
    on_match(shape, set_shape_value);
inline auto const flag = (lit("color") > on_match(int64_, a::flag_color)) |
                         (lit("parameter") > on_match(int64_, a::flag_parameter) >
                          -((lit(',') >> lit("shape")) > -on_match(!lit('|'), no_bars) >
                            on_match(header_shape_rule, a::flag_parameter_shape) > lit("at") > lit("ShapeIndex") >
                            on_match(index, a::flag_parameter_index))) |
                         (lit("output shape is") > -on_match(!lit('|'), no_bars) > on_match(header_shape_rule, a::flag_output)) |
                         on_match(lit("constant"), a::flag_constant) | on_match(lit("thread-local"), a::flag_thread_local) |
                         on_match(lit("maybe-live-out"), a::flag_live_out) |
                         on_match(lit("preallocated-temp"), a::flag_temp);
inline auto const flags_rule_def = *(lit(',') > named("an allocation flag (color, parameter, output shape is, constant, "
                                                      "thread-local, maybe-live-out, preallocated-temp)",
                                                      flag));

// `allocation 6: size 2114011136, preallocated-temp:`, legacy `allocation 0: 0x27017c46b600, size 32768, ...:`.
inline auto const allocation_header_rule_def = lit("allocation") > on_match(uint64_, a::header_start) > ':' >
                                               -(on_match(address, a::set_address) > ',') > lit("size") >
                                               on_match(uint64_, a::set_size) > on_match(flags_rule, a::set_flags) >
                                               named("',' or ':'", lit(':'));
// The memory-usage report's short form prints the size in human units: `size 1.33MiB`.
inline auto const report_header_rule_def = lit("allocation") > on_match(uint64_, a::header_start) > ':' > lit("size") >
                                           on_match(named("a size such as 1.33MiB", human_size_), a::human_as_size) >
                                           on_match(flags_rule, a::set_flags) > named("',' or ':'", lit(':'));

// ` value: <171 convert.2 @0> (size=29360128,offset=0): bf16[4096,3584]{1,0:T(8,128)(2,1)}`
inline auto const value_line_rule_def = lit("value:") > on_match(value_key_rule, a::set_key) > '(' > lit("size=") >
                                        on_match(uint64_, a::set_size) > ',' > lit("offset=") >
                                        on_match(uint64_, a::set_offset) > ')' > ':' >
                                        on_match(named("a shape", shape), a::set_shape);

inline auto const total_line = lit("Total bytes used:") > on_match(uint64_, a::on_total) > '(' >
                               on_match(text_until_parser<')'>{}, a::on_total_human) > ')' > eol;

// Used values blocks.
// A position or use line is only handed to the builder once it has matched whole: `uses:` and
// `from instruction:` begin like names.
inline auto const position_line_rule_def = on_match(name, a::set_name) >> -on_match(index, a::set_printed_index) >> &eol;
inline auto const use_line_rule_def = (on_match(name, a::set_name) >> lit(',')) > lit("operand") >
                                      on_match(int64_, a::set_operand) > -on_match(index, a::set_printed_index);
inline auto const position_entry = on_match(position_line_rule, a::on_position) > eol;
inline auto const use_entry = on_match(use_line_rule, a::on_use) > eol;
inline auto const uses_part = (on_match(lit("uses are not initialized yet."), a::on_uses_uninitialized) > eol) |
                              (on_match(lit("uses:"), a::on_uses) > eol >
                               ((on_match(lit("(none)"), a::on_uses_none) > eol) | *use_entry));
// Older XLA wrote `from instruction:` without a space before the text; the blank skipper makes
// both read the same.
inline auto const value_block = on_match(value_key_rule, a::on_block) > eol > lit("positions:") > eol >
                                 *position_entry > named("' uses:' or a position", uses_part) >
                                 named("a use such as 'fusion.10, operand 2' or 'from instruction:'",
                                       lit("from instruction:")) >
                                 on_match(rest_of_line, a::on_instruction) > eol;
inline auto const used_values = on_match(lit("Used values:"), a::on_used_values) > eol > *(blank_lines >> value_block);

// HloLiveRange.
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
     eol > *range_entry > -peak_section >
     named("a live range such as 'param.2{}:0-80', 'Live ranges at N (peak):', a peak entry or a blank line",
           &(blank_line | end_of_input)));

// A whole buffer-assignment dump.
inline auto const allocation_block = on_match(allocation_header_rule, a::on_allocation) > eol >
                                     *(on_match(value_line_rule, a::on_value_line) > eol);
inline auto const buffer_assignment_rule_def =
    blank_lines > named("'BufferAssignment:'", lit("BufferAssignment:")) > eol > *allocation_block > blank_lines >
    named("an allocation header, a value line, or 'Total bytes used:' after a blank line", total_line) > blank_lines >
    -used_values > blank_lines > -live_range_text > blank_lines >
    named("'Used values:', a Used-values block, 'HloLiveRange (max N):' or the end of the dump", end_of_input);

inline auto const live_range_rule_def = blank_lines > named("'HloLiveRange (max N):'", live_range_text) > blank_lines >
                                        named("the end of the live ranges", end_of_input);

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
    blank_lines > lit("Total bytes used:") > on_match(uint64_, a::on_total) > '(' >
    on_match(text_until_parser<')'>{}, a::on_total_human) > ')' > eol > blank_lines > lit("Allocations sorted by size:") >
    eol > blank_lines > lit("cumulative_size; total_size - cumulative_size; allocation") > eol > dashes > eol >
    *(on_match(report_row_rule, a::on_report_row) > eol) > -rest_allocations > blank_lines >
    named("an allocation row or 'Allocations sorted by size with their values:'",
          lit("Allocations sorted by size with their values:")) >
    eol > *((blank_lines >> on_match(report_header_rule, a::on_report_header)) > eol > -(blank_lines >> value_table)) >
    blank_lines >
    named("an allocation header, a value table or the end of the report", end_of_input);

// `output_to_operand_aliasing={{1}: (0, {}), {2}: (1, {})}` inside a defining instruction's text.
struct alias_entry {
    index_path output;
    std::int64_t operand = 0;
    index_path operand_index;
};
inline constexpr auto alias_output = [](auto& ctx, index_path& p, char const*) {
    x3::_val(ctx).emplace_back();
    x3::_val(ctx).back().output = std::move(p);
};
inline constexpr auto alias_operand = [](auto& ctx, std::int64_t n, char const*) { x3::_val(ctx).back().operand = n; };
inline constexpr auto alias_operand_index = [](auto& ctx, index_path& p, char const*) {
    x3::_val(ctx).back().operand_index = std::move(p);
};
struct aliasing_id;
inline constexpr x3::rule<aliasing_id, std::vector<alias_entry>> aliasing_rule{"an output_to_operand_aliasing list"};
inline auto const alias_entry_def = on_match(index, alias_output) > ':' > '(' > on_match(uint64_, alias_operand) > ',' >
                                    on_match(index, alias_operand_index) > ')';
inline auto const aliasing_rule_def = lit('{') > -(alias_entry_def > *(',' > alias_entry_def)) > named("',' or '}'", lit('}'));

BOOST_SPIRIT_DEFINE(aliasing_rule)

BOOST_SPIRIT_DEFINE(value_key_rule, flags_rule, header_shape_rule, allocation_header_rule, report_header_rule, value_line_rule,
                    position_line_rule, use_line_rule, range_line_rule, peak_line_rule, report_row_rule, slice_row_rule, buffer_assignment_rule, live_range_rule,
                    memory_usage_report_rule)

// ---------------------------------------------------------------------------------------------
// Builders: turn finished lines into the models
// ---------------------------------------------------------------------------------------------

/// What every builder shares: the input (for messages and shapes) and a line counter.
template <class P>
struct builder_base {
    std::string_view file;
    char const* begin = nullptr;
    char const* end = nullptr;
    line_counter lines;

    builder_base(std::string_view f, char const* b, char const* e) : file(f), begin(b), end(e), lines(b) {}

    /// The 1-based line of `where`; positions come in increasing order, so this is amortized O(1).
    std::size_t line_of(char const* where) { return lines.line_of(where); }

    static basic_shape_index<P> to_index(index_path const& path) {
        basic_shape_index<P> out;
        for (auto v : path) out.push_back(static_cast<typename basic_shape_index<P>::int_type>(v));
        return out;
    }
    static typename P::string_type str(std::string_view s) { return typename P::string_type(s); }
};

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
        out.line = this->line_of(r.where);
        lr().buffer_live_ranges.push_back(std::move(out));
    }
    void peak(std::int64_t t, char const* where) {
        lr().stated_peak.emplace();
        lr().stated_peak->time = t;
        lr().stated_peak->line = this->line_of(where);
    }
    /// Whether the line at `where` groups a number's digits with spaces (`1 234 bytes`).
    void note_spaced_numbers(char const* where) {
        for (char const* p = where; p + 4 < this->end && *p != '\n'; ++p) {
            if (p[0] >= '0' && p[0] <= '9' && p[1] == ' ' && p[2] >= '0' && p[2] <= '9' && p[3] >= '0' && p[3] <= '9' &&
                p[4] >= '0' && p[4] <= '9') {
                lr().stated_peak->spaced_numbers = true;
                return;
            }
        }
    }
    void peak_entry(peak_line const& e) {
        note_spaced_numbers(e.where);
        basic_peak_entry<P> entry;
        entry.name = base::str(e.name);
        if (e.index) entry.index = base::to_index(*e.index);
        entry.bytes = e.bytes;
        entry.cumulative_bytes = e.cumulative;
        entry.line = this->line_of(e.where);
        lr().stated_peak->entries.push_back(std::move(entry));
    }
    void stack_total(std::int64_t n) { lr().stated_peak->stack_trace_total_bytes = n; }
    void stack_entry(stack_trace_line const& e, char const* where) {
        note_spaced_numbers(where);
        basic_stack_trace_node<P> node;
        node.name = base::str(e.name);
        node.depth = e.depth;
        node.percent = e.percent;
        node.total_bytes = e.total;
        node.current_bytes = e.current;
        node.remaining_bytes = e.remaining;
        node.line = this->line_of(where);
        lr().stated_peak->stack_trace.push_back(std::move(node));
    }
};

/// Value id -> index in ba.values. XLA numbers values 0..n-1, so ids index a flat table; an id
/// far beyond the ids seen so far (more than eight times their count, plus some slack) goes to a
/// map, so that a dump naming value 10^15 costs one map entry, not a table of 10^15. A dump lists
/// only the values that have buffers, some one in five or six of the ids (seed 000: 135 values,
/// ids up to 706), so the table must allow gaps of that kind or large dumps end in the map. The
/// values of one allocation come in id order, and the temp allocation lists values from the
/// whole program before most others are seen: so the table may also reach one slot per 32 bytes
/// of the text (a value line alone is longer), at most a quarter of the text's size in memory.
class value_id_index {
public:
    /// `text_bytes`: the size of the dump being read, which bounds how many values it can hold.
    explicit value_id_index(std::size_t text_bytes = 0) : flat_limit_(text_bytes / 32) {}

    /// The index stored for `id`, inserting `index` when there is none; true when inserted.
    std::pair<std::size_t, bool> emplace(std::int64_t id, std::size_t index) {
        if (!sparse_.empty()) {  // an id once sent to the map stays there
            auto it = sparse_.find(id);
            if (it != sparse_.end()) return {it->second, false};
        }
        if (std::size_t* slot = dense_slot(id, true)) {
            if (*slot != npos) return {*slot, false};
            *slot = index;
            ++count_;
            return {index, true};
        }
        sparse_.emplace(id, index);
        ++count_;
        return {index, true};
    }
    std::size_t find(std::int64_t id) {
        if (!sparse_.empty()) {
            auto it = sparse_.find(id);
            if (it != sparse_.end()) return it->second;
        }
        std::size_t* slot = dense_slot(id, false);
        return slot ? *slot : npos;
    }
    /// The stored indices in increasing order of id: linear when every id is in the flat table.
    std::vector<std::size_t> in_id_order() const {
        std::vector<std::size_t> out;
        out.reserve(count_);
        if (sparse_.empty()) {
            for (std::size_t index : dense_) {
                if (index != npos) out.push_back(index);
            }
            return out;
        }
        std::vector<std::pair<std::int64_t, std::size_t>> all(sparse_.begin(), sparse_.end());
        for (std::size_t id = 0; id < dense_.size(); ++id) {
            if (dense_[id] != npos) all.emplace_back(static_cast<std::int64_t>(id), dense_[id]);
        }
        std::sort(all.begin(), all.end());
        for (auto const& entry : all) out.push_back(entry.second);
        return out;
    }

private:
    std::size_t* dense_slot(std::int64_t id, bool grow) {
        if (id < 0) return nullptr;
        auto const u = static_cast<std::uint64_t>(id);
        if (u < dense_.size()) return &dense_[u];
        std::uint64_t const cap = std::max<std::uint64_t>(8 * count_, flat_limit_) + 4096;
        if (!grow || u >= cap) return nullptr;
        dense_.resize(std::min(cap, std::max<std::uint64_t>(u + 1, 2 * dense_.size())), npos);
        return &dense_[u];
    }
    std::vector<std::size_t> dense_;
    std::unordered_map<std::int64_t, std::size_t> sparse_;
    std::size_t count_ = 0;
    std::size_t flat_limit_ = 0;
};

/// Reads a whole buffer-assignment dump.
template <class P>
struct buffer_assignment_builder : live_range_builder<P> {
    using base = builder_base<P>;
    basic_buffer_assignment<P>& ba;
    value_id_index by_id;  // value id -> index in ba.values
    std::size_t current = npos;                            // the value whose block is being read
    std::optional<basic_hlo_live_range<P>> live;

    buffer_assignment_builder(std::string_view f, char const* b, char const* e, basic_buffer_assignment<P>& target)
        : live_range_builder<P>(f, b, e, &live), ba(target), by_id(static_cast<std::size_t>(e - b)) {}

    basic_shape_table<P>& shapes() { return ba.shapes; }

    template <class Allocation>
    static void copy_flags(Allocation& a, allocation_flags const& f) {
        a.color = f.color;
        a.parameter_number = f.parameter_number;
        a.parameter_shape_index = base::to_index(f.parameter_shape_index);
        a.parameter_shape = f.parameter_shape;
        a.output_shape = f.output_shape;
        a.shapes_in_bars = f.shapes_in_bars;
        a.is_constant = f.is_constant;
        a.is_thread_local = f.is_thread_local;
        a.maybe_live_out = f.maybe_live_out;
        a.is_preallocated_temp = f.is_preallocated_temp;
    }

    void allocation(allocation_header const& h) {
        basic_allocation<P> a;
        a.index = h.index;
        a.address = h.address;
        a.size = h.size;
        copy_flags(a, h.flags);
        a.line = this->line_of(h.where);
        ba.allocations.push_back(std::move(a));
    }

    std::size_t value_for(value_key const& k) {
        auto const [index, inserted] = by_id.emplace(k.id, ba.values.size());
        if (inserted) {
            basic_logical_value<P> v;
            v.id = k.id;
            v.name = base::str(k.name);
            v.index = base::to_index(k.index);
            v.index_printed = k.index_printed;
            v.is_phi = k.is_phi;
            v.color = k.color;
            ba.values.push_back(std::move(v));
        }
        return index;
    }

    void value(value_line const& line) {
        std::size_t const seen = by_id.find(line.key.id);
        if (seen != npos && ba.values[seen].allocation != npos) {
            throw failure(line.key.where, "value " + std::to_string(line.key.id) + " is already assigned to allocation " +
                                              std::to_string(ba.allocations[ba.values[seen].allocation].index) +
                                              " on line " + std::to_string(ba.values[seen].line));
        }
        std::size_t const i = value_for(line.key);
        auto& v = ba.values[i];
        v.allocation = ba.allocations.size() - 1;
        v.offset = line.offset;
        v.size = line.size;
        v.shape = line.shape;
        v.line = this->line_of(line.key.where);
        ba.allocations.back().values.push_back(i);
    }

    void total(std::int64_t n) { ba.stated_total_bytes = n; }
    void total_human(std::string_view s) { ba.stated_total_human = base::str(s); }
    void used_values() { ba.has_used_values = true; }

    void block(value_key const& k) {
        current = value_for(k);
        auto& v = ba.values[current];
        if (v.has_block) throw failure(k.where, "a second Used-values block for value " + std::to_string(k.id));
        if (std::string_view(v.name) != k.name || v.index != base::to_index(k.index)) {
            throw failure(k.where, "value " + std::to_string(k.id) + " is " + std::string(std::string_view(v.name)) +
                                       to_string(v.index) + " on its value line but " + std::string(k.name) +
                                       to_string(base::to_index(k.index)) + " here");
        }
        v.has_block = true;
        v.block_line = this->line_of(k.where);
    }
    void position(position_line const& p) {
        ba.values[current].positions.push_back(basic_hlo_position<P>{base::str(p.name), base::to_index(p.index), p.index_printed});
    }
    void uses(uses_state s) { ba.values[current].uses_as_printed = s; }
    void use(use_line const& u) {
        auto& v = ba.values[current];
        v.uses.push_back(basic_hlo_use<P>{base::str(u.name), u.operand, base::to_index(u.index), u.index_printed});
        v.uses_as_printed = uses_state::listed;
    }

    /// `%name = SHAPE opcode(...)`: keeps the text and reads the result shape.
    void instruction(std::string_view text, char const* where) {
        auto& v = ba.values[current];
        v.instruction_text = base::str(text);
        v.instruction_text_spaced = where > this->begin && (where[-1] == ' ' || where[-1] == '\t');
        auto const eq = text.find(" = ");
        if (eq == std::string_view::npos) {
            throw failure(where, "expected the defining instruction as '%name = shape opcode(...)'",
                          "the defining instruction");
        }
        char const* p = text.data() + eq + 3;
        char const* const end = text.data() + text.size();
        while (p < end && *p == ' ') ++p;
        v.instruction_shape = intern_shape(ba.shapes, p, end, this->file, this->begin);
        // The opcode follows the shape: `... = f32[8]{0} fusion(...)`.
        while (p < end && *p == ' ') ++p;
        char const* op_end = p;
        while (op_end < end && ((*op_end >= 'a' && *op_end <= 'z') || (*op_end >= '0' && *op_end <= '9') || *op_end == '-')) {
            ++op_end;
        }
        v.instruction_opcode = base::str(std::string_view(p, static_cast<std::size_t>(op_end - p)));
        // Two attributes matter: `, kind=kLoop` and `output_to_operand_aliasing={...}`. Both end
        // with '=', which is rare in an instruction's text, so one scan from '=' to '=' finds the
        // first occurrence of each (searching for each text stopped at every ',' and 'o').
        static constexpr std::string_view kind = ", kind=";
        static constexpr std::string_view aliasing = "output_to_operand_aliasing=";
        char const* kind_at = nullptr;
        char const* aliasing_at = nullptr;
        for (char const* q = op_end; q < end && !(kind_at && aliasing_at);) {
            auto const* sign = static_cast<char const*>(std::memchr(q, '=', static_cast<std::size_t>(end - q)));
            if (!sign) break;
            auto const ends_here = [&](std::string_view s) {
                return static_cast<std::size_t>(sign + 1 - op_end) >= s.size() &&
                       std::string_view(sign + 1 - s.size(), s.size()) == s;
            };
            if (!kind_at && ends_here(kind)) kind_at = sign + 1;
            if (!aliasing_at && ends_here(aliasing)) aliasing_at = sign + 1;
            q = sign + 1;
        }
        if (kind_at) {
            char const* to = kind_at;
            while (to < end && ((*to >= 'a' && *to <= 'z') || (*to >= 'A' && *to <= 'Z'))) ++to;
            v.fusion_kind = base::str(std::string_view(kind_at, static_cast<std::size_t>(to - kind_at)));
        }
        if (aliasing_at) {
            char const* first = aliasing_at;
            std::vector<alias_entry> entries;
            parse_state state;
            x3::phrase_parse(first, end, x3::with<state_tag>(state)[x3::eps > aliasing_rule], blank_skipper, entries);
            for (auto const& e : entries) {
                v.output_to_operand_aliasing.push_back(
                    basic_operand_alias<P>{base::to_index(e.output), e.operand, base::to_index(e.operand_index)});
            }
        }
    }

    /// Sorts values by id (XLA's canonical order) and attaches the live ranges.
    void finish() {
        std::vector<std::size_t> const order = by_id.in_id_order();
        std::vector<std::size_t> new_index(order.size());
        typename P::template vector_type<basic_logical_value<P>> sorted;
        sorted.reserve(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            new_index[order[i]] = i;
            sorted.push_back(std::move(ba.values[order[i]]));
        }
        ba.values = std::move(sorted);
        for (auto& a : ba.allocations) {
            for (auto& vi : a.values) vi = new_index[vi];
        }
        ba.reindex();
        if (live) attach_live_range(ba, std::move(*live));
    }
};

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
        buffer_assignment_builder<P>::copy_flags(out, h.flags);
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
    void rest_values(std::int64_t n) { report.allocation_values.back().values_not_shown = n; }
    void rest_values_percent(std::int64_t n) { report.allocation_values.back().values_not_shown_percent = static_cast<int>(n); }
};

/// Runs `rule` over the whole text with `builder` in the context and the blank skipper.
template <class Builder, class Rule>
void run(Builder& builder, Rule const& rule) {
    parse_state state;
    char const* first = builder.begin;
    bool const ok = x3::phrase_parse(
        first, builder.end, x3::with<state_tag>(state)[x3::with<builder_tag>(std::ref(builder))[rule]], blank_skipper);
    if (!ok || first != builder.end) throw failure(first, "expected " + std::string(rule.name));
}

}  // namespace dump

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

// The entry points, declared with their default arguments and documentation in parser/api.hpp.

template <class P>
parse_result<basic_buffer_assignment<P>> try_parse_buffer_assignment(std::string_view text, std::string_view file) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    return run_parse<basic_buffer_assignment<P>>(file, begin, end, [&] {
        basic_buffer_assignment<P> ba;
        ba.file = std::string(file);
        dump::buffer_assignment_builder<P> builder(file, begin, end, ba);
        dump::run(builder, dump::buffer_assignment_rule);
        builder.finish();
        return ba;
    });
}
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
template <class P>
parse_result<basic_memory_usage_report<P>> try_parse_memory_usage_report(std::string_view text, std::string_view file) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    return run_parse<basic_memory_usage_report<P>>(file, begin, end, [&] {
        basic_memory_usage_report<P> report;
        report.file = std::string(file);
        dump::memory_usage_report_builder<P> builder(file, begin, end, report);
        dump::run(builder, dump::memory_usage_report_rule);
        return report;
    });
}
}  // namespace hlomem::parser



#endif  // HLOMEM_PARSER_BUFFER_ASSIGNMENT_HPP
