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
//   operands     := [operand {',' operand}]       operand := [shape] NAME
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
// The rules build the model directly, through `hlo_module_builder`, which the X3 context carries
// under `hlo_builder_tag`. Shapes are interned (`intern_shape`): a shape text seen before costs a
// scan and a hash lookup. Operand names resolve to instruction indices as they are read; a name
// not yet defined is resolved when its computation ends. Errors name file:line:column, say what
// was expected or what is wrong, and show the line:
//
//   m.hlo:5:27: error: operand 'y' is not defined in computation 'main'
//     ROOT %r = f32[] add(%x, %y)
//                             ^
#ifndef HLOMEM_PARSER_HLO_MODULE_HPP
#define HLOMEM_PARSER_HLO_MODULE_HPP

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <hlomem/hlo/module.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/shape.hpp>

namespace hlomem::parser {

// ---------------------------------------------------------------------------------------------
// Lexical helpers on char const*
// ---------------------------------------------------------------------------------------------

namespace hlo_lex {

inline bool is_identifier_start(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool is_identifier_char(char c) noexcept {
    return is_identifier_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}
inline bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// The end of the identifier `[A-Za-z_][A-Za-z0-9_.-]*` at `p`; `p` when there is none.
inline char const* scan_identifier(char const* p, char const* last) noexcept {
    if (p == last || !is_identifier_start(*p)) return p;
    ++p;
    while (p != last && is_identifier_char(*p)) ++p;
    return p;
}

/// From the '"' at `p`, the position after the closing '"'. Backslash escapes are skipped, not
/// decoded. An unterminated string is an error at its opening quote.
inline char const* skip_string(char const* p, char const* last) {
    char const* q = p + 1;
    for (;;) {
        q = static_cast<char const*>(std::memchr(q, '"', static_cast<std::size_t>(last - q)));
        if (q == nullptr) throw failure(p, "unterminated string: '\"' without a closing '\"'");
        char const* b = q;
        while (b > p + 1 && b[-1] == '\\') --b;
        if ((q - b) % 2 == 0) return q + 1;
        ++q;
    }
}

/// The end of a raw value at `p`: brackets of the three kinds nest and must match, strings are
/// skipped whole, and the value ends before a closing bracket it did not open or, outside
/// brackets, before a ',' or a blank. With `to_close` set, ',' and blanks do not end it (the
/// payload of `constant(...)`). Errors: a mismatched or unclosed bracket, nesting deeper than
/// max_nesting_depth. `text_begin` (where the input starts) is only used to name columns.
inline char const* scan_raw(char const* p, char const* last, char const* text_begin, bool to_close = false) {
    std::array<char, max_nesting_depth> closers;
    std::array<char const*, max_nesting_depth> openers;
    std::size_t depth = 0;
    while (p != last) {
        char const c = *p;
        switch (c) {
            case '"':
                p = skip_string(p, last);
                continue;
            case '{':
            case '[':
            case '(':
                if (depth == max_nesting_depth) {
                    throw failure(p, "nesting deeper than " + std::to_string(max_nesting_depth) + " levels");
                }
                closers[depth] = c == '{' ? '}' : c == '[' ? ']' : ')';
                openers[depth++] = p;
                break;
            case '}':
            case ']':
            case ')':
                if (depth == 0) return p;
                if (closers[depth - 1] != c) {
                    char const* line_start = openers[depth - 1];
                    while (line_start != text_begin && line_start[-1] != '\n') --line_start;
                    throw failure(p, std::string("'") + c + "' does not match the '" + *openers[depth - 1] +
                                         "' at column " + std::to_string(openers[depth - 1] - line_start + 1) +
                                         "; expected '" + closers[depth - 1] + "'");
                }
                --depth;
                break;
            case ',':
            case ' ':
            case '\t':
            case '\n':
            case '\r':
                if (depth == 0 && !to_close) return p;
                break;
            default:
                break;
        }
        ++p;
    }
    if (depth > 0) {
        throw failure(openers[0], std::string("'") + *openers[0] + "' is never closed: expected '" + closers[0] +
                                      "' before the end of the input");
    }
    return p;
}

/// The number of lines of [p, last): its line ends plus one.
inline std::size_t count_lines(char const* p, char const* last) noexcept {
    std::size_t lines = 1;
    while ((p = static_cast<char const*>(std::memchr(p, '\n', static_cast<std::size_t>(last - p)))) != nullptr) {
        ++lines;
        ++p;
    }
    return lines;
}

inline std::string quote(std::string_view s) {
    return "'" + std::string(s.substr(0, 80)) + (s.size() > 80 ? "...'" : "'");
}

}  // namespace hlo_lex

// ---------------------------------------------------------------------------------------------
// Name lookup: an open-addressing table from names (views into the input) to indices, cleared in
// O(1) between computations.
// ---------------------------------------------------------------------------------------------

class name_table {
public:
    static constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();

    /// Forgets every name (the slots are reused).
    void clear() noexcept {
        ++generation_;
        size_ = 0;
    }
    std::size_t size() const noexcept { return size_; }

    /// The index stored for `name`, or npos.
    std::uint32_t find(std::string_view name) const noexcept {
        if (slots_.empty()) return npos;
        std::size_t const mask = slots_.size() - 1;
        for (std::size_t i = hash(name) & mask;; i = (i + 1) & mask) {
            slot const& s = slots_[i];
            if (s.generation != generation_) return npos;
            if (s.key == name) return s.value;
        }
    }

    /// Stores `value` for `name` and returns npos, or returns the index already stored.
    std::uint32_t insert(std::string_view name, std::uint32_t value) {
        if ((size_ + 1) * 2 > slots_.size()) grow();
        std::size_t const mask = slots_.size() - 1;
        for (std::size_t i = hash(name) & mask;; i = (i + 1) & mask) {
            slot& s = slots_[i];
            if (s.generation != generation_) {
                s = slot{name, value, generation_};
                ++size_;
                return npos;
            }
            if (s.key == name) return s.value;
        }
    }

private:
    struct slot {
        std::string_view key;
        std::uint32_t value = 0;
        std::uint32_t generation = 0;
    };

    static std::size_t hash(std::string_view s) noexcept { return std::hash<std::string_view>{}(s); }

    void grow() {
        std::vector<slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 64 : old.size() * 2, slot{});
        std::uint32_t const live = generation_;
        generation_ = 1;
        size_ = 0;
        for (slot const& s : old) {
            if (s.generation == live) insert(s.key, s.value);
        }
    }

    std::vector<slot> slots_;
    std::uint32_t generation_ = 1;
    std::size_t size_ = 0;
};

// ---------------------------------------------------------------------------------------------
// The builder: what the grammar's actions call to build modules
// ---------------------------------------------------------------------------------------------

struct hlo_builder_tag;

/// Builds basic_hlo_module<P> objects from the grammar's events and checks what the grammar
/// cannot: names defined twice or never, ROOTs, parameter numbers, computations that calls name.
/// Every error is a `failure` at the text it is about.
template <class P>
class hlo_module_builder {
public:
    using module_type = basic_hlo_module<P>;
    using string_type = typename P::string_type;
    using metadata_type = basic_hlo_metadata<P>;

