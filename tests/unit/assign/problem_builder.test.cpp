// XLA's BufferAssigner up to the heap (assign/problem_builder.hpp, make_assignment_problem): the
// problem of a real module, its heap placed by XLA's best fit and by the exact allocator.
#include <hlomem/assign/problem_builder.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <chrono>

using hlomem_test::read_data;

TEST_CASE("assign: the assignment problem is XLA's up to the heap; another allocator places it", "[assign]") {
    auto const text = read_data("corpus/lorrax/lorrax_apply_H_sparse.after_opt.hlo");
    auto const m = hlomem::parse_hlo_module(text, "apply_H_sparse");
    hlomem::assign_options options;
    options.module_text = text;
    // Its dump is an older XLA's, which aligned GPU temps at 128 (today's: 256).
    options.alignment = hlomem::alignment_of_dump(
        hlomem::parse_buffer_assignment(read_data("corpus/lorrax/lorrax_apply_H_sparse.buffer_assignment.txt")),
        hlomem::xla_backend::gpu);
    auto problem = hlomem::make_assignment_problem(m, options);
    CHECK(problem.backend == hlomem::xla_backend::gpu);
    CHECK(problem.alignment == 128);
    REQUIRE(problem.heaps.size() == 1);
    auto const& heap = problem.heaps.front();
    CHECK(heap.color == 0);
    CHECK(heap.problem.buffers.size() == heap.groups.size());
    CHECK(heap.keys.size() == heap.groups.size());
    for (auto const& b : heap.problem.buffers) {
        CHECK_FALSE(b.offset);  // unplaced
        CHECK(b.alignment == 128);
    }
    // Every HloBuffer is in the heap or has an allocation decided before it.
    for (auto const& b : problem.buffers) {
        CHECK((b.kind == hlomem::buffer_assignment_kind::heap) == (b.allocation == hlomem::npos));
    }
    // XLA's heap: the dump's temp arena is the heap plus the pointer tables before and after it.
    auto xla = problem;
    auto const xla_sizes = hlomem::place_heaps(xla);
    auto const xla_ba = hlomem::finish_assignment(xla);
    CHECK(xla_ba.total_bytes() == 224524432);

    // The exact allocator on the same heap: never larger, and a sound assignment.
    auto mine = problem;
    hlomem::plan_options budget;
    budget.exact.time_limit = std::chrono::milliseconds(500);
    auto const exact_sizes = hlomem::place_heaps(mine, hlomem::allocation_algorithm::exact, budget);
    REQUIRE(exact_sizes.size() == 1);
    CHECK(exact_sizes[0] <= xla_sizes[0]);
    auto const ba = hlomem::finish_assignment(mine);
    CHECK(ba.total_bytes() <= xla_ba.total_bytes());
    CHECK(hlomem::check_soundness(ba).empty());
}
