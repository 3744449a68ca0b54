// hlomem/assign/buffer_assigner.hpp: XLA's BufferAssigner run on a scheduled module alone: which
// HloBuffers get an allocation of their own, which share one, the heap simulation of the temps and
// the combined temp allocation, with every value's allocation and offset, as XLA's
// `*-buffer-assignment.txt` would state them.
//
//   auto m = hlomem::parse_hlo_module(text, "module.after_optimizations.txt");
//   hlomem::assignment_problem p = hlomem::make_assignment_problem(m);  // XLA's choice up to the heap
//   p.heaps[0].problem;             // the temps of color 0: sizes, lifespans, alignment (no offsets)
//   hlomem::place_heaps(p);                                            // best-fit, as XLA, or your allocator
//   hlomem::buffer_assignment ba = hlomem::finish_assignment(std::move(p));   // what assign_buffers(m) returns
//   hlomem::print_buffer_assignment(std::cout, ba);                    // XLA's text
//
// The steps, in XLA's order (xla/service/buffer_assignment.cc, the function each follows named):
//   1. HloDataflowAnalysis, HloAliasAnalysis and the module-scoped HloLiveRange (hlo/liveness.hpp);
//      every HloBuffer is a unit of assignment, its size the largest of its values' sizes
//      (BufferAssignment::HloBufferSize).
//   2. GatherComputationsByAllocationType: computations run by control flow (entry, while, call,
//      conditional, async) are global; those called by map, reduce, sort, scatter, ... are
//      thread-local (their values are the ones without a live range); fusion bodies get no buffers.
//   3. AssignBuffersForComputations over the global buffers sorted by BufferOrder::kBiggestFirst
//      (CompareSize: larger first; CompareLiveOut: live-out first; ComparePosition: the earliest
//      of its values' instructions in the post order of the computations, callers first, a value
//      at {1} of an async-start printed in XLA's syntax sugar being defined in the wrapped
//      computation the text hides; the computations in the reverse of CallGraph::VisitNodes'
//      post order, whose callees follow each caller's instruction list, not its schedule: the
//      text prints the computations in that post order (MakeComputationPostOrder), so callees
//      are taken in their text order; then the buffer id), each
//      through AssignSpecialHloBuffer or AssignSingleHloBuffer:
//        - a constant gets a `constant` allocation (allocate_buffers_for_constants, GPU and CPU);
//        - an entry parameter gets its `parameter N` allocation; a parameter aliased with an
//          output (donation, input_output_alias) is a candidate for reuse afterwards;
//        - a tuple-shaped buffer gets an allocation of its own (is_tuple: never reused);
//        - any other buffer first tries the allocations of its instruction's operands, then the
//          allocations made so far, newest first (TryAssignToExistingAllocation), through
//          MaybeAssignBuffer: same color for an input or output allocation; not larger than the
//          allocation; not a read-only one (a parameter that is not aliased, a constant); not a
//          tuple or thread-local one; no live range overlapping one already assigned
//          (LiveRangeInterferes, where a user may start where its operand ends when
//          CanShareOperandBufferWithUser allows it); a copy never takes its operand's place; a
//          live-out buffer only an allocation of exactly its size. XLA compares the new buffer's
//          values with every value the allocation holds; here each allocation indexes the live
//          ranges it holds (live_range_index), so that the answer, the same, costs O(log^2 n)
//          per value and allocation tried, and the values that meet the new one at an end point
//          (where the operand rule decides) are found by time;
//        - a temp that found no allocation waits for the heap (DelayTemporaryBufferAssignment);
//          a live-out one gets a new allocation.
//   4. AssignBuffersWithSequentialOrdering, whole-module: the waiting values of each color, in
//      color order, through HeapSimulator and ChooseBestHeapAlgorithm (spatial and temporal
//      GlobalDecreasingSizeBestFitHeap, placement/best_fit.hpp) with the backend's alignment;
//      a value alone in its HloBuffer, defined by an instruction that reads directly a value
//      (alone in its HloBuffer too) whose last use it is and may write over it, shares that
//      operand's chunk (HeapSimulator::Run's ShareWith after CanShareOperandBufferWithUser);
//      values of one HloBuffer share one chunk, placed with each value over its own live range
//      (GlobalDecreasingSizeBestFitHeap's colocations). One allocation per color.
//   5. Thread-local computations: every buffer its own `thread-local` allocation (constants
//      `constant`), in the same order as step 3 (AssignBuffersForComputations again; its position
//      table covers the thread-local computations only, in the same relative order).
//   6. maybe-live-out on every allocation holding a live-out buffer, then CombineTempAllocations:
//      the preallocated-temp allocations of each color (the heap and the tuple tables) are
//      concatenated, each at the aligned end of the one before, into one allocation placed last.
//
// The backends (GpuCompiler, CpuCompiler): GPU aligns temps to 128 bytes
// (kXlaAllocatedBufferAlignBytes), CPU to 64 (cpu_function_runtime::MinAlign); TPU's compiler is
// closed, and 512 is assumed (its HBM allocations are 512-byte granular in the dumps we have).
// Colors are the layouts' memory spaces (XLA's default colorer); sizes are
// size_function_of(module) (tuples as 8-byte pointer tables on GPU and CPU).
//
// The GPU backend's buffer-sharing hints (CanShareBufferHint, FusionCanShareBufferHint in
// xla/service/gpu/buffer_sharing.cc) are asked where XLA asks them; a fusion's reduction emitter
// is recognised by its reduce root in a kInput fusion (XLA asks HloFusionAnalysis).
//
// What is not reproduced: slice input fusions (IsSliceInputFusion), calls sharing with their
// callee's root, memory-space assignment's preset allocations, multi-heap and paged heaps
// (options XLA leaves off by default).
//
// Cost: O(n log^2 n) for n values, times the number of reusable allocations each buffer tries
// (XLA's own scan order: aliased entry parameters and live-out outputs, newest first).
#ifndef HLOMEM_ASSIGN_BUFFER_ASSIGNER_HPP
#define HLOMEM_ASSIGN_BUFFER_ASSIGNER_HPP

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/alias_analysis.hpp>
#include <hlomem/hlo/liveness.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/memory/soundness.hpp>
#include <hlomem/placement/best_fit.hpp>
#include <hlomem/placement/plan.hpp>
#include <hlomem/placement/temp_arena.hpp>

