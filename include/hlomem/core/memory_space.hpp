// hlomem/core/memory_space.hpp: what a memory space (a color, `S(n)` in a layout) is called and
// what it holds. hlomem keys memory spaces by their number; XLA's names are labels, and they are
// TPU's names even on a GPU, where the numbers mean other things.
#ifndef HLOMEM_CORE_MEMORY_SPACE_HPP
#define HLOMEM_CORE_MEMORY_SPACE_HPP

#include <cstdint>
#include <string>
#include <string_view>

namespace hlomem {

/// The name XLA's memory-usage report gives color `color` (`Memory Space: cmem (color=5)`):
/// GetMemorySpaceName in xla/service/buffer_assignment.cc, the same on every backend.
inline std::string memory_space_name(std::int64_t color) {
    switch (color) {
        case 0: return "default";
        case 1: return "vmem";
        case 2: return "smem";
        case 3: return "hbm";
        case 4: return "host";
        case 5: return "cmem";
        default: return "color_" + std::to_string(color);
    }
}

/// What color `color` holds on a GPU, or an empty view for a number XLA:GPU does not assign:
///   0  device memory (MemorySpaceColor::kDefault, xla/service/gpu/gpu_memory_space_assignment.h);
///   1  collective memory, symmetric across devices (kCollective: collectives, their operands);
///   2  temp buffers in a color of their own (kTempBuffer, --xla_gpu_temp_buffer_use_separate_color);
///   5  host memory (Layout::kHostMemorySpace, what JAX's `pinned_host` becomes), which the report
///      labels `cmem`.
inline constexpr std::string_view gpu_memory_space_meaning(std::int64_t color) noexcept {
    switch (color) {
        case 0: return "device memory";
        case 1: return "collective memory";
        case 2: return "temp buffers (separate color)";
        case 5: return "host memory";
        default: return {};
    }
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_MEMORY_SPACE_HPP
