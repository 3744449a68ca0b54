// hlomem/hlo/module_builder.hpp: builds an HLO module (<hlomem/hlo/module.hpp>) from a stream of
// events, in the manner of a SAX-to-DOM parser, and keeps the invariants the model promises:
// names are defined once per scope and every operand, control predecessor and callee resolves,
// each computation has one root and parameters 0..n-1, there is one entry, the aliasing tables
// name entry parameters, and the user and caller tables are built. The module parser
// (<hlomem/parser/hlo_module.hpp>) drives it from text; a program or a test can drive it by hand:
//
//   hlomem::hlo_module_builder b;
//   b.begin_module();
//   b.set_name("m");
//   b.begin_computation("main", /*is_entry=*/true);
//   b.begin_instruction("p");                        // %p = f32[8]{0} parameter(0)
//   b.set_shape(hlomem::parse_shape("f32[8]{0}"));
//   b.set_opcode("parameter");
//   b.set_parameter_number(0);
//   b.end_instruction();
//   b.begin_instruction("neg", /*is_root=*/true);    // ROOT %neg = f32[8]{0} negate(%p)
//   b.set_shape(hlomem::parse_shape("f32[8]{0}"));   // (parse_shape: <hlomem/parser.hpp>)
//   b.set_opcode("negate");
//   b.add_operand("p");
//   b.end_instruction();
//   b.end_computation();
//   hlomem::hlo_module m = b.finish();
//
// Names follow XLA's HloParser (xla/hlo/parser/hlo_parser.cc): an operand may name an
// instruction printed later in its computation, a callee a computation printed later in the
// module. Every problem is an `hlo_build_error` at the byte offset the caller passed with the
// event (the parser passes the position in the text, so its messages point at the text; a
// hand-built module may pass 0). With the source text given to the constructor, messages about
// a name defined twice say on which line it was first defined.
//
// Names the caller passes must stay valid until finish() only when they lie in that source
// text; others are copied. With view_policy the module keeps the caller's views.
#ifndef HLOMEM_HLO_MODULE_BUILDER_HPP
#define HLOMEM_HLO_MODULE_BUILDER_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/error.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/hlo/lexical.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/module_reorder.hpp>
#include <hlomem/hlo/name_table.hpp>

namespace hlomem {

/// A module the builder cannot make: a name defined twice or never, a second ROOT or ENTRY, a
/// missing parameter number, ... `offset()` is the location the event that found it carried.
class hlo_build_error : public error {
public:
    hlo_build_error(std::size_t offset, std::string const& message) : error(message), offset_(offset) {}
    std::size_t offset() const noexcept { return offset_; }

private:
    std::size_t offset_;
};

template <class P = default_policy>
class basic_hlo_module_builder {
public:
    using module_type = basic_hlo_module<P>;
    using string_type = typename P::string_type;
    using shape_type = basic_shape<P>;
    using metadata_type = basic_hlo_metadata<P>;
    using input_output_alias_type = basic_input_output_alias<P>;
    using buffer_donor_type = basic_buffer_donor<P>;
    using output_operand_alias_type = basic_output_operand_alias<P>;

    /// "The same place as `where`", for the keyword locations below.
    static constexpr std::size_t same_place = std::numeric_limits<std::size_t>::max();

    /// `source`: the text the locations are offsets into, if any (for line numbers in messages).
    explicit basic_hlo_module_builder(std::string_view source = {}) : source_(source) {}

    // -- the module: `HloModule name, key=value, ...` --------------------------------------------

