// hlomem/parser/buffer_assignment_grammar.hpp: the Spirit X3 rules of the `*-buffer-assignment.txt`
// dump (parser/buffer_assignment.hpp shows its lines): the attributes of its line rules, the
// actions that hand each finished line to the builder (parser/buffer_assignment_builder.hpp), the
// rule of a whole dump, and the rules of its parts that the threaded read reads apart
// (parser/threaded_read.hpp).
#ifndef HLOMEM_PARSER_BUFFER_ASSIGNMENT_GRAMMAR_HPP
#define HLOMEM_PARSER_BUFFER_ASSIGNMENT_GRAMMAR_HPP

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/parser/allocation_header.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/dump_common.hpp>
#include <hlomem/parser/live_range.hpp>

namespace hlomem::parser::dump {

// ---------------------------------------------------------------------------------------------
// Attributes of the line rules
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

struct value_line {
    value_key key;
    std::int64_t size = 0;
    std::int64_t offset = 0;
    shape_id shape = no_shape;
};

/// `  value: <12 fusion.3 @0> (color=0)` under ` reused by buffers of a different color:`, which
/// newer XLA writes after an allocation's value lines (BufferAllocation::ToString) for the values
/// listed above whose color differs from the allocation's.
struct cross_color_line {
    value_key key;
    std::int64_t color = 0;
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

namespace a {

inline constexpr auto key_start = [](auto& ctx, auto&, char const* where) { x3::_val(ctx).where = where; };
inline constexpr auto key_index = [](auto& ctx, index_path& path, char const*) {
    x3::_val(ctx).index = std::move(path);
    x3::_val(ctx).index_printed = true;
};
inline constexpr auto key_phi = [](auto& ctx, auto&, char const*) { x3::_val(ctx).is_phi = true; };

// Builder calls: one per finished line.
inline constexpr auto on_allocation = [](auto& ctx, allocation_header& h, char const*) { builder(ctx).allocation(h); };
inline constexpr auto on_value_line = [](auto& ctx, value_line& v, char const*) { builder(ctx).value(v); };
inline constexpr auto on_cross_color_head = [](auto& ctx, auto&, char const*) { builder(ctx).cross_color_head(); };
inline constexpr auto on_cross_color = [](auto& ctx, cross_color_line& l, char const*) { builder(ctx).cross_color(l); };
inline constexpr auto on_used_values = [](auto& ctx, auto&, char const*) { builder(ctx).used_values(); };
inline constexpr auto on_block = [](auto& ctx, value_key& k, char const*) { builder(ctx).block(k); };
inline constexpr auto on_position = [](auto& ctx, position_line& p, char const*) { builder(ctx).position(p); };
inline constexpr auto on_use = [](auto& ctx, use_line& u, char const*) { builder(ctx).use(u); };
inline constexpr auto on_uses = [](auto& ctx, auto&, char const*) { builder(ctx).uses(uses_state::empty); };
inline constexpr auto on_uses_none = [](auto& ctx, auto&, char const*) { builder(ctx).uses(uses_state::none); };
inline constexpr auto on_uses_uninitialized = [](auto& ctx, auto&, char const*) {
    builder(ctx).uses(uses_state::not_initialized);
};
inline constexpr auto on_instruction = [](auto& ctx, std::string_view text, char const* where) {
    builder(ctx).instruction(text, where);
};

}  // namespace a

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

using x3::lit;

struct value_key_id;
struct value_line_id;
struct cross_color_line_id;
struct position_line_id;
struct use_line_id;
struct buffer_assignment_id;

inline constexpr x3::rule<value_key_id, value_key> value_key_rule{"a value such as <150 all-gather.30 @0>"};
inline constexpr x3::rule<value_line_id, value_line> value_line_rule{"a value line"};
inline constexpr x3::rule<cross_color_line_id, cross_color_line> cross_color_line_rule{
    "a value such as 'value: <12 fusion.3 @0> (color=0)'"};
inline constexpr x3::rule<position_line_id, position_line> position_line_rule{"a position"};
inline constexpr x3::rule<use_line_id, use_line> use_line_rule{"a use"};
inline constexpr x3::rule<buffer_assignment_id> buffer_assignment_rule{"a buffer assignment"};

// `<150 all-gather.30{2} (phi) @0>`: after '<' the rest must follow.
inline auto const value_key_rule_def = on_match(lit('<'), a::key_start) > on_match(uint64_, a::set_id) >
                                       on_match(name, a::set_name) > -on_match(index, a::key_index) >
                                       -on_match(lit("(phi)"), a::key_phi) > -(lit('@') > on_match(int64_, a::set_color)) >
                                       named("'>'", lit('>'));

// ` value: <171 convert.2 @0> (size=29360128,offset=0): bf16[4096,3584]{1,0:T(8,128)(2,1)}`
inline auto const value_line_rule_def = lit("value:") > on_match(value_key_rule, a::set_key) > '(' > lit("size=") >
                                        on_match(uint64_, a::set_size) > ',' > lit("offset=") >
                                        on_match(uint64_, a::set_offset) > ')' > ':' >
                                        on_match(named("a shape", shape), a::set_shape);

// `  value: <12 fusion.3 @0> (color=0)`: a value listed above, whose own color is not the
// allocation's (XLA:GPU lets default-memory temps live in a collective-memory allocation).
inline auto const cross_color_line_rule_def = lit("value:") > on_match(value_key_rule, a::set_key) > '(' > lit("color=") >
                                              on_match(int64_, a::set_color) > ')';

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

// A whole buffer-assignment dump.
// After the value lines, newer XLA may list again those whose color differs from the
// allocation's (BufferAllocation::ToString, cross_color_buffers_):
//    reused by buffers of a different color:
//     value: <12 fusion.3 @0> (color=0)
inline auto const cross_color_block = on_match(lit("reused by buffers of a different color:"), a::on_cross_color_head) > eol >
                                      *(on_match(cross_color_line_rule, a::on_cross_color) > eol);
inline auto const allocation_block = on_match(allocation_header_rule, a::on_allocation) > eol >
                                     *(on_match(value_line_rule, a::on_value_line) > eol) > -cross_color_block;
inline auto const buffer_assignment_rule_def =
    blank_lines > named("'BufferAssignment:'", lit("BufferAssignment:")) > eol > *allocation_block > blank_lines >
    named("an allocation header, a value line, or 'Total bytes used:' after a blank line", total_line) > blank_lines >
    -used_values > blank_lines > -live_range_text > blank_lines >
    named("'Used values:', a Used-values block, 'HloLiveRange (max N):' or the end of the dump", end_of_input);

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

BOOST_SPIRIT_DEFINE(value_key_rule, value_line_rule, cross_color_line_rule, position_line_rule, use_line_rule, buffer_assignment_rule)

// The parts of a dump that read apart (parser/threaded_read.hpp, read_in_parts): together, in text
// order, they read what buffer_assignment_rule reads; each stops at the end of its part.
struct allocations_part_id;
struct used_values_head_part_id;
struct used_values_part_id;
struct live_range_part_id;
inline constexpr x3::rule<allocations_part_id> allocations_part_rule{"a buffer assignment"};
inline constexpr x3::rule<used_values_head_part_id> used_values_head_part_rule{"the Used values"};
inline constexpr x3::rule<used_values_part_id> used_values_part_rule{"Used-values blocks"};
inline constexpr x3::rule<live_range_part_id> live_range_part_rule{"the live ranges"};
inline auto const allocations_part_rule_def = blank_lines > named("'BufferAssignment:'", lit("BufferAssignment:")) > eol >
                                              *allocation_block > blank_lines > total_line > blank_lines > end_of_input;
inline auto const used_values_head_part_rule_def = used_values > blank_lines > end_of_input;
inline auto const used_values_part_rule_def = *(blank_lines >> value_block) > blank_lines > end_of_input;
inline auto const live_range_part_rule_def = live_range_text > blank_lines > end_of_input;
BOOST_SPIRIT_DEFINE(allocations_part_rule, used_values_head_part_rule, used_values_part_rule, live_range_part_rule)

}  // namespace hlomem::parser::dump

#endif  // HLOMEM_PARSER_BUFFER_ASSIGNMENT_GRAMMAR_HPP
