// hlomem/parser/dump_parts.hpp: where a buffer-assignment dump splits into parts that read apart
// (parser/threaded_read.hpp): the allocations with their value lines, the `Used values:` blocks
// cut at a block's first line (`<19 x.65 @0>`, the only line that starts with '<'), and the
// HloLiveRange text, found from the end.
#ifndef HLOMEM_PARSER_DUMP_PARTS_HPP
#define HLOMEM_PARSER_DUMP_PARTS_HPP

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__GLIBC__)
#include <string.h>  // memrchr
#endif
#include <string_view>
#include <system_error>
#include <vector>

namespace hlomem::parser::dump {

/// One part of a dump: the rule that reads it, its text, and the line it starts on.
enum class part_kind : std::uint8_t { allocations, used_values_head, used_values, live_range };
struct dump_part {
    part_kind kind;
    char const* first;
    char const* last;
};

/// The first line of [from, end) that starts with `head`: its first character, or nullptr.
inline char const* find_line_start(char const* from, char const* begin, char const* end, std::string_view head) {
    std::string_view const text(from, static_cast<std::size_t>(end - from));
    for (std::size_t at = text.find(head); at != std::string_view::npos; at = text.find(head, at + 1)) {
        char const* const p = from + at;
        if (p == begin || p[-1] == '\n') return p;
    }
    return nullptr;
}

/// The last `c` in [from, to), or nullptr: glibc's memrchr where there is one.
inline char const* find_last_of(char const* from, char const* to, char c) {
#if defined(__GLIBC__)
    return static_cast<char const*>(::memrchr(from, c, static_cast<std::size_t>(to - from)));
#else
    while (to > from) {
        if (*--to == c) return to;
    }
    return nullptr;
#endif
}

/// The last line of [from, end) that starts with `head`, searched from the end: its first
/// character, or nullptr.
inline char const* find_last_line_start(char const* from, char const* begin, char const* end, std::string_view head) {
    for (char const* p = end; p > from;) {
        char const* const found = find_last_of(from, p, head.front());
        if (!found) return nullptr;
        if ((found == begin || found[-1] == '\n') && static_cast<std::size_t>(end - found) >= head.size() &&
            std::string_view(found, head.size()) == head) {
            return found;
        }
        p = found;
    }
    return nullptr;
}

/// The parts of the dump [begin, end), about `target` bytes each where the blocks allow; empty
/// when the text has no `Used values:` section (then it reads whole). The live ranges are found
/// from the end: they follow the blocks, and are a small part of a dump. A text with a line that
/// starts with `HloLiveRange` among its blocks splits there, and that part then fails to read as
/// blocks: the whole text is read instead, and gives the same model or error as always.
inline std::vector<dump_part> split_dump(char const* begin, char const* end, std::size_t target) {
    std::vector<dump_part> parts;
    char const* const used = find_line_start(begin, begin, end, "Used values:");
    if (!used) return parts;
    char const* const live = find_last_line_start(used, begin, end, "HloLiveRange");
    char const* const used_end = live ? live : end;
    parts.push_back({part_kind::allocations, begin, used});
    char const* first = used;
    while (first < used_end) {
        char const* last = used_end;
        if (static_cast<std::size_t>(used_end - first) > target + target / 2) {
            // The next block after `first + target`: a line that starts with '<'.
            char const* p = first + target;
            last = nullptr;
            while (p < used_end) {
                p = static_cast<char const*>(std::memchr(p, '\n', static_cast<std::size_t>(used_end - p)));
                if (!p || ++p >= used_end) break;
                if (*p == '<') {
                    last = p;
                    break;
                }
            }
            if (!last) last = used_end;
        }
        parts.push_back({first == used ? part_kind::used_values_head : part_kind::used_values, first, last});
        first = last;
    }
    if (live) parts.push_back({part_kind::live_range, live, end});
    return parts;
}

/// The id of the first block of a part of the Used-values blocks (`<19 x.65 @0>`), or 0.
inline std::int64_t first_block_id(dump_part const& part) {
    char const* p = part.first;
    if (part.kind == part_kind::used_values_head) {
        p = static_cast<char const*>(std::memchr(p, '<', static_cast<std::size_t>(part.last - p)));
        if (!p) return 0;
    }
    if (part.kind != part_kind::used_values && part.kind != part_kind::used_values_head) return 0;
    std::int64_t id = 0;
    if (p + 1 >= part.last || std::from_chars(p + 1, part.last, id).ec != std::errc()) return 0;
    return id;
}

}  // namespace hlomem::parser::dump

#endif  // HLOMEM_PARSER_DUMP_PARTS_HPP