    /// Starts a module; `expected_instructions` (e.g. the lines of its text) sizes its storage.
    void begin_module(std::size_t expected_instructions = 0) {
        module_ = module_type{};
        expected_instructions_ = expected_instructions;
        module_.instructions_.reserve(expected_instructions);
        module_.lists_.reserve(expected_instructions);
        computation_names_.clear();
        pending_calls_.clear();
        alias_positions_.clear();
        donor_positions_.clear();
        has_entry_ = false;
        state_ = state::module;
    }
    void set_name(std::string_view name) { module_.name_ = string_type(name); }
    void set_is_scheduled(bool v) { module_.is_scheduled_ = v; }
    void set_num_partitions(std::int64_t v) { module_.num_partitions_ = v; }
    void set_replica_count(std::int64_t v) { module_.replica_count_ = v; }
    void set_frontend_attributes(std::string_view raw) { module_.frontend_attributes_ = string_type(raw); }
    void add_header_attribute(std::string_view key, std::string_view raw) {
        module_.attributes_.push_back({string_type(key), string_type(raw)});
    }
    void add_entry_layout_parameter(shape_id id) {
        module_.has_entry_layout_ = true;
        module_.entry_layout_parameters_.push_back(id);
    }
    void set_entry_layout_result(shape_id id) {
        module_.has_entry_layout_ = true;
        module_.entry_layout_result_ = id;
    }
    /// An entry of `input_output_alias=`; `where` locates its parameter number, which finish()
    /// checks against the entry computation.
    void add_input_output_alias(input_output_alias_type alias, std::size_t where = 0) {
        module_.input_output_aliases_.push_back(std::move(alias));
        alias_positions_.push_back(where);
    }
    /// An entry of `buffer_donor=`, checked like an alias.
    void add_buffer_donor(buffer_donor_type donor, std::size_t where = 0) {
        module_.buffer_donors_.push_back(std::move(donor));
        donor_positions_.push_back(where);
    }

    /// The module's shapes: intern a shape here and pass its id to set_shape and the signatures.
    basic_shape_table<P>& shapes() noexcept { return module_.shapes_; }

    // -- FileNames / FunctionNames / FileLocations / StackFrames ---------------------------------

    enum class frame_table { file_names, function_names, file_locations, stack_frames };

    /// Starts entry `id` of `table`, which must be the next id (XLA prints 1, 2, 3, ...). For
    /// FileLocations and StackFrames the entry's fields follow (set_frame_field); for FileNames
    /// and FunctionNames the name does (add_file_name, add_function_name).
    void frame_table_entry(frame_table table, std::int64_t id, std::size_t where = 0) {
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
            throw hlo_build_error(where, std::string(name) + " entry " + std::to_string(id) + " is out of order: expected " +
                                             std::to_string(count + 1));
        }
    }
    void add_file_name(std::string_view s) { module_.stack_frame_index_.file_names.push_back(string_type(s)); }
    void add_function_name(std::string_view s) { module_.stack_frame_index_.function_names.push_back(string_type(s)); }
    /// A `key=N` of the last FileLocations or StackFrames entry; unknown keys are ignored.
    void set_frame_field(std::string_view key, std::int64_t v) {
        auto& index = module_.stack_frame_index_;
        if (frame_table_ == frame_table::stack_frames) {
            auto& f = index.stack_frames.back();
            if (key == "file_location_id") f.file_location_id = v;
            // The parent is printed one higher than the proto's 1-based id (0: none): HloModule's printer
            // (xla/hlo/ir/hlo_module.cc) writes `frame.parent_frame_id() + 1`, so `7 {file_location_id=2
            // parent_frame_id=7}` is called from frame 6. A printed 0 (-1) or a parent past the table ends a stack.
            else if (key == "parent_frame_id") f.parent_frame_id = v - 1;
            return;
        }
        auto& l = index.file_locations.back();
        if (key == "file_name_id") l.file_name_id = v;
        else if (key == "function_name_id") l.function_name_id = v;
        else if (key == "line") l.line = v;
        else if (key == "end_line") l.end_line = v;
        else if (key == "column") l.column = v;
        else if (key == "end_column") l.end_column = v;
    }

    // -- computations ----------------------------------------------------------------------------

