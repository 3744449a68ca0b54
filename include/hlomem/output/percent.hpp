// hlomem/output/percent.hpp: how every output of hlomem writes a percentage or a ratio: with two
// decimals (`12.50%`, `1.18x`), so that a report, a diff and a table line up figure for figure.
#ifndef HLOMEM_OUTPUT_PERCENT_HPP
#define HLOMEM_OUTPUT_PERCENT_HPP

#include <cstdint>
#include <cstdio>
#include <string>

namespace hlomem {

/// `v` with two decimals: fixed2(12.5) is "12.50".
inline std::string fixed2(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

/// `part` as a percentage of `whole` with two decimals and a `%` ("37.50%"), or "-" when `whole`
/// is not positive.
inline std::string share_text(std::int64_t part, std::int64_t whole) {
    return whole > 0 ? fixed2(100.0 * static_cast<double>(part) / static_cast<double>(whole)) + "%" : std::string("-");
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_PERCENT_HPP