namespace hlomem {

/// The compiler whose BufferAssigner options are followed.
enum class xla_backend : std::uint8_t { gpu, cpu, tpu };

inline constexpr std::string_view to_string(xla_backend b) noexcept {
    return b == xla_backend::gpu ? "gpu" : b == xla_backend::cpu ? "cpu" : "tpu";
}
inline std::optional<xla_backend> xla_backend_named(std::string_view name) noexcept {
    for (auto b : {xla_backend::gpu, xla_backend::cpu, xla_backend::tpu}) {
        if (to_string(b) == name) return b;
    }
    return std::nullopt;
}

/// The alignment of every temp chunk (BufferAssigner's color_alignment) on each backend.
inline constexpr std::int64_t default_alignment(xla_backend b) noexcept {
    return b == xla_backend::gpu ? 128 : b == xla_backend::cpu ? 64 : 512;
}

/// Which backend compiled a module, and why that answer.
struct backend_inference {
    xla_backend backend = xla_backend::gpu;
    bool inferred = false;  ///< false: nothing in the module told, `backend` is the default
    std::string reason;     ///< what was seen, or why nothing was
};

/// The backend a module was compiled for, from what only one backend writes: tiled layouts
/// (`{1,0:T(8,128)}`) are TPU's; GPU's library calls (`__cublas`, `__cusolver`, `__cudnn`,
/// `__triton`), fusions of kind `kInput` or `kCustom` (the CPU compiler makes `kLoop` and `kOutput`
/// fusions only), the latency-hiding scheduler's `fingerprint_before_lhs` frontend attribute and
/// backend configs with `operation_queue_id`, `fusion_backend_config`, `force_earliest_schedule` or
/// `collective_backend_config` are GPU's; a `__onednn` or `xla.cpu.` custom call or a backend
/// config with `outer_dimension_partitions` is CPU's. Nothing of that: GPU, stated as a default.
template <class P>
backend_inference infer_backend(basic_hlo_module<P> const& m) {
    backend_inference r;
    if (size_function_of(m.shapes()) == size_function_kind::tpu) {
        return {xla_backend::tpu, true, "tiled layouts (T(...)) are written by the TPU compiler only"};
    }
    if (std::string_view(m.frontend_attributes()).find("fingerprint_before_lhs") != std::string_view::npos) {
        return {xla_backend::gpu, true,
                "frontend_attributes has fingerprint_before_lhs: the latency-hiding scheduler ran, which GPU compilations run "
                "and CPU ones do not"};
    }
    for (instruction_id i = 0; i < m.instruction_count(); ++i) {
        auto const target = m.attribute(i, "custom_call_target");
        if (target) {
            std::string_view const t = *target;
            for (std::string_view gpu : {"__cublas", "__cusolver", "__cudnn", "__triton", "cu_threefry", "__gpu"}) {
                if (t.find(gpu) != std::string_view::npos) {
                    return {xla_backend::gpu, true, "custom call " + std::string(t) + " is a GPU library call"};
                }
            }
            for (std::string_view cpu : {"__onednn", "xla.cpu.", "__xla_cpu"}) {
                if (t.find(cpu) != std::string_view::npos) {
                    return {xla_backend::cpu, true, "custom call " + std::string(t) + " is a CPU library call"};
                }
            }
        }
        auto const config = m.attribute(i, "backend_config");
        if (config) {
            std::string_view const c = *config;
            if (c.find("outer_dimension_partitions") != std::string_view::npos) {
                return {xla_backend::cpu, true, "backend_config with \"outer_dimension_partitions\" is the CPU compiler's"};
            }
            for (std::string_view gpu : {"operation_queue_id", "fusion_backend_config", "force_earliest_schedule",
                                         "collective_backend_config"}) {
                if (c.find(gpu) != std::string_view::npos) {
                    return {xla_backend::gpu, true, "backend_config with \"" + std::string(gpu) + "\" is written by the GPU compiler"};
                }
            }
        }
        auto const kind = m.instruction(i).fusion;
        if (kind == fusion_kind::input || kind == fusion_kind::custom) {
            return {xla_backend::gpu, true,
                    "fusion " + std::string(std::string_view(m.instruction(i).name)) + " has kind=" +
                        std::string(kind == fusion_kind::input ? "kInput" : "kCustom") +
                        ", which the GPU compiler makes and the CPU compiler does not"};
        }
    }
    r.reason = "nothing in the module names a backend (no tiled layout, library call, GPU fusion kind, scheduler "
               "fingerprint or backend_config of one backend); gpu assumed";
    return r;
}

struct assign_options {
    std::optional<xla_backend> backend;    ///< nullopt: infer_backend
    std::optional<std::int64_t> alignment; ///< nullopt: default_alignment(backend)
    allocation_algorithm algorithm = allocation_algorithm::best_fit;
    plan_options plan;                     ///< for improve and exact (their budgets)
    bool allocate_buffers_for_constants = true;
    liveness_options liveness;
    /// The text the module was parsed from: each value's `from instruction:` line is the defining
    /// instruction's line of it (without `ROOT`), as XLA prints it. Empty: a line made from the
    /// module (`%name = shape opcode(%operand, ...)`), with the default policy only.
    std::string_view module_text;
};

/// What XLA decided for one HloBuffer before the heap.
enum class buffer_assignment_kind : std::uint8_t {
    entry_parameter,  ///< its `parameter N` allocation
    constant,
    thread_local_,
    tuple,            ///< an allocation of its own (a pointer table)
    own,              ///< a new allocation (live-out, or a temp when there is no heap)
    reused,           ///< an allocation made for an earlier buffer (MaybeAssignBuffer)
    heap,             ///< a value of the temp heap of its color
};

inline constexpr std::string_view to_string(buffer_assignment_kind k) noexcept {
    switch (k) {
        case buffer_assignment_kind::entry_parameter: return "entry-parameter";
        case buffer_assignment_kind::constant: return "constant";
        case buffer_assignment_kind::thread_local_: return "thread-local";
        case buffer_assignment_kind::tuple: return "tuple";
        case buffer_assignment_kind::own: return "own";
        case buffer_assignment_kind::reused: return "reused";
        case buffer_assignment_kind::heap: return "heap";
    }
    return "?";
}

/// One HloBuffer: values that must share one place (HloAliasAnalysis).
struct assignment_buffer {
    std::vector<std::size_t> values;  ///< indices into the problem's model values, by id
    std::int64_t size = 0;            ///< HloBufferSize: its largest value
    std::int64_t color = 0;
    std::optional<live_interval> range;  ///< the hull of its values' ranges; none when thread-local
    bool live_out = false;
    bool is_thread_local = false;
    buffer_assignment_kind kind = buffer_assignment_kind::heap;
    std::size_t allocation = npos;  ///< index into the problem's allocations; npos for heap buffers
};

/// The temps of one color, as XLA's heap simulator receives them: one problem buffer per group of
/// values that share a chunk (an HloBuffer, joined with the operands it writes over in place).
struct heap_problem {
    std::int64_t color = 0;
    allocation_problem problem;                   ///< sizes, lifespans, alignment; no offsets
    std::vector<std::vector<std::size_t>> groups;  ///< per problem buffer, its values (by id)
    std::vector<heap_key> keys;                    ///< XLA's sort keys, in heap events
};

/// An allocation decided before the heap (what BufferAllocation holds then).
struct assigned_allocation {
    std::int64_t size = 0;
    std::int64_t color = 0;
    std::optional<std::int64_t> parameter_number;
    std::vector<std::int64_t> parameter_index;
    std::size_t parameter_value = npos;  ///< the value whose shape the header prints
    bool parameter_aliased = false;
    bool is_constant = false;
    bool is_thread_local = false;
    bool is_tuple = false;
    bool maybe_live_out = false;
    std::vector<std::size_t> values;  ///< every value at offset 0
    /// Where XLA created it: 0 before the heap (step 3), 2 after it (step 5).
    int pass = 0;
};

/// A module's assignment problem: the values with their live ranges, the HloBuffers, what XLA
/// decided for each before the heap, and the heap problems that remain, one per color.
template <class P = default_policy>
struct basic_assignment_problem {
    basic_buffer_assignment<P> model;  ///< values, positions, uses, live ranges (no allocations)
    std::vector<std::int64_t> value_sizes;  ///< per model value, its own size
    std::vector<assignment_buffer> buffers;  ///< in XLA's processing order
    std::vector<assigned_allocation> allocations;
    std::vector<heap_problem> heaps;  ///< by color
    xla_backend backend = xla_backend::gpu;
    backend_inference inference;
    std::int64_t alignment = 128;
    size_function_kind sizes = size_function_kind::xla;
    shape_id output_shape = no_shape;  ///< the entry result's shape, in model.shapes
    std::string output_name;           ///< the entry computation's root instruction
    std::vector<diagnostic> notes;
};
using assignment_problem = basic_assignment_problem<>;

namespace detail {

/// Where ComparePosition puts each instruction: MakeInstructionPostOrder of each computation,
/// computations in reverse post order of the call graph (callers first).
struct post_order_position_table {
    std::vector<std::int64_t> instruction;
    /// For an async-start printed in XLA's syntax sugar (`%a = ((f32[8]), f32[8]) all-to-all-start(
    /// %x)`, no `calls=`), the position of the wrapped instruction in the computation the text does
    /// not show; -1 for every other instruction. XLA's value at the start's {1} is defined there
    /// (HloDataflowAnalysis::UpdateAsyncStartValueSet forwards the wrapped root to {1}), so that
    /// its HloBuffer sorts after every instruction of the callers.
    std::vector<std::int64_t> async_root;
};

/// Whether `i` is an async-start in XLA's syntax sugar: its wrapped computation is not in the text.
template <class P>
bool is_sugared_async_start(basic_hlo_module<P> const& m, instruction_id i) {
    if (m.instruction(i).opcode != hlo_opcode::async_start) return false;
    for (auto const& call : m.calls(i)) {
        if (call.kind == call_kind::async) return false;
    }
    return true;
}

template <class P>
post_order_position_table post_order_positions(basic_hlo_module<P> const& m) {
    post_order_position_table table;
    auto& position = table.instruction;
    position.assign(m.instruction_count(), 0);
    table.async_root.assign(m.instruction_count(), -1);
    // The computations the sugar hides are numbered after the module's own, one per sugared
    // async-start, and called where the start is (CallGraph's callees are in instruction order).
    std::vector<instruction_id> hidden;
    std::vector<computation_id> computation_order;
    // Post order of the call graph from the entry, then reversed.
    std::vector<std::pair<computation_id, std::size_t>> stack;
    std::vector<std::vector<computation_id>> callees(m.computation_count());
    //
    // CallGraph lists a computation's callees in the order of its instruction list, which is not
    // the schedule the text prints (a pass that adds an instruction appends it: GPU's
    // CommandBufferScheduling calls its `command_buffer` computations from the end of the list).
    // XLA prints the computations in HloModule::MakeComputationPostOrder, the same depth-first
    // post order over that list, so the text's own computation order is the finishing order: at
    // each computation, the callee printed first is the one the list reaches first. Sorting the
    // callees by their place in the text rebuilds the list's order. A computation the sugar hides
    // stays right after the callee printed before it in the caller's schedule.
    for (computation_id c = 0; c < m.computation_count(); ++c) {
        std::vector<std::pair<std::int64_t, computation_id>> keyed;  // (text order of the callee, callee)
        std::int64_t previous = -1;
        for (instruction_id i : m.computation(c).instructions()) {
            for (auto const& call : m.calls(i)) {
                if (call.callee == no_computation) continue;
                previous = static_cast<std::int64_t>(call.callee);
                keyed.push_back({2 * previous, call.callee});
            }
            if (is_sugared_async_start(m, i)) {
                keyed.push_back({2 * previous + 1, static_cast<computation_id>(m.computation_count() + hidden.size())});
                hidden.push_back(i);
            }
        }
        std::stable_sort(keyed.begin(), keyed.end(), [](auto const& a, auto const& b) { return a.first < b.first; });
        for (auto const& k : keyed) callees[c].push_back(k.second);
    }
    callees.resize(m.computation_count() + hidden.size());
    std::vector<char> seen(callees.size(), 0);
    auto visit = [&](computation_id root) {
        if (root == no_computation || seen[root]) return;
        seen[root] = 1;
        stack.push_back({root, 0});
        while (!stack.empty()) {
            auto& [c, next] = stack.back();
            if (next < callees[c].size()) {
                computation_id const callee = callees[c][next++];
                if (callee != no_computation && !seen[callee]) {
                    seen[callee] = 1;
                    stack.push_back({callee, 0});
                }
                continue;
            }
            computation_order.push_back(c);
            stack.pop_back();
        }
    };
    visit(m.entry());
    for (computation_id c = 0; c < m.computation_count(); ++c) visit(c);
    std::reverse(computation_order.begin(), computation_order.end());

    std::int64_t counter = 0;
    std::vector<char> state(m.instruction_count(), 0);  // 0 new, 1 visiting, 2 done
    std::vector<instruction_id> dfs;
    for (computation_id c : computation_order) {
        if (c >= m.computation_count()) {  // a hidden computation: its parameters, then its root
            instruction_id const start = hidden[c - m.computation_count()];
            counter += static_cast<std::int64_t>(m.operands(start).size());
            table.async_root[start] = counter++;
            continue;
        }
        for (instruction_id root : m.computation(c).instructions()) {
            if (!m.users(root).empty() || state[root]) continue;
            dfs.push_back(root);
            while (!dfs.empty()) {
                instruction_id const i = dfs.back();
                if (state[i] == 2) {
                    dfs.pop_back();
                    continue;
                }
                if (state[i] == 1) {
                    dfs.pop_back();
                    state[i] = 2;
                    position[i] = counter++;
                    continue;
                }
                state[i] = 1;
                auto const ops = m.operands(i);
                for (std::size_t k = ops.size(); k-- > 0;) {
                    if (!state[ops[k]]) dfs.push_back(ops[k]);
                }
                auto const preds = m.control_predecessors(i);
                for (std::size_t k = preds.size(); k-- > 0;) {
                    if (!state[preds[k]]) dfs.push_back(preds[k]);
                }
            }
        }
        // Instructions only reachable from something with users outside (cycles do not occur).
        for (instruction_id i : m.computation(c).instructions()) {
            if (state[i] != 2) {
                state[i] = 2;
                position[i] = counter++;
            }
        }
    }
    return table;
}

/// Elementwise opcodes (HloInstruction::IsElementwise): their result may take the place of an
/// operand of the same shape. The elementwise part of soundness.hpp's list of instructions that
/// update an operand in place, and the two converts that keep the width.
inline bool is_elementwise_opcode(std::string_view opcode) {
    for (std::string_view in_place_only : {"dynamic-update-slice", "scatter", "sort", "all-reduce", "all-reduce-start",
                                           "select-and-scatter"}) {
        if (opcode == in_place_only) return false;
    }
    return updates_in_place(opcode, "") || opcode == "bitcast-convert" || opcode == "stochastic-convert";
}

}  // namespace detail

namespace detail {

/// HloInstruction::IsElementwiseOnOperand for an instruction of a fused computation: an
/// elementwise opcode on any operand, a dynamic-update-slice on the array it updates (operand 0).
template <class P>
bool is_elementwise_on_operand(basic_hlo_module<P> const& m, instruction_id i, std::size_t operand_number) {
    if (m.instruction(i).opcode == hlo_opcode::dynamic_update_slice) return operand_number == 0;
    return is_elementwise_opcode(m.opcode_name(i));
}

template <class P>
std::size_t operand_number_of(basic_hlo_module<P> const& m, instruction_id user, instruction_id operand) {
    auto const ops = m.operands(user);
    return static_cast<std::size_t>(std::find(ops.begin(), ops.end(), operand) - ops.begin());
}

template <class P>
computation_id fused_computation_of(basic_hlo_module<P> const& m, instruction_id fusion) {
    for (auto const& c : m.calls(fusion)) {
        if (c.kind == call_kind::fusion) return c.callee;
    }
    return no_computation;
}

template <class P>
std::int64_t elements_in(basic_shape<P> const& s) {
    std::int64_t n = 1;
    for (auto d : s.dimensions()) n *= static_cast<std::int64_t>(d);
    return n;
}

/// GPU's FusionCanShareBufferHint (xla/service/gpu/buffer_sharing.cc): may the fusion `user`
/// write its output at `user_index` over `operand`? The two must hold as many elements of the
/// same byte width; then every path from the operand's fused parameter to that output must keep
/// the iteration order: elementwise instructions (not copy), bitcasts and tuples only, a
/// dynamic-update-slice root reached through its update (operand 1), a dynamic-slice reading
/// the very slice the root dynamic-update-slice writes, a scatter root reached through one of
/// its inputs; below the reduction a reduction emitter computes first (a kInput fusion whose root
/// is a reduce, XLA's kReduction emitter kind) nothing is looked at. A multi-output fusion whose
/// output is not elementwise must not reach another of its outputs. True only when the walk
/// reaches the output.
template <class P>
bool gpu_fusion_can_share_buffer_hint(basic_hlo_module<P> const& m, instruction_id user, instruction_id operand,
                                      basic_shape_index<P> const& user_index) {
    auto const& user_shape = m.shape_of(user).subshape(user_index);
    auto const& operand_shape = m.shape_of(operand);
    if (to_string(operand_shape) != to_string(user_shape)) {
        if (operand_shape.is_tuple() || user_shape.is_tuple() || !is_array_type(operand_shape.element_type()) ||
            !is_array_type(user_shape.element_type())) {
            return false;
        }
        if (elements_in(operand_shape) != elements_in(user_shape)) return false;
        if (byte_width(operand_shape.element_type()) != byte_width(user_shape.element_type())) return false;
    }
    computation_id const fused = fused_computation_of(m, user);
    if (fused == no_computation) return false;
    auto const& body = m.computation(fused);
    auto const params = m.parameters(fused);
    std::size_t const number = operand_number_of(m, user, operand);
    if (number >= params.size() || body.root == no_instruction) return false;
    instruction_id const root = body.root;
    bool const multi_output = m.instruction(root).opcode == hlo_opcode::tuple;
    instruction_id output = root;
    if (multi_output) {
        if (user_index.empty() || static_cast<std::size_t>(user_index[0]) >= m.operands(root).size()) return false;
        output = m.operands(root)[static_cast<std::size_t>(user_index[0])];
    }
    auto const through_bitcast = [&](instruction_id i) {
        return m.instruction(i).opcode == hlo_opcode::bitcast && !m.operands(i).empty() ? m.operands(i)[0] : i;
    };
    instruction_id const non_bitcast_root = through_bitcast(output);
    instruction_id reduction_hero = no_instruction;
    if (m.instruction(user).fusion == fusion_kind::input) {
        auto const roots = multi_output ? m.operands(root) : list_view<instruction_id>(&body.root, 1);
        for (instruction_id r : roots) {
            if (m.instruction(through_bitcast(r)).opcode == hlo_opcode::reduce) {
                reduction_hero = through_bitcast(r);
                break;
            }
        }
    }
    auto const& nbr = m.instruction(non_bitcast_root);
    std::vector<char> visited(body.instruction_count, 0);
    auto const visit = [&](instruction_id i) {
        std::uint32_t const at = body.position_of(i);
        if (at >= visited.size() || visited[at]) return false;
        visited[at] = 1;
        return true;
    };
    std::vector<instruction_id> queue{params[number]};
    visit(params[number]);
    bool found_path_to_output = false;
    for (std::size_t next = 0; next < queue.size(); ++next) {
        instruction_id const hlo_operand = queue[next];
        if (hlo_operand == output) found_path_to_output = true;
        if (hlo_operand == reduction_hero) continue;
        for (instruction_id hlo : m.users(hlo_operand)) {
            if (visit(hlo)) queue.push_back(hlo);
            auto const& h = m.instruction(hlo);
            auto const hlo_ops = m.operands(hlo);
            std::size_t const at = operand_number_of(m, hlo, hlo_operand);
            if (hlo == non_bitcast_root && h.opcode == hlo_opcode::scatter) {
                std::size_t const inputs = m.shape_of(hlo).is_tuple() ? m.shape_of(hlo).tuple_shapes().size() : 1;
                if (at < inputs && std::count(hlo_ops.begin(), hlo_ops.end(), hlo_operand) == 1) continue;
            }
            auto const nbr_ops = m.operands(non_bitcast_root);
            if (nbr.opcode == hlo_opcode::dynamic_update_slice && h.opcode == hlo_opcode::dynamic_slice && nbr_ops.size() >= 2 &&
                !hlo_ops.empty() && nbr_ops[0] == hlo_ops[0] &&
                to_string(m.shape_of(hlo)) == to_string(m.shape_of(nbr_ops[1]))) {
                // The same slice read and written: each element is read before it is written
                // (always so when both are one element).
                if (elements_in(m.shape_of(hlo)) != 1 || elements_in(m.shape_of(nbr_ops[1])) != 1) {
                    for (std::size_t k = 1; k < hlo_ops.size(); ++k) {
                        if (k + 1 >= nbr_ops.size() || hlo_ops[k] != nbr_ops[k + 1]) return false;
                    }
                }
            } else if ((!is_elementwise_on_operand(m, hlo, at) || h.opcode == hlo_opcode::copy) && h.opcode != hlo_opcode::bitcast &&
                       h.opcode != hlo_opcode::tuple && hlo != reduction_hero) {
                if (hlo != non_bitcast_root || h.opcode != hlo_opcode::dynamic_update_slice || at != 1) return false;
            }
        }
    }
    if (multi_output && !is_elementwise_opcode(m.opcode_name(non_bitcast_root))) {
        for (instruction_id other : m.operands(root)) {
            if (other == output) continue;
            std::uint32_t const at = body.position_of(other);
            if (at < visited.size() && visited[at]) return false;
        }
    }
    return found_path_to_output;
}

/// GPU's CanShareBufferHint (xla/service/gpu/buffer_sharing.cc), asked by
/// CanShareOperandBufferWithUser before its own rules; nullopt leaves the decision to them. A
/// synchronous all-reduce or collective-broadcast writes over its operand; a cuBLASLt matmul
/// over its bias (operand 2) when its `beta` is not 0; cuSOLVER's Cholesky over its operand at
/// output {0}; no other custom call; a fusion as FusionCanShareBufferHint says.
template <class P>
std::optional<bool> gpu_can_share_buffer_hint(basic_hlo_module<P> const& m, instruction_id user, instruction_id operand,
                                              basic_shape_index<P> const& user_index) {
    auto const ops = m.operands(user);
    switch (m.instruction(user).opcode) {
        case hlo_opcode::all_reduce:
        case hlo_opcode::collective_broadcast:
            return ops.size() == 1 ||
                   (user_index.size() == 1 && static_cast<std::size_t>(user_index[0]) < ops.size() &&
                    ops[static_cast<std::size_t>(user_index[0])] == operand);
        case hlo_opcode::custom_call: {
            // The parser keeps custom_call_target in the instruction, not among its attributes.
            std::string_view const t = m.instruction(user).custom_call_target;
            if (t == "__cublas$lt$matmul") {
                auto const config = m.attribute(user, "backend_config");
                std::string_view const c = config ? std::string_view(*config) : std::string_view();
                std::size_t at = c.find("\"beta\":");
                if (at == std::string_view::npos) return false;  // GemmBackendConfig's beta defaults to 0
                at += 7;
                while (at < c.size() && c[at] == ' ') ++at;
                bool nonzero = false;
                for (; at < c.size() && (std::isdigit(static_cast<unsigned char>(c[at])) || c[at] == '.' || c[at] == '-' ||
                                         c[at] == 'e' || c[at] == 'E' || c[at] == '+');
                     ++at) {
                    nonzero = nonzero || (c[at] >= '1' && c[at] <= '9');
                }
                return nonzero && ops.size() > 2 && ops[2] == operand;
            }
            if (t == "__cusolver$cholesky") return user_index.size() == 1 && user_index[0] == 0;
            return false;
        }
        case hlo_opcode::fusion:
            return gpu_fusion_can_share_buffer_hint(m, user, operand, user_index);
        default:
            return std::nullopt;
    }
}

}  // namespace detail

/// HloDataflowAnalysis::CanShareOperandBufferWithUser: may `user`'s output at `user_index` take
/// the buffer of `operand`'s output at `operand_index`? In XLA's order: never a constant's;
/// with equal shapes (and layouts), an in-place pair of the user (dynamic-update-slice, scatter,
/// output_to_operand_aliasing, a fusion updating a parameter); then, with `gpu`, the backend's
/// hint (gpu_can_share_buffer_hint) where it decides; otherwise equal shapes, and a loop or input
/// fusion in which every transitive use of the operand's parameter is elementwise or a tuple, an
/// output fusion adding to a dot or convolution the parameter used once by that add, a while or
/// conditional, a dynamic-update-slice, scatter or set-dimension-size on operand 0 (a triangular
/// solve on operand 1) used once, a sort whose operand has no other user, or an elementwise user.
template <class P>
bool can_share_operand_buffer_with_user(basic_hlo_alias_analysis<P> const& aa, instruction_id operand,
                                        basic_shape_index<P> const& operand_index, instruction_id user,
                                        basic_shape_index<P> const& user_index, bool gpu = false) {
    auto const& m = aa.dataflow().module();
    if (m.instruction(operand).opcode == hlo_opcode::constant) return false;
    auto const& operand_shape = m.shape_of(operand).subshape(operand_index);
    auto const& user_shape = m.shape_of(user).subshape(user_index);
    auto const& inst = m.instruction(user);
    auto const ops = m.operands(user);
    bool const shapes_equal = to_string(operand_shape) == to_string(user_shape);
    if (shapes_equal) {
        for (auto const& pair : aa.pairs(user)) {
            if (pair.operand_number < 0 || static_cast<std::size_t>(pair.operand_number) >= ops.size()) continue;
            if (ops[static_cast<std::size_t>(pair.operand_number)] != operand) continue;
            if (std::equal(pair.operand_index.begin(), pair.operand_index.end(), operand_index.begin(), operand_index.end()) &&
                std::equal(pair.output_index.begin(), pair.output_index.end(), user_index.begin(), user_index.end())) {
                return true;
            }
        }
    }
    if (gpu) {
        if (auto const hint = detail::gpu_can_share_buffer_hint(m, user, operand, user_index)) return *hint;
    }
    if (!shapes_equal) return false;
    auto const operand_count = static_cast<std::size_t>(std::count(ops.begin(), ops.end(), operand));
    std::size_t const number = detail::operand_number_of(m, user, operand);
    switch (inst.opcode) {
        case hlo_opcode::fusion: {
            computation_id const fused = detail::fused_computation_of(m, user);
            if (fused == no_computation) return false;
            auto const params = m.parameters(fused);
            if (number >= params.size()) return false;
            if (inst.fusion == fusion_kind::loop || inst.fusion == fusion_kind::input) {
                // AreTransitiveUsesElementwiseOrTuple: every use of the fused parameter, and of
                // what it feeds, is elementwise or a tuple, so each element is read before it is
                // written.
                auto const& body = m.computation(fused);
                std::vector<instruction_id> stack{params[number]};
                std::vector<char> seen(body.instruction_count, 0);
                while (!stack.empty()) {
                    instruction_id const i = stack.back();
                    stack.pop_back();
                    for (instruction_id u : m.users(i)) {
                        std::uint32_t const at = body.position_of(u);
                        if (at >= seen.size()) return false;  // not in the fused computation: not XLA's case
                        if (seen[at]) continue;
                        seen[at] = 1;
                        auto const op = m.opcode_name(u);
                        if (op != "tuple" && !detail::is_elementwise_opcode(op)) return false;
                        stack.push_back(u);
                    }
                }
                return true;
            }
            if (inst.fusion == fusion_kind::output) {
                // An add of a dot or convolution and the parameter, its only use.
                instruction_id const root = m.computation(fused).root;
                if (root == no_instruction || m.instruction(root).opcode != hlo_opcode::add || m.operands(root).size() != 2) return false;
                auto const add_ops = m.operands(root);
                auto const is_product = [&](instruction_id i) {
                    return m.instruction(i).opcode == hlo_opcode::convolution || m.instruction(i).opcode == hlo_opcode::dot;
                };
                std::size_t matched = is_product(add_ops[0]) ? 0 : is_product(add_ops[1]) ? 1 : 2;
                if (matched == 2) return false;
                instruction_id const param = params[number];
                return m.users(param).size() == 1 && m.users(param)[0] == root && add_ops[1 - matched] == param &&
                       add_ops[matched] != param;
            }
            return false;
        }
        case hlo_opcode::while_:
        case hlo_opcode::conditional:
            return true;
        case hlo_opcode::dynamic_update_slice:
        case hlo_opcode::scatter:
        case hlo_opcode::set_dimension_size:
            return operand_count == 1 && number == 0;
        case hlo_opcode::triangular_solve:
            return operand_count == 1 && number == 1;
        case hlo_opcode::sort:
            if (m.users(operand).size() != 1) return false;
            if (ops.size() == 1) return true;
            return operand_count == 1 && !user_index.empty() && static_cast<std::size_t>(user_index[0]) == number;
        default:
            return detail::is_elementwise_opcode(m.opcode_name(user));
    }
}

namespace detail {

/// `s` as allocation headers print it (ShapeUtil::HumanString): no layouts, tuple elements too.
template <class P>
basic_shape<P> without_layouts(basic_shape<P> s) {
    s.clear_layout();
    for (auto& e : s.mutable_tuple_shapes()) e = without_layouts(e);
    return s;
}

/// The live ranges assigned to one allocation, for MaybeAssignBuffer's pairwise
/// LiveRangeInterferes in bulk: whether some range overlaps [s, e] by more than a shared end
/// point (`start < e && end > s`), which interferes whatever the operand rule says. Sorted runs
/// of distinct power-of-two lengths (merged like a binary counter on insertion), each with the
/// largest end of every prefix: an insertion costs O(log n) amortized, a query O(log^2 n), and
/// the memory is three integers per range, contiguous.
class live_range_index {
public:
    void insert(logical_time start, logical_time end) {
        std::vector<item> carry{{start, end, end}};
        while (!runs_.empty() && runs_.back().size() == carry.size()) {
            std::vector<item> merged(carry.size() * 2);
            std::merge(runs_.back().begin(), runs_.back().end(), carry.begin(), carry.end(), merged.begin(),
                       [](item const& a, item const& b) { return a.start < b.start; });
            runs_.pop_back();
            carry = std::move(merged);
        }
        logical_time running = carry.front().end;
        for (auto& x : carry) x.max_end = running = std::max(running, x.end);
        runs_.push_back(std::move(carry));
    }

