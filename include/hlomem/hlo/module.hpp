// hlomem/hlo/module.hpp: an XLA HLO module as its text dump describes it — computations,
// instructions with their shapes, operands resolved to indices, the call graph, parameters,
// roots, the input/output aliasing table and, for scheduled modules, the schedule.
//
// Storage is flat: every instruction of the module lives in one vector, the instructions of a
// computation are contiguous and in the order the text lists them (for a module printed with
// `is_scheduled=true` that order is the schedule), and the lists an instruction has (operands,
// called computations, control predecessors, dimensions, ...) live in one vector per kind of
// list. Instructions and computations are named by 32-bit indices, never by pointers, so a
// module can be moved and copied freely. Shapes are interned in the module's shape_table: two
// instructions with equal shapes share one shape_id.
//
//   auto m = hlomem::parse_hlo_module(text, "module.txt");      // <hlomem/parser.hpp>
//   auto const& entry = m.entry_computation();
//   for (hlomem::instruction_id i : entry.instructions()) {
//       auto const& inst = m.instruction(i);                       // name, opcode, shape, ...
//       for (hlomem::instruction_id o : m.operands(i)) { ... }
//       for (hlomem::hlo_call const& c : m.calls(i)) { ... }       // fusion, while body, ...
//   }
//
// With hlomem::view_policy every name and every piece of raw text is a std::string_view into
// the parsed text, which must then outlive the module; with the default policy they are owned
// strings. String values (op_name, custom_call_target, ...) are the text between the quotes with
// XLA's C escapes left as written. The policy's vector_type must store its elements contiguously
// (std::vector does): the lists are handed out as views into it.
//
// This header does not include Spirit; the parser is <hlomem/parser/hlo_module.hpp>, and
// <hlomem/hlo/module_builder.hpp> builds a module by hand.
#ifndef HLOMEM_HLO_MODULE_HPP
#define HLOMEM_HLO_MODULE_HPP

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>

#include <hlomem/core/policy.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_table.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/opcode.hpp>

namespace hlomem {

/// Index of an instruction in its module (all computations' instructions counted together).
using instruction_id = std::uint32_t;
/// Index of a computation in its module, in the order the text lists them.
using computation_id = std::uint32_t;

inline constexpr instruction_id no_instruction = std::numeric_limits<instruction_id>::max();
inline constexpr computation_id no_computation = std::numeric_limits<computation_id>::max();

template <class P>
class basic_hlo_module_builder;
template <class P>
struct hlo_module_reorder;

// ---------------------------------------------------------------------------------------------
// Small views
// ---------------------------------------------------------------------------------------------

/// A read-only view of contiguous elements of a module's storage, valid while the module is
/// neither modified nor destroyed.
template <class T>
class list_view {
public:
    using value_type = T;
    using const_iterator = T const*;
    using iterator = T const*;

    constexpr list_view() noexcept = default;
    constexpr list_view(T const* first, std::size_t count) noexcept : first_(first), count_(count) {}

    constexpr T const* begin() const noexcept { return first_; }
    constexpr T const* end() const noexcept { return first_ + count_; }
    constexpr std::size_t size() const noexcept { return count_; }
    constexpr bool empty() const noexcept { return count_ == 0; }
    constexpr T const& operator[](std::size_t i) const noexcept { return first_[i]; }
    constexpr T const& front() const noexcept { return first_[0]; }
    constexpr T const& back() const noexcept { return first_[count_ - 1]; }

private:
    T const* first_ = nullptr;
    std::size_t count_ = 0;
};

/// The ids first, first+1, ..., last-1: the instructions of one computation.
class id_range {
public:
    class iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = std::uint32_t;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = std::uint32_t;

