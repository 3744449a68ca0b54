// hlomem/parser/hlo_module.hpp: the Spirit X3 grammar for HLO module text as XLA prints it
// (`HloModule::ToString`, the `*.after_optimizations.txt` dumps), and the entry points
// `parse_hlo_module`, `try_parse_hlo_module`, `parse_hlo_modules`, `try_parse_hlo_modules`.
//
// Grammar (blanks, line ends, /* */ and // comments may appear between any two tokens, so
// instructions may wrap over several lines):
//
//   file         := module {module}
//   module       := 'HloModule' [NAME] {',' header_attr} [stack_frames] computation {computation}
//   header_attr  := 'is_scheduled' '=' BOOL | 'entry_computation_layout' '=' '{' program '}'
//                 | 'input_output_alias' '=' '{' [io_alias {',' io_alias}] '}'
//                 | 'buffer_donor' '=' '{' [donor {',' donor}] '}'
//                 | ('num_partitions' | 'replica_count') '=' INT | KEY '=' RAW
//   program      := '(' [shape {',' shape}] ')' '->' shape
//   io_alias     := INDEX ':' '(' INT ',' INDEX [',' ('may-alias' | 'must-alias')] ')'
//   donor        := '(' INT ',' INDEX ')'
//   stack_frames := 'FileNames' {INT STRING} 'FunctionNames' {INT STRING}
//                   'FileLocations' {INT '{' {KEY '=' INT} '}'} 'StackFrames' {INT '{' {KEY '=' INT} '}'}
//   computation  := ['ENTRY'] NAME [signature] '{' instruction {instruction} '}'
//                   [',' 'execution_thread' '=' STRING]          (a `} // name` trailer is a comment)
//   signature    := '(' [[NAME] ':' shape {',' [NAME] ':' shape}] ')' '->' shape
//   instruction  := ['ROOT'] NAME '=' shape OPCODE '(' operands ')' {',' attribute}
//   operands     := [operand {',' operand}]       operand := [shape] NAME {'#' INDEX}
//                 | RAW                           for `constant(...)`: the literal, kept as text
//                 | INT                           for `parameter(N)`
//   attribute    := KEY '=' value                 value by KEY: computations for calls, to_apply,
//                   body, condition, branch_computations, ...; instruction names for
//                   control-predecessors; structured for output_to_operand_aliasing,
//                   custom_call_target, kind, index, dimensions, slice, metadata; RAW otherwise
//   NAME         := ['%'] [A-Za-z_][A-Za-z0-9_.-]*   (newer XLA prints no '%')
//   RAW          := balanced text: brackets nest, "strings" may hold any bracket, and it ends at a
//                   ',' or a blank outside brackets (`{"a":"}"}`, `[2,8]<=[16]`, `bf_io->bf`)
//
// The rules hold the grammar only: their actions drive the module builder
// (<hlomem/hlo/module_builder.hpp>), which resolves names and keeps the model's invariants, through
// the reader the X3 context carries under `hlo_reader_tag` (<hlomem/parser/hlo_tokens.hpp>). Shapes
// are interned (`intern_shape`): a shape text seen before costs a scan and a hash lookup.
// `metadata={...}` is read by the one metadata reader (<hlomem/hlo/metadata.hpp>). Errors, the
// builder's included, name file:line:column, say what was expected or what is wrong, and show
// the line:
//
//   m.hlo:5:27: error: operand 'y' is not defined in computation 'main'
//     ROOT %r = f32[] add(%x, %y)
//                             ^
#ifndef HLOMEM_PARSER_HLO_MODULE_HPP
#define HLOMEM_PARSER_HLO_MODULE_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <hlomem/detail/scan.hpp>
#include <hlomem/hlo/lexical.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/module_builder.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/hlo_tokens.hpp>
#include <hlomem/parser/shape.hpp>

