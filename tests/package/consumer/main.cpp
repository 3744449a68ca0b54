// Parses the TPU seed dump's bf16 value shape and checks its padded size (29360128 bytes, as the
// dump's value line states); exits 0 when hlomem works from this consumer. Built against the
// library compiled once (HLOMEM_COMPILED_LIBRARY: hlomem_add_compiled_library), it also predicts
// memory_analysis() of a three-instruction module, which calls the compiled templates rather
// than instantiating them: the f32[1024] parameter and the output, 4096 bytes each, and no temp
// (the add may take the negate's buffer: XLA's CanShareOperandBufferWithUser). It reads with
// view_policy, the one policy of the libraries the find_package consumer compiles.
#include <hlomem/hlomem.hpp>

#include <iostream>

int main() {
    auto const s = hlomem::parse_shape<hlomem::view_policy>("bf16[4096,3584]{1,0:T(8,128)(2,1)}");
    std::int64_t const padded = hlomem::array_size(s);
    std::cout << hlomem::to_string(s) << ": " << padded << " bytes\n";
    bool ok = padded == 29360128;
#ifdef HLOMEM_COMPILED_LIBRARY
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(
        "HloModule m, is_scheduled=true, entry_computation_layout={(f32[1024]{0})->f32[1024]{0}}\n"
        "ENTRY e {\n"
        "  p = f32[1024]{0} parameter(0)\n"
        "  n = f32[1024]{0} negate(p)\n"
        "  ROOT a = f32[1024]{0} add(n, p)\n"
        "}\n");
    hlomem::memory_analysis const a = hlomem::predicted_memory_analysis(m);
    std::cout << "memory_analysis: argument " << a.argument_size_in_bytes << ", output " << a.output_size_in_bytes
              << ", temp " << a.temp_size_in_bytes << "\n";
    ok = ok && a.argument_size_in_bytes == 4096 && a.output_size_in_bytes == 4096 && a.temp_size_in_bytes == 0;
#endif
    return ok ? 0 : 1;
}