    hlo_module_builder(std::string_view file, char const* begin, char const* end) : file_(file), begin_(begin), end_(end) {}

    std::vector<module_type>& modules() noexcept { return modules_; }
    /// Where each module's `HloModule` keyword is.
    std::vector<char const*> const& module_starts() const noexcept { return module_starts_; }

    // -- module ----------------------------------------------------------------------------------

    void begin_module(char const* where) {
        module_ = module_type{};
        // Each instruction takes a line, so the lines up to the next module bound the number of
        // instructions: reserving that much saves the regrowth of the big vectors and their slack.
        std::string_view const rest(where + 1, static_cast<std::size_t>(end_ - where - 1));
        std::size_t const next = rest.find("\nHloModule");
        lines_ = hlo_lex::count_lines(where, next == std::string_view::npos ? end_ : rest.data() + next);
        module_.instructions_.reserve(lines_);
        module_.lists_.reserve(lines_);
        module_starts_.push_back(where);
        computation_names_.clear();
        pending_calls_.clear();
        alias_positions_.clear();
        donor_positions_.clear();
        entry_where_ = nullptr;
    }
    void set_name(std::string_view name) { module_.name_ = string_type(name); }
    void set_is_scheduled(bool v) { module_.is_scheduled_ = v; }
    void set_num_partitions(std::int64_t v) { module_.num_partitions_ = v; }
    void set_replica_count(std::int64_t v) { module_.replica_count_ = v; }
    void set_frontend_attributes(std::string_view raw) { module_.frontend_attributes_ = string_type(raw); }
    void add_header_attribute(std::string_view key, std::string_view raw) {
        module_.attributes_.push_back({string_type(key), string_type(raw)});
    }
    void entry_layout_parameter(shape_id id) {
        module_.has_entry_layout_ = true;
        module_.entry_layout_parameters_.push_back(id);
    }
    void entry_layout_result(shape_id id) {
        module_.has_entry_layout_ = true;
        module_.entry_layout_result_ = id;
    }

    // Shape indices (`{}`, `{1,0}`) are read into a scratch index, then taken by what follows.
    void index_clear() { index_ = basic_shape_index<P>{}; }
    void index_push(std::int64_t v, char const* where) {
        index_.push_back(narrow_int<typename P::int_type>(v, where));
    }

    void alias_output() { module_.input_output_aliases_.push_back({std::move(index_), 0, {}, alias_kind::may_alias}); }
    void alias_parameter(std::int64_t n, char const* where) {
        module_.input_output_aliases_.back().parameter_number = n;
        alias_positions_.push_back(where);
    }
    void alias_parameter_index() { module_.input_output_aliases_.back().parameter_index = std::move(index_); }
    void alias_kind_of(alias_kind k) { module_.input_output_aliases_.back().kind = k; }
    void donor_parameter(std::int64_t n, char const* where) {
        module_.buffer_donors_.push_back({n, {}});
        donor_positions_.push_back(where);
    }
    void donor_parameter_index() { module_.buffer_donors_.back().parameter_index = std::move(index_); }

    // -- FileNames / FunctionNames / FileLocations / StackFrames ---------------------------------

    enum class frame_table { file_names, function_names, file_locations, stack_frames };

    /// Checks that an entry of `table` carries the next id (XLA prints 1, 2, 3, ...).
    void frame_table_entry(frame_table table, std::int64_t id, char const* where) {
        auto& index = module_.stack_frame_index_;
        frame_table_ = table;
        std::size_t count = 0;
        char const* name = "";
        switch (table) {
            case frame_table::file_names: count = index.file_names.size(), name = "FileNames"; break;
            case frame_table::function_names: count = index.function_names.size(), name = "FunctionNames"; break;
            case frame_table::file_locations:
                count = index.file_locations.size(), name = "FileLocations";
                index.file_locations.emplace_back();
                break;
            case frame_table::stack_frames:
                count = index.stack_frames.size(), name = "StackFrames";
                index.stack_frames.emplace_back();
                break;
        }
        if (id != static_cast<std::int64_t>(count) + 1) {
            throw failure(where, std::string(name) + " entry " + std::to_string(id) + " is out of order: expected " +
                                     std::to_string(count + 1));
        }
    }
    void file_name(std::string_view s) { module_.stack_frame_index_.file_names.push_back(string_type(s)); }
    void function_name(std::string_view s) { module_.stack_frame_index_.function_names.push_back(string_type(s)); }
    void frame_field_key(std::string_view key) { frame_key_ = key; }
    /// A `key=N` of the last FileLocations or StackFrames entry; unknown keys are ignored.
    void frame_field_value(std::int64_t v) {
        auto& index = module_.stack_frame_index_;
        if (frame_table_ == frame_table::stack_frames) {
            auto& f = index.stack_frames.back();
            if (frame_key_ == "file_location_id") f.file_location_id = v;
            else if (frame_key_ == "parent_frame_id") f.parent_frame_id = v;
            return;
        }
        auto& l = index.file_locations.back();
        if (frame_key_ == "file_name_id") l.file_name_id = v;
        else if (frame_key_ == "function_name_id") l.function_name_id = v;
        else if (frame_key_ == "line") l.line = v;
        else if (frame_key_ == "end_line") l.end_line = v;
        else if (frame_key_ == "column") l.column = v;
        else if (frame_key_ == "end_column") l.end_column = v;
    }

    // -- computations ----------------------------------------------------------------------------

    void mark_entry(char const* where) { entry_keyword_ = where; }

    void begin_computation(std::string_view name, char const* where) {
        auto const id = static_cast<computation_id>(module_.computations_.size());
        if (id == no_computation) throw failure(where, "too many computations");
        if (auto previous = computation_names_.insert(name, id); previous != name_table::npos) {
            throw failure(where, "computation " + hlo_lex::quote(name) + " is already defined (line " +
                                     std::to_string(line_of(module_.computations_[previous].offset)) + ")");
        }
        bool const is_entry = entry_keyword_ != nullptr;
        if (is_entry && entry_where_ != nullptr) {
            throw failure(entry_keyword_, "a second ENTRY computation: " +
                                              hlo_lex::quote(std::string_view(module_.computations_[module_.entry_].name)) +
                                              " is already the entry");
        }
        if (is_entry) {
            module_.entry_ = id;
            entry_where_ = entry_keyword_;
        }
        basic_hlo_computation<P> c;
        c.name = string_type(name);
        c.is_entry = is_entry;
        c.first_instruction = static_cast<instruction_id>(module_.instructions_.size());
        c.offset = static_cast<std::size_t>((entry_keyword_ ? entry_keyword_ : where) - begin_);
        module_.computations_.push_back(std::move(c));
        typename module_type::computation_lists lists;
        lists.signature.first = static_cast<std::uint32_t>(module_.signature_shapes_.size());
        module_.computation_lists_.push_back(lists);
        entry_keyword_ = nullptr;
        computation_where_ = where;
        instruction_names_.clear();
        pending_operands_.clear();
        pending_predecessors_.clear();
        parameters_.clear();
    }
    void signature_parameter(shape_id id) {
        module_.signature_shapes_.push_back(id);
        ++module_.computation_lists_.back().signature.count;
    }
    void signature_result(shape_id id) { module_.computation_lists_.back().signature_result = id; }
    void execution_thread(std::string_view s) { module_.computations_.back().execution_thread = string_type(s); }

