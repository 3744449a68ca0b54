// hlomem/core/printed_size.hpp: byte counts as out-of-memory reports print them, and the exact byte
// counts such a printed size stands for.
//
// Two printers, one arithmetic (docs/FORMATS.md 5.6):
//   XLA (GPU reports, dumps)  512B  1.5KiB  570.00MiB  1.09GiB   tsl's HumanReadableNumBytes,
//                                                                  hlomem::human_bytes
//   TPU runtime reports       512B  1.5K    570.00M    1.09G     the same digits without "iB"
// The TPU form is [INFERRED] from real reports: `f32[29184,1,2560]{2,1,0:T(2,128)}` (298844160
// bytes unpadded) is printed `285.00M`, `s32[29360128,10]` unpadded (1174405120 bytes) `1.09G`.
//
// A printed size has lost precision. The printer divides by 1024 with truncation while the value
// is at least 1048576, so for unit M and above the bytes are first truncated to a whole number of
// sub-units s (1 for K, 1024 for M, 1048576 for G, ...), then q/1024 is printed with d decimals
// (1 for K, 2 above). A byte count b therefore "prints as" digits·10^-d of its unit when
//     |floor(b/s)·10^d − digits·1024| ≤ 512
// i.e. the rounded value differs from the printed one by at most half a unit of the last decimal
// (ties either way, so that the rule does not depend on the C library's rounding of exact halves).
// `printed_size::min_bytes`/`max_bytes` are the smallest and largest such b; `covers(b)` tests it.
#ifndef HLOMEM_CORE_PRINTED_SIZE_HPP
#define HLOMEM_CORE_PRINTED_SIZE_HPP

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/detail/checked.hpp>

namespace hlomem {

/// The TPU runtime's form of a byte count: human_bytes without "iB". 298844160 -> `285.00M`,
/// 4096 -> `4.0K`, 0 -> `0B`.
inline std::string tpu_human_bytes(std::int64_t bytes) {
    std::string text = human_bytes(bytes);
    if (text.size() > 3 && text.compare(text.size() - 2, 2, "iB") == 0) text.erase(text.size() - 2);
    return text;
}

/// A byte count as a report written with size function `kind` prints it: `285.00M` (tpu, the TPU
/// runtime's printer) or `285.00MiB` (xla and unpadded, XLA's).
inline std::string format_size(std::int64_t bytes, size_function_kind kind) {
    return kind == size_function_kind::tpu ? tpu_human_bytes(bytes) : human_bytes(bytes);
}

/// A size as a report printed it, `570.00M` or `384.0KiB` or `0B`, and the byte counts it stands
/// for. Make one with `make_printed_size`.
struct printed_size {
    std::int64_t digits = 0;     ///< the number without its decimal point: 57000 for `570.00`
    int decimals = 0;            ///< digits after the point: 2 for `570.00`
    int unit = 0;                ///< 0 bytes, 1 K, 2 M, 3 G, 4 T, 5 P, 6 E
    bool binary_suffix = false;  ///< printed with `iB` (`570.00MiB`), as XLA does
    std::int64_t nominal_bytes = 0;  ///< the printed value in bytes, rounded: 597688320 for `570.00M`
    std::int64_t min_bytes = 0;      ///< the smallest byte count that prints as this
    std::int64_t max_bytes = 0;      ///< the largest byte count that prints as this

    /// True when `bytes` prints as this size (the rule at the top of this header).
    bool covers(std::int64_t bytes) const noexcept { return bytes >= min_bytes && bytes <= max_bytes; }

