// What a memory space (a color, `S(n)`) is called in XLA's reports and what it holds on a GPU
// (core/memory_space.hpp).
#include <hlomem/core/memory_space.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "test_data.hpp"

TEST_CASE("core/memory_space: XLA's labels of colors, and color_N past them", "[memory_space]") {
    // GetMemorySpaceName (xla/service/buffer_assignment.cc): TPU's names whatever the backend.
    CHECK(hlomem::memory_space_name(0) == "default");
    CHECK(hlomem::memory_space_name(1) == "vmem");
    CHECK(hlomem::memory_space_name(2) == "smem");
    CHECK(hlomem::memory_space_name(3) == "hbm");
    CHECK(hlomem::memory_space_name(4) == "host");
    CHECK(hlomem::memory_space_name(5) == "cmem");
    CHECK(hlomem::memory_space_name(6) == "color_6");
    CHECK(hlomem::memory_space_name(1000) == "color_1000");
    CHECK(hlomem::memory_space_name(-1) == "color_-1");
    // The label a real report of JAX 0.11 prints for color 0.
    std::string const report = hlomem_test::read_data("jax_0_11/grad_plain-memory-usage-report.txt");
    CHECK(report.find("Memory Space: " + hlomem::memory_space_name(0) + " (color=0)") != std::string::npos);
}

TEST_CASE("core/memory_space: what XLA:GPU keeps in each color, nothing for the others", "[memory_space]") {
    // MemorySpaceColor (xla/service/gpu/gpu_memory_space_assignment.h) and Layout::kHostMemorySpace.
    CHECK(hlomem::gpu_memory_space_meaning(0) == "device memory");
    CHECK(hlomem::gpu_memory_space_meaning(1) == "collective memory");
    CHECK(hlomem::gpu_memory_space_meaning(2) == "temp buffers (separate color)");
    CHECK(hlomem::gpu_memory_space_meaning(5) == "host memory");
    for (std::int64_t color : {3, 4, 6, -1}) {
        CAPTURE(color);
        CHECK(hlomem::gpu_memory_space_meaning(color).empty());
    }
    STATIC_REQUIRE(hlomem::gpu_memory_space_meaning(5) == "host memory");
}
