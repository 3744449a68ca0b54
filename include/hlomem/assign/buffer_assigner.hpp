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
// xla/service/gpu/buffer_sharing.cc, GpuAliasInfo::MayAlias in xla/service/gpu/alias_info.cc)
// are asked where XLA asks them; a fusion's reduction emitter is recognised by its reduce root in
// a kInput fusion (XLA asks HloFusionAnalysis); a multi-output fusion's parameter that reaches
// two outputs shares with neither when a reached output's hero is a transpose or a copy
// (FindNonTrivialHero, assign/fusion_hero.hpp).
//
// What is not reproduced: slice input fusions (IsSliceInputFusion), calls sharing with their
// callee's root, memory-space assignment's preset allocations, multi-heap and paged heaps
// (options XLA leaves off by default).
//
// The headers, one job each: assign/backend.hpp (which backend, its alignment), assign/problem.hpp
// (the problem as data), assign/post_order.hpp (ComparePosition), assign/buffer_sharing.hpp
// (CanShareOperandBufferWithUser and GPU's hints), assign/fusion_hero.hpp (a fusion output's
// hero, FindNonTrivialHero), assign/live_range_index.hpp (interference in
// bulk), assign/problem_builder.hpp (steps 1 to 5), assign/finish.hpp (step 6); this header holds
// the entry points and includes them all.
//
// Cost: O(n log^2 n) for n values, times the number of reusable allocations each buffer tries
// (XLA's own scan order: aliased entry parameters and live-out outputs, newest first).
#ifndef HLOMEM_ASSIGN_BUFFER_ASSIGNER_HPP
#define HLOMEM_ASSIGN_BUFFER_ASSIGNER_HPP

#include <cstdint>
#include <vector>

#include <hlomem/assign/backend.hpp>
#include <hlomem/assign/buffer_sharing.hpp>
#include <hlomem/assign/finish.hpp>
#include <hlomem/assign/fusion_hero.hpp>
#include <hlomem/assign/live_range_index.hpp>
#include <hlomem/assign/post_order.hpp>
#include <hlomem/assign/problem.hpp>
#include <hlomem/assign/problem_builder.hpp>
#include <hlomem/placement/plan.hpp>

namespace hlomem {

/// XLA's BufferAssigner up to the heap on the analyses of a module (`live`, made with
/// assignment_liveness_options(options.liveness); assign_module shares them between its two
/// results): the allocations of their own, the reuse of allocations, and the heap problem of each
/// color, unplaced (see the top of this header).
template <class P>
basic_assignment_problem<P> make_assignment_problem(basic_hlo_liveness<P> const& live, assign_options const& options) {
    return detail::buffer_assigner<P>(live.module(), options, live).run();
}

/// The same on module `m`, analysed here.
template <class P>
basic_assignment_problem<P> make_assignment_problem(basic_hlo_module<P> const& m, assign_options const& options = {}) {
    basic_hlo_liveness<P> const live(m, assignment_liveness_options(options.liveness));
    return make_assignment_problem(live, options);
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

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_BUFFER_ASSIGNER_HPP