    friend bool operator==(printed_size const& a, printed_size const& b) {
        return a.digits == b.digits && a.decimals == b.decimals && a.unit == b.unit && a.binary_suffix == b.binary_suffix;
    }
    friend bool operator!=(printed_size const& a, printed_size const& b) { return !(a == b); }
};

namespace detail {

/// 10^n for small n.
constexpr std::int64_t power_of_ten(int n) noexcept {
    std::int64_t p = 1;
    for (int i = 0; i < n; ++i) p *= 10;
    return p;
}

/// floor(a / b) and ceil(a / b) for b > 0 and any sign of a.
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept { return a / b - (a % b < 0 ? 1 : 0); }
constexpr std::int64_t ceil_div_signed(std::int64_t a, std::int64_t b) noexcept { return a / b + (a % b > 0 ? 1 : 0); }

}  // namespace detail

/// The printed size `digits`·10^-`decimals` of `unit` (0 = B, 1 = K, ..., 6 = E), with its byte
/// bounds; nullopt when they do not fit in int64 or the form cannot be printed (decimals on
/// bytes, more than 4 decimals, a negative value, a value the printer writes in another unit such
/// as `0.5M`). `make_printed_size(57000, 2, 2, false)` is
/// `570.00M`: nominal 597688320, bounds [597683200, 597694463].
inline std::optional<printed_size> make_printed_size(std::int64_t digits, int decimals, int unit, bool binary_suffix) {
    if (digits < 0 || decimals < 0 || decimals > 4 || unit < 0 || unit > 6 || (unit == 0 && decimals != 0)) {
        return std::nullopt;
    }
    printed_size out;
    out.digits = digits;
    out.decimals = decimals;
    out.unit = unit;
    out.binary_suffix = binary_suffix;
    if (unit == 0) {
        out.nominal_bytes = out.min_bytes = out.max_bytes = digits;
        return out;
    }
    std::int64_t const scale = detail::power_of_ten(decimals);
    std::int64_t const sub_unit = std::int64_t{1} << (10 * (unit - 1));
    std::int64_t scaled = 0;  // digits · 1024
    if (!detail::checked_mul(digits, 1024, &scaled)) return std::nullopt;
    std::int64_t const q_min = std::max<std::int64_t>(0, detail::ceil_div_signed(scaled - 512, scale));
    std::int64_t const q_max = detail::floor_div(scaled + 512, scale);
    std::int64_t min_bytes = 0, max_bytes = 0, nominal = 0;
    if (!detail::checked_mul(q_min, sub_unit, &min_bytes) || !detail::checked_mul(q_max + 1, sub_unit, &max_bytes)) {
        return std::nullopt;
    }
    // nominal = round(digits · 1024^unit / 10^decimals) = round(scaled · sub_unit / scale)
    std::int64_t const whole = scaled / scale;
    std::int64_t const remainder = scaled % scale;
    std::int64_t rounded_fraction = 0;
    if (!detail::checked_mul(whole, sub_unit, &nominal) ||
        !detail::checked_mul(remainder, sub_unit, &rounded_fraction) ||
        !detail::checked_add(nominal, (rounded_fraction + scale / 2) / scale, &nominal)) {
        return std::nullopt;
    }
    // The printer uses unit u only for byte counts in [1024^u, 1024^(u+1)).
    std::int64_t const unit_bytes = sub_unit * 1024;
    out.nominal_bytes = nominal;
    out.min_bytes = std::max(min_bytes, unit_bytes);
    out.max_bytes = unit < 6 && unit_bytes <= std::numeric_limits<std::int64_t>::max() / 1024
                        ? std::min(max_bytes - 1, unit_bytes * 1024 - 1)
                        : max_bytes - 1;
    if (out.min_bytes > out.max_bytes) return std::nullopt;
    return out;
}

/// Reads a printed size at the start of [first, last): digits, an optional decimal part, then `B`
/// or a unit letter K M G T P E with or without `iB` (`570.00M`, `570.00MiB`, `4.0K`, `0B`). Sets
/// `out` and returns the end of the size, or nullptr when the text there is not a size (a letter
/// or digit right after the unit, a number without unit, or a size that does not fit in int64).
inline char const* scan_printed_size(char const* first, char const* last, printed_size& out) {
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    char const* p = first;
    std::int64_t digits = 0;
    int decimals = 0;
    bool point = false;
    for (; p < last && (digit(*p) || (*p == '.' && !point && p != first)); ++p) {
        if (*p == '.') {
            point = true;
            if (p + 1 == last || !digit(p[1])) return nullptr;
            continue;
        }
        if (!detail::checked_mul(digits, 10, &digits) || !detail::checked_add(digits, *p - '0', &digits)) return nullptr;
        decimals += point ? 1 : 0;
    }
    if (p == first || p == last) return nullptr;
    int unit = 0;
    bool suffix = false;
    static constexpr char units[] = "BKMGTPE";
    for (int u = 0; u < 7; ++u) {
        if (*p == units[u]) unit = u;
    }
    if (unit == 0 && *p != 'B') return nullptr;
    ++p;
    if (unit > 0 && last - p >= 2 && p[0] == 'i' && p[1] == 'B') {
        suffix = true;
        p += 2;
    }
    if (p < last && (digit(*p) || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_')) return nullptr;
    auto size = make_printed_size(digits, decimals, unit, suffix);
    if (!size) return nullptr;
    out = *size;
    return p;
}

/// The printed size that is the whole of `text` (`"570.00M"`), or nullopt.
inline std::optional<printed_size> parse_printed_size(std::string_view text) {
    printed_size out;
    char const* const end = text.data() + text.size();
    char const* const stop = scan_printed_size(text.data(), end, out);
    if (stop != end) return std::nullopt;
    return out;
}

/// The size as printed: `570.00M`, `384.0KiB`, `0B`.
inline std::string to_string(printed_size const& s) {
    std::string number = std::to_string(s.digits);
    if (s.decimals > 0) {
        if (number.size() <= static_cast<std::size_t>(s.decimals)) {
            number.insert(0, static_cast<std::size_t>(s.decimals) + 1 - number.size(), '0');
        }
        number.insert(number.size() - static_cast<std::size_t>(s.decimals), 1, '.');
    }
    static constexpr char units[] = "BKMGTPE";
    if (s.unit == 0) return number + "B";
    return number + units[s.unit] + (s.binary_suffix ? "iB" : "");
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_PRINTED_SIZE_HPP
