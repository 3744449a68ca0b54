// Example 03: shapes fixed at compile time, for a static allocator.
//
// What it shows: hlomem::compile_time::array makes an XLA array shape a type whose sizes are
// constant expressions, computed with the same arithmetic as the runtime functions. A static
// allocator can then lay out its buffers at compile time: here five buffers of a small TPU-style
// model get offsets aligned to 256 bytes in one static arena, checked with static_assert. At run
// time, to_shape() gives the same shape as a value, and array_size agrees with padded_bytes.
//
// Invalid layouts do not compile: `ct::minor_to_major<1, 1>` stops with "hlomem: minor_to_major
// must be a permutation of 0..rank-1", a zero tile entry with "hlomem: tiles must be non-empty, ...".
#include <hlomem/core.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <string>

namespace ct = hlomem::compile_time;
using hlomem::primitive_type;

// bf16 embedding table, the TPU's 16-bit tiling: 1000 and 256 are multiples of 8 and 128.
using embedding = ct::array<primitive_type::bf16, ct::extents<1000, 256>, ct::minor_to_major<1, 0>,
                            ct::tiles<ct::tile<8, 128>, ct::tile<2, 1>>>;
// A bias vector without tiles: 4000 bytes, not a multiple of the arena's alignment.
using bias = ct::array<primitive_type::f32, ct::extents<1000>>;
// Logits: the most-minor 1000 is padded to 1024.
using logits = ct::array<primitive_type::f32, ct::extents<8, 1000>, ct::minor_to_major<1, 0>, ct::tiles<ct::tile<8, 128>>>;
// Three scores per row: 3 padded to 128 costs 42.67x.
using scores = ct::array<primitive_type::f32, ct::extents<8, 3>, ct::minor_to_major<1, 0>, ct::tiles<ct::tile<8, 128>>>;
// A mask stored with E(32): 32 bits for every 8-bit pred.
using mask = ct::array<primitive_type::pred, ct::extents<8, 1000>, ct::minor_to_major<1, 0>, ct::tiles<ct::tile<8, 128>>, 32>;

/// Offsets of Buffers... laid out one after another in one arena, each aligned to Alignment.
template <std::int64_t Alignment, class... Buffers>
struct arena_plan {
    static constexpr std::size_t count = sizeof...(Buffers);
    static constexpr std::array<std::int64_t, count> padded{Buffers::padded_bytes...};
    static constexpr std::array<std::int64_t, count> unpadded{Buffers::unpadded_bytes...};
    static constexpr std::array<std::int64_t, count> offsets = [] {
        std::array<std::int64_t, count> out{};
        std::int64_t at = 0;
        for (std::size_t i = 0; i < count; ++i) {
            out[i] = (at + Alignment - 1) / Alignment * Alignment;
            at = out[i] + padded[i];
        }
        return out;
    }();
    static constexpr std::int64_t total = offsets[count - 1] + padded[count - 1];
};

using plan = arena_plan<256, embedding, bias, logits, scores, mask>;

// Everything above is known to the compiler.
static_assert(embedding::padded_bytes == 1000 * 256 * 2 && embedding::padding_bytes == 0);
static_assert(bias::padded_bytes == 4000);
static_assert(logits::padded_bytes == 8 * 1024 * 4 && logits::unpadded_bytes == 8 * 1000 * 4);
static_assert(scores::padded_bytes == 8 * 128 * 4 && scores::unpadded_bytes == 96);
static_assert(mask::padded_bytes == 8 * 1024 * 4 && mask::unpadded_bytes == 8000);
static_assert(plan::offsets[1] == 512000 && plan::offsets[2] == 516096);  // 512000 + 4000 rounded up to 256
static_assert(plan::total == 585728);

// The arena: one static array, sized and carved up at compile time.
alignas(256) std::byte arena[plan::total];

template <class Buffer>
bool runtime_agrees() {
    hlomem::shape const s = Buffer::to_shape();
    return hlomem::array_size(s) == Buffer::padded_bytes && hlomem::unpadded_byte_size(s) == Buffer::unpadded_bytes;
}

int main() {
    char const* const names[] = {"embedding", "bias", "logits", "scores", "mask"};
    std::string const shapes[] = {embedding::to_string(), bias::to_string(), logits::to_string(), scores::to_string(),
                                  mask::to_string()};
    std::cout << "static arena of " << plan::total << " bytes at an address aligned to 256: "
              << (reinterpret_cast<std::uintptr_t>(arena) % 256 == 0 ? "yes" : "no") << '\n';
    std::cout << "  buffer     shape                                         unpadded    padded    offset\n";
    for (std::size_t i = 0; i < plan::count; ++i) {
        std::string line = "  " + std::string(names[i]);
        line.resize(13, ' ');
        line += shapes[i];
        line.resize(55, ' ');
        std::string const numbers[] = {std::to_string(plan::unpadded[i]), std::to_string(plan::padded[i]),
                                       std::to_string(plan::offsets[i])};
        for (auto const& n : numbers) line += std::string(10 - n.size(), ' ') + n;
        std::cout << line << '\n';
    }
    std::int64_t unpadded = 0;
    for (auto u : plan::unpadded) unpadded += u;
    std::cout << "  " << unpadded << " bytes of data in " << plan::total << " bytes of arena\n";

    // Each buffer is a typed view at its offset.
    auto* logits_data = reinterpret_cast<float*>(arena + plan::offsets[2]);
    logits_data[hlomem::linear_index(logits::to_shape(), {7, 999})] = 1.0f;
    std::cout << "  logits element (7,999) lives at byte " << plan::offsets[2] + 4 * hlomem::linear_index(logits::to_shape(), {7, 999})
              << " of the arena\n";

    bool const agree = runtime_agrees<embedding>() && runtime_agrees<bias>() && runtime_agrees<logits>() &&
                       runtime_agrees<scores>() && runtime_agrees<mask>();
    std::cout << "runtime array_size and unpadded_byte_size agree with the compile-time sizes: " << (agree ? "yes" : "no")
              << '\n';
    return agree ? 0 : 1;
}