        constexpr iterator() noexcept = default;
        constexpr explicit iterator(std::uint32_t v) noexcept : v_(v) {}
        constexpr std::uint32_t operator*() const noexcept { return v_; }
        constexpr std::uint32_t operator[](difference_type n) const noexcept {
            return static_cast<std::uint32_t>(static_cast<difference_type>(v_) + n);
        }
        constexpr iterator& operator++() noexcept { return ++v_, *this; }
        constexpr iterator operator++(int) noexcept { return iterator(v_++); }
        constexpr iterator& operator--() noexcept { return --v_, *this; }
        constexpr iterator operator--(int) noexcept { return iterator(v_--); }
        constexpr iterator& operator+=(difference_type n) noexcept {
            v_ = static_cast<std::uint32_t>(static_cast<difference_type>(v_) + n);
            return *this;
        }
        constexpr iterator& operator-=(difference_type n) noexcept { return *this += -n; }
        friend constexpr iterator operator+(iterator it, difference_type n) noexcept { return it += n; }
        friend constexpr iterator operator+(difference_type n, iterator it) noexcept { return it += n; }
        friend constexpr iterator operator-(iterator it, difference_type n) noexcept { return it -= n; }
        friend constexpr difference_type operator-(iterator a, iterator b) noexcept {
            return static_cast<difference_type>(a.v_) - static_cast<difference_type>(b.v_);
        }
        friend constexpr bool operator==(iterator a, iterator b) noexcept { return a.v_ == b.v_; }
        friend constexpr bool operator!=(iterator a, iterator b) noexcept { return a.v_ != b.v_; }
        friend constexpr bool operator<(iterator a, iterator b) noexcept { return a.v_ < b.v_; }
        friend constexpr bool operator>(iterator a, iterator b) noexcept { return a.v_ > b.v_; }
        friend constexpr bool operator<=(iterator a, iterator b) noexcept { return a.v_ <= b.v_; }
        friend constexpr bool operator>=(iterator a, iterator b) noexcept { return a.v_ >= b.v_; }

    private:
        std::uint32_t v_ = 0;
    };

    constexpr id_range() noexcept = default;
    constexpr id_range(std::uint32_t first, std::uint32_t last) noexcept : first_(first), last_(last) {}
    constexpr iterator begin() const noexcept { return iterator(first_); }
    constexpr iterator end() const noexcept { return iterator(last_); }
    constexpr std::size_t size() const noexcept { return last_ - first_; }
    constexpr bool empty() const noexcept { return first_ == last_; }
    constexpr std::uint32_t operator[](std::size_t i) const noexcept { return first_ + static_cast<std::uint32_t>(i); }
    constexpr std::uint32_t front() const noexcept { return first_; }
    constexpr std::uint32_t back() const noexcept { return last_ - 1; }

private:
    std::uint32_t first_ = 0;
    std::uint32_t last_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

/// How an instruction calls a computation (XLA's call graph). Control-flow calls run the callee
/// as a program of its own, whose values get buffers; the others embed it (XLA's
/// CallContext::kEmbedded): a fusion body or a reducer allocates nothing of its own.
enum class call_kind : std::uint8_t {
    fusion,              ///< `calls=` of a fusion
    while_body,          ///< `body=` of a while
    while_condition,     ///< `condition=` of a while
    conditional_branch,  ///< `branch_computations=` (or `true_computation=`/`false_computation=`)
    call,                ///< `to_apply=` (or `calls=`) of a call
    to_apply,            ///< reducers, comparators, scatter/select functions, custom-call computations
    async,               ///< `calls=` of async-start/update/done: the wrapped computation
};

constexpr std::string_view to_string(call_kind k) noexcept {
    switch (k) {
        case call_kind::fusion: return "fusion";
        case call_kind::while_body: return "while_body";
        case call_kind::while_condition: return "while_condition";
        case call_kind::conditional_branch: return "conditional_branch";
        case call_kind::call: return "call";
        case call_kind::to_apply: return "to_apply";
        case call_kind::async: return "async";
    }
    return "unknown";
}

/// XLA's CallContext::kControlFlow: the callee's values live in buffers of their own.
constexpr bool is_control_flow(call_kind k) noexcept { return k != call_kind::fusion && k != call_kind::to_apply; }

/// A fusion's `kind=`.
enum class fusion_kind : std::uint8_t {
    none,    ///< not a fusion, or a fusion without `kind=`
    loop,    ///< kLoop
    input,   ///< kInput
    output,  ///< kOutput
    custom,  ///< kCustom
    other,   ///< a kind hlomem does not know; the instruction keeps `kind=` as a raw attribute
};

constexpr std::string_view to_string(fusion_kind k) noexcept {
    switch (k) {
        case fusion_kind::none: return "";
        case fusion_kind::loop: return "kLoop";
        case fusion_kind::input: return "kInput";
        case fusion_kind::output: return "kOutput";
        case fusion_kind::custom: return "kCustom";
        case fusion_kind::other: return "other";
    }
    return "other";
}

/// Whether an input/output alias is a hint (`may-alias`) or required (`must-alias`).
enum class alias_kind : std::uint8_t { may_alias, must_alias };

constexpr std::string_view to_string(alias_kind k) noexcept {
    return k == alias_kind::must_alias ? "must-alias" : "may-alias";
}

/// One call-graph edge: instruction `caller` calls computation `callee`.
struct hlo_call {
    instruction_id caller = no_instruction;
    computation_id callee = no_computation;
    call_kind kind = call_kind::to_apply;