namespace hlomem::parser {

// ---------------------------------------------------------------------------------------------
// Actions: (context, attribute, where) -> builder call
// ---------------------------------------------------------------------------------------------

namespace hlo_actions {

/// Each instruction takes a line, so the lines up to the next module bound the number of
/// instructions: reserving that much saves the regrowth of the big vectors and their slack.
inline constexpr auto begin_module = [](auto& ctx, auto&, char const* where) {
    auto& r = reader_of(ctx);
    // The next module starts a line with `HloModule`. Searching for the 'H' rather than for the
    // line end leaves memchr long runs to scan: 'H' is rare in HLO text, line ends are not.
    std::string_view const rest(where + 1, static_cast<std::size_t>(r.end - where - 1));
    std::size_t next = rest.find("HloModule");
    while (next != std::string_view::npos && rest.data()[static_cast<std::ptrdiff_t>(next) - 1] != '\n') {
        next = rest.find("HloModule", next + 1);
    }
    r.module_starts.push_back(where);
    r.entry_keyword = nullptr;
    r.builder.begin_module(::hlomem::detail::count_lines(where, next == std::string_view::npos ? r.end : rest.data() + next - 1));
};
inline constexpr auto module_name = [](auto& ctx, std::string_view n, char const*) { reader_of(ctx).builder.set_name(n); };
inline constexpr auto end_module = [](auto& ctx, auto&, char const*) {
    auto& r = reader_of(ctx);
    r.modules.push_back(r.builder.finish());
};
inline constexpr auto entry_parameter = [](auto& ctx, shape_id id, char const*) {
    reader_of(ctx).builder.add_entry_layout_parameter(id);
};
inline constexpr auto entry_result = [](auto& ctx, shape_id id, char const*) { reader_of(ctx).builder.set_entry_layout_result(id); };
inline constexpr auto index_clear = [](auto& ctx, auto&, char const*) { reader_of(ctx).index = {}; };
inline constexpr auto index_push = [](auto& ctx, std::int64_t v, char const* where) {
    auto& index = reader_of(ctx).index;
    index.push_back(narrow_int<typename std::decay_t<decltype(index)>::int_type>(v, where));
};
inline constexpr auto alias_output = [](auto& ctx, auto&, char const*) {
    auto& r = reader_of(ctx);
    r.io_alias = {std::move(r.index), 0, {}, alias_kind::may_alias};
};
inline constexpr auto alias_parameter = [](auto& ctx, std::int64_t n, char const* where) {
    auto& r = reader_of(ctx);
    r.io_alias.parameter_number = n;
    r.io_alias_where = where;
};
inline constexpr auto alias_parameter_index = [](auto& ctx, auto&, char const*) {
    auto& r = reader_of(ctx);
    r.io_alias.parameter_index = std::move(r.index);
};
inline constexpr auto may_alias = [](auto& ctx, auto&, char const*) { reader_of(ctx).io_alias.kind = alias_kind::may_alias; };
inline constexpr auto must_alias = [](auto& ctx, auto&, char const*) { reader_of(ctx).io_alias.kind = alias_kind::must_alias; };
inline constexpr auto end_alias = [](auto& ctx, auto&, char const*) {
    auto& r = reader_of(ctx);
    r.builder.add_input_output_alias(std::move(r.io_alias), r.at(r.io_alias_where));
};
inline constexpr auto donor_parameter = [](auto& ctx, std::int64_t n, char const* where) {
    auto& r = reader_of(ctx);
    r.donor_parameter = n;
    r.donor_where = where;
};
inline constexpr auto donor_parameter_index = [](auto& ctx, auto&, char const*) {
    auto& r = reader_of(ctx);
    r.builder.add_buffer_donor({r.donor_parameter, std::move(r.index)}, r.at(r.donor_where));
};

/// Table: 0 FileNames, 1 FunctionNames, 2 FileLocations, 3 StackFrames.
template <int Table>
inline constexpr auto frame_entry = [](auto& ctx, std::int64_t id, char const* where) {
    auto& r = reader_of(ctx);
    using table = typename std::decay_t<decltype(r.builder)>::frame_table;
    r.builder.frame_table_entry(static_cast<table>(Table), id, r.at(where));
};
inline constexpr auto file_name = [](auto& ctx, std::string_view s, char const*) { reader_of(ctx).builder.add_file_name(s); };
inline constexpr auto function_name = [](auto& ctx, std::string_view s, char const*) { reader_of(ctx).builder.add_function_name(s); };
inline constexpr auto frame_key = [](auto& ctx, std::string_view k, char const*) { reader_of(ctx).frame_key = k; };
inline constexpr auto frame_value = [](auto& ctx, std::int64_t v, char const*) {
    auto& r = reader_of(ctx);
    r.builder.set_frame_field(r.frame_key, v);
};

inline constexpr auto mark_entry = [](auto& ctx, auto&, char const* where) { reader_of(ctx).entry_keyword = where; };
inline constexpr auto begin_computation = [](auto& ctx, std::string_view n, char const* where) {
    auto& r = reader_of(ctx);
    char const* const keyword = r.entry_keyword;
    r.entry_keyword = nullptr;
    r.builder.begin_computation(n, keyword != nullptr, r.at(where), r.at(keyword ? keyword : where));
};
inline constexpr auto signature_parameter = [](auto& ctx, shape_id id, char const*) {
    reader_of(ctx).builder.add_signature_parameter(id);
};
inline constexpr auto signature_result = [](auto& ctx, shape_id id, char const*) { reader_of(ctx).builder.set_signature_result(id); };
inline constexpr auto end_computation = [](auto& ctx, auto&, char const*) { reader_of(ctx).builder.end_computation(); };
inline constexpr auto set_execution_thread = [](auto& ctx, std::string_view s, char const*) {
    reader_of(ctx).builder.set_execution_thread(s);
};

inline constexpr auto mark_root = [](auto& ctx, auto&, char const* where) { reader_of(ctx).root_keyword = where; };
inline constexpr auto begin_instruction = [](auto& ctx, std::string_view n, char const* where) {
    auto& r = reader_of(ctx);
    char const* const keyword = r.root_keyword;
    r.root_keyword = nullptr;
    r.builder.begin_instruction(n, keyword != nullptr, r.at(where), r.at(keyword ? keyword : where));
};
inline constexpr auto set_shape = [](auto& ctx, shape_id id, char const*) { reader_of(ctx).builder.set_shape(id); };
inline constexpr auto set_opcode = [](auto& ctx, std::string_view text, char const*) { reader_of(ctx).builder.set_opcode(text); };
inline constexpr auto dimension = [](auto& ctx, std::int64_t v, char const*) { reader_of(ctx).builder.add_dimension(v); };
inline constexpr auto slice_start = [](auto& ctx, std::int64_t v, char const*) { reader_of(ctx).slice = {v, 0, 1}; };
inline constexpr auto slice_limit = [](auto& ctx, std::int64_t v, char const*) { reader_of(ctx).slice.limit = v; };
inline constexpr auto slice_stride = [](auto& ctx, std::int64_t v, char const*) { reader_of(ctx).slice.stride = v; };
inline constexpr auto end_slice = [](auto& ctx, auto&, char const*) {
    auto& r = reader_of(ctx);
    r.builder.add_slice(r.slice);
};
inline constexpr auto operand_alias_output = [](auto& ctx, auto&, char const*) {
    auto& r = reader_of(ctx);
    r.operand_alias = {std::move(r.index), 0, {}};
};
inline constexpr auto operand_alias_operand = [](auto& ctx, std::int64_t n, char const*) {
    reader_of(ctx).operand_alias.operand_number = n;
};
inline constexpr auto operand_alias_operand_index = [](auto& ctx, auto&, char const*) {
    auto& r = reader_of(ctx);
    r.operand_alias.operand_index = std::move(r.index);
    r.builder.add_output_operand_alias(std::move(r.operand_alias));
};
inline constexpr auto control_predecessor = [](auto& ctx, std::string_view n, char const* where) {
    auto& r = reader_of(ctx);
    r.builder.add_control_predecessor(n, r.at(where));
};
inline constexpr auto set_custom_call_target = [](auto& ctx, std::string_view s, char const*) {
    reader_of(ctx).builder.set_custom_call_target(s);
};
inline constexpr auto set_fusion_kind = [](auto& ctx, std::string_view s, char const*) { reader_of(ctx).builder.set_fusion_kind(s); };
inline constexpr auto set_tuple_index = [](auto& ctx, std::int64_t v, char const*) { reader_of(ctx).builder.set_tuple_index(v); };

}  // namespace hlo_actions

// ---------------------------------------------------------------------------------------------
// Grammar pieces
// ---------------------------------------------------------------------------------------------

namespace hlo_grammar {
namespace a = hlo_actions;
using x3::lit;

/// `{}`, `{1,0}` into the builder's scratch index.
inline auto const shape_index = on_match(lit('{'), a::index_clear) >
                                -(on_match(uint64_, a::index_push) > *(',' > on_match(uint64_, a::index_push))) >
                                named("',' or '}'", lit('}'));

/// `{(f32[2]{0}, s32[])->f32[2]{0}}`
inline auto const program_layout = lit('{') > '(' >
                                   -(on_match(hlo_shape, a::entry_parameter) >
                                     *(',' > on_match(hlo_shape, a::entry_parameter))) >
                                   named("',' or ')'", lit(')')) > "->" > on_match(hlo_shape, a::entry_result) > '}';

/// `{ {0}: (0, {}, may-alias), {1}: (2, {1}) }`
inline auto const io_alias_entry = on_match(shape_index, a::alias_output) > ':' > '(' > on_match(uint64_, a::alias_parameter) >
                                   ',' > on_match(shape_index, a::alias_parameter_index) >
                                   -(',' > named("may-alias or must-alias", on_match(hlo_keyword("may-alias"), a::may_alias) |
                                                                               on_match(hlo_keyword("must-alias"), a::must_alias))) >
                                   on_match(named("',' or ')'", lit(')')), a::end_alias);
inline auto const io_alias_table = lit('{') > -(io_alias_entry > *(',' > io_alias_entry)) > named("',' or '}'", lit('}'));

/// `{ (0, {}), (1, {}) }`
inline auto const donor_entry = lit('(') > on_match(uint64_, a::donor_parameter) > ',' >
                                on_match(shape_index, a::donor_parameter_index) > ')';
inline auto const donor_table = lit('{') > -(donor_entry > *(',' > donor_entry)) > named("',' or '}'", lit('}'));

/// The stack-frame tables newer XLA prints after the header (HloModule::PrintStackFrameIndex).
inline auto const frame_fields = lit('{') > *(on_match(hlo_identifier, a::frame_key) > '=' > on_match(int64_, a::frame_value)) >
                                 named("a field such as line=3, or '}'", lit('}'));
inline auto const stack_frames =
    (hlo_keyword("FileNames") >> !(lit('{') | '(')) >
    *(on_match(uint64_, a::frame_entry<0>) > on_match(hlo_string, a::file_name)) > hlo_keyword("FunctionNames") >
    *(on_match(uint64_, a::frame_entry<1>) > on_match(hlo_string, a::function_name)) > hlo_keyword("FileLocations") >
    *(on_match(uint64_, a::frame_entry<2>) > frame_fields) > hlo_keyword("StackFrames") >
    *(on_match(uint64_, a::frame_entry<3>) > frame_fields);

/// `-> shape` and the parameters of a computation header: `(p: f32[], q: s32[2]) -> f32[]`.
inline auto const signature_parameter = (((lit("(unknown)") | hlo_name) > ':') | lit(':')) >
                                        on_match(hlo_shape, a::signature_parameter);
inline auto const signature = lit('(') > -(signature_parameter > *(',' > signature_parameter)) >
                              named("',' or ')'", lit(')')) > "->" > on_match(hlo_shape, a::signature_result);

/// `{1,0}` of dimensions=.
inline auto const dimension_list = lit('{') > -(on_match(int64_, a::dimension) > *(',' > on_match(int64_, a::dimension))) >
                                   named("',' or '}'", lit('}'));
/// `{[0:64], [0:128:2]}` of slice=.
inline auto const slice_range = lit('[') > on_match(int64_, a::slice_start) > ':' > on_match(int64_, a::slice_limit) >
                                -(':' > on_match(int64_, a::slice_stride)) > on_match(named("':' or ']'", lit(']')), a::end_slice);
inline auto const slice_list = lit('{') > -(slice_range > *(',' > slice_range)) > named("',' or '}'", lit('}'));
/// `{{0}: (0, {}), {1}: (1, {})}` of output_to_operand_aliasing=.
inline auto const operand_alias_entry = on_match(shape_index, a::operand_alias_output) > ':' > '(' >
                                        on_match(uint64_, a::operand_alias_operand) > ',' >
                                        on_match(shape_index, a::operand_alias_operand_index) > ')';
inline auto const operand_alias_table = lit('{') > -(operand_alias_entry > *(',' > operand_alias_entry)) >
                                        named("',' or '}'", lit('}'));
/// `{%a, %b}` of control-predecessors=.
inline auto const predecessor_list = lit('{') >
                                     -(on_match(hlo_name, a::control_predecessor) > *(',' > on_match(hlo_name, a::control_predecessor))) >
                                     named("',' or '}'", lit('}'));

}  // namespace hlo_grammar

// ---------------------------------------------------------------------------------------------
// Parsers that choose the grammar of what follows from what came before
// ---------------------------------------------------------------------------------------------

/// Reads `KEY =` and returns the key, or throws `expected <what>` at the key. Leaves `first`
/// after the '='.
template <class Iterator, class Context>
std::string_view attribute_key(Iterator& first, Iterator const& last, Context const& ctx, char const* what) {
    skip_before(first, last, ctx);
    char const* const start = first;
    char const* const end = ::hlomem::detail::scan_identifier(start, last);
    if (end == start) throw failure(start, std::string("expected ") + what, what);
    first = end;
    skip_before(first, last, ctx);
    if (first == last || *first != '=') throw failure(first, "expected '=' after " + hlo_lex::quote(std::string_view(start, end - start)), "'='");
    ++first;
    return std::string_view(start, static_cast<std::size_t>(end - start));
}

/// Reads `item {',' item}` up to `close` (an empty list is allowed) and consumes `close`;
/// `item()` reads one item from `first` or throws.
template <class Iterator, class Context, class Item>
void comma_list(Iterator& first, Iterator const& last, Context const& ctx, char close, Item item) {
    skip_before(first, last, ctx);
    if (first != last && *first != close) {
        item();
        for (;;) {
            skip_before(first, last, ctx);
            if (first == last || *first != ',') break;
            ++first;
            item();
        }
    }
    skip_before(first, last, ctx);
    if (first == last || *first != close) {
        std::string const expected = std::string("',' or '") + close + "'";
        throw failure(first, "expected " + expected, expected);
    }
    ++first;
}

/// The base of the parsers below, which build the model and have no attribute of their own.
template <class Derived>
struct building_parser : token<Derived, x3::unused_type> {};

/// Runs `p` from `first` and turns a soft failure into an error: `expected <what>`.
template <class Parser, class Iterator, class Context, class RContext>
void expect(Parser const& p, char const* what, Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx) {
    skip_before(first, last, ctx);
    if (!p.parse(first, last, ctx, rctx, x3::unused)) throw failure(first, std::string("expected ") + what, what);
}

/// One `key=value` of the `HloModule` line.
struct header_attribute_parser : building_parser<header_attribute_parser> {
    static constexpr char const* expected = "a module attribute";  // for "expected ..." messages

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute&) const {
        namespace g = hlo_grammar;
        auto& b = reader_of(ctx).builder;
        std::string_view const key = attribute_key(first, last, ctx, "a module attribute such as is_scheduled=true");
        if (hlo_lex::is_word(key, "is_scheduled")) {
            bool v = false;
            skip_before(first, last, ctx);
            if (!x3::bool_.parse(first, last, ctx, rctx, v)) throw failure(first, "expected true or false", "true or false");
            b.set_is_scheduled(v);
        } else if (hlo_lex::is_word(key, "entry_computation_layout")) {
            expect(g::program_layout, "'{'", first, last, ctx, rctx);
        } else if (hlo_lex::is_word(key, "input_output_alias")) {
            expect(g::io_alias_table, "'{'", first, last, ctx, rctx);
        } else if (hlo_lex::is_word(key, "buffer_donor")) {
            expect(g::donor_table, "'{'", first, last, ctx, rctx);
        } else if (hlo_lex::is_word(key, "num_partitions") || hlo_lex::is_word(key, "replica_count")) {
            std::int64_t v = 0;
            skip_before(first, last, ctx);
            if (!uint64_.parse(first, last, ctx, rctx, v)) throw failure(first, "expected a non-negative integer", "a non-negative integer");
            hlo_lex::is_word(key, "num_partitions") ? b.set_num_partitions(v) : b.set_replica_count(v);
        } else {
            std::string_view const value = raw(first, last, ctx, rctx);
            hlo_lex::is_word(key, "frontend_attributes") ? b.set_frontend_attributes(value) : b.add_header_attribute(key, value);
        }
        return true;
    }