    /// At the computation's `}`: resolves names used before their definition, picks the root and
    /// orders the parameters.
    void end_computation() {
        auto& c = module_.computations_.back();
        c.instruction_count = static_cast<std::uint32_t>(module_.instructions_.size() - c.first_instruction);
        if (c.instruction_count == 0) {
            throw failure(computation_where_, "computation " + hlo_lex::quote(std::string_view(c.name)) + " has no instructions");
        }
        for (auto const& p : pending_operands_) {
            instruction_id const id = resolve(p.name, p.where, "operand");
            check_operand_shape(p.name, p.where, p.declared, id);
            module_.operands_[p.slot] = id;
        }
        for (auto const& p : pending_predecessors_) {
            module_.control_predecessors_[p.slot] = resolve(p.name, p.where, "control predecessor");
        }
        if (c.root == no_instruction) {
            c.root = static_cast<instruction_id>(module_.instructions_.size() - 1);
            module_.instructions_.back().is_root = true;
        }
        std::sort(parameters_.begin(), parameters_.end(),
                  [](parameter_entry const& a, parameter_entry const& b) { return a.number < b.number; });
        auto& lists = module_.computation_lists_.back();
        lists.parameters.first = static_cast<std::uint32_t>(module_.parameter_ids_.size());
        for (std::size_t i = 0; i < parameters_.size(); ++i) {
            auto const& p = parameters_[i];
            if (p.number != static_cast<std::int64_t>(i)) {
                if (i > 0 && parameters_[i - 1].number == p.number) {
                    throw failure(p.where, "parameter number " + std::to_string(p.number) + " is already used by " +
                                               hlo_lex::quote(std::string_view(module_.instructions_[parameters_[i - 1].id].name)));
                }
                throw failure(p.where, "computation " + hlo_lex::quote(std::string_view(c.name)) + " has parameter(" +
                                           std::to_string(p.number) + ") but no parameter(" + std::to_string(i) + ")");
            }
            module_.parameter_ids_.push_back(p.id);
        }
        lists.parameters.count = static_cast<std::uint32_t>(parameters_.size());
    }

    // -- instructions ----------------------------------------------------------------------------

    void mark_root(char const* where) { root_keyword_ = where; }

    void begin_instruction(std::string_view name, char const* where) {
        auto const id = static_cast<instruction_id>(module_.instructions_.size());
        if (id == no_instruction) throw failure(where, "too many instructions");
        auto const comp = static_cast<computation_id>(module_.computations_.size() - 1);
        if (auto previous = instruction_names_.insert(name, id); previous != name_table::npos) {
            throw failure(where, "instruction " + hlo_lex::quote(name) + " is already defined in computation " +
                                     hlo_lex::quote(std::string_view(module_.computations_.back().name)) + " (line " +
                                     std::to_string(line_of(module_.instructions_[previous].offset)) + ")");
        }
        basic_hlo_instruction<P> inst;
        inst.name = string_type(name);
        inst.computation = comp;
        inst.offset = static_cast<std::size_t>((root_keyword_ ? root_keyword_ : where) - begin_);
        if (root_keyword_ != nullptr) {
            auto& c = module_.computations_.back();
            if (c.root != no_instruction) {
                throw failure(root_keyword_, "a second ROOT in computation " + hlo_lex::quote(std::string_view(c.name)) +
                                                 ": " + hlo_lex::quote(std::string_view(module_.instructions_[c.root].name)) +
                                                 " is already its root");
            }
            c.root = id;
            inst.is_root = true;
            root_keyword_ = nullptr;
        }
        module_.instructions_.push_back(std::move(inst));
        typename module_type::instruction_lists lists;
        lists.operands.first = static_cast<std::uint32_t>(module_.operands_.size());
        lists.calls.first = static_cast<std::uint32_t>(module_.calls_.size());
        lists.control_predecessors.first = static_cast<std::uint32_t>(module_.control_predecessors_.size());
        lists.dimensions.first = static_cast<std::uint32_t>(module_.dimensions_.size());
        lists.slices.first = static_cast<std::uint32_t>(module_.slices_.size());
        lists.operand_aliases.first = static_cast<std::uint32_t>(module_.operand_aliases_.size());
        lists.attributes.first = static_cast<std::uint32_t>(module_.raw_attributes_.size());
        module_.lists_.push_back(lists);
    }

    void end_instruction() {
        auto& l = module_.lists_.back();
        auto count = [](auto const& v, auto& s) { s.count = static_cast<std::uint32_t>(v.size() - s.first); };
        count(module_.operands_, l.operands);
        count(module_.calls_, l.calls);
        count(module_.control_predecessors_, l.control_predecessors);
        count(module_.dimensions_, l.dimensions);
        count(module_.slices_, l.slices);
        count(module_.operand_aliases_, l.operand_aliases);
        count(module_.raw_attributes_, l.attributes);
    }

    basic_hlo_instruction<P>& current() { return module_.instructions_.back(); }
    hlo_opcode current_opcode() const { return module_.instructions_.back().opcode; }

    void set_shape(shape_id id) { current().shape = id; }

    /// The opcode text: a known opcode, XLA's async syntax sugar (`all-to-all-start` is an
    /// async-start wrapping all-to-all), or an opcode this hlomem does not know, kept as text.
    void set_opcode(std::string_view text) {
        if (auto op = hlo_opcode_from_string(text)) {
            current().opcode = *op;
            return;
        }
        hlo_opcode op = hlo_opcode::unknown;
        for (auto [suffix, async_op] : {std::pair<std::string_view, hlo_opcode>{"-start", hlo_opcode::async_start},
                                        {"-update", hlo_opcode::async_update},
                                        {"-done", hlo_opcode::async_done}}) {
            if (text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix &&
                hlo_opcode_from_string(text.substr(0, text.size() - suffix.size()))) {
                op = async_op;
            }
        }
        current().opcode = op;
        module_.opcode_texts_.emplace_back(static_cast<instruction_id>(module_.instructions_.size() - 1), string_type(text));
    }

    void set_parameter_number(std::int64_t n, char const* where) {
        current().parameter_number = n;
        parameters_.push_back({n, static_cast<instruction_id>(module_.instructions_.size() - 1), where});
    }
    void set_literal(std::string_view text) { current().literal = string_type(text); }

