// human_bytes: XLA's HumanReadableNumBytes, vectors of docs/FORMATS.md 5.6.
#include <hlomem/core/human_bytes.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

TEST_CASE("byte counts print as XLA prints them", "[human_bytes]") {
    auto [bytes, text] = GENERATE(table<std::int64_t, char const*>({
        {0, "0B"},
        {512, "512B"},
        {1023, "1023B"},
        {1024, "1.0KiB"},
        {1536, "1.5KiB"},
        {4096, "4.0KiB"},
        {1048575, "1024.0KiB"},
        {1048576, "1.00MiB"},
        {12345678, "11.77MiB"},
        {29360128, "28.00MiB"},
        {268435456, "256.00MiB"},
        {1073741824, "1.00GiB"},
        {2885767252, "2.69GiB"},
        {1099511627776, "1.00TiB"},
        {786452, "768.0KiB"},
        {1093622736, "1.02GiB"},  // seed 000: Total bytes used: 1093622736 (1.02GiB)
        {1522, "1.5KiB"},         // seed 003: Total bytes used: 1522 (1.5KiB)
        {-2048, "-2.0KiB"},
        {std::numeric_limits<std::int64_t>::min(), "-8E"},
    }));
    CAPTURE(bytes);
    CHECK(hlomem::human_bytes(bytes) == text);
}
