// hlomem/core/human_bytes.hpp: byte counts as XLA prints them (tsl's HumanReadableNumBytes), e.g.
// `Total bytes used: 2885767252 (2.69GiB)`.
#ifndef HLOMEM_CORE_HUMAN_BYTES_HPP
#define HLOMEM_CORE_HUMAN_BYTES_HPP

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

namespace hlomem {

/// Formats a byte count exactly as XLA does: below 1024 as `512B`; otherwise the value is divided
/// by 1024 (truncating) while it is at least 1048576, stepping through K, M, G, T, P, E, and
/// printed as value/1024 with one decimal for KiB and two for larger units:
/// 1536 -> `1.5KiB`, 1048575 -> `1024.0KiB`, 12345678 -> `11.77MiB`, 2885767252 -> `2.69GiB`.
inline std::string human_bytes(std::int64_t bytes) {
    if (bytes == std::numeric_limits<std::int64_t>::min()) return "-8E";  // XLA's special case
    std::string const sign = bytes < 0 ? "-" : "";
    std::int64_t value = bytes < 0 ? -bytes : bytes;
    if (value < 1024) return sign + std::to_string(value) + "B";
    static constexpr char units[] = "KMGTPE";
    int unit = 0;
    while (value >= 1048576) {
        value /= 1024;
        ++unit;
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, unit == 0 ? "%.1f%ciB" : "%.2f%ciB", static_cast<double>(value) / 1024.0, units[unit]);
    return sign + buf;
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_HUMAN_BYTES_HPP