    template <class Iterator, class Context, class RContext>
    static std::string_view raw(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx) {
        std::string_view value;
        skip_before(first, last, ctx);
        if (!hlo_raw_value.parse(first, last, ctx, rctx, value)) throw failure(first, "expected an attribute value", "an attribute value");
        return value;
    }
};
inline constexpr header_attribute_parser hlo_header_attribute{};

/// `(...)` after an opcode: the operands, the literal of a constant, the number of a parameter.
struct operands_parser : building_parser<operands_parser> {
    static constexpr char const* expected = "'('";  // for "expected ..." messages

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute&) const {
        auto& r = reader_of(ctx);
        skip_before(first, last, ctx);
        if (first == last || *first != '(') throw failure(first, "expected '('", "'('");
        ++first;
        switch (r.builder.current_opcode()) {
            case hlo_opcode::constant: {
                skip_before(first, last, ctx);
                char const* const start = first;
                char const* end = hlo_lex::scan_raw(start, last, r.begin, true);
                first = end;
                while (end > start && ::hlomem::detail::is_space(end[-1])) --end;
                r.builder.set_literal(std::string_view(start, static_cast<std::size_t>(end - start)));
                break;
            }
            case hlo_opcode::parameter: {
                std::int64_t n = 0;
                skip_before(first, last, ctx);
                char const* const where = first;
                if (!uint64_.parse(first, last, ctx, rctx, n)) throw failure(where, "expected a parameter number", "a parameter number");
                r.builder.set_parameter_number(n, r.at(where));
                break;
            }
            default:
                comma_list(first, last, ctx, ')', [&] { operand(first, last, ctx); });
                return true;
        }
        skip_before(first, last, ctx);
        if (first == last || *first != ')') throw failure(first, "expected ')'", "')'");
        ++first;
        return true;
    }

    /// `[shape] name`: a shape is there when the text starts with '(' or with an identifier
    /// followed by '[' (an array) or `b(` (a buffer).
    template <class Iterator, class Context>
    static void operand(Iterator& first, Iterator const& last, Context const& ctx) {
        auto& r = reader_of(ctx);
        skip_before(first, last, ctx);
        char const* const start = first;
        shape_id declared = no_shape;
        char const* const id_end = ::hlomem::detail::scan_identifier(start, last);
        char const* const after = ::hlomem::detail::skip_space_and_comments(id_end, last);
        bool const has_shape = (start != last && *start == '(') ||
                               (id_end != start && after != last &&
                                (*after == '[' || (*after == '(' && id_end - start == 1 && *start == 'b')));
        if (has_shape) {
            declared = intern_shape(r.shapes(), first, last, r.file(), r.text_begin());
            skip_before(first, last, ctx);
        }
        char const* const where = first;
        char const* name_start = first != last && *first == '%' ? first + 1 : first;
        char const* end = ::hlomem::detail::scan_identifier(name_start, last);
        if (end == name_start) {
            throw failure(where, has_shape ? "expected an operand name after its shape" : "expected an operand",
                          has_shape ? "an operand name" : "an operand");
        }
        // `%while.6#1`: element 1 of a tuple, printed instead of a get-tuple-element (newer XLA);
        // the builder makes the get-tuple-element back.
        while (end != last && *end == '#') {
            char const* const digits = end + 1;
            char const* d = digits;
            while (d != last && *d >= '0' && *d <= '9') ++d;
            if (d == digits) throw failure(digits, "expected a tuple index after '#'", "a tuple index");
            end = d;
        }
        first = end;
        r.builder.add_operand(std::string_view(name_start, static_cast<std::size_t>(end - name_start)), r.at(where), declared);
    }
};
inline constexpr operands_parser hlo_operands{};