    /// Starts computation `name` (without `%`). `where` locates the name, `keyword_where` the
    /// `ENTRY` before it (the computation's offset in the model).
    computation_id begin_computation(std::string_view name, bool is_entry = false, std::size_t where = 0,
                                     std::size_t keyword_where = same_place) {
        if (keyword_where == same_place) keyword_where = where;
        expect_state(state::module, "a computation begins outside a module", where);
        auto const id = static_cast<computation_id>(module_.computations_.size());
        if (id == no_computation) throw hlo_build_error(where, "too many computations");
        name = keep(name);
        if (auto previous = computation_names_.insert(name, id); previous != name_table::npos) {
            throw hlo_build_error(where, "computation " + hlo_lex::quote(name) + " is already defined" +
                                             line_note(module_.computations_[previous].offset));
        }
        if (is_entry && has_entry_) {
            throw hlo_build_error(keyword_where, "a second ENTRY computation: " +
                                                     hlo_lex::quote(std::string_view(module_.computations_[module_.entry_].name)) +
                                                     " is already the entry");
        }
        if (is_entry) {
            module_.entry_ = id;
            has_entry_ = true;
        }
        basic_hlo_computation<P> c;
        c.name = string_type(name);
        c.is_entry = is_entry;
        c.first_instruction = static_cast<instruction_id>(module_.instructions_.size());
        c.offset = keyword_where;
        module_.computations_.push_back(std::move(c));
        typename module_type::computation_lists lists;
        lists.signature.first = static_cast<std::uint32_t>(module_.signature_shapes_.size());
        module_.computation_lists_.push_back(lists);
        computation_where_ = where;
        instruction_names_.clear();
        pending_operands_.clear();
        pending_predecessors_.clear();
        unshaped_elements_.clear();
        declared_elements_.clear();
        made_elements_.clear();
        parameters_.clear();
        state_ = state::computation;
        return id;
    }
    /// A parameter shape of the header's signature `(p: f32[]) -> f32[]`.
    void add_signature_parameter(shape_id id) {
        module_.signature_shapes_.push_back(id);
        ++module_.computation_lists_.back().signature.count;
    }
    void set_signature_result(shape_id id) { module_.computation_lists_.back().signature_result = id; }
    void set_execution_thread(std::string_view s) { module_.computations_.back().execution_thread = string_type(s); }