    /// An operand named `name`, with the shape it was declared with (or no_shape).
    void operand(std::string_view name, char const* where, shape_id declared) {
        auto const slot = static_cast<std::uint32_t>(module_.operands_.size());
        std::uint32_t const id = instruction_names_.find(name);
        if (id == name_table::npos) {
            module_.operands_.push_back(no_instruction);
            pending_operands_.push_back({slot, name, where, declared});
            return;
        }
        if (id == module_.instructions_.size() - 1) {
            throw failure(where, "instruction " + hlo_lex::quote(name) + " uses itself as an operand");
        }
        check_operand_shape(name, where, declared, id);
        module_.operands_.push_back(id);
    }

    void control_predecessor(std::string_view name, char const* where) {
        auto const slot = static_cast<std::uint32_t>(module_.control_predecessors_.size());
        std::uint32_t const id = instruction_names_.find(name);
        module_.control_predecessors_.push_back(id == name_table::npos ? no_instruction : id);
        if (id == name_table::npos) pending_predecessors_.push_back({slot, name, where, no_shape});
    }

    /// A computation named by attribute `key` (`calls`, `to_apply`, ...); resolved when the module
    /// ends, since a computation may be printed after its callers.
    void call(std::string_view key, std::string_view callee, char const* where) {
        auto const caller = static_cast<instruction_id>(module_.instructions_.size() - 1);
        pending_calls_.push_back({static_cast<std::uint32_t>(module_.calls_.size()), callee, where, key});
        module_.calls_.push_back({caller, no_computation, call_kind_of(key, current_opcode())});
    }

    void set_custom_call_target(std::string_view s) { current().custom_call_target = string_type(s); }
    void set_tuple_index(std::int64_t v) { current().tuple_index = v; }
    void set_fusion_kind(std::string_view text) {
        fusion_kind k = fusion_kind::other;
        if (text == "kLoop") k = fusion_kind::loop;
        else if (text == "kInput") k = fusion_kind::input;
        else if (text == "kOutput") k = fusion_kind::output;
        else if (text == "kCustom") k = fusion_kind::custom;
        current().fusion = k;
        if (k == fusion_kind::other) add_attribute("kind", text);
    }
    void dimension(std::int64_t v) { module_.dimensions_.push_back(v); }
    void slice_start(std::int64_t v) { module_.slices_.push_back({v, 0, 1}); }
    void slice_limit(std::int64_t v) { module_.slices_.back().limit = v; }
    void slice_stride(std::int64_t v) { module_.slices_.back().stride = v; }
    void operand_alias_output() { module_.operand_aliases_.push_back({std::move(index_), 0, {}}); }
    void operand_alias_operand(std::int64_t n) { module_.operand_aliases_.back().operand_number = n; }
    void operand_alias_operand_index() { module_.operand_aliases_.back().operand_index = std::move(index_); }
    void add_attribute(std::string_view key, std::string_view raw) {
        module_.raw_attributes_.push_back({string_type(key), string_type(raw)});
    }

    void begin_metadata() {
        if (module_.metadata_.empty()) module_.metadata_.reserve(lines_);  // only dumps with metadata pay
        module_.lists_.back().metadata = static_cast<std::uint32_t>(module_.metadata_.size());
        module_.metadata_.emplace_back();
    }
    /// One `key=value` of metadata; `value` is a string's contents or a bare token. Fields other
    /// than those basic_hlo_metadata keeps are skipped.
    void metadata_field(std::string_view key, std::string_view value, bool quoted, char const* where) {
        metadata_type& m = module_.metadata_.back();
        if (quoted) {
            if (key == "op_name") m.op_name = string_type(value);
            else if (key == "source_file") m.source_file = string_type(value);
            else if (key == "op_type") m.op_type = string_type(value);
        } else if (key == "source_line") {
            m.source_line = integer_value(key, value, where);
        } else if (key == "stack_frame_id") {
            m.stack_frame_id = integer_value(key, value, where);
        }
    }

    // -- the end of a module -------------------------------------------------------------------

    /// Resolves the computations that calls name, picks the entry, builds the callers and users
    /// indexes and checks the aliasing tables against the entry's parameters.
    void end_module() {
        auto& m = module_;
        for (auto const& p : pending_calls_) {
            std::uint32_t const callee = computation_names_.find(p.name);
            if (callee == name_table::npos) {
                throw failure(p.where, "unknown computation " + hlo_lex::quote(p.name) + " in " + std::string(p.key) + "=");
            }
            auto& call = m.calls_[p.slot];
            if (m.instructions_[call.caller].computation == callee) {
                throw failure(p.where, "computation " + hlo_lex::quote(p.name) + " calls itself");
            }
            call.callee = callee;
        }
        if (m.entry_ == no_computation) {
            m.entry_ = static_cast<computation_id>(m.computations_.size() - 1);
            m.computations_.back().is_entry = true;
        }
        build_callers();
        build_users();
        std::size_t const entry_parameters = m.computation_lists_[m.entry_].parameters.count;
        auto check_parameter = [&](std::int64_t n, char const* where, char const* table) {
            if (n < 0 || static_cast<std::size_t>(n) >= entry_parameters) {
                throw failure(where, std::string(table) + " names parameter " + std::to_string(n) +
                                         ", but the entry computation has " + std::to_string(entry_parameters) +
                                         (entry_parameters == 1 ? " parameter" : " parameters"));
            }
        };
        for (std::size_t i = 0; i < m.input_output_aliases_.size(); ++i) {
            check_parameter(m.input_output_aliases_[i].parameter_number, alias_positions_[i], "input_output_alias");
        }
        for (std::size_t i = 0; i < m.buffer_donors_.size(); ++i) {
            check_parameter(m.buffer_donors_[i].parameter_number, donor_positions_[i], "buffer_donor");
        }
        modules_.push_back(std::move(module_));
        module_ = module_type{};
    }

    std::string_view file() const noexcept { return file_; }
    char const* text_begin() const noexcept { return begin_; }
    basic_shape_table<P>& shapes() noexcept { return module_.shapes_; }

private:
    struct pending_name {
        std::uint32_t slot;
        std::string_view name;
        char const* where;
        shape_id declared;
    };
    struct pending_call {
        std::uint32_t slot;
        std::string_view name;
        char const* where;
        std::string_view key;
    };
    struct parameter_entry {
        std::int64_t number;
        instruction_id id;
        char const* where;
    };

    static call_kind call_kind_of(std::string_view key, hlo_opcode op) {
        bool const async = op == hlo_opcode::async_start || op == hlo_opcode::async_update || op == hlo_opcode::async_done;
        if (key == "body") return call_kind::while_body;
        if (key == "condition") return call_kind::while_condition;
        if (key == "branch_computations" || key == "true_computation" || key == "false_computation") {
            return call_kind::conditional_branch;
        }
        if (op == hlo_opcode::call) return call_kind::call;
        if (async) return call_kind::async;
        if (key == "calls" && op == hlo_opcode::fusion) return call_kind::fusion;
        return call_kind::to_apply;
    }