/// `{key=value ...}` of metadata=, read by read_metadata (<hlomem/hlo/metadata.hpp>) with the
/// grammar's skipper between its tokens.
struct metadata_parser : building_parser<metadata_parser> {
    static constexpr char const* expected = "'{'";  // for "expected ..." messages

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        auto& r = reader_of(ctx);
        skip_before(first, last, ctx);
        if (first == last || *first != '{') return false;
        auto skip = [&](char const*& p) { skip_before(p, last, ctx); };
        first = read_metadata(first, last, r.begin, skip, r.builder.add_metadata());
        return true;
    }
};
inline constexpr metadata_parser hlo_metadata{};

/// One `key=value` after an instruction's operands. Keys that memory analysis needs get their
/// grammar; every other value is kept raw, so attributes of newer XLA versions still parse.
struct instruction_attribute_parser : building_parser<instruction_attribute_parser> {
    static constexpr char const* expected = "an attribute";  // for "expected ..." messages

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute&) const {
        namespace g = hlo_grammar;
        namespace a = hlo_actions;
        auto& b = reader_of(ctx).builder;
        std::string_view const key = attribute_key(first, last, ctx, "an attribute such as metadata={...}");
        hlo_opcode const op = b.current_opcode();
        if (hlo_lex::is_word(key, "metadata")) {
            expect(hlo_metadata, "'{'", first, last, ctx, rctx);
        } else if (hlo_lex::is_word(key, "calls") || hlo_lex::is_word(key, "branch_computations") ||
                   hlo_lex::is_word(key, "called_computations")) {
            skip_before(first, last, ctx);
            if (first != last && *first == '{') {
                ++first;
                comma_list(first, last, ctx, '}', [&] { computation(key, first, last, ctx); });
            } else {
                computation(key, first, last, ctx);
            }
        } else if (hlo_lex::is_word(key, "to_apply") || hlo_lex::is_word(key, "body") || hlo_lex::is_word(key, "condition") ||
                   hlo_lex::is_word(key, "true_computation") || hlo_lex::is_word(key, "false_computation") ||
                   ((hlo_lex::is_word(key, "select") || hlo_lex::is_word(key, "scatter")) && op == hlo_opcode::select_and_scatter)) {
            computation(key, first, last, ctx);
        } else if (hlo_lex::is_word(key, "control-predecessors")) {
            expect(g::predecessor_list, "'{'", first, last, ctx, rctx);
        } else if (hlo_lex::is_word(key, "output_to_operand_aliasing")) {
            expect(g::operand_alias_table, "'{'", first, last, ctx, rctx);
        } else if (hlo_lex::is_word(key, "custom_call_target")) {
            expect(on_match(hlo_string, a::set_custom_call_target), "a string in double quotes", first, last, ctx, rctx);
        } else if (hlo_lex::is_word(key, "kind") && op == hlo_opcode::fusion) {
            expect(on_match(hlo_identifier, a::set_fusion_kind), "a fusion kind such as kLoop", first, last, ctx, rctx);
        } else if (hlo_lex::is_word(key, "index") && op == hlo_opcode::get_tuple_element) {
            expect(on_match(uint64_, a::set_tuple_index), "a non-negative integer", first, last, ctx, rctx);
        } else if (hlo_lex::is_word(key, "dimensions")) {
            expect(g::dimension_list, "'{'", first, last, ctx, rctx);
        } else if (hlo_lex::is_word(key, "slice")) {
            expect(g::slice_list, "'{'", first, last, ctx, rctx);
        } else {
            b.add_attribute(key, header_attribute_parser::raw(first, last, ctx, rctx));
        }
        return true;
    }

    template <class Iterator, class Context>
    static void computation(std::string_view key, Iterator& first, Iterator const& last, Context const& ctx) {
        skip_before(first, last, ctx);
        char const* const where = first;
        char const* const start = first != last && *first == '%' ? first + 1 : first;
        char const* const end = ::hlomem::detail::scan_identifier(start, last);
        if (end == start) throw failure(where, "expected a computation name", "a computation name");
        first = end;
        auto& r = reader_of(ctx);
        r.builder.add_call(key, std::string_view(start, static_cast<std::size_t>(end - start)), r.at(where));
    }
};
inline constexpr instruction_attribute_parser hlo_instruction_attribute{};

