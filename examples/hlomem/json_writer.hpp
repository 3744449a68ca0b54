// json_writer.hpp: a minimal streaming JSON writer for the hlomem tool's --json output.
// Handles objects, arrays, strings (escaped), integers, doubles and null; commas are inserted
// automatically. Not part of the library: tools that embed hlomem use their own JSON library.
//
// A report of a large dump is tens of megabytes of JSON, so the writer gathers its text in a
// buffer of its own and hands the stream 64 KiB at a time (a character at a time through
// std::ostream cost more than building the report); integers print with std::to_chars. The
// buffer goes to the stream when it fills and whenever a whole value has been written (the
// outermost object or array closed, or a value outside any), so the stream holds every finished
// document, as it did when the writer wrote to it directly; also at flush() and when the writer
// is destroyed.
#ifndef HLOMEM_EXAMPLES_JSON_WRITER_HPP
#define HLOMEM_EXAMPLES_JSON_WRITER_HPP

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace hlomem_cli {

class json_writer {
public:
    explicit json_writer(std::ostream& out, bool pretty = true) : out_(out), pretty_(pretty) { buffer_.reserve(capacity); }
    json_writer(json_writer const&) = delete;
    json_writer& operator=(json_writer const&) = delete;
    ~json_writer() { flush(); }

    json_writer& begin_object() { return open('{'); }
    json_writer& end_object() { return close('}'); }
    json_writer& begin_array() { return open('['); }
    json_writer& end_array() { return close(']'); }

    /// Writes `"name":` inside an object; the next value belongs to it.
    json_writer& key(std::string_view name) {
        separate();
        write_string(name);
        put(pretty_ ? std::string_view(": ") : std::string_view(":"));
        after_key_ = true;
        return *this;
    }

    json_writer& value(std::string_view s) {
        separate();
        write_string(s);
        return complete();
    }
    json_writer& value(char const* s) { return value(std::string_view(s)); }
    json_writer& value(std::int64_t v) {
        separate();
        char digits[24];
        auto const r = std::to_chars(digits, digits + sizeof digits, v);
        put(std::string_view(digits, static_cast<std::size_t>(r.ptr - digits)));
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
        separate();
        put("null");
        return complete();
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

    /// Ends the document with a newline, and hands the text to the stream.
    void finish() {
        buffer_ += '\n';
        flush();
    }

    /// Hands the text written so far to the stream.
    void flush() {
        if (buffer_.empty()) return;
        out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
        buffer_.clear();
    }

private:
    static constexpr std::size_t capacity = std::size_t(1) << 16;

    /// After a value: a whole document (nothing left open) goes to the stream.
    json_writer& complete() {
        if (first_.empty()) flush();
        return *this;
    }

    void put(std::string_view s) {
        buffer_.append(s);
        if (buffer_.size() >= capacity) flush();
    }

    json_writer& open(char c) {
        separate();
        buffer_ += c;
        first_.push_back(true);
        return *this;
    }
    json_writer& close(char c) {
        bool const empty = first_.back();
        first_.pop_back();
        if (pretty_ && !empty) newline();
        buffer_ += c;
        return complete();
    }
    void separate() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (first_.empty()) return;
        if (!first_.back()) buffer_ += ',';
        first_.back() = false;
        if (pretty_) newline();
    }
    void newline() {
        buffer_ += '\n';
        buffer_.append(2 * first_.size(), ' ');
    }
    /// `s` quoted, with what JSON must escape escaped; runs of plain characters are copied whole.
    void write_string(std::string_view s) {
        buffer_ += '"';
        char const* run = s.data();
        char const* const end = s.data() + s.size();
        for (char const* p = run; p < end; ++p) {
            char const c = *p;
            if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) continue;
            buffer_.append(run, static_cast<std::size_t>(p - run));
            run = p + 1;
            switch (c) {
                case '"': buffer_ += "\\\""; break;
                case '\\': buffer_ += "\\\\"; break;
                case '\n': buffer_ += "\\n"; break;
                case '\r': buffer_ += "\\r"; break;
                case '\t': buffer_ += "\\t"; break;
                default: {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                    buffer_ += buf;
                }
            }
        }
        buffer_.append(run, static_cast<std::size_t>(end - run));
        buffer_ += '"';
        if (buffer_.size() >= capacity) flush();
    }

    std::ostream& out_;
    bool pretty_;
    bool after_key_ = false;
    std::vector<bool> first_;
    std::string buffer_;
};

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_JSON_WRITER_HPP