    /// Some range with start < e and end > s.
    bool overlaps_inside(logical_time s, logical_time e) const {
        for (auto const& run : runs_) {
            auto const it = std::lower_bound(run.begin(), run.end(), e, [](item const& x, logical_time t) { return x.start < t; });
            if (it != run.begin() && std::prev(it)->max_end > s) return true;
        }
        return false;
    }

private:
    struct item {
        logical_time start, end, max_end;
    };
    std::vector<std::vector<item>> runs_;  // lengths strictly decreasing
};

/// Values grouped by a time of their live range (a start or an end), contiguous.
class values_by_time {
public:
    /// `time_of(v)` for v < count: the time of value v, or a negative number for none.
    template <class TimeOf>
    void build(std::size_t count, TimeOf time_of) {
        std::size_t times = 0;
        for (std::size_t v = 0; v < count; ++v) {
            logical_time const t = time_of(v);
            if (t >= 0) times = std::max(times, static_cast<std::size_t>(t) + 1);
        }
        begin_.assign(times + 1, 0);
        for (std::size_t v = 0; v < count; ++v) {
            logical_time const t = time_of(v);
            if (t >= 0) ++begin_[static_cast<std::size_t>(t) + 1];
        }
        std::partial_sum(begin_.begin(), begin_.end(), begin_.begin());
        values_.resize(begin_.back());
        std::vector<std::size_t> next(begin_.begin(), begin_.end() - 1);
        for (std::size_t v = 0; v < count; ++v) {
            logical_time const t = time_of(v);
            if (t >= 0) values_[next[static_cast<std::size_t>(t)]++] = v;
        }
    }
    list_view<std::size_t> at(logical_time t) const {
        if (t < 0 || static_cast<std::size_t>(t) + 1 >= begin_.size()) return {};
        std::size_t const k = static_cast<std::size_t>(t);
        return list_view<std::size_t>(values_.data() + begin_[k], begin_[k + 1] - begin_[k]);
    }

private:
    std::vector<std::size_t> begin_;
    std::vector<std::size_t> values_;
};

template <class P>
class buffer_assigner {
public:
    buffer_assigner(basic_hlo_module<P> const& m, assign_options const& options)
        : m_(m), options_(options), live_(m, options.liveness) {}