/// `{',' attribute}` after an instruction's operands, then the end of the instruction for the
/// builder. Written out rather than as `*(',' > attribute) > eps[end_instruction]`: X3 gives
/// back the input a failed ',' skipped, so the line end and indentation before the next
/// instruction were skipped once for the ',' that is not there, again by the eps, which then
/// called x3::skip_over once more, and again by `ROOT` and by the name. Here they are skipped
/// once and stay skipped: the next instruction, or the computation's '}', starts where this ends.
struct instruction_tail_parser : building_parser<instruction_tail_parser> {
    static constexpr char const* expected = "',' or the next instruction";  // for "expected ..." messages

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute&) const {
        for (;;) {
            skip_before(first, last, ctx);
            if (first == last || *first != ',') break;
            ++first;
            expect(hlo_instruction_attribute, "an attribute", first, last, ctx, rctx);
        }
        reader_of(ctx).builder.end_instruction();
        return true;
    }
};
inline constexpr instruction_tail_parser hlo_instruction_tail{};

// ---------------------------------------------------------------------------------------------
// Computations and modules
// ---------------------------------------------------------------------------------------------

namespace hlo_grammar {

// The three rules give the grammar function boundaries: each is compiled once, and the
// expression types stay small, which shortens the compilation of a parse.
struct instruction_rule_id;
struct computation_rule_id;
struct module_rule_id;
inline constexpr x3::rule<instruction_rule_id> instruction{"an instruction"};
inline constexpr x3::rule<computation_rule_id> computation{"a computation"};
inline constexpr x3::rule<module_rule_id> module{"'HloModule'"};

inline auto const instruction_start = (on_match(hlo_keyword("ROOT"), a::mark_root) > on_match(hlo_name, a::begin_instruction)) |
                                      on_match(hlo_name, a::begin_instruction);
inline auto const instruction_def = instruction_start > ch<'='> > on_match(named("a shape", hlo_shape), a::set_shape) >
                                    on_match(named("an opcode", hlo_identifier), a::set_opcode) > hlo_operands >
                                    hlo_instruction_tail;

inline auto const computation_start = (on_match(hlo_keyword("ENTRY"), a::mark_entry) > on_match(hlo_name, a::begin_computation)) |
                                      on_match(hlo_name, a::begin_computation);
inline auto const computation_def = (!hlo_keyword("HloModule") >> computation_start) > -signature > '{' > *instruction >
                                    on_match(named("an instruction or '}'", lit('}')), a::end_computation) >
                                    -(',' > hlo_keyword("execution_thread") > '=' > on_match(hlo_string, a::set_execution_thread));

inline auto const module_def = on_match(hlo_keyword("HloModule"), a::begin_module) > -on_match(hlo_identifier, a::module_name) >
                               *(',' > hlo_header_attribute) > -stack_frames > computation > *computation >
                               on_match(x3::eps, a::end_module);

BOOST_SPIRIT_DEFINE(instruction, computation, module)

inline auto const file = x3::eps > module > *module > named("a computation, 'HloModule' or the end of the input", end_of_input);

}  // namespace hlo_grammar

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

