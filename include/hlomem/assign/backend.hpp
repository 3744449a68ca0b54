// hlomem/assign/backend.hpp: which compiler's BufferAssigner options a module is assigned with —
// the backend (GPU, CPU, TPU) inferred from what only one compiler writes into a module, and each
// backend's temp alignment (GpuCompiler: 128 bytes, 256 in JAX 0.11's XLA; CpuCompiler: 64; TPU assumed 512).
#ifndef HLOMEM_ASSIGN_BACKEND_HPP
#define HLOMEM_ASSIGN_BACKEND_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <hlomem/core/size_function.hpp>
#include <hlomem/hlo/module.hpp>

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

/// The alignment a module's temp chunks get: default_alignment(b), except on GPU for a module
/// printed by the XLA of JAX 0.11, which aligns them at 256 bytes. That XLA is told by its printer,
/// which names tuple elements as operands (`async-start(%arg_tuple.1#3, ...)`, no get-tuple-element
/// instructions): all 19 modules of its dumps in tests/data/jax_0_11 assign exactly as XLA did at 256
/// (3 of them not at 128: their small tuple buffers sit 256 bytes apart in XLA's arena), and every
/// older GPU dump of tests/data does at 128. A module of that XLA without any tuple element operand
/// is not told apart, and gets 128.
template <class P>
std::int64_t module_alignment(basic_hlo_module<P> const& m, xla_backend b) noexcept {
    return b == xla_backend::gpu && m.names_tuple_elements() ? 256 : default_alignment(b);
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

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_BACKEND_HPP
