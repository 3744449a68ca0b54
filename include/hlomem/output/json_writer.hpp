// hlomem/output/json_writer.hpp: a minimal streaming JSON writer, the one every JSON document of
// hlomem goes through (the tool's --json, Python's to_dict() and to_json(), the pages' data).
// Handles objects, arrays, strings (escaped), integers, doubles and null; commas are inserted
// automatically. It writes what hlomem outputs; it is no general JSON library.
//
// A report of a large dump is tens of megabytes of JSON, so the writer gathers its text in a
// buffer of its own and hands the stream 256 KiB at a time (a character at a time through
// std::ostream cost more than building the report; writes of 64 KiB, a system call each, were
// 5 ms of the 68 MB of `report --json` of a 52 MB dump); integers print with std::to_chars. The
// buffer goes to the stream when it fills and whenever a whole value has been written (the
// outermost object or array closed, or a value outside any), so the stream holds every finished
// document, as it did when the writer wrote to it directly; also at flush() and when the writer
// is destroyed.
#ifndef HLOMEM_OUTPUT_JSON_WRITER_HPP
#define HLOMEM_OUTPUT_JSON_WRITER_HPP

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace hlomem {

/// What JSON escapes in a string: '"', '\\' and the control characters.
struct json_escape_table {
    bool flags[256] = {};
    constexpr json_escape_table() {
        for (int c = 0; c < 0x20; ++c) flags[c] = true;
        flags[static_cast<unsigned char>('"')] = true;
        flags[static_cast<unsigned char>('\\')] = true;
    }
    constexpr bool operator[](unsigned char c) const { return flags[c]; }
};
inline constexpr json_escape_table json_escaped{};

class json_writer {
public:
    explicit json_writer(std::ostream& out, bool pretty = true)
        : out_(out), pretty_(pretty), buffer_(new char[capacity + slack]), at_(buffer_.get()) {}
    /// A writer of one value that stands, in some document, after a key at `depth` levels of
    /// open objects and arrays (here() of that document's writer): its text is what that
    /// writer would write for the value, indent included, ready for its raw_value(). A
    /// report renders a value repeated across thousands of values once this way.
    struct nested_value {
        std::size_t depth;
        bool pretty = true;
    };
    json_writer(std::ostream& out, nested_value at) : json_writer(out, at.pretty) {
        depth_ = at.depth;
        after_key_ = true;  // no separator before the value: it follows its key
    }
    /// A writer of elements that follow others in an array (or members in an object) open at
    /// `depth` levels in some document (here() of that document's writer, inside it): its text
    /// starts with the separator that writer would write before its next element, and is ready
    /// for its raw_elements(). What write_elements (output/json_elements.hpp) writes a run of a
    /// long array's elements with, on another thread.
    struct later_elements : nested_value {};
    json_writer(std::ostream& out, later_elements at) : json_writer(out, at.pretty) {
        depth_ = at.depth;
        first_here_ = false;  // the elements before these were written elsewhere
    }
    json_writer(json_writer const&) = delete;
    json_writer& operator=(json_writer const&) = delete;
    ~json_writer() { flush(); }

    /// The objects and arrays open, and whether the text is indented: what a nested_value
    /// writer needs to write a value for this one.
    nested_value here() const noexcept { return {depth_, pretty_}; }

    json_writer& begin_object() { return open('{'); }
    json_writer& end_object() { return close('}'); }
    json_writer& begin_array() { return open('['); }
    json_writer& end_array() { return close(']'); }

    /// Writes `"name":` inside an object; the next value belongs to it.
    json_writer& key(std::string_view name) {
        separate();
        write_string(name);
        if (pretty_) {
            *at_++ = ':';
            *at_++ = ' ';
        } else {
            *at_++ = ':';
        }
        after_key_ = true;
        return *this;
    }

    /// `"name":` for a name the program spells as a string literal: copied whole, with no
    /// character checked, since a key the program names needs no escaping (asserted in debug
    /// builds). A report of a large dump writes some twenty keys per value, and the character by
    /// character check of key(std::string_view) was 5% of `report --json`'s time.
    template <std::size_t N>
    json_writer& key(char const (&name)[N]) {
        // The literal's length is N - 1, known when compiled: no strlen, and a copy of a fixed
        // size the compiler writes out (2.6 million keys in `report --json` of a 52 MB dump).
        constexpr std::size_t length = N - 1;
        if constexpr (length > inline_string) {
            return key(std::string_view(name, length));
        } else {
            assert(std::string_view(name).size() == length);
            assert(std::none_of(name, name + length, [](char c) { return json_escaped[static_cast<unsigned char>(c)]; }));
            separate();
            *at_++ = '"';
            std::memcpy(at_, name, length);
            at_ += length;
            *at_++ = '"';
            *at_++ = ':';
            if (pretty_) *at_++ = ' ';
            after_key_ = true;
            return *this;
        }
    }

    json_writer& value(std::string_view s) {
        separate();
        write_string(s);
        return complete();
    }
    json_writer& value(char const* s) { return value(std::string_view(s)); }
    /// value(s) when no byte of `s` needs an escape, and true; else nothing is written, and false:
    /// for text a caller decodes first only when it must (metadata_member: C escapes).
    bool plain_value(std::string_view s) {
        char unwritten;  // copy_plain<false> writes nothing: it returns this on success
        if (s.size() > inline_string || copy_plain<false>(s.data(), s.size(), &unwritten) == nullptr) return false;
        value(s);
        return true;
    }
    json_writer& value(std::int64_t v) {
        separate();  // leaves room for it
        if (static_cast<std::uint64_t>(v) < 10) {
            *at_++ = static_cast<char>('0' + v);  // colors, offsets 0, flags: a third of a report's numbers
        } else {
            at_ = std::to_chars(at_, at_ + 24, v).ptr;
        }
        return complete();
    }
    json_writer& value(int v) { return value(static_cast<std::int64_t>(v)); }
    json_writer& value(std::size_t v) { return value(static_cast<std::int64_t>(v)); }
    json_writer& value(bool v) {
        separate();
        put(v ? std::string_view("true") : std::string_view("false"));
        return complete();
    }
    /// Doubles print with up to 6 significant decimals; non-finite values print as null.
    json_writer& value(double v) {
        separate();
        if (!std::isfinite(v)) {
            put("null");
        } else {
            char buf[32];
            int const n = std::snprintf(buf, sizeof buf, "%.6g", v);
            put(std::string_view(buf, static_cast<std::size_t>(n)));
        }
        return complete();
    }
    json_writer& null() {
        separate();  // leaves room for a mark behind it
        std::memcpy(at_, "null", 4);
        at_ += 4;
        return complete();
    }
    /// A value's text as a nested_value writer at here() wrote it, copied as it is.
    json_writer& raw_value(std::string_view text) {
        separate();
        put(text);
        return complete();
    }
    /// Elements a later_elements writer at here() wrote, after the elements this writer has
    /// written in what it has open (at least one: their text starts with a separator), copied as
    /// they are; a text longer than the buffer goes to the stream directly.
    json_writer& raw_elements(std::string_view text) {
        assert(depth_ > 0 && !first_here_ && !after_key_);
        if (text.size() <= capacity) {
            put(text);
        } else {
            flush();
            out_.write(text.data(), static_cast<std::streamsize>(text.size()));
        }
        return *this;
    }
    template <class T>
    json_writer& value(std::optional<T> const& v) {
        return v ? value(*v) : null();
    }

    template <class T>
    json_writer& member(std::string_view name, T const& v) {
        key(name);
        return value(v);
    }
    /// member() with a key the program spells as a string literal (key(char const (&)[N])).
    template <std::size_t N, class T>
    json_writer& member(char const (&name)[N], T const& v) {
        key(name);
        return value(v);
    }

    /// Ends the document with a newline, and hands the text to the stream.
    void finish() {
        room(1);
        *at_++ = '\n';
        flush();
    }

    /// Hands the text written so far to the stream.
    void flush() {
        if (at_ == buffer_.get()) return;
        out_.write(buffer_.get(), static_cast<std::streamsize>(at_ - buffer_.get()));
        at_ = buffer_.get();
    }

private:
    static constexpr std::size_t capacity = std::size_t(1) << 18;
    // Room kept past `capacity` for what is written without a check: a separator, an indent of
    // up to `indent_run` spaces, then a number, or a string of up to `inline_string` characters
    // and a key's colon.
    static constexpr std::size_t indent_run = 128;
    static constexpr std::size_t inline_string = 1024;  // written unchecked behind a separator
    static constexpr std::size_t slack = 2048;

    /// After a value: a whole document (nothing left open) goes to the stream.
    json_writer& complete() {
        if (depth_ == 0) flush();
        return *this;
    }

    /// Makes room for `n` more characters (n <= slack) without a flush in the middle of them.
    void room(std::size_t n) {
        if (static_cast<std::size_t>(at_ - buffer_.get()) + n > capacity + slack) flush();
    }
    /// Hands the buffer on once it holds `capacity` characters: everything else writes into the
    /// slack behind it.
    void drain() {
        if (static_cast<std::size_t>(at_ - buffer_.get()) >= capacity) flush();
    }

    void put(std::string_view s) {
        while (!s.empty()) {
            drain();
            std::size_t const n = std::min(s.size(), capacity + slack - static_cast<std::size_t>(at_ - buffer_.get()));
            std::memcpy(at_, s.data(), n);
            at_ += n;
            s.remove_prefix(n);
        }
        drain();
    }

    json_writer& open(char c) {
        separate();
        *at_++ = c;
        outer_first_.push_back(first_here_);
        first_here_ = true;
        ++depth_;
        return *this;
    }
    json_writer& close(char c) {
        assert(depth_ > 0);
        bool const empty = first_here_;
        first_here_ = outer_first_.back() != 0;
        outer_first_.pop_back();
        --depth_;
        drain();
        if (pretty_ && !empty) at_ = newline(at_);
        *at_++ = c;
        return complete();
    }
    /// What goes before a value or key: a comma and a new line where needed. Leaves the buffer
    /// under `capacity` plus what it wrote, so that a number or a mark can follow unchecked.
    void separate() {
        drain();
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (depth_ == 0) return;
        // The pointer in a local: a store through a char pointer may alias any member, and the
        // compiler would reload each one after it (2.6 million separators in `report --json`).
        char* at = at_;
        if (!first_here_) *at++ = ',';
        first_here_ = false;
        if (pretty_) at = newline(at);
        at_ = at;
    }
    /// A new line and the indent of what is open, two spaces a level, written at `at` (the write
    /// pointer, which the caller keeps in a local); returns the pointer after it. An indent of
    /// up to 15 levels is one copy of a fixed 32 characters into the slack, of which the pointer
    /// keeps 1 + 2 * levels: a memset of a varying length (`rep stos`) was half the time of
    /// separate(), itself a tenth of a large dump's `report --json`. Deeper ones go in runs.
    static constexpr char line_and_indent[] = "\n                               ";  // 1 + 31 characters
    static_assert(sizeof line_and_indent == 33 && 32 <= slack);
    char* newline(char* at) {
        std::size_t n = 2 * depth_;
        if (n < 32) {
            std::memcpy(at, line_and_indent, 32);
            return at + 1 + n;
        }
        at_ = at;
        *at_++ = '\n';
        while (n > 0) {
            std::size_t const k = std::min(n, indent_run);
            std::memset(at_, ' ', k);
            at_ += k;
            n -= k;
            if (n > 0) flush();
        }
        return at_;
    }
    /// Whether any of the 8 bytes of `w` needs an escape: below 0x20, '"' or '\\' (the exact
    /// test for "some byte is zero", (x - 0x01..) & ~x & 0x80.., applied to w < 0x20 and to w
    /// xor each of the two characters).
    static bool needs_escape(std::uint64_t w) noexcept {
        constexpr std::uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
        auto zero_byte = [&](std::uint64_t x) { return (x - ones) & ~x & highs; };
        return (((w - ones * 0x20) & ~w & highs) | zero_byte(w ^ (ones * '"')) | zero_byte(w ^ (ones * '\\'))) != 0;
    }
#if defined(__SSE2__)
    /// Bit k set when byte k of the 16 in `v` needs an escape: '"', '\\' or below 0x20 (the
    /// unsigned minimum with 0x1f is the byte itself).
    static unsigned escapes_16(__m128i v) noexcept {
        __m128i const control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
        __m128i const quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
        __m128i const backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
        return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(control, _mm_or_si128(quote, backslash))));
    }
