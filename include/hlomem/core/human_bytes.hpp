// hlomem/core/human_bytes.hpp: byte counts as XLA prints them: tsl's HumanReadableNumBytes, e.g.
// `Total bytes used: 2885767252 (2.69GiB)`, and the live-range text's FormatBytesWithSpaces, e.g.
// `Stack trace breakdown for peak usage: 30 408 704 bytes`.
#ifndef HLOMEM_CORE_HUMAN_BYTES_HPP
#define HLOMEM_CORE_HUMAN_BYTES_HPP

#include <cstddef>
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

/// A byte count with a space every three digits from the right, as XLA's FormatBytesWithSpaces
/// (xla/hlo/utils/hlo_stack_trace.cc) writes the figures of the stack-trace breakdown:
///
///   std::string s = absl::StrFormat("%lld", num);
///   for (int i = s.length() - 3; i > 0; i -= 3) s.insert(i, " ");
///
/// 48 -> `48`, 1048576 -> `1 048 576`, 30408704 -> `30 408 704`; the sign counts as a digit, so a
/// negative count (which a consistent breakdown never has) reads `- 123`.
inline std::string format_bytes_with_spaces(std::int64_t num) {
    std::string s = std::to_string(num);
    for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), " ");
    return s;
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_HUMAN_BYTES_HPP