namespace detail {

/// Parses every module of `text`; `starts` receives where each `HloModule` keyword is.
template <class P>
parse_result<std::vector<basic_hlo_module<P>>> parse_hlo_text(std::string_view text, std::string_view file,
                                                              std::vector<char const*>& starts) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    using result_type = std::vector<basic_hlo_module<P>>;
    try {
        return run_parse<result_type>(file, begin, end, [&] {
            hlo_text_reader<P> reader(file, begin, end);
            char const* first = begin;
            try {
                x3::phrase_parse(first, end, x3::with<hlo_reader_tag>(reader)[hlo_grammar::file], skipper);
            } catch (hlo_text_error const& e) {
                throw failure(e.where(), e.what(), e.expected());
            } catch (hlo_build_error const& e) {
                throw failure(begin + e.offset(), e.what());
            }
            starts = std::move(reader.module_starts);
            return std::move(reader.modules);
        });
    } catch (parse_error const& e) {  // a malformed shape, reported by intern_shape
        return parse_result<result_type>(e.info());
    }
}

}  // namespace detail

// The entry points, declared with their default arguments and documentation in parser/api.hpp.

template <class P>
parse_result<std::vector<basic_hlo_module<P>>> try_parse_hlo_modules(std::string_view text, std::string_view file) {
    std::vector<char const*> starts;
    return detail::parse_hlo_text<P>(text, file, starts);
}

template <class P>
parse_result<basic_hlo_module<P>> try_parse_hlo_module(std::string_view text, std::string_view file) {
    std::vector<char const*> starts;
    auto r = detail::parse_hlo_text<P>(text, file, starts);
    if (!r) return parse_result<basic_hlo_module<P>>(r.error());
    if (r->size() > 1) {
        return parse_result<basic_hlo_module<P>>(::hlomem::detail::make_parse_error(
            file, text.data(), text.data() + text.size(), starts[1],
            "a second HloModule: this text holds " + std::to_string(r->size()) +
                " modules; read it with parse_hlo_modules"));
    }
    return parse_result<basic_hlo_module<P>>(std::move(r->front()));
}

}  // namespace hlomem::parser


#endif  // HLOMEM_PARSER_HLO_MODULE_HPP