    std::int64_t integer_value(std::string_view key, std::string_view text, char const* where) const {
        std::int64_t v = 0;
        char const* p = text.data();
        auto r = x3::parse(p, text.data() + text.size(), int64_, v);
        if (!r || p != text.data() + text.size()) {
            throw failure(where, "metadata " + std::string(key) + " must be an integer, not " + hlo_lex::quote(text));
        }
        return v;
    }

    instruction_id resolve(std::string_view name, char const* where, char const* what) const {
        std::uint32_t const id = instruction_names_.find(name);
        if (id == name_table::npos) {
            throw failure(where, std::string(what) + " " + hlo_lex::quote(name) + " is not defined in computation " +
                                     hlo_lex::quote(std::string_view(module_.computations_.back().name)));
        }
        return id;
    }

    /// An operand printed with a shape must have that shape, layouts aside (XLA's Compatible).
    void check_operand_shape(std::string_view name, char const* where, shape_id declared, instruction_id id) const {
        shape_id const actual = module_.instructions_[id].shape;
        if (declared == no_shape || declared == actual) return;
        auto const& table = module_.shapes_;
        if (!shape_equal().ignore_layout()(table[declared], table[actual])) {
            throw failure(where, "operand " + hlo_lex::quote(name) + " is declared as " + to_string(table[declared]) +
                                     " but its shape is " + to_string(table[actual]));
        }
    }

    std::size_t line_of(std::size_t offset) const {
        return 1 + static_cast<std::size_t>(std::count(begin_, begin_ + offset, '\n'));
    }

    void build_callers() {
        auto& m = module_;
        m.caller_offsets_.assign(m.computations_.size() + 1, 0);
        for (auto const& c : m.calls_) ++m.caller_offsets_[c.callee + 1];
        for (std::size_t i = 1; i < m.caller_offsets_.size(); ++i) m.caller_offsets_[i] += m.caller_offsets_[i - 1];
        m.callers_.resize(m.calls_.size());
        auto next = m.caller_offsets_;
        for (auto const& c : m.calls_) m.callers_[next[c.callee]++] = c;
    }

    void build_users() {
        auto& m = module_;
        std::size_t const n = m.instructions_.size();
        std::vector<instruction_id> last_user(n, no_instruction);
        m.user_offsets_.assign(n + 1, 0);
        for (instruction_id u = 0; u < n; ++u) {
            for (instruction_id o : m.operands(u)) {
                if (last_user[o] != u) {
                    last_user[o] = u;
                    ++m.user_offsets_[o + 1];
                }
            }
        }
        for (std::size_t i = 1; i <= n; ++i) m.user_offsets_[i] += m.user_offsets_[i - 1];
        m.user_ids_.resize(m.user_offsets_[n]);
        std::vector<std::uint32_t> next(m.user_offsets_.begin(), m.user_offsets_.end() - 1);
        std::fill(last_user.begin(), last_user.end(), no_instruction);
        for (instruction_id u = 0; u < n; ++u) {
            for (instruction_id o : m.operands(u)) {
                if (last_user[o] != u) {
                    last_user[o] = u;
                    m.user_ids_[next[o]++] = u;
                }
            }
        }
    }

    std::string_view file_;
    char const* begin_;
    char const* end_;
    std::size_t lines_ = 0;  // lines of the current module
    std::vector<module_type> modules_;
    std::vector<char const*> module_starts_;
    module_type module_;

    name_table computation_names_;
    name_table instruction_names_;
    std::vector<pending_name> pending_operands_;
    std::vector<pending_name> pending_predecessors_;
    std::vector<pending_call> pending_calls_;
    std::vector<parameter_entry> parameters_;
    std::vector<char const*> alias_positions_;
    std::vector<char const*> donor_positions_;
    basic_shape_index<P> index_;
    std::string_view frame_key_;
    frame_table frame_table_ = frame_table::file_names;
    char const* entry_keyword_ = nullptr;
    char const* entry_where_ = nullptr;
    char const* root_keyword_ = nullptr;
    char const* computation_where_ = nullptr;
};

template <class Context>
auto& builder_of(Context const& ctx) {
    return x3::get<hlo_builder_tag>(ctx);
}

// ---------------------------------------------------------------------------------------------
// Tokens: X3 parsers over the lexical helpers
// ---------------------------------------------------------------------------------------------

/// A word that must not run on into an identifier: `ROOT`, `ENTRY`, `HloModule`, `may-alias`.
struct keyword_parser : token<keyword_parser, x3::unused_type> {
    std::string description() const { return std::string("'") + word + "'"; }

    constexpr explicit keyword_parser(char const* word) : word(word) {}

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        x3::skip_over(first, last, ctx);
        std::string_view const w(word);
        if (static_cast<std::size_t>(last - first) < w.size() || std::string_view(first, w.size()) != w) return false;
        if (first + w.size() != last && hlo_lex::is_identifier_char(first[w.size()])) return false;
        first += w.size();
        return true;
    }

    char const* word;
};
constexpr keyword_parser hlo_keyword(char const* word) { return keyword_parser(word); }

/// Where a token lies: its text [first, last), and where the input continues after it (which
/// is past `last` for a string's closing quote or a name's '%'). `next == nullptr`: no token.
struct lexeme {
    char const* first = nullptr;
    char const* last = nullptr;
    char const* next = nullptr;
};

/// A token read by `Lexer::scan(p, last, ctx)` at p (after blanks), whose attribute is its text
/// as a view into the input; `Lexer::expectation` names it in "expected ..." messages.
template <class Lexer>
struct token_parser : token<token_parser<Lexer>, std::string_view> {
    static constexpr char const* expected = Lexer::expectation;

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        lexeme const t = Lexer::scan(first, last, ctx);
        if (t.next == nullptr) return false;
        x3::traits::move_to(std::string_view(t.first, static_cast<std::size_t>(t.last - t.first)), attr);
        first = t.next;
        return true;
    }
};

/// `[A-Za-z_][A-Za-z0-9_.-]*`.
struct identifier_lexer {
    static constexpr char const* expectation = "an identifier";
    template <class Context>
    static lexeme scan(char const* p, char const* last, Context const&) {
        char const* const end = hlo_lex::scan_identifier(p, last);
        return end == p ? lexeme{} : lexeme{p, end, end};
    }
};
inline constexpr token_parser<identifier_lexer> hlo_identifier{};

/// An instruction or computation name, with or without XLA's `%` sigil; the view excludes it.
struct name_lexer {
    static constexpr char const* expectation = "a name";
    template <class Context>
    static lexeme scan(char const* p, char const* last, Context const&) {
        char const* const start = p != last && *p == '%' ? p + 1 : p;
        char const* const end = hlo_lex::scan_identifier(start, last);
        return end == start ? lexeme{} : lexeme{start, end, end};
    }
};
inline constexpr token_parser<name_lexer> hlo_name{};

