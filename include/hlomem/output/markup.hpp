// hlomem/output/markup.hpp: text that goes into the timeline's SVG, HTML and trace: escaped markup,
// valid UTF-8, JSON safe inside <script>, and coordinates.
#ifndef HLOMEM_OUTPUT_MARKUP_HPP
#define HLOMEM_OUTPUT_MARKUP_HPP

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace hlomem {

/// Text for HTML or SVG (XML) content and attribute values.
inline std::string escape_markup(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default:
                // XML 1.0 allows no control characters but tab, newline and carriage return.
                if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                    out += "\xEF\xBF\xBD";  // U+FFFD
                } else {
                    out += c;
                }
        }
    }
    return out;
}

/// `s` with every byte sequence that is not UTF-8 replaced by U+FFFD, so that names read from a
/// dump in another encoding cannot make the page or the trace invalid.
inline std::string valid_utf8(std::string s) {
    auto const* p = reinterpret_cast<unsigned char const*>(s.data());
    std::size_t const n = s.size();
    std::size_t i = 0;
    std::string out;
    bool changed = false;
    while (i < n) {
        unsigned char const c = p[i];
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool ok = len > 0 && i + len <= n;
        for (std::size_t k = 1; ok && k < len; ++k) ok = (p[i + k] & 0xC0) == 0x80;
        if (ok && len > 1) {
            std::uint32_t cp = c & (0xFF >> (len + 1));
            for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (p[i + k] & 0x3F);
            static constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
            ok = cp >= smallest[len] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
        }
        if (!ok) {
            if (!changed) out.assign(s, 0, i);
            changed = true;
            out += "\xEF\xBF\xBD";
            ++i;
            continue;
        }
        if (changed) out.append(s, i, len);
        i += len;
    }
    return changed ? out : s;
}

/// JSON for inside a <script> element: `<`, `>` and `&` (which JSON writes only inside strings)
/// as \u escapes, so that no `</script>` or `<!--` in a name can end the element.
inline std::string script_safe_json(std::string const& json) {
    std::string out;
    out.reserve(json.size());
    for (char c : json) {
        if (c == '<') {
            out += "\\u003c";
        } else if (c == '>') {
            out += "\\u003e";
        } else if (c == '&') {
            out += "\\u0026";
        } else {
            out += c;
        }
    }
    return out;
}

/// Coordinates with one decimal, without a trailing `.0`: 12.3, 40.
inline std::string coord(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    if (s == "-0") s = "0";
    return s;
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_MARKUP_HPP