    friend bool operator==(hlo_call const& a, hlo_call const& b) {
        return a.caller == b.caller && a.callee == b.callee && a.kind == b.kind;
    }
    friend bool operator!=(hlo_call const& a, hlo_call const& b) { return !(a == b); }
};

/// One dimension of a `slice={[start:limit:stride], ...}` attribute.
struct hlo_slice {
    std::int64_t start = 0;
    std::int64_t limit = 0;
    std::int64_t stride = 1;

    friend bool operator==(hlo_slice const& a, hlo_slice const& b) {
        return a.start == b.start && a.limit == b.limit && a.stride == b.stride;
    }
    friend bool operator!=(hlo_slice const& a, hlo_slice const& b) { return !(a == b); }
};

/// An attribute kept as the text XLA printed: `backend_config={...}`, `sharding={...}`.
template <class P = default_policy>
struct basic_hlo_attribute {
    typename P::string_type name;   ///< `backend_config`
    typename P::string_type value;  ///< `{"operation_queue_id":"0"}`, braces and quotes included
};

/// One entry of `output_to_operand_aliasing={{1}: (0, {})}`: output {1} shares operand 0's buffer.
template <class P = default_policy>
struct basic_output_operand_alias {
    basic_shape_index<P> output_index;
    std::int64_t operand_number = 0;
    basic_shape_index<P> operand_index;
};

/// One entry of the module's `input_output_alias={ {0}: (0, {}, may-alias) }`: the entry result
/// at `output_index` may (or must) reuse the buffer of parameter `parameter_number` at
/// `parameter_index`.
template <class P = default_policy>
struct basic_input_output_alias {
    basic_shape_index<P> output_index;
    std::int64_t parameter_number = 0;
    basic_shape_index<P> parameter_index;
    alias_kind kind = alias_kind::may_alias;
};

/// One entry of the module's `buffer_donor={ (0, {}) }`: a parameter buffer XLA may reuse.
template <class P = default_policy>
struct basic_buffer_donor {
    std::int64_t parameter_number = 0;
    basic_shape_index<P> parameter_index;
};

/// The tables newer XLA prints between the module header and the first computation
/// (`FileNames`, `FunctionNames`, `FileLocations`, `StackFrames`). Ids in the text are 1-based
/// positions: file_names[id - 1]. A frame's parent_frame_id is its parent's id, 0 for an
/// outermost frame, as XLA's StackFrameIndexProto holds it: the text prints it plus one, which the
/// builder takes off (module_builder.hpp, set_frame_field).
template <class P = default_policy>
struct basic_stack_frame_index {
    struct file_location {
        std::int64_t file_name_id = 0;
        std::int64_t function_name_id = 0;
        std::int64_t line = 0;
        std::int64_t end_line = 0;
        std::int64_t column = 0;
        std::int64_t end_column = 0;
    };
    struct stack_frame {
        std::int64_t file_location_id = 0;
        std::int64_t parent_frame_id = 0;
    };