/// `"..."`; the view is the text between the quotes, escapes left as written.
struct string_lexer {
    static constexpr char const* expectation = "a string in double quotes";
    template <class Context>
    static lexeme scan(char const* p, char const* last, Context const&) {
        if (p == last || *p != '"') return lexeme{};
        char const* const end = hlo_lex::skip_string(p, last);
        return lexeme{p + 1, end - 1, end};
    }
};
inline constexpr token_parser<string_lexer> hlo_string{};

/// An attribute value kept as text (hlo_lex::scan_raw); never empty.
struct raw_value_lexer {
    static constexpr char const* expectation = "an attribute value";
    template <class Context>
    static lexeme scan(char const* p, char const* last, Context const& ctx) {
        char const* const end = hlo_lex::scan_raw(p, last, builder_of(ctx).text_begin());
        return end == p ? lexeme{} : lexeme{p, end, end};
    }
};
inline constexpr token_parser<raw_value_lexer> hlo_raw_value{};

/// A shape, interned in the module's shape table; the attribute is its shape_id.
struct interned_shape_parser : token<interned_shape_parser, shape_id> {
    static constexpr char const* expected = "a shape";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        if (first == last || !(*first == '(' || hlo_lex::is_identifier_start(*first))) return false;
        auto& b = builder_of(ctx);
        char const* p = first;
        shape_id const id = intern_shape(b.shapes(), p, last, b.file(), b.text_begin());
        x3::traits::move_to(id, attr);
        first = p;
        return true;
    }
};
inline constexpr interned_shape_parser interned_shape{};

// ---------------------------------------------------------------------------------------------
// Actions: (context, attribute, where) -> builder call
// ---------------------------------------------------------------------------------------------

namespace hlo_actions {

inline constexpr auto begin_module = [](auto& ctx, auto&, char const* where) { builder_of(ctx).begin_module(where); };
inline constexpr auto module_name = [](auto& ctx, std::string_view n, char const*) { builder_of(ctx).set_name(n); };
inline constexpr auto end_module = [](auto& ctx, auto&, char const*) { builder_of(ctx).end_module(); };
inline constexpr auto entry_parameter = [](auto& ctx, shape_id id, char const*) { builder_of(ctx).entry_layout_parameter(id); };
inline constexpr auto entry_result = [](auto& ctx, shape_id id, char const*) { builder_of(ctx).entry_layout_result(id); };
inline constexpr auto index_clear = [](auto& ctx, auto&, char const*) { builder_of(ctx).index_clear(); };
inline constexpr auto index_push = [](auto& ctx, std::int64_t v, char const* where) { builder_of(ctx).index_push(v, where); };
inline constexpr auto alias_output = [](auto& ctx, auto&, char const*) { builder_of(ctx).alias_output(); };
inline constexpr auto alias_parameter = [](auto& ctx, std::int64_t n, char const* where) {
    builder_of(ctx).alias_parameter(n, where);
};
inline constexpr auto alias_parameter_index = [](auto& ctx, auto&, char const*) { builder_of(ctx).alias_parameter_index(); };
inline constexpr auto may_alias = [](auto& ctx, auto&, char const*) { builder_of(ctx).alias_kind_of(alias_kind::may_alias); };
inline constexpr auto must_alias = [](auto& ctx, auto&, char const*) { builder_of(ctx).alias_kind_of(alias_kind::must_alias); };
inline constexpr auto donor_parameter = [](auto& ctx, std::int64_t n, char const* where) {
    builder_of(ctx).donor_parameter(n, where);
};
inline constexpr auto donor_parameter_index = [](auto& ctx, auto&, char const*) { builder_of(ctx).donor_parameter_index(); };

/// Table: 0 FileNames, 1 FunctionNames, 2 FileLocations, 3 StackFrames.
template <int Table>
inline constexpr auto frame_entry = [](auto& ctx, std::int64_t id, char const* where) {
    using table = typename std::decay_t<decltype(builder_of(ctx))>::frame_table;
    builder_of(ctx).frame_table_entry(static_cast<table>(Table), id, where);
};
inline constexpr auto file_name = [](auto& ctx, std::string_view s, char const*) { builder_of(ctx).file_name(s); };
inline constexpr auto function_name = [](auto& ctx, std::string_view s, char const*) { builder_of(ctx).function_name(s); };
inline constexpr auto frame_key = [](auto& ctx, std::string_view k, char const*) { builder_of(ctx).frame_field_key(k); };
inline constexpr auto frame_value = [](auto& ctx, std::int64_t v, char const*) { builder_of(ctx).frame_field_value(v); };

inline constexpr auto mark_entry = [](auto& ctx, auto&, char const* where) { builder_of(ctx).mark_entry(where); };
inline constexpr auto begin_computation = [](auto& ctx, std::string_view n, char const* where) {
    builder_of(ctx).begin_computation(n, where);
};
inline constexpr auto signature_parameter = [](auto& ctx, shape_id id, char const*) { builder_of(ctx).signature_parameter(id); };
inline constexpr auto signature_result = [](auto& ctx, shape_id id, char const*) { builder_of(ctx).signature_result(id); };
inline constexpr auto end_computation = [](auto& ctx, auto&, char const*) { builder_of(ctx).end_computation(); };
inline constexpr auto set_execution_thread = [](auto& ctx, std::string_view s, char const*) { builder_of(ctx).execution_thread(s); };

inline constexpr auto mark_root = [](auto& ctx, auto&, char const* where) { builder_of(ctx).mark_root(where); };
inline constexpr auto begin_instruction = [](auto& ctx, std::string_view n, char const* where) {
    builder_of(ctx).begin_instruction(n, where);
};
inline constexpr auto set_shape = [](auto& ctx, shape_id id, char const*) { builder_of(ctx).set_shape(id); };
inline constexpr auto set_opcode = [](auto& ctx, std::string_view text, char const*) { builder_of(ctx).set_opcode(text); };
inline constexpr auto end_instruction = [](auto& ctx, auto&, char const*) { builder_of(ctx).end_instruction(); };
inline constexpr auto parameter_number = [](auto& ctx, std::int64_t n, char const* where) {
    builder_of(ctx).set_parameter_number(n, where);
};
inline constexpr auto dimension = [](auto& ctx, std::int64_t v, char const*) { builder_of(ctx).dimension(v); };
inline constexpr auto slice_start = [](auto& ctx, std::int64_t v, char const*) { builder_of(ctx).slice_start(v); };
inline constexpr auto slice_limit = [](auto& ctx, std::int64_t v, char const*) { builder_of(ctx).slice_limit(v); };
inline constexpr auto slice_stride = [](auto& ctx, std::int64_t v, char const*) { builder_of(ctx).slice_stride(v); };
inline constexpr auto operand_alias_output = [](auto& ctx, auto&, char const*) { builder_of(ctx).operand_alias_output(); };
inline constexpr auto operand_alias_operand = [](auto& ctx, std::int64_t n, char const*) {
    builder_of(ctx).operand_alias_operand(n);
};
inline constexpr auto operand_alias_operand_index = [](auto& ctx, auto&, char const*) {
    builder_of(ctx).operand_alias_operand_index();
};
inline constexpr auto control_predecessor = [](auto& ctx, std::string_view n, char const* where) {
    builder_of(ctx).control_predecessor(n, where);
};
inline constexpr auto set_custom_call_target = [](auto& ctx, std::string_view s, char const*) {
    builder_of(ctx).set_custom_call_target(s);
};
inline constexpr auto set_fusion_kind = [](auto& ctx, std::string_view s, char const*) { builder_of(ctx).set_fusion_kind(s); };
inline constexpr auto set_tuple_index = [](auto& ctx, std::int64_t v, char const*) { builder_of(ctx).set_tuple_index(v); };
inline constexpr auto begin_metadata = [](auto& ctx, auto&, char const*) { builder_of(ctx).begin_metadata(); };

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
                                   -(on_match(interned_shape, a::entry_parameter) >
                                     *(',' > on_match(interned_shape, a::entry_parameter))) >
                                   named("',' or ')'", lit(')')) > "->" > on_match(interned_shape, a::entry_result) > '}';

/// `{ {0}: (0, {}, may-alias), {1}: (2, {1}) }`
inline auto const io_alias_entry = on_match(shape_index, a::alias_output) > ':' > '(' > on_match(uint64_, a::alias_parameter) >
                                   ',' > on_match(shape_index, a::alias_parameter_index) >
                                   -(',' > named("may-alias or must-alias", on_match(hlo_keyword("may-alias"), a::may_alias) |
                                                                               on_match(hlo_keyword("must-alias"), a::must_alias))) >
                                   named("',' or ')'", lit(')'));
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
                                        on_match(interned_shape, a::signature_parameter);
inline auto const signature = lit('(') > -(signature_parameter > *(',' > signature_parameter)) >
                              named("',' or ')'", lit(')')) > "->" > on_match(interned_shape, a::signature_result);

/// `{1,0}` of dimensions=.
inline auto const dimension_list = lit('{') > -(on_match(int64_, a::dimension) > *(',' > on_match(int64_, a::dimension))) >
                                   named("',' or '}'", lit('}'));
/// `{[0:64], [0:128:2]}` of slice=.
inline auto const slice_range = lit('[') > on_match(int64_, a::slice_start) > ':' > on_match(int64_, a::slice_limit) >
                                -(':' > on_match(int64_, a::slice_stride)) > named("':' or ']'", lit(']'));
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
    x3::skip_over(first, last, ctx);
    char const* const start = first;
    char const* const end = hlo_lex::scan_identifier(start, last);
    if (end == start) throw failure(start, std::string("expected ") + what, what);
    first = end;
    x3::skip_over(first, last, ctx);
    if (first == last || *first != '=') throw failure(first, "expected '=' after " + hlo_lex::quote(std::string_view(start, end - start)), "'='");
    ++first;
    return std::string_view(start, static_cast<std::size_t>(end - start));
}

