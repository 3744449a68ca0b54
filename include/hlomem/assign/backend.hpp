// hlomem/assign/backend.hpp: which compiler's BufferAssigner options a module is assigned with —
// the backend (GPU, CPU, TPU) inferred from what only one compiler writes into a module, and each
// backend's temp alignment (GpuCompiler: 256 bytes, 128 before June 2025; CpuCompiler: 64; TPU
// assumed 512), and the alignment a buffer-assignment dump shows.
#ifndef HLOMEM_ASSIGN_BACKEND_HPP
#define HLOMEM_ASSIGN_BACKEND_HPP

#include <algorithm>
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

/// The alignment of every temp chunk (BufferAssigner's color_alignment) on each backend, as
/// today's XLA sets it. GPU: kXlaAllocatedBufferAlignBytes (xla/service/gpu/gpu_constants.h), which
/// compile_module_to_llvm_ir.cc passes as every color's alignment: 256 bytes since XLA's change of
/// June 2025 (openxla/xla PR #27784), 128 before it, under no flag. A module does not say which XLA
/// compiled it, so a module of an older XLA is assigned at 128 when the user says so
/// (`--alignment 128`), or when its dump shows it (alignment_shown_by). CPU: 64
/// (cpu::MinimumAlignmentForBuffer); TPU: assumed 512.
inline constexpr std::int64_t default_alignment(xla_backend b) noexcept {
    return b == xla_backend::gpu ? 256 : b == xla_backend::cpu ? 64 : 512;
}

/// The GPU alignment of XLA before June 2025 (default_alignment).
inline constexpr std::int64_t gpu_alignment_before_2025_06 = 128;

/// The largest alignment (a power of two, 4096 at most) that every offset of a value in the
/// dump's preallocated-temp allocations is a multiple of: a bound on the alignment XLA used, and
/// that alignment itself when some offset is an odd multiple of it. A GPU dump with a value 128
/// bytes past a 256-byte boundary was made by an XLA aligning at 128. Nullopt when every such
/// value sits at offset 0 (nothing shows).
template <class BufferAssignment>
std::optional<std::int64_t> alignment_shown_by(BufferAssignment const& ba) {
    std::optional<std::int64_t> shown;
    for (auto const& a : ba.allocations) {
        if (!a.is_preallocated_temp) continue;
        for (std::size_t vi : a.values) {
            std::int64_t const offset = ba.values[vi].offset;
            if (offset <= 0) continue;
            std::int64_t const largest = offset & -offset;  // the largest power of two dividing it
            shown = std::min<std::int64_t>(shown.value_or(4096), std::min<std::int64_t>(largest, 4096));
        }
    }
    return shown;
}

/// The alignment that reproduces dump `ba` on backend `b` when its dump shows an older XLA's: the
/// alignment it shows when that is below default_alignment(b) (a GPU dump of XLA before June 2025,
/// with a temp value at an odd multiple of 128), else nullopt (the backend's own).
template <class BufferAssignment>
std::optional<std::int64_t> alignment_of_dump(BufferAssignment const& ba, xla_backend b) {
    auto const shown = alignment_shown_by(ba);
    if (shown && *shown < default_alignment(b)) return shown;
    return std::nullopt;
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
