// hlomem/assign.hpp: XLA's BufferAssigner reproduced on a scheduled module: the allocations, the
// temp heaps and every offset that XLA would choose, from the module text alone.
//
//   auto ba = hlomem::assign_buffers(module);               // XLA's text via print_buffer_assignment
//   auto p = hlomem::make_assignment_problem(module);       // the same, up to the heap: p.heaps
//
//   <hlomem/assign/module_assignment.hpp>  assign_module: a module's derived and predicted
//                                        assignments, one sizing rule; assign_buffers
//   <hlomem/assign/buffer_assigner.hpp>  infer_backend, make_assignment_problem, place_heaps,
//                                        finish_assignment
//   <hlomem/assign/compare.hpp>          compare_assignments: a prediction against XLA's dump
//   <hlomem/assign/predict.hpp>          predict_assignment: the predicted dump as text, and how
//                                        its backend was decided
#ifndef HLOMEM_ASSIGN_HPP
#define HLOMEM_ASSIGN_HPP

#include <hlomem/assign/buffer_assigner.hpp>
#include <hlomem/assign/compare.hpp>
#include <hlomem/assign/module_assignment.hpp>
#include <hlomem/assign/predict.hpp>

#endif  // HLOMEM_ASSIGN_HPP
