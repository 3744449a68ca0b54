// hlomem/diff/threshold.hpp: how much a peak may grow between two compilations before a diff
// fails, as `hlomem diff --fail-above 1048576` (bytes) or `--fail-above 5%` (of A's peak) states it.
//
//   auto t = hlomem::diff_threshold_named("5%");          // nullopt for text that is neither
//   auto const* c = hlomem::first_exceeding(d, *t);      // the first color whose peak grew more
//   hlomem::first_exceeding(d, *t, hlomem::gate_measure::total)   // ... whose allocated bytes did
#ifndef HLOMEM_DIFF_THRESHOLD_HPP
#define HLOMEM_DIFF_THRESHOLD_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>


#include <hlomem/diff/assignment_diff.hpp>

namespace hlomem {

/// A growth allowed: bytes, or a percentage of A's peak.
struct diff_threshold {
    std::int64_t bytes = 0;
    std::optional<double> percent;

    /// Whether `peak` grew by more than allowed (a peak that was 0 and grew exceeds any percentage).
    bool exceeded(byte_pair const& peak) const {
        std::int64_t const grew = peak.delta();
        if (grew <= 0) return false;
        if (percent) return peak.a == 0 || 100.0 * static_cast<double>(grew) / static_cast<double>(peak.a) > *percent;
        return grew > bytes;
    }
};

/// `1048576` (at most 18 digits) or `5%` / `2.5%`; nullopt for anything else.
inline std::optional<diff_threshold> diff_threshold_named(std::string_view v) {
    diff_threshold t;
    if (!v.empty() && v.back() == '%') {
        std::string const number(v.substr(0, v.size() - 1));
        // At least one digit: "." and "%" alone are no number (std::stod would throw on them).
        if (number.find_first_of("0123456789") == std::string::npos || number.find_first_not_of("0123456789.") != std::string::npos ||
            number.find('.') != number.rfind('.')) {
            return std::nullopt;
        }
        t.percent = std::stod(number);
        return t;
    }
    if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    for (char c : v) t.bytes = t.bytes * 10 + (c - '0');
    return t;
}

/// What a gate measures in each color: its peak of live bytes (the default, what the device
/// must hold at once), or the bytes allocated to it (the total of its allocations, what XLA
/// reserves, temp arena included).
enum class gate_measure { peak, total };

inline constexpr std::string_view to_string(gate_measure m) noexcept { return m == gate_measure::peak ? "peak" : "total"; }

/// `peak` or `total`; nullopt for anything else.
inline std::optional<gate_measure> gate_measure_named(std::string_view v) {
    if (v == "peak") return gate_measure::peak;
    if (v == "total") return gate_measure::total;
    return std::nullopt;
}

/// A color's figure that `m` names.
inline byte_pair const& measured(color_diff const& c, gate_measure m) { return m == gate_measure::peak ? c.peak_live_bytes : c.allocated_bytes; }

/// The first color of `d` whose figure (its peak of live bytes by default) grew by more than `t`
/// allows, or null.
inline color_diff const* first_exceeding(assignment_diff const& d, diff_threshold const& t, gate_measure m = gate_measure::peak) {
    for (auto const& c : d.colors) {
        if (t.exceeded(measured(c, m))) return &c;
    }
    return nullptr;
}

/// The gate's one line for a color that exceeded it: `the peak of color 0 grew by 463688 bytes
/// (+0.17%), more than --fail-above allows`.
inline std::string exceeded_text(color_diff const& c, gate_measure m) {
    byte_pair const& p = measured(c, m);
    std::string out = "the " + std::string(to_string(m)) + " of color " + std::to_string(c.color) + " grew by " + std::to_string(p.delta()) + " bytes";
    if (p.a != 0) out += " (" + signed_percent(p.delta(), p.a) + ")";
    return out + ", more than --fail-above allows";
}

}  // namespace hlomem

#endif  // HLOMEM_DIFF_THRESHOLD_HPP
