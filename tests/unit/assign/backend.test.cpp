// The backend a module is assigned for (assign/backend.hpp): inferred from what only one compiler
// writes into a module, or assumed, and said so.
#include <hlomem/assign/backend.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <string>

using hlomem_test::read_data;

TEST_CASE("assign: the backend is inferred from what only one compiler writes", "[assign]") {
    auto infer = [](std::string const& path) {
        return hlomem::infer_backend(hlomem::parse_hlo_module(read_data(path), path));
    };
    auto const lhs = infer("corpus/lorrax/lorrax_conditional.after_opt.hlo");
    CHECK(lhs.backend == hlomem::xla_backend::gpu);
    CHECK(lhs.inferred);
    CHECK(lhs.reason.find("fingerprint_before_lhs") != std::string::npos);
    auto const cpu = infer("corpus/lorrax/lorrax_cpu_true_divide.after_opt.hlo");
    CHECK(cpu.backend == hlomem::xla_backend::cpu);
    CHECK(cpu.reason.find("outer_dimension_partitions") != std::string::npos);
    auto const tpu = infer("corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_mlp.hlo");
    CHECK(tpu.backend == hlomem::xla_backend::tpu);
    auto const cublas = infer("corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_pfft3d_customcall_1024_2x4_f32_fft.hlo");
    CHECK(cublas.backend == hlomem::xla_backend::gpu);
    CHECK(cublas.inferred);

    // Nothing to tell by: the default, said as such.
    hlomem::hlo_module_builder b;
    b.begin_module();
    b.set_name("m");
    b.begin_computation("main", /*is_entry=*/true);
    b.begin_instruction("p", /*is_root=*/true);
    b.set_shape(hlomem::parse_shape("f32[8]{0}"));
    b.set_opcode("parameter");
    b.set_parameter_number(0);
    b.end_instruction();
    b.end_computation();
    auto const none = hlomem::infer_backend(b.finish());
    CHECK(none.backend == hlomem::xla_backend::gpu);
    CHECK_FALSE(none.inferred);
    CHECK(none.reason.find("gpu assumed") != std::string::npos);
}