/// Reads `item {',' item}` up to `close` (an empty list is allowed) and consumes `close`;
/// `item()` reads one item from `first` or throws.
template <class Iterator, class Context, class Item>
void comma_list(Iterator& first, Iterator const& last, Context const& ctx, char close, Item item) {
    x3::skip_over(first, last, ctx);
    if (first != last && *first != close) {
        item();
        for (;;) {
            x3::skip_over(first, last, ctx);
            if (first == last || *first != ',') break;
            ++first;
            item();
        }
    }
    x3::skip_over(first, last, ctx);
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
    x3::skip_over(first, last, ctx);
    if (!p.parse(first, last, ctx, rctx, x3::unused)) throw failure(first, std::string("expected ") + what, what);
}

/// One `key=value` of the `HloModule` line.
struct header_attribute_parser : building_parser<header_attribute_parser> {
    static constexpr char const* expected = "a module attribute";  // for "expected ..." messages

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute&) const {
        namespace g = hlo_grammar;
        auto& b = builder_of(ctx);
        std::string_view const key = attribute_key(first, last, ctx, "a module attribute such as is_scheduled=true");
        if (key == "is_scheduled") {
            bool v = false;
            x3::skip_over(first, last, ctx);
            if (!x3::bool_.parse(first, last, ctx, rctx, v)) throw failure(first, "expected true or false", "true or false");
            b.set_is_scheduled(v);
        } else if (key == "entry_computation_layout") {
            expect(g::program_layout, "'{'", first, last, ctx, rctx);
        } else if (key == "input_output_alias") {
            expect(g::io_alias_table, "'{'", first, last, ctx, rctx);
        } else if (key == "buffer_donor") {
            expect(g::donor_table, "'{'", first, last, ctx, rctx);
        } else if (key == "num_partitions" || key == "replica_count") {
            std::int64_t v = 0;
            x3::skip_over(first, last, ctx);
            if (!uint64_.parse(first, last, ctx, rctx, v)) throw failure(first, "expected a non-negative integer", "a non-negative integer");
            key == "num_partitions" ? b.set_num_partitions(v) : b.set_replica_count(v);
        } else {
            std::string_view const value = raw(first, last, ctx, rctx);
            key == "frontend_attributes" ? b.set_frontend_attributes(value) : b.add_header_attribute(key, value);
        }
        return true;
    }

    template <class Iterator, class Context, class RContext>
    static std::string_view raw(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx) {
        std::string_view value;
        x3::skip_over(first, last, ctx);
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
        auto& b = builder_of(ctx);
        x3::skip_over(first, last, ctx);
        if (first == last || *first != '(') throw failure(first, "expected '('", "'('");
        ++first;
        switch (b.current_opcode()) {
            case hlo_opcode::constant: {
                x3::skip_over(first, last, ctx);
                char const* const start = first;
                char const* end = hlo_lex::scan_raw(start, last, b.text_begin(), true);
                first = end;
                while (end > start && hlo_lex::is_blank(end[-1])) --end;
                b.set_literal(std::string_view(start, static_cast<std::size_t>(end - start)));
                break;
            }
            case hlo_opcode::parameter: {
                std::int64_t n = 0;
                x3::skip_over(first, last, ctx);
                char const* const where = first;
                if (!uint64_.parse(first, last, ctx, rctx, n)) throw failure(where, "expected a parameter number", "a parameter number");
                b.set_parameter_number(n, where);
                break;
            }
            default:
                comma_list(first, last, ctx, ')', [&] { operand(first, last, ctx); });
                return true;
        }
        x3::skip_over(first, last, ctx);
        if (first == last || *first != ')') throw failure(first, "expected ')'", "')'");
        ++first;
        return true;
    }

    /// `[shape] name`: a shape is there when the text starts with '(' or with an identifier
    /// followed by '[' (an array) or `b(` (a buffer).
    template <class Iterator, class Context>
    static void operand(Iterator& first, Iterator const& last, Context const& ctx) {
        auto& b = builder_of(ctx);
        x3::skip_over(first, last, ctx);
        char const* const start = first;
        shape_id declared = no_shape;
        char const* const id_end = hlo_lex::scan_identifier(start, last);
        char const* const after = impl::skip_blanks(id_end, last);
        bool const has_shape = (start != last && *start == '(') ||
                               (id_end != start && after != last &&
                                (*after == '[' || (*after == '(' && id_end - start == 1 && *start == 'b')));
        if (has_shape) {
            declared = intern_shape(b.shapes(), first, last, b.file(), b.text_begin());
            x3::skip_over(first, last, ctx);
        }
        char const* const where = first;
        char const* name_start = first != last && *first == '%' ? first + 1 : first;
        char const* const end = hlo_lex::scan_identifier(name_start, last);
        if (end == name_start) {
            throw failure(where, has_shape ? "expected an operand name after its shape" : "expected an operand",
                          has_shape ? "an operand name" : "an operand");
        }
        first = end;
        b.operand(std::string_view(name_start, static_cast<std::size_t>(end - name_start)), where, declared);
    }
};
inline constexpr operands_parser hlo_operands{};