    typename P::template vector_type<typename P::string_type> file_names;
    typename P::template vector_type<typename P::string_type> function_names;
    typename P::template vector_type<file_location> file_locations;
    typename P::template vector_type<stack_frame> stack_frames;

    bool empty() const noexcept {
        return file_names.empty() && function_names.empty() && file_locations.empty() && stack_frames.empty();
    }
};

/// One instruction. Its lists (operands, called computations, ...) are reached through the module.
template <class P = default_policy>
struct basic_hlo_instruction {
    typename P::string_type name;               ///< without the `%`
    shape_id shape = no_shape;                  ///< the result shape, in the module's shape table
    computation_id computation = no_computation;
    hlo_opcode opcode = hlo_opcode::unknown;
    fusion_kind fusion = fusion_kind::none;
    bool is_root = false;                       ///< marked ROOT, or the last of a computation without ROOT
    std::int64_t parameter_number = -1;         ///< N of `parameter(N)`; -1 for other opcodes
    std::int64_t tuple_index = -1;              ///< `index=N` of a get-tuple-element; -1 otherwise
    typename P::string_type custom_call_target; ///< `custom_call_target="..."`, empty otherwise
    typename P::string_type literal;            ///< a constant's payload: `0.5`, `{1, 2}`, `{...}`
    std::size_t offset = 0;                     ///< byte offset of the instruction's text in the input
};

/// One computation. Its instructions are the ids [first_instruction, first_instruction + instruction_count).
template <class P = default_policy>
struct basic_hlo_computation {
    typename P::string_type name;               ///< without the `%`
    bool is_entry = false;
    instruction_id first_instruction = 0;
    std::uint32_t instruction_count = 0;
    instruction_id root = no_instruction;
    typename P::string_type execution_thread;   ///< `execution_thread="..."` after `}`; empty for the main thread
    std::size_t offset = 0;                     ///< byte offset of the computation's header in the input

    /// The instructions in the order of the text; in a scheduled module, the schedule.
    id_range instructions() const noexcept {
        return id_range(first_instruction, first_instruction + instruction_count);
    }
    /// Position of an instruction of this computation in its sequence (0 = first).
    std::uint32_t position_of(instruction_id i) const noexcept { return i - first_instruction; }
};

// ---------------------------------------------------------------------------------------------
// The module
// ---------------------------------------------------------------------------------------------

/// A parsed HLO module. Read-only; built by basic_hlo_module_builder, which the parser
/// (<hlomem/parser/hlo_module.hpp>) drives.
template <class P = default_policy>
class basic_hlo_module {
public:
    using policy_type = P;
    using string_type = typename P::string_type;
    template <class T>
    using vector_type = typename P::template vector_type<T>;
    using shape_type = basic_shape<P>;
    using shape_table_type = basic_shape_table<P>;
    using instruction_type = basic_hlo_instruction<P>;
    using computation_type = basic_hlo_computation<P>;
    using metadata_type = basic_hlo_metadata<P>;
    using attribute_type = basic_hlo_attribute<P>;
    using output_operand_alias_type = basic_output_operand_alias<P>;
    using input_output_alias_type = basic_input_output_alias<P>;
    using buffer_donor_type = basic_buffer_donor<P>;
    using stack_frame_index_type = basic_stack_frame_index<P>;

    // -- the header line: `HloModule name, is_scheduled=true, ...` ---------------------------