#endif
    /// Copies the `n` bytes at `p` to `o` as they are checked, sixteen at a time with SSE2, then
    /// eight, then one by one; returns the end of the copy, or nullptr at the first block that
    /// holds a byte to escape (what was copied is then written over). Without `copy`, only checks,
    /// and returns `o` itself when the bytes are plain.
    template <bool copy = true>
    static char* copy_plain(char const* p, std::size_t n, char* o) noexcept {
#if defined(__SSE2__)
        for (; n >= 16; n -= 16, p += 16, o += copy ? 16 : 0) {
            __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
            if (escapes_16(v) != 0) return nullptr;
            if constexpr (copy) _mm_storeu_si128(reinterpret_cast<__m128i*>(o), v);
        }
#endif
        for (; n >= 8; n -= 8, p += 8, o += copy ? 8 : 0) {
            std::uint64_t w;
            std::memcpy(&w, p, 8);
            if (needs_escape(w)) return nullptr;
            if constexpr (copy) std::memcpy(o, &w, 8);
        }
        for (; n > 0; --n) {
            char const c = *p++;
            if (json_escaped[static_cast<unsigned char>(c)]) return nullptr;
            if constexpr (copy) *o++ = c;
        }
        return o;
    }
    /// `s` quoted: a string that fits behind the buffer's end and needs no escape (a report is
    /// mostly names, shapes and paths) is copied as it is checked (copy_plain); one that does,
    /// or a longer one, goes through write_escaped.
    void write_string(std::string_view s) {
        if (s.size() <= inline_string) {
            if (char* const o = copy_plain(s.data(), s.size(), at_ + 1)) {
                *at_ = '"';
                *o = '"';
                at_ = o + 1;
                return;
            }
        }
        write_escaped(s);
    }
    void write_escaped(std::string_view s) {
        *at_++ = '"';
        char const* run = s.data();
        char const* const end = s.data() + s.size();
        for (char const* p = run; p < end; ++p) {
            char const c = *p;
            if (!json_escaped[static_cast<unsigned char>(c)]) continue;
            put(std::string_view(run, static_cast<std::size_t>(p - run)));
            run = p + 1;
            switch (c) {
                case '"': put("\\\""); break;
                case '\\': put("\\\\"); break;
                case '\n': put("\\n"); break;
                case '\r': put("\\r"); break;
                case '\t': put("\\t"); break;
                default: {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                    put(buf);
                }
            }
        }
        put(std::string_view(run, static_cast<std::size_t>(end - run)));
        room(4);
        *at_++ = '"';
    }


    std::ostream& out_;
    bool pretty_;
    bool after_key_ = false;
    std::size_t depth_ = 0;      // objects and arrays open
    bool first_here_ = false;    // nothing written yet in the innermost open one
    std::vector<char> outer_first_;  // the same for each enclosing one, outermost first
    std::unique_ptr<char[]> buffer_;
    char* at_;
};

/// `"key": [{"line": N, "message": "..."}, ...]` for a list of findings that have a line and a
/// message (diagnostics, a reader's warnings), as every report lists its warnings.
template <class Findings>
void write_line_messages(json_writer& json, char const* key, Findings const& findings) {
    json.key(key).begin_array();
    for (auto const& w : findings) {
        json.begin_object();
        json.member("line", w.line);
        json.member("message", w.message);
        json.end_object();
    }
    json.end_array();
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_JSON_WRITER_HPP