    basic_assignment_problem<P> run() {
        basic_assignment_problem<P> out;
        out.inference = infer_backend(m_);
        out.backend = options_.backend.value_or(out.inference.backend);
        if (options_.backend) {
            out.inference.reason = "given";
            out.inference.inferred = false;
        }
        out.alignment = options_.alignment.value_or(default_alignment(out.backend));
        out.sizes = size_function_of(m_.shapes());
        derive_options derive;
        derive.sizes = out.sizes;
        out.model = derive_buffer_assignment(live_, derive);
        out.notes = live_.dataflow().notes();
        out.notes.insert(out.notes.end(), live_.notes().begin(), live_.notes().end());
        for (auto const& a : out.model.allocations) {
            if (a.output_shape) out.output_shape = out.model.shapes.insert(without_layouts(out.model.shapes[*a.output_shape]));
        }
        out.model.allocations.clear();
        if (m_.entry() != no_computation && m_.entry_computation().root != no_instruction) {
            out.output_name = std::string(std::string_view(m_.instruction(m_.entry_computation().root).name));
        }
        p_ = &out;
        map_values();
        instruction_texts();
        make_buffers();
        assign_global();
        make_heaps();
        assign_thread_local();
        return out;
    }

private:

    // Dataflow value k -> model value (fusion bodies have none), and back.
    void map_values() {
        auto const& values = live_.dataflow().values();
        model_of_.assign(values.size(), npos);
        std::size_t next = 0;
        for (std::size_t k = 0; k < values.size() && next < p_->model.values.size(); ++k) {
            if (p_->model.values[next].id == static_cast<std::int64_t>(values[k].id)) model_of_[k] = next++;
        }
        dataflow_of_.assign(p_->model.values.size(), npos);
        for (std::size_t k = 0; k < values.size(); ++k) {
            if (model_of_[k] != npos) dataflow_of_[model_of_[k]] = k;
        }
        p_->value_sizes.assign(p_->model.values.size(), 0);
        for (std::size_t v = 0; v < p_->model.values.size(); ++v) {
            p_->value_sizes[v] = value_size_of(p_->model.shapes[p_->model.values[v].shape], p_->sizes).value_or(0);
        }
    }

