// hlomem/parser/allocation_header.hpp: the allocation header line that a buffer-assignment dump
// (parser/buffer_assignment.hpp) and a memory-usage report (parser/memory_usage_report.hpp) both
// print, as XLA's BufferAllocation::ToString writes it, and the flags after its size:
//
//   allocation 2: size 268435456, parameter 2, shape |f32[32,512,4096]| at ShapeIndex {}:
//   allocation 0: 0x27017c46b600, size 32768, maybe-live-out:          (legacy: an address)
//   allocation 6: size 1.33MiB, preallocated-temp:                     (the report: human units)
//   allocation 0: size 4194304, page 0, parameter 0, shape |f32[1024,1024]| at ShapeIndex {}, maybe-live-out:
//                                                                      (newer XLA, JAX 0.11: a page)
#ifndef HLOMEM_PARSER_ALLOCATION_HEADER_HPP
#define HLOMEM_PARSER_ALLOCATION_HEADER_HPP

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#include <hlomem/core/shape_table.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/dump_common.hpp>

namespace hlomem::parser::dump {

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

/// XLA's human-readable size: `512B`, `1.5KiB`, `1.33MiB`.
struct human_size {
    std::string_view text;
    double approx_bytes = 0;
};

struct human_size_parser : token<human_size_parser, human_size> {
    static constexpr char const* expected = "a size such as 1.33MiB";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        skip_before(first, last, ctx);
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

/// `0x27017c46b600`: the allocation's address in legacy headers.
struct address_parser : token<address_parser, std::uint64_t> {
    static constexpr char const* expected = "an address such as 0x7f00";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        skip_before(first, last, ctx);
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

// ---------------------------------------------------------------------------------------------
// Attributes
// ---------------------------------------------------------------------------------------------

/// The flags after `allocation N: size S`.
struct allocation_flags {
    std::int64_t color = 0;
    std::optional<std::int64_t> page;
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

/// Copies the flags of a header into an allocation of the model (basic_allocation,
/// basic_report_allocation).
template <class P, class Allocation>
void copy_flags(Allocation& a, allocation_flags const& f) {
    a.color = f.color;
    a.page = f.page;
    a.parameter_number = f.parameter_number;
    a.parameter_shape_index = builder_base<P>::to_index(f.parameter_shape_index);
    a.parameter_shape = f.parameter_shape;
    a.output_shape = f.output_shape;
    a.shapes_in_bars = f.shapes_in_bars;
    a.is_constant = f.is_constant;
    a.is_thread_local = f.is_thread_local;
    a.maybe_live_out = f.maybe_live_out;
    a.is_preallocated_temp = f.is_preallocated_temp;
}

namespace a {

inline constexpr auto flag_color = [](auto& ctx, std::int64_t v, char const*) { x3::_val(ctx).color = v; };
inline constexpr auto flag_page = [](auto& ctx, std::int64_t v, char const*) { x3::_val(ctx).page = v; };
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
}  // namespace a

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

using x3::lit;

struct flags_id;
struct header_shape_id;
struct allocation_header_id;
struct report_header_id;

inline constexpr x3::rule<flags_id, allocation_flags> flags_rule{"allocation flags"};
inline constexpr x3::rule<header_shape_id, shape_id> header_shape_rule{"a shape such as |f32[8]|"};
inline constexpr x3::rule<allocation_header_id, allocation_header> allocation_header_rule{"an allocation header"};
inline constexpr x3::rule<report_header_id, allocation_header> report_header_rule{"an allocation header"};

// `|f32[3584,4096]|`, `|<unknown shape>|`, or (legacy) the shape without bars.
inline constexpr auto set_shape_value = [](auto& ctx, shape_id v, char const*) { x3::_val(ctx) = v; };
inline constexpr auto no_bars = [](auto& ctx, auto&, char const*) { x3::_val(ctx).shapes_in_bars = false; };
inline constexpr auto set_unknown_shape = [](auto& ctx, auto&, char const*) { x3::_val(ctx) = no_shape; };
inline auto const header_shape_rule_def =
    (lit('|') > (on_match(lit("<unknown shape>"), set_unknown_shape) | on_match(named("a shape", shape), set_shape_value)) >
     '|') |
    on_match(shape, set_shape_value);
inline auto const flag = (lit("color") > on_match(int64_, a::flag_color)) | (lit("page") > on_match(int64_, a::flag_page)) |
                         (lit("parameter") > on_match(int64_, a::flag_parameter) >
                          -((lit(',') >> lit("shape")) > -on_match(!lit('|'), no_bars) >
                            on_match(header_shape_rule, a::flag_parameter_shape) > lit("at") > lit("ShapeIndex") >
                            on_match(index, a::flag_parameter_index))) |
                         (lit("output shape is") > -on_match(!lit('|'), no_bars) > on_match(header_shape_rule, a::flag_output)) |
                         on_match(lit("constant"), a::flag_constant) | on_match(lit("thread-local"), a::flag_thread_local) |
                         on_match(lit("maybe-live-out"), a::flag_live_out) |
                         on_match(lit("preallocated-temp"), a::flag_temp);
inline auto const flags_rule_def = *(lit(',') > named("an allocation flag (color, page, parameter, output shape is, constant, "
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

BOOST_SPIRIT_DEFINE(flags_rule, header_shape_rule, allocation_header_rule, report_header_rule)

}  // namespace hlomem::parser::dump

#endif  // HLOMEM_PARSER_ALLOCATION_HEADER_HPP