    /// Ends the computation: resolves names used before their definition, picks the root (the
    /// last instruction without a ROOT, as XLA's parser does) and orders the parameters.
    void end_computation() {
        expect_state(state::computation, "end_computation outside a computation", computation_where_);
        state_ = state::module;
        auto& c = module_.computations_.back();
        c.instruction_count = static_cast<std::uint32_t>(module_.instructions_.size() - c.first_instruction);
        if (c.instruction_count == 0) {
            throw hlo_build_error(computation_where_, "computation " + hlo_lex::quote(std::string_view(c.name)) + " has no instructions");
        }
        for (auto const& p : pending_operands_) {
            instruction_id const id = resolve(p.name, p.where, "operand");
            check_operand_shape(p.name, p.where, p.declared, id);
            module_.operands_[p.slot] = id;
        }
        for (auto const& p : pending_predecessors_) {
            module_.control_predecessors_[p.slot] = resolve(p.name, p.where, "control predecessor");
        }
        for (auto const& e : unshaped_elements_) set_element_shape(e.id, e.where);
        for (auto const& p : declared_elements_) check_operand_shape(p.name, p.where, p.declared, module_.operands_[p.slot]);
        schedule_made_elements(c);  // before the root is picked: made instructions are never last
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
                    throw hlo_build_error(p.where, "parameter number " + std::to_string(p.number) + " is already used by " +
                                                       hlo_lex::quote(std::string_view(module_.instructions_[parameters_[i - 1].id].name)));
                }
                throw hlo_build_error(p.where, "computation " + hlo_lex::quote(std::string_view(c.name)) + " has parameter(" +
                                                   std::to_string(p.number) + ") but no parameter(" + std::to_string(i) + ")");
            }
            module_.parameter_ids_.push_back(p.id);
        }
        lists.parameters.count = static_cast<std::uint32_t>(parameters_.size());
    }

    // -- instructions ----------------------------------------------------------------------------

    /// Starts instruction `name` (without `%`) of the current computation. `where` locates the
    /// name, `keyword_where` the `ROOT` before it (the instruction's offset in the model).
    instruction_id begin_instruction(std::string_view name, bool is_root = false, std::size_t where = 0,
                                     std::size_t keyword_where = same_place) {
        if (keyword_where == same_place) keyword_where = where;
        expect_state(state::computation, "an instruction begins outside a computation", where);
        auto const id = static_cast<instruction_id>(module_.instructions_.size());
        if (id == no_instruction) throw hlo_build_error(where, "too many instructions");
        auto const comp = static_cast<computation_id>(module_.computations_.size() - 1);
        name = keep(name);
        if (auto previous = instruction_names_.insert(name, id); previous != name_table::npos) {
            throw hlo_build_error(where, "instruction " + hlo_lex::quote(name) + " is already defined in computation " +
                                             hlo_lex::quote(std::string_view(module_.computations_.back().name)) +
                                             line_note(module_.instructions_[previous].offset));
        }
        basic_hlo_instruction<P> inst;
        inst.name = string_type(name);
        inst.computation = comp;
        inst.offset = keyword_where;
        if (is_root) {
            auto& c = module_.computations_.back();
            if (c.root != no_instruction) {
                throw hlo_build_error(keyword_where, "a second ROOT in computation " + hlo_lex::quote(std::string_view(c.name)) +
                                                         ": " + hlo_lex::quote(std::string_view(module_.instructions_[c.root].name)) +
                                                         " is already its root");
            }
            c.root = id;
            inst.is_root = true;
        }
        module_.instructions_.push_back(std::move(inst));
        module_.lists_.push_back(lists_from_here());
        state_ = state::instruction;
        return id;
    }

    /// Ends the instruction: its lists are what was added since begin_instruction.
    void end_instruction() {
        expect_state(state::instruction, "end_instruction outside an instruction", 0);
        state_ = state::computation;
        auto& l = module_.lists_.back();
        auto count = [](auto const& v, auto& s) { s.count = static_cast<std::uint32_t>(v.size() - s.first); };
        count(module_.operands_, l.operands);
        count(module_.calls_, l.calls);
        count(module_.control_predecessors_, l.control_predecessors);
        count(module_.dimensions_, l.dimensions);
        count(module_.slices_, l.slices);
        count(module_.operand_aliases_, l.operand_aliases);
        count(module_.raw_attributes_, l.attributes);
        // The get-tuple-elements its `x#N` operands name, made behind it (end_computation moves them).
        for (auto const& e : element_operands_) module_.operands_[e.slot] = element_of(e.name, e.where);
        element_operands_.clear();
    }

    hlo_opcode current_opcode() const { return module_.instructions_.back().opcode; }

    void set_shape(shape_id id) { current().shape = id; }
    /// Interns `shape` in the module's shape table and makes it the instruction's shape.
    void set_shape(shape_type shape) { current().shape = module_.shapes_.insert(std::move(shape)); }

    /// The opcode text: a known opcode, XLA's async syntax sugar (`all-to-all-start` is an
    /// async-start wrapping all-to-all), or an opcode this hlomem does not know, kept as text.
    void set_opcode(std::string_view text) {
        if (auto op = hlo_opcode_from_string(text)) {
            current().opcode = *op;
            return;
        }
        current().opcode = opcode_of_text(text);
        module_.opcode_texts_.emplace_back(static_cast<instruction_id>(module_.instructions_.size() - 1), string_type(text));
    }

    /// N of `parameter(N)`; end_computation checks that the numbers are 0..n-1.
    void set_parameter_number(std::int64_t n, std::size_t where = 0) {
        current().parameter_number = n;
        parameters_.push_back({n, static_cast<instruction_id>(module_.instructions_.size() - 1), where});
    }
    /// A constant's payload as printed: `0.5`, `{1, 2}`.
    void set_literal(std::string_view text) { current().literal = string_type(text); }

    /// An operand named `name`, with the shape it was printed with (or no_shape), which must then
    /// be its shape, layouts aside. A name not yet defined is resolved at end_computation.
    /// `x#1` names element 1 of tuple-shaped `x` (see add_element_operand).
    void add_operand(std::string_view name, std::size_t where = 0, shape_id declared = no_shape) {
        if (name.find('#') != std::string_view::npos) return add_element_operand(name, where, declared);
        auto const slot = static_cast<std::uint32_t>(module_.operands_.size());
        std::uint32_t const id = instruction_names_.find(name);
        if (id == name_table::npos) {
            module_.operands_.push_back(no_instruction);
            pending_operands_.push_back({slot, keep(name), where, declared});
            return;
        }
        if (id == module_.instructions_.size() - 1) {
            throw hlo_build_error(where, "instruction " + hlo_lex::quote(name) + " uses itself as an operand");
        }
        check_operand_shape(name, where, declared, id);
        module_.operands_.push_back(id);
    }

    /// An instruction of `control-predecessors={...}`, resolved like an operand.
    void add_control_predecessor(std::string_view name, std::size_t where = 0) {
        auto const slot = static_cast<std::uint32_t>(module_.control_predecessors_.size());
        std::uint32_t const id = instruction_names_.find(name);
        module_.control_predecessors_.push_back(id == name_table::npos ? no_instruction : id);
        if (id == name_table::npos) pending_predecessors_.push_back({slot, keep(name), where, no_shape});
    }

    /// A computation named by attribute `key` (`calls`, `to_apply`, `body`, ...), which with the
    /// opcode says how it is called; resolved by finish(), since a callee may come later.
    void add_call(std::string_view key, std::string_view callee, std::size_t where = 0) {
        auto const caller = static_cast<instruction_id>(module_.instructions_.size() - 1);
        pending_calls_.push_back({static_cast<std::uint32_t>(module_.calls_.size()), keep(callee), where, keep(key)});
        module_.calls_.push_back({caller, no_computation, call_kind_of(key, current_opcode())});
    }

    void set_custom_call_target(std::string_view s) { current().custom_call_target = string_type(s); }
    void set_tuple_index(std::int64_t v) { current().tuple_index = v; }
    /// A fusion's `kind=`; a kind hlomem does not know is also kept as a raw attribute.
    void set_fusion_kind(std::string_view text) {
        fusion_kind k = fusion_kind::other;
        if (text == "kLoop") k = fusion_kind::loop;
        else if (text == "kInput") k = fusion_kind::input;
        else if (text == "kOutput") k = fusion_kind::output;
        else if (text == "kCustom") k = fusion_kind::custom;
        current().fusion = k;
        if (k == fusion_kind::other) add_attribute("kind", text);
    }
    void add_dimension(std::int64_t v) { module_.dimensions_.push_back(v); }
    void add_slice(hlo_slice s) { module_.slices_.push_back(s); }
    void add_output_operand_alias(output_operand_alias_type a) { module_.operand_aliases_.push_back(std::move(a)); }
    /// An attribute kept as printed: `backend_config={...}`.
    void add_attribute(std::string_view key, std::string_view raw) {
        module_.raw_attributes_.push_back({string_type(key), string_type(raw)});
    }
    /// The instruction's `metadata={...}`, empty, to fill (read_metadata does).
    metadata_type& add_metadata() {
        if (module_.metadata_.empty()) module_.metadata_.reserve(expected_instructions_);  // only dumps with metadata pay
        module_.lists_.back().metadata = static_cast<std::uint32_t>(module_.metadata_.size());
        return module_.metadata_.emplace_back();
    }

    // -- the end of a module -------------------------------------------------------------------

    /// Resolves the computations that calls name, picks the entry (the last computation without
    /// an ENTRY, as XLA's parser does), builds the callers and users tables, checks the aliasing
    /// tables against the entry's parameters and hands the module over.
    module_type finish() {
        expect_state(state::module, "finish inside a computation", computation_where_);
        if (module_.computations_.empty()) throw hlo_build_error(0, "a module without computations");
        auto& m = module_;
        for (auto const& p : pending_calls_) {
            std::uint32_t const callee = computation_names_.find(p.name);
            if (callee == name_table::npos) {
                throw hlo_build_error(p.where, "unknown computation " + hlo_lex::quote(p.name) + " in " + std::string(p.key) + "=");
            }
            auto& call = m.calls_[p.slot];
            if (m.instructions_[call.caller].computation == callee) {
                throw hlo_build_error(p.where, "computation " + hlo_lex::quote(p.name) + " calls itself");
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
        auto check_parameter = [&](std::int64_t n, std::size_t where, char const* table) {
            if (n < 0 || static_cast<std::size_t>(n) >= entry_parameters) {
                throw hlo_build_error(where, std::string(table) + " names parameter " + std::to_string(n) +
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
        state_ = state::none;
        arena_.clear();
        return std::exchange(module_, module_type{});
    }

private:
    enum class state { none, module, computation, instruction };
    struct pending_name {
        std::uint32_t slot;
        std::string_view name;
        std::size_t where;
        shape_id declared;
    };
    struct pending_call {
        std::uint32_t slot;
        std::string_view name;
        std::size_t where;
        std::string_view key;
    };
    struct parameter_entry {
        std::int64_t number;
        instruction_id id;
        std::size_t where;
    };

    /// XLA's call graph contexts (xla/service/call_graph.cc, GetInstructionCallContext).
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

    void expect_state(state s, char const* message, std::size_t where) const {
        if (state_ != s) throw hlo_build_error(where, message);
    }

    basic_hlo_instruction<P>& current() { return module_.instructions_.back(); }

    /// `name` if it lies in the source text, else a copy that lives until finish().
    std::string_view keep(std::string_view name) {
        std::less_equal<char const*> const before;  // a total order, also for unrelated pointers
        if (before(source_.data(), name.data()) && before(name.data() + name.size(), source_.data() + source_.size())) {
            return name;
        }
        return arena_.emplace_back(name);
    }

    instruction_id resolve(std::string_view name, std::size_t where, char const* what) const {
        std::uint32_t const id = instruction_names_.find(name);
        if (id == name_table::npos) {
            throw hlo_build_error(where, std::string(what) + " " + hlo_lex::quote(name) + " is not defined in computation " +
                                             hlo_lex::quote(std::string_view(module_.computations_.back().name)));
        }
        return id;
    }

    struct element_instruction {
        instruction_id id;
        std::size_t where;
    };

    /// An operand `x#1`: element 1 of tuple-shaped `x` (`x#1#0`: element 0 of that), as XLA's
    /// newer printer writes a use of a get-tuple-element (hlo/module_reorder.hpp). The builder makes
    /// the instruction back, named `x#1`, once per computation (end_instruction, element_of).
    void add_element_operand(std::string_view name, std::size_t where, shape_id declared) {
        auto const slot = static_cast<std::uint32_t>(module_.operands_.size());
        name = keep(name);
        std::uint32_t const id = instruction_names_.find(name);
        module_.operands_.push_back(id == name_table::npos ? no_instruction : id);
        if (declared != no_shape) declared_elements_.push_back({slot, name, where, declared});
        if (id == name_table::npos) element_operands_.push_back({slot, name, where, no_shape});
    }

    /// An instruction's lists, empty, starting at the ends of the module's lists.
    typename module_type::instruction_lists lists_from_here() const {
        typename module_type::instruction_lists lists;
        lists.operands.first = static_cast<std::uint32_t>(module_.operands_.size());
        lists.calls.first = static_cast<std::uint32_t>(module_.calls_.size());
        lists.control_predecessors.first = static_cast<std::uint32_t>(module_.control_predecessors_.size());
        lists.dimensions.first = static_cast<std::uint32_t>(module_.dimensions_.size());
        lists.slices.first = static_cast<std::uint32_t>(module_.slices_.size());
        lists.operand_aliases.first = static_cast<std::uint32_t>(module_.operand_aliases_.size());
        lists.attributes.first = static_cast<std::uint32_t>(module_.raw_attributes_.size());
        return lists;
    }

    /// The get-tuple-element named `name` (`x#1`), made when it is not there yet.
    instruction_id element_of(std::string_view name, std::size_t where) {
        if (std::uint32_t const found = instruction_names_.find(name); found != name_table::npos) return found;
        auto const parts = split_element_name(name);
        if (!parts) throw hlo_build_error(where, "operand " + hlo_lex::quote(name) + ": expected NAME#INDEX");
        auto const [base, index] = *parts;
        std::uint32_t const base_id = base.find('#') != std::string_view::npos ? element_of(base, where) : instruction_names_.find(base);
        auto const id = static_cast<instruction_id>(module_.instructions_.size());
        if (id == no_instruction) throw hlo_build_error(where, "too many instructions");
        module_.names_tuple_elements_ = true;
        basic_hlo_instruction<P> gte;
        gte.name = string_type(name);
        gte.computation = static_cast<computation_id>(module_.computations_.size() - 1);
        gte.opcode = hlo_opcode::get_tuple_element;
        gte.tuple_index = index;
        gte.offset = where;
        module_.instructions_.push_back(std::move(gte));
        auto lists = lists_from_here();
        lists.operands.count = 1;
        module_.lists_.push_back(lists);
        if (base_id == name_table::npos) pending_operands_.push_back({lists.operands.first, base, where, no_shape});
        module_.operands_.push_back(base_id == name_table::npos ? no_instruction : base_id);
        instruction_names_.insert(name, id);
        made_elements_.push_back(id);
        if (base_id == name_table::npos || module_.instructions_[base_id].shape == no_shape) {
            unshaped_elements_.push_back({id, where});
        } else {
            set_element_shape(id, where);
        }
        return id;
    }

    /// Moves the get-tuple-elements made for `x#N` operands right behind the tuple they read, by
    /// tuple index, where XLA schedules them (hlo/module_reorder.hpp).
    void schedule_made_elements(basic_hlo_computation<P>& c) {
        if (made_elements_.empty()) return;
        auto const id = static_cast<computation_id>(module_.computations_.size() - 1);
        auto const new_id = hlo_module_reorder<P>::apply(module_, id, elements_behind_tuples(module_, id, made_elements_));
        for (auto& p : parameters_) p.id = new_id[p.id - c.first_instruction];
    }

    /// A made get-tuple-element's shape: element `tuple_index` of its operand's.
    void set_element_shape(instruction_id id, std::size_t where) {
        auto& gte = module_.instructions_[id];
        shape_id const of = module_.instructions_[module_.operands_[module_.lists_[id].operands.first]].shape;
        auto const& tuple = module_.shapes_[of];
        if (!tuple.is_tuple() || gte.tuple_index >= static_cast<std::int64_t>(tuple.tuple_shapes_size())) {
            throw hlo_build_error(where, "operand " + hlo_lex::quote(std::string_view(gte.name)) + ": the shape " + to_string(tuple) +
                                             " has no tuple element " + std::to_string(gte.tuple_index));
        }
        auto const& element = tuple.tuple_shape(static_cast<std::size_t>(gte.tuple_index));
        gte.shape = module_.shapes_.insert(to_string(element), element);
    }

    /// An operand printed with a shape must have that shape, layouts aside (XLA's Compatible).
    void check_operand_shape(std::string_view name, std::size_t where, shape_id declared, instruction_id id) const {
        shape_id const actual = module_.instructions_[id].shape;
        if (declared == no_shape || declared == actual) return;
        auto const& table = module_.shapes_;
        if (!shape_equal().ignore_layout()(table[declared], table[actual])) {
            throw hlo_build_error(where, "operand " + hlo_lex::quote(name) + " is declared as " + to_string(table[declared]) +
                                             " but its shape is " + to_string(table[actual]));
        }
    }

    /// ` (line N)` of an offset into the source text; nothing without one.
    std::string line_note(std::size_t offset) const {
        if (source_.empty()) return "";
        auto const lines = std::count(source_.begin(), source_.begin() + static_cast<std::ptrdiff_t>(std::min(offset, source_.size())), '\n');
        return " (line " + std::to_string(1 + lines) + ")";
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

    std::string_view source_;
    std::size_t expected_instructions_ = 0;
    module_type module_;
    state state_ = state::none;
    bool has_entry_ = false;

    name_table computation_names_;
    name_table instruction_names_;
    std::deque<std::string> arena_;  // names outside source_, kept for the tables
    std::vector<pending_name> pending_operands_;
    std::vector<pending_name> pending_predecessors_;
    std::vector<pending_name> element_operands_;     // `x#N` operands of the current instruction not yet made
    std::vector<pending_name> declared_elements_;    // `x#N` operands printed with a shape, checked at the end
    std::vector<element_instruction> unshaped_elements_;  // made before their tuple was defined
    std::vector<instruction_id> made_elements_;           // every get-tuple-element made in this computation
    std::vector<pending_call> pending_calls_;
    std::vector<parameter_entry> parameters_;
    std::vector<std::size_t> alias_positions_;
    std::vector<std::size_t> donor_positions_;
    frame_table frame_table_ = frame_table::file_names;
    std::size_t computation_where_ = 0;
};

using hlo_module_builder = basic_hlo_module_builder<>;

}  // namespace hlomem

#endif  // HLOMEM_HLO_MODULE_BUILDER_HPP