    // The `from instruction:` text of every value, and `uses:` printed as XLA prints it (empty
    // when there are none).
    void instruction_texts() {
        using string_type = typename P::string_type;
        std::string_view const text = options_.module_text;
        for (std::size_t v = 0; v < p_->model.values.size(); ++v) {
            auto& lv = p_->model.values[v];
            lv.uses_as_printed = uses_state::listed;
            instruction_id const i = instruction_of(v);
            auto const& inst = m_.instruction(i);
            if (!text.empty() && inst.offset < text.size()) {
                std::size_t begin = inst.offset;
                std::size_t const end = std::min(text.find('\n', begin), text.size());
                while (begin < end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
                if (text.compare(begin, 5, "ROOT ") == 0) begin += 5;
                std::size_t stop = end;
                while (stop > begin && (text[stop - 1] == '\r' || text[stop - 1] == ' ')) --stop;
                lv.instruction_text = string_type(text.substr(begin, stop - begin));
            } else if constexpr (std::is_same_v<string_type, std::string>) {
                std::string line = "%" + std::string(std::string_view(inst.name)) + " = " + to_string(m_.shape_of(i)) + " " +
                                   std::string(m_.opcode_name(i)) + "(";
                auto const ops = m_.operands(i);
                for (std::size_t k = 0; k < ops.size(); ++k) {
                    line += (k ? ", %" : "%") + std::string(std::string_view(m_.instruction(ops[k]).name));
                }
                lv.instruction_text = line + ")";
            }
        }
    }

    void make_buffers() {
        auto const& aa = live_.alias_analysis();
        auto const& values = live_.dataflow().values();
        auto const position = post_order_positions(m_);
        struct keyed {
            assignment_buffer buffer;
            std::int64_t position;
            std::size_t id;
        };
        std::vector<keyed> all;
        for (std::size_t b = 0; b < aa.buffers().size(); ++b) {
            keyed k{{}, 0, b};
            bool first = true;
            for (std::size_t dk : aa.buffers()[b]) {
                std::size_t const v = model_of_[dk];
                if (v == npos) continue;
                auto const& lv = p_->model.values[v];
                k.buffer.values.push_back(v);
                k.buffer.size = std::max(k.buffer.size, p_->value_sizes[v]);
                if (first) k.buffer.color = lv.color.value_or(0);
                if (lv.live_range) {
                    k.buffer.range = k.buffer.range ? live_interval{std::min(k.buffer.range->start, lv.live_range->start),
                                                                    std::max(k.buffer.range->end, lv.live_range->end)}
                                                    : *lv.live_range;
                } else {
                    k.buffer.is_thread_local = true;
                }
                k.buffer.live_out = k.buffer.live_out || values[dk].live_out;
                instruction_id const at = values[dk].instruction;
                std::int64_t pos = position.instruction[at];
                if (position.async_root[at] >= 0 && live_.dataflow().tree(at).top_index(values[dk].node) == 1) {
                    pos = position.async_root[at];  // defined in the computation the sugar hides
                }
                k.position = first ? pos : std::min(k.position, pos);
                first = false;
            }
            if (!k.buffer.values.empty()) all.push_back(std::move(k));
        }
        // BufferOrder::kBiggestFirst: CompareSize, CompareLiveOut, ComparePosition, then the id.
        std::sort(all.begin(), all.end(), [](keyed const& a, keyed const& b) {
            return std::make_tuple(-a.buffer.size, !a.buffer.live_out, a.position, a.id) <
                   std::make_tuple(-b.buffer.size, !b.buffer.live_out, b.position, b.id);
        });
        for (auto& k : all) p_->buffers.push_back(std::move(k.buffer));
    }

    std::size_t new_allocation(assignment_buffer& b, buffer_assignment_kind kind, int pass) {
        assigned_allocation a;
        a.size = b.size;
        a.color = b.color;
        a.pass = pass;
        p_->allocations.push_back(std::move(a));
        add(p_->allocations.size() - 1, b, kind);
        return p_->allocations.size() - 1;
    }
    void add(std::size_t ai, assignment_buffer& b, buffer_assignment_kind kind) {
        auto& a = p_->allocations[ai];
        a.values.insert(a.values.end(), b.values.begin(), b.values.end());
        if (ranges_.size() <= ai) ranges_.resize(ai + 1);
        for (std::size_t v : b.values) {
            auto const& r = p_->model.values[v].live_range;
            if (r) {
                ranges_[ai].index.insert(r->start, r->end);
            } else {
                ++ranges_[ai].without_range;
            }
        }
        if (b.live_out) a.maybe_live_out = true;  // AddAssignment marks live-out buffers' allocations
        b.allocation = ai;
        b.kind = kind;
    }

    instruction_id instruction_of(std::size_t v) const { return live_.dataflow().values()[dataflow_of_[v]].instruction; }

    // AssignSpecialHloBuffer.
    bool assign_special(assignment_buffer& b, int pass) {
        auto const& df = live_.dataflow();
        for (std::size_t v : b.values) {
            instruction_id const i = instruction_of(v);
            auto const& inst = m_.instruction(i);
            if (inst.opcode == hlo_opcode::constant) {
                if (options_.allocate_buffers_for_constants) {
                    p_->allocations[new_allocation(b, buffer_assignment_kind::constant, pass)].is_constant = true;
                } else {
                    b.kind = buffer_assignment_kind::constant;
                }
                return true;
            }
            if (inst.opcode == hlo_opcode::parameter && inst.computation == m_.entry()) {
                auto const& hv = df.values()[dataflow_of_[v]];
                auto [path, count] = df.tree(i).path(hv.node);
                bool aliased = false;
                for (auto const& alias : m_.input_output_aliases()) {
                    aliased = aliased || (alias.parameter_number == inst.parameter_number &&
                                          std::equal(alias.parameter_index.begin(), alias.parameter_index.end(), path, path + count));
                }
                std::size_t const ai = new_allocation(b, buffer_assignment_kind::entry_parameter, pass);
                auto& a = p_->allocations[ai];
                a.parameter_number = inst.parameter_number;
                a.parameter_index.assign(path, path + count);
                a.parameter_value = v;
                a.parameter_aliased = aliased;
                if (aliased) candidates_.push_back(ai);  // RegisterAliasedEntryParameterAllocation
                return true;
            }
        }
        if (b.is_thread_local) {
            p_->allocations[new_allocation(b, buffer_assignment_kind::thread_local_, pass)].is_thread_local = true;
            return true;
        }
        for (std::size_t v : b.values) {
            if (p_->model.shapes[p_->model.values[v].shape].is_tuple()) {
                p_->allocations[new_allocation(b, buffer_assignment_kind::tuple, pass)].is_tuple = true;
                return true;
            }
        }
        return false;
    }

    // BufferAssigner::LiveRangeInterferes's can_share_as_operand.
    bool can_share_as_operand(std::size_t user, std::size_t operand) const {
        auto const& df = live_.dataflow();
        instruction_id const u = instruction_of(user);
        if (m_.instruction(u).opcode == hlo_opcode::copy) return false;
        auto const ops = m_.operands(u);
        for (auto const& pos : df.positions(df.values()[dataflow_of_[operand]])) {
            if (std::find(ops.begin(), ops.end(), pos.instruction) == ops.end()) continue;
            if (can_share_operand_buffer_with_user(live_.alias_analysis(), pos.instruction, df.index_of(pos.instruction, pos.node), u,
                                                   p_->model.values[user].index, p_->backend == xla_backend::gpu)) {
                return true;
            }
        }
        return false;
    }

    bool live_range_interferes(std::size_t a, std::size_t b) const {
        auto const& ra = p_->model.values[a].live_range;
        auto const& rb = p_->model.values[b].live_range;
        if (!ra || !rb) return true;
        if (ra->start > rb->end || rb->start > ra->end) return false;
        if (ra->end == rb->start) return !can_share_as_operand(b, a);
        if (rb->end == ra->start) return !can_share_as_operand(a, b);
        return true;
    }

    // BufferAssigner::MaybeAssignBuffer. XLA compares the buffer's values with every value the
    // allocation holds (LiveRangeInterferes, and the copy rule); the same answer comes from the
    // allocation's live_range_index (a range overlapping by more than an end point interferes
    // whatever else holds) and from the few values that start where the new one ends or end where
    // it starts, found by time, on which LiveRangeInterferes itself decides. The copy rule is
    // asked of the values at the copy's operand, whose positions are those operands.
    bool maybe_assign(std::size_t ai, assignment_buffer& b) {
        auto const& a = p_->allocations[ai];
        bool const input_or_output = a.parameter_number.has_value() || a.maybe_live_out;
        if (input_or_output && b.color != a.color) return false;
        if (b.color != a.color) return false;
        if (b.size > a.size) return false;
        if ((a.parameter_number && !a.parameter_aliased) || a.is_constant) return false;  // is_readonly
        if (a.is_thread_local || a.is_tuple) return false;                                  // !is_reusable
        if (!a.values.empty()) {
            auto const& held = ranges_[ai];
            auto const& df = live_.dataflow();
            auto const held_here = [&](std::size_t x) {
                std::size_t const owner = buffer_of_value(x);
                return owner != npos && p_->buffers[owner].allocation == ai;
            };
            for (std::size_t v : b.values) {
                auto const& r = p_->model.values[v].live_range;
                if (!r || held.without_range > 0) return false;  // no range: interferes with everything
                if (held.index.overlaps_inside(r->start, r->end)) return false;
                for (auto const& [time, list] : {std::pair{r->end, &starting_at_}, std::pair{r->start, &ending_at_}}) {
                    for (std::size_t x : list->at(time)) {
                        if (held_here(x) && live_range_interferes(v, x)) return false;
                    }
                }
                instruction_id const i = instruction_of(v);
                if (m_.instruction(i).opcode == hlo_opcode::copy) {  // a copy never takes its operand's place
                    for (instruction_id operand : m_.operands(i)) {
                        for (shape_node n = 0; n < df.tree(operand).size(); ++n) {
                            for (value_id id : df.value_set(operand, n)) {
                                std::size_t const dk = df.value_index(id);
                                if (dk != no_value_index && model_of_[dk] != npos && held_here(model_of_[dk])) return false;
                            }
                        }
                    }
                }
            }
        }
        if (b.live_out && a.size != b.size) return false;
        add(ai, b, buffer_assignment_kind::reused);
        return true;
    }

    // AssignSingleHloBuffer.
    void assign_single(assignment_buffer& b) {
        auto const& df = live_.dataflow();
        for (std::size_t v : b.values) {
            auto const& lv = p_->model.values[v];
            if (!lv.index.empty() || p_->model.shapes[lv.shape].is_tuple()) continue;
            for (instruction_id operand : m_.operands(instruction_of(v))) {
                shape_node const top = df.node_of(operand, std::initializer_list<std::int64_t>{});
                if (top == no_node) continue;
                for (value_id id : df.value_set(operand, top)) {
                    std::size_t const dk = df.value_index(id);
                    if (dk == no_value_index || model_of_[dk] == npos) continue;
                    std::size_t const owner = buffer_of_value(model_of_[dk]);
                    if (owner == npos || p_->buffers[owner].allocation == npos) continue;
                    if (maybe_assign(p_->buffers[owner].allocation, b)) return;
                }
            }
        }
        for (std::size_t k = candidates_.size(); k-- > 0;) {
            if (maybe_assign(candidates_[k], b)) return;
        }
        if (!b.live_out && b.range) {  // DelayTemporaryBufferAssignment
            b.kind = buffer_assignment_kind::heap;
            return;
        }
        candidates_.push_back(new_allocation(b, buffer_assignment_kind::own, 0));  // RegisterNewAllocation
    }

    std::size_t buffer_of_value(std::size_t v) const { return v < buffer_of_.size() ? buffer_of_[v] : npos; }

    void assign_global() {
        buffer_of_.assign(p_->model.values.size(), npos);
        for (std::size_t b = 0; b < p_->buffers.size(); ++b) {
            for (std::size_t v : p_->buffers[b].values) buffer_of_[v] = b;
        }
        auto const& values = p_->model.values;
        starting_at_.build(values.size(), [&](std::size_t v) { return values[v].live_range ? values[v].live_range->start : -1; });
        ending_at_.build(values.size(), [&](std::size_t v) { return values[v].live_range ? values[v].live_range->end : -1; });
        for (auto& b : p_->buffers) {
            if (b.is_thread_local) continue;
            if (!assign_special(b, 0)) assign_single(b);
        }
    }

    void assign_thread_local() {
        for (auto& b : p_->buffers) {
            if (b.is_thread_local) assign_special(b, 2);
        }
    }

    // HeapSimulator over the whole module, one problem per color.
    void make_heaps() {
        auto& model = p_->model;
        std::map<std::int64_t, std::vector<std::size_t>> by_color;  // heap values by color
        for (auto const& b : p_->buffers) {
            if (b.is_thread_local || b.kind != buffer_assignment_kind::heap || b.allocation != npos) continue;
            // Values of size 0 too: XLA lists them in the temp allocation (at their group's offset).
            by_color[b.color].insert(by_color[b.color].end(), b.values.begin(), b.values.end());
        }
        // Groups: an HloBuffer, joined with an operand whose last use defines a value that may
        // take its place (HeapSimulator: ShareWith after CanShareOperandBufferWithUser).
        std::vector<std::size_t> parent(model.values.size());
        std::iota(parent.begin(), parent.end(), std::size_t{0});
        auto find = [&](std::size_t x) {
            while (parent[x] != x) x = parent[x] = parent[parent[x]];
            return x;
        };
        for (auto const& b : p_->buffers) {
            for (std::size_t k = 1; k < b.values.size(); ++k) parent[find(b.values[k])] = find(b.values[0]);
        }
        std::vector<char> in_heap(model.values.size(), 0);
        for (auto const& [color, vs] : by_color) {
            for (std::size_t v : vs) in_heap[v] = 1;
        }
        auto const& df = live_.dataflow();
        for (auto const& [color, vs] : by_color) {
            std::vector<std::size_t> order(vs);
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                auto const& ra = *model.values[a].live_range;
                auto const& rb = *model.values[b].live_range;
                return std::make_tuple(ra.start, ra.end, model.values[a].id) < std::make_tuple(rb.start, rb.end, model.values[b].id);
            });
            std::vector<char> taken(model.values.size(), 0);  // an operand chunk already passed on
            for (std::size_t v : order) {
                auto const& lv = model.values[v];
                // HeapSimulator::Run: a value shares an operand's chunk only when its HloBuffer
                // holds it alone ("we don't support sharing an aliased buffer"), from the
                // operand's top-level value set, a value held alone too, freed at this time and
                // not passed on yet, whose defining instruction the user reads directly (a value
                // reached through a get-tuple-element or bitcast is not shared: XLA asks
                // IsUserOf(operand_value->instruction())), and never for a copy.
                if (!single_valued(v)) continue;
                instruction_id const user = instruction_of(v);
                if (m_.instruction(user).opcode == hlo_opcode::copy) continue;
                auto const user_ops = m_.operands(user);
                bool shared = false;
                for (std::size_t k = 0; k < user_ops.size() && !shared; ++k) {
                    instruction_id const operand = user_ops[k];
                    shape_node const top = df.node_of(operand, std::initializer_list<std::int64_t>{});
                    if (top == no_node) continue;
                    for (value_id id : df.value_set(operand, top)) {
                        std::size_t const dk = df.value_index(id);
                        if (dk == no_value_index || model_of_[dk] == npos) continue;
                        std::size_t const a = model_of_[dk];
                        auto const& la = model.values[a];
                        if (!in_heap[a] || taken[a] || !la.live_range || la.live_range->end != lv.live_range->start) continue;
                        if (la.color != lv.color || !single_valued(a) || find(a) == find(v)) continue;
                        instruction_id const defining = instruction_of(a);
                        if (std::find(user_ops.begin(), user_ops.end(), defining) == user_ops.end()) continue;
                        if (!can_share_operand_buffer_with_user(live_.alias_analysis(), defining, la.index, user, lv.index,
                                                                p_->backend == xla_backend::gpu)) {
                            continue;
                        }
                        taken[a] = 1;
                        parent[find(v)] = find(a);
                        shared = true;
                        break;
                    }
                }
            }
        }
        // The problems, with the heap values in one provisional allocation so that XLA's event
        // keys (temp_arena.hpp) can be replayed: the model's placement fields are set so for that
        // and put back after (a copy of the model held as much memory again as the model).
        struct placement {
            std::size_t allocation;
            std::int64_t offset, size;
        };
        std::vector<placement> kept(model.values.size());
        for (std::size_t v = 0; v < model.values.size(); ++v) {
            auto& lv = model.values[v];
            kept[v] = {lv.allocation, lv.offset, lv.size};
            lv.allocation = 0;
            lv.offset = 0;
            lv.size = p_->value_sizes[v];
        }
        for (auto const& [color, vs] : by_color) {
            heap_problem h;
            h.color = color;
            std::map<std::size_t, std::size_t> group_of_root;
            for (std::size_t v : vs) {
                auto [it, fresh] = group_of_root.emplace(find(v), h.groups.size());
                if (fresh) h.groups.emplace_back();
                h.groups[it->second].push_back(v);
            }
            for (auto& g : h.groups) std::sort(g.begin(), g.end());
            std::sort(h.groups.begin(), h.groups.end(), [&](auto const& a, auto const& b) { return a.front() < b.front(); });
            h.keys = xla_heap_keys(model, h.groups);
            for (std::size_t g = 0; g < h.groups.size(); ++g) {
                problem_buffer pb;
                pb.id = std::to_string(model.values[h.groups[g].front()].id);
                live_interval hull = *model.values[h.groups[g].front()].live_range;
                for (std::size_t v : h.groups[g]) {
                    hull.start = std::min(hull.start, model.values[v].live_range->start);
                    hull.end = std::max(hull.end, model.values[v].live_range->end);
                    pb.size = std::max(pb.size, p_->value_sizes[v]);
                }
                pb.span = to_lifespan(hull);
                // GlobalDecreasingSizeBestFitHeap places a buffer with its colocations (the other
                // values of its HloBuffer, the values that share its chunk), each over its own
                // live range (FindChunkCandidate asks the interval tree per colocation): a while
                // loop's state leaves its chunk free between the body's last read of its parameter
                // and the write of the body's result.
                pb.segments = live_segments(model, h.groups[g]);
                pb.alignment = p_->alignment;
                h.problem.buffers.push_back(std::move(pb));
            }
            p_->heaps.push_back(std::move(h));
        }
        for (std::size_t v = 0; v < model.values.size(); ++v) {
            auto& lv = model.values[v];
            lv.allocation = kept[v].allocation;
            lv.offset = kept[v].offset;
            lv.size = kept[v].size;
        }
    }