/// `{key=value ...}` of metadata=: strings and bare values, separated by blanks.
struct metadata_parser : building_parser<metadata_parser> {
    static constexpr char const* expected = "'{'";  // for "expected ..." messages

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        auto& b = builder_of(ctx);
        x3::skip_over(first, last, ctx);
        if (first == last || *first != '{') return false;
        ++first;
        b.begin_metadata();
        for (;;) {
            x3::skip_over(first, last, ctx);
            if (first != last && *first == '}') break;
            char const* const start = first;
            char const* const end = hlo_lex::scan_identifier(start, last);
            if (end == start) {
                throw failure(start, "expected a metadata field such as op_name=\"...\", or '}'",
                              "a metadata field such as op_name=\"...\", or '}'");
            }
            first = end;
            x3::skip_over(first, last, ctx);
            if (first == last || *first != '=') throw failure(first, "expected '='", "'='");
            ++first;
            x3::skip_over(first, last, ctx);
            char const* const value = first;
            bool const quoted = value != last && *value == '"';
            char const* const value_end = quoted ? hlo_lex::skip_string(value, last) : hlo_lex::scan_raw(value, last, b.text_begin());
            if (value_end == value) throw failure(value, "expected a metadata value", "a metadata value");
            first = value_end;
            std::string_view const text = quoted ? std::string_view(value + 1, static_cast<std::size_t>(value_end - value - 2))
                                                 : std::string_view(value, static_cast<std::size_t>(value_end - value));
            b.metadata_field(std::string_view(start, static_cast<std::size_t>(end - start)), text, quoted, value);
        }
        ++first;
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
        auto& b = builder_of(ctx);
        std::string_view const key = attribute_key(first, last, ctx, "an attribute such as metadata={...}");
        hlo_opcode const op = b.current_opcode();
        if (key == "metadata") {
            expect(hlo_metadata, "'{'", first, last, ctx, rctx);
        } else if (key == "calls" || key == "branch_computations" || key == "called_computations") {
            x3::skip_over(first, last, ctx);
            if (first != last && *first == '{') {
                ++first;
                comma_list(first, last, ctx, '}', [&] { computation(key, first, last, ctx); });
            } else {
                computation(key, first, last, ctx);
            }
        } else if (key == "to_apply" || key == "body" || key == "condition" || key == "true_computation" ||
                   key == "false_computation" ||
                   ((key == "select" || key == "scatter") && op == hlo_opcode::select_and_scatter)) {
            computation(key, first, last, ctx);
        } else if (key == "control-predecessors") {
            expect(g::predecessor_list, "'{'", first, last, ctx, rctx);
        } else if (key == "output_to_operand_aliasing") {
            expect(g::operand_alias_table, "'{'", first, last, ctx, rctx);
        } else if (key == "custom_call_target") {
            expect(on_match(hlo_string, a::set_custom_call_target), "a string in double quotes", first, last, ctx, rctx);
        } else if (key == "kind" && op == hlo_opcode::fusion) {
            expect(on_match(hlo_identifier, a::set_fusion_kind), "a fusion kind such as kLoop", first, last, ctx, rctx);
        } else if (key == "index" && op == hlo_opcode::get_tuple_element) {
            expect(on_match(uint64_, a::set_tuple_index), "a non-negative integer", first, last, ctx, rctx);
        } else if (key == "dimensions") {
            expect(g::dimension_list, "'{'", first, last, ctx, rctx);
        } else if (key == "slice") {
            expect(g::slice_list, "'{'", first, last, ctx, rctx);
        } else {
            b.add_attribute(key, header_attribute_parser::raw(first, last, ctx, rctx));
        }
        return true;
    }

    template <class Iterator, class Context>
    static void computation(std::string_view key, Iterator& first, Iterator const& last, Context const& ctx) {
        x3::skip_over(first, last, ctx);
        char const* const where = first;
        char const* const start = first != last && *first == '%' ? first + 1 : first;
        char const* const end = hlo_lex::scan_identifier(start, last);
        if (end == start) throw failure(where, "expected a computation name", "a computation name");
        first = end;
        builder_of(ctx).call(key, std::string_view(start, static_cast<std::size_t>(end - start)), where);
    }
};
inline constexpr instruction_attribute_parser hlo_instruction_attribute{};

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
inline auto const instruction_def = instruction_start > '=' > on_match(named("a shape", interned_shape), a::set_shape) >
                                    on_match(named("an opcode", hlo_identifier), a::set_opcode) > hlo_operands >
                                    *(',' > hlo_instruction_attribute) > on_match(x3::eps, a::end_instruction);

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

namespace impl {

/// Parses every module of `text`; `starts` receives where each `HloModule` keyword is.
template <class P>
parse_result<std::vector<basic_hlo_module<P>>> parse_hlo_text(std::string_view text, std::string_view file,
                                                              std::vector<char const*>& starts) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    using result_type = std::vector<basic_hlo_module<P>>;
    try {
        return run_parse<result_type>(file, begin, end, [&] {
            hlo_module_builder<P> builder(file, begin, end);
            char const* first = begin;
            x3::phrase_parse(first, end, x3::with<hlo_builder_tag>(builder)[hlo_grammar::file], skipper);
            starts = builder.module_starts();
            return std::move(builder.modules());
        });
    } catch (parse_error const& e) {  // a malformed shape, reported by intern_shape
        return parse_result<result_type>(e.info());
    }
}

}  // namespace impl

// The entry points, declared with their default arguments and documentation in parser/api.hpp.

template <class P>
parse_result<std::vector<basic_hlo_module<P>>> try_parse_hlo_modules(std::string_view text, std::string_view file) {
    std::vector<char const*> starts;
    return impl::parse_hlo_text<P>(text, file, starts);
}

template <class P>
parse_result<basic_hlo_module<P>> try_parse_hlo_module(std::string_view text, std::string_view file) {
    std::vector<char const*> starts;
    auto r = impl::parse_hlo_text<P>(text, file, starts);
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