    string_type const& name() const noexcept { return name_; }
    /// `is_scheduled=true`: each computation's instruction order is its schedule.
    bool is_scheduled() const noexcept { return is_scheduled_; }
    /// Whether the text named tuple elements as `%x#1` instead of printing get-tuple-element
    /// instructions, as the printer of newer XLA does (JAX 0.11); the builder made those
    /// instructions back (hlo/module_builder.hpp).
    bool names_tuple_elements() const noexcept { return names_tuple_elements_; }
    std::int64_t num_partitions() const noexcept { return num_partitions_; }
    std::int64_t replica_count() const noexcept { return replica_count_; }
    /// Whether the header has `entry_computation_layout={(...)->...}`.
    bool has_entry_computation_layout() const noexcept { return has_entry_layout_; }
    /// The parameter shapes of `entry_computation_layout`, in parameter order.
    list_view<shape_id> entry_layout_parameters() const noexcept { return view(entry_layout_parameters_); }
    /// The result shape of `entry_computation_layout`; no_shape without one.
    shape_id entry_layout_result() const noexcept { return entry_layout_result_; }
    /// `input_output_alias={ ... }`, in the order printed.
    vector_type<input_output_alias_type> const& input_output_aliases() const noexcept { return input_output_aliases_; }
    /// `buffer_donor={ ... }`, in the order printed.
    vector_type<buffer_donor_type> const& buffer_donors() const noexcept { return buffer_donors_; }
    /// `frontend_attributes={...}` as printed (braces included); empty when absent.
    string_type const& frontend_attributes() const noexcept { return frontend_attributes_; }
    /// The other header attributes (`allow_spmd_sharding_propagation_to_output={true}`, ...), raw.
    vector_type<attribute_type> const& attributes() const noexcept { return attributes_; }
    /// FileNames/FunctionNames/FileLocations/StackFrames; empty when the dump has none.
    stack_frame_index_type const& stack_frame_index() const noexcept { return stack_frame_index_; }

    // -- shapes --------------------------------------------------------------------------------

    shape_table_type const& shapes() const noexcept { return shapes_; }
    shape_type const& shape(shape_id id) const { return shapes_[id]; }
    /// The result shape of an instruction.
    shape_type const& shape_of(instruction_id i) const { return shapes_[instructions_[i].shape]; }

    // -- computations ----------------------------------------------------------------------------

    vector_type<computation_type> const& computations() const noexcept { return computations_; }
    std::size_t computation_count() const noexcept { return computations_.size(); }
    computation_type const& computation(computation_id c) const { return computations_[c]; }
    /// The ENTRY computation (without one, XLA's parser takes the last computation).
    computation_id entry() const noexcept { return entry_; }
    computation_type const& entry_computation() const { return computations_[entry_]; }
    /// The computation named `name` (without `%`); linear in the number of computations.
    std::optional<computation_id> find_computation(std::string_view name) const {
        for (std::size_t c = 0; c < computations_.size(); ++c) {
            if (std::string_view(computations_[c].name) == name) return static_cast<computation_id>(c);
        }
        return std::nullopt;
    }
    /// A computation's parameter instructions, by parameter number.
    list_view<instruction_id> parameters(computation_id c) const { return view(parameter_ids_, computation_lists_[c].parameters); }
    /// The parameter shapes its header declares (`%c (p: f32[]) -> f32[] {`), in order; empty for
    /// headers without a signature.
    list_view<shape_id> signature_parameters(computation_id c) const {
        return view(signature_shapes_, computation_lists_[c].signature);
    }
    /// The result shape its header declares; no_shape for headers without a signature.
    shape_id signature_result(computation_id c) const { return computation_lists_[c].signature_result; }
    /// The instructions that call `c`, in the order of the text.
    list_view<hlo_call> callers(computation_id c) const {
        return list_view<hlo_call>(callers_.data() + caller_offsets_[c], caller_offsets_[c + 1] - caller_offsets_[c]);
    }

    // -- instructions --------------------------------------------------------------------------