    bool single_valued(std::size_t v) const {
        std::size_t const b = buffer_of_value(v);
        return b == npos || p_->buffers[b].values.size() == 1;
    }


    basic_hlo_module<P> const& m_;
    assign_options const& options_;
    basic_hlo_liveness<P> live_;
    basic_assignment_problem<P>* p_ = nullptr;
    std::vector<std::size_t> model_of_, dataflow_of_, buffer_of_;
    std::vector<std::size_t> candidates_;  // allocation indices TryAssignToExistingAllocation scans
    struct held_ranges {
        live_range_index index;
        std::size_t without_range = 0;
    };
    std::vector<held_ranges> ranges_;  // per allocation, the live ranges of its values
    values_by_time starting_at_, ending_at_;  // the model values whose range starts (ends) at a time
};

}  // namespace detail

/// XLA's BufferAssigner up to the heap: the allocations of their own, the reuse of allocations,
/// and the heap problem of each color, unplaced (see the top of this header).
template <class P>
basic_assignment_problem<P> make_assignment_problem(basic_hlo_module<P> const& m, assign_options const& options = {}) {
    return detail::buffer_assigner<P>(m, options).run();
}

/// Places each heap of `p` with `algorithm` (best-fit: XLA's ChooseBestHeapAlgorithm with XLA's
/// keys; improve and exact with the budgets of `options`) and writes the offsets into the heaps'
/// problems; returns the heap sizes, by color.
template <class P>
std::vector<std::int64_t> place_heaps(basic_assignment_problem<P>& p, allocation_algorithm algorithm = allocation_algorithm::best_fit,
                                      plan_options const& options = {}) {
    std::vector<std::int64_t> sizes;
    for (auto& h : p.heaps) {
        plan_options o;  // the budgets of `options`, XLA's keys of this heap (no start placement)
        o.improve = options.improve;
        o.exact = options.exact;
        o.heap_keys = h.keys;
        sizes.push_back(plan(h.problem, algorithm, o).bytes);
    }
    return sizes;
}

namespace detail {

template <class P>
basic_buffer_assignment<P> finish_assignment(basic_assignment_problem<P> const& p, basic_buffer_assignment<P> ba) {
    static_assert(std::is_same_v<typename P::string_type, std::string>,
                  "finish_assignment writes text of its own (`Total bytes used: N (1.5KiB)`): use a policy that owns its "
                  "strings, such as default_policy");
    for (std::size_t v = 0; v < ba.values.size(); ++v) {
        ba.values[v].size = p.value_sizes[v];
        ba.values[v].allocation = npos;
        ba.values[v].offset = 0;
    }
    struct pending {
        basic_allocation<P> allocation;
        bool temp = false;
        std::vector<std::pair<std::size_t, std::int64_t>> placed;  // value, offset
    };
    std::vector<pending> order;
    ba.allocations.clear();
    auto header = [&](assigned_allocation const& a) {
        pending x;
        x.allocation.size = a.size;
        x.allocation.color = a.color;
        if (a.parameter_number) {
            x.allocation.parameter_number = a.parameter_number;
            for (std::int64_t k : a.parameter_index) x.allocation.parameter_shape_index.push_back(static_cast<decltype(k)>(k));
            x.allocation.parameter_shape = ba.shapes.insert(detail::without_layouts(ba.shapes[ba.values[a.parameter_value].shape]));
        }
        x.allocation.is_constant = a.is_constant;
        x.allocation.is_thread_local = a.is_thread_local;
        x.allocation.maybe_live_out = a.maybe_live_out;
        x.temp = !a.parameter_number && !a.is_constant && !a.is_thread_local && !a.maybe_live_out;
        for (std::size_t v : a.values) x.placed.push_back({v, 0});
        return x;
    };
    for (auto const& a : p.allocations) {
        if (a.pass == 0) order.push_back(header(a));
    }
    for (auto const& h : p.heaps) {
        pending x;
        x.allocation.color = h.color;
        x.temp = true;
        for (std::size_t g = 0; g < h.groups.size(); ++g) {
            auto const& b = h.problem.buffers[g];
            if (!b.offset) throw allocation_error("hlomem: heap buffer " + b.id + " of color " + std::to_string(h.color) + " has no offset");
            x.allocation.size = std::max(x.allocation.size, *b.offset + b.size);
            for (std::size_t v : h.groups[g]) x.placed.push_back({v, *b.offset});
        }
        order.push_back(std::move(x));
    }
    for (auto const& a : p.allocations) {
        if (a.pass != 0) order.push_back(header(a));
    }
    // CombineTempAllocations moves the temps to the end with std::partition, which is not stable:
    // a temp found from the front is swapped with the last other allocation found from the back,
    // so both the other allocations and the temps leave their order of creation. XLA's own order
    // is reproduced by doing the same swaps (the bidirectional partition of libc++ and libstdc++).
    std::size_t first = 0, last = order.size();
    for (;;) {
        while (first != last && !order[first].temp) ++first;
        if (first == last) break;
        do {
            --last;
        } while (first != last && order[last].temp);
        if (first == last) break;
        std::swap(order[first], order[last]);
        ++first;
    }
    // Then the temps of each color are concatenated in that order, each at the aligned end of the
    // one before, into the first temp of the color; the combined allocations come last.
    std::vector<pending> kept;
    std::vector<pending> combined;
    for (auto& x : order) {
        if (!x.temp) {
            kept.push_back(std::move(x));
            continue;
        }
        auto it = std::find_if(combined.begin(), combined.end(), [&](pending const& c) { return c.allocation.color == x.allocation.color; });
        if (it == combined.end()) {
            combined.push_back(std::move(x));
            combined.back().allocation.is_preallocated_temp = true;
            continue;
        }
        std::int64_t const base = detail::align_up(it->allocation.size, p.alignment);
        it->allocation.size = base + x.allocation.size;
        for (auto const& [v, offset] : x.placed) it->placed.push_back({v, base + offset});
    }
    for (auto& c : combined) kept.push_back(std::move(c));
    for (std::size_t ai = 0; ai < kept.size(); ++ai) {
        auto& x = kept[ai];
        x.allocation.index = static_cast<std::int64_t>(ai);
        // BufferAllocation::ToString names the output shape on the allocation that holds the entry
        // result itself (its top-level value), not on those of its tuple elements.
        bool const holds_result = std::any_of(x.placed.begin(), x.placed.end(), [&](auto const& placed) {
            for (auto const& pos : ba.values[placed.first].positions) {
                if (std::string_view(pos.instruction) == p.output_name && pos.index.empty()) return true;
            }
            return false;
        });
        if (x.allocation.maybe_live_out && holds_result && p.output_shape != no_shape) x.allocation.output_shape = p.output_shape;
        std::sort(x.placed.begin(), x.placed.end());
        for (auto const& [v, offset] : x.placed) {
            ba.values[v].allocation = ai;
            ba.values[v].offset = offset;
            x.allocation.values.push_back(v);
        }
        ba.allocations.push_back(std::move(x.allocation));
    }
    ba.stated_total_bytes = ba.total_bytes();
    ba.stated_total_human = typename P::string_type(human_bytes(*ba.stated_total_bytes));
    return ba;
}

}  // namespace detail

/// The buffer assignment once every heap problem of `p` has offsets (place_heaps, or a user's
/// allocator): allocations in XLA's order, CombineTempAllocations applied, `Total bytes used`
/// stated, the HloLiveRange appendix kept. The policy must own its strings (default_policy).
template <class P>
basic_buffer_assignment<P> finish_assignment(basic_assignment_problem<P> const& p) {
    return detail::finish_assignment(p, p.model);
}
/// The same, taking the problem's model (values, texts, live ranges) instead of copying it: the
/// problem is left without its model.
template <class P>
basic_buffer_assignment<P> finish_assignment(basic_assignment_problem<P>&& p) {
    auto model = std::move(p.model);
    return detail::finish_assignment(p, std::move(model));
}

/// The whole of XLA's BufferAssigner on `m` with `options.algorithm` for the heaps.
template <class P>
basic_buffer_assignment<P> assign_buffers(basic_hlo_module<P> const& m, assign_options const& options = {}) {
    auto p = make_assignment_problem(m, options);
    place_heaps(p, options.algorithm, options.plan);
    return finish_assignment(std::move(p));
}

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_BUFFER_ASSIGNER_HPP