    /// Every instruction, computation after computation, each in the order of the text.
    vector_type<instruction_type> const& instructions() const noexcept { return instructions_; }
    std::size_t instruction_count() const noexcept { return instructions_.size(); }
    instruction_type const& instruction(instruction_id i) const { return instructions_[i]; }
    /// The instruction of computation `c` named `name` (without `%`); linear in its size.
    std::optional<instruction_id> find_instruction(computation_id c, std::string_view name) const {
        for (instruction_id i : computations_[c].instructions()) {
            if (std::string_view(instructions_[i].name) == name) return i;
        }
        return std::nullopt;
    }
    /// The instruction named `name` in any computation (the first one in text order).
    std::optional<instruction_id> find_instruction(std::string_view name) const {
        for (std::size_t i = 0; i < instructions_.size(); ++i) {
            if (std::string_view(instructions_[i].name) == name) return static_cast<instruction_id>(i);
        }
        return std::nullopt;
    }
    /// The opcode as the text wrote it: to_string(opcode) for known opcodes, the text itself for
    /// unknown ones and for XLA's async syntax sugar (`all-to-all-start` parses as async_start).
    std::string_view opcode_name(instruction_id i) const {
        auto const& texts = opcode_texts_;
        std::size_t lo = 0, hi = texts.size();
        while (lo < hi) {
            std::size_t const mid = (lo + hi) / 2;
            if (texts[mid].first < i) lo = mid + 1; else hi = mid;
        }
        if (lo < texts.size() && texts[lo].first == i) return texts[lo].second;
        return to_string(instructions_[i].opcode);
    }
    /// Operands in order; an instruction that uses one value twice lists it twice.
    list_view<instruction_id> operands(instruction_id i) const { return view(operands_, lists_[i].operands); }
    /// The instructions that use `i` as an operand, each once, in the order of the text.
    list_view<instruction_id> users(instruction_id i) const {
        return list_view<instruction_id>(user_ids_.data() + user_offsets_[i], user_offsets_[i + 1] - user_offsets_[i]);
    }
    /// `control-predecessors={...}`.
    list_view<instruction_id> control_predecessors(instruction_id i) const {
        return view(control_predecessors_, lists_[i].control_predecessors);
    }
    /// The computations `i` calls, in the order of its attributes.
    list_view<hlo_call> calls(instruction_id i) const { return view(calls_, lists_[i].calls); }
    /// Every call of the module, by caller in instruction order: calls(i) is one piece of it, and
    /// the calls of one computation's instructions are another (the builder adds them as it
    /// reads each instruction).
    list_view<hlo_call> all_calls() const { return list_view<hlo_call>(calls_.data(), calls_.size()); }
    /// `dimensions={...}`.
    list_view<std::int64_t> dimensions(instruction_id i) const { return view(dimensions_, lists_[i].dimensions); }
    /// `slice={[a:b], [c:d:s]}`.
    list_view<hlo_slice> slices(instruction_id i) const { return view(slices_, lists_[i].slices); }
    /// `output_to_operand_aliasing={...}`.
    list_view<output_operand_alias_type> output_to_operand_aliasing(instruction_id i) const {
        return view(operand_aliases_, lists_[i].operand_aliases);
    }
    /// Every attribute not parsed structurally (backend_config, sharding, frontend_attributes,
    /// window, ...), as printed, in order.
    list_view<attribute_type> attributes(instruction_id i) const { return view(raw_attributes_, lists_[i].attributes); }
    /// The raw value of attribute `name` of `i`, if it has one kept raw.
    std::optional<std::string_view> attribute(instruction_id i, std::string_view name) const {
        for (auto const& a : attributes(i)) {
            if (std::string_view(a.name) == name) return std::string_view(a.value);
        }
        return std::nullopt;
    }
    /// `metadata={...}`; nullptr when the instruction has none.
    metadata_type const* metadata(instruction_id i) const {
        auto const m = lists_[i].metadata;
        return m == no_metadata ? nullptr : &metadata_[m];
    }

    // -- asynchronous operations -----------------------------------------------------------------

    /// For a `*-done` or `async-update`, the start of its chain (operand 0, through any
    /// async-update); no_instruction when the chain does not lead to a start.
    instruction_id async_start_of(instruction_id i) const {
        for (std::size_t steps = 0; steps <= instructions_.size(); ++steps) {
            auto const op = instructions_[i].opcode;
            if (is_async_start(op)) return i;
            if (!(is_async_done(op) || op == hlo_opcode::async_update) || lists_[i].operands.count == 0) break;
            i = operands(i)[0];
        }
        return no_instruction;
    }
    /// For an async start, the `*-done` that finishes it (through any async-update);
    /// no_instruction when none does.
    instruction_id async_done_of(instruction_id start) const {
        instruction_id current = start;
        for (std::size_t steps = 0; steps <= instructions_.size(); ++steps) {
            instruction_id next = no_instruction;
            for (instruction_id u : users(current)) {
                auto const op = instructions_[u].opcode;
                if (operands(u).empty() || operands(u)[0] != current) continue;
                if (is_async_done(op)) return u;
                if (op == hlo_opcode::async_update) next = u;
            }
            if (next == no_instruction) break;
            current = next;
        }
        return no_instruction;
    }

private:
    // The builder (<hlomem/hlo/module_builder.hpp>) is the one way to make a module: it keeps the
    // invariants that the accessors above rely on (names resolved, tables built).
    friend class basic_hlo_module_builder<P>;
    friend struct hlo_module_reorder<P>;

    struct span {
        std::uint32_t first = 0;
        std::uint32_t count = 0;
    };
    static constexpr std::uint32_t no_metadata = std::numeric_limits<std::uint32_t>::max();
    /// Where each instruction's lists are, in the per-kind vectors below.
    struct instruction_lists {
        span operands, calls, control_predecessors, dimensions, slices, operand_aliases, attributes;
        std::uint32_t metadata = no_metadata;
    };
    struct computation_lists {
        span parameters, signature;
        shape_id signature_result = no_shape;
    };

    template <class T>
    static list_view<T> view(vector_type<T> const& v) {
        return list_view<T>(v.data(), v.size());
    }
    template <class T>
    static list_view<T> view(vector_type<T> const& v, span s) {
        return list_view<T>(v.data() + s.first, s.count);
    }

    // Header.
    string_type name_;
    bool is_scheduled_ = false;
    bool names_tuple_elements_ = false;
    bool has_entry_layout_ = false;
    std::int64_t num_partitions_ = 1;
    std::int64_t replica_count_ = 1;
    vector_type<shape_id> entry_layout_parameters_;
    shape_id entry_layout_result_ = no_shape;
    vector_type<input_output_alias_type> input_output_aliases_;
    vector_type<buffer_donor_type> buffer_donors_;
    string_type frontend_attributes_;
    vector_type<attribute_type> attributes_;
    stack_frame_index_type stack_frame_index_;
    shape_table_type shapes_;

    // Computations.
    vector_type<computation_type> computations_;
    vector_type<computation_lists> computation_lists_;
    computation_id entry_ = no_computation;
    vector_type<instruction_id> parameter_ids_;
    vector_type<shape_id> signature_shapes_;
    vector_type<std::uint32_t> caller_offsets_;  // computation_count + 1 entries
    vector_type<hlo_call> callers_;              // calls_ grouped by callee

    // Instructions and their lists.
    vector_type<instruction_type> instructions_;
    vector_type<instruction_lists> lists_;
    vector_type<instruction_id> operands_;
    vector_type<hlo_call> calls_;
    vector_type<instruction_id> control_predecessors_;
    vector_type<std::int64_t> dimensions_;
    vector_type<hlo_slice> slices_;
    vector_type<output_operand_alias_type> operand_aliases_;
    vector_type<attribute_type> raw_attributes_;
    vector_type<metadata_type> metadata_;
    vector_type<std::pair<instruction_id, string_type>> opcode_texts_;  // sorted by id
    vector_type<std::uint32_t> user_offsets_;  // instruction_count + 1 entries
    vector_type<instruction_id> user_ids_;
};

using hlo_module = basic_hlo_module<>;
using hlo_instruction = basic_hlo_instruction<>;
using hlo_computation = basic_hlo_computation<>;
using hlo_attribute = basic_hlo_attribute<>;
using input_output_alias = basic_input_output_alias<>;
using output_operand_alias = basic_output_operand_alias<>;
using buffer_donor = basic_buffer_donor<>;
using stack_frame_index = basic_stack_frame_index<>;

}  // namespace hlomem

#endif  // HLOMEM_HLO_MODULE_HPP
