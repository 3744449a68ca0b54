// json_writer.hpp: a minimal streaming JSON writer for the hlomem tool's --json output.
// Handles objects, arrays, strings (escaped), integers, doubles and null; commas are inserted
// automatically. Not part of the library: tools that embed hlomem use their own JSON library.
#ifndef HLOMEM_EXAMPLES_JSON_WRITER_HPP
#define HLOMEM_EXAMPLES_JSON_WRITER_HPP

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
    explicit json_writer(std::ostream& out, bool pretty = true) : out_(out), pretty_(pretty) {}

    json_writer& begin_object() { return open('{'); }
    json_writer& end_object() { return close('}'); }
    json_writer& begin_array() { return open('['); }
    json_writer& end_array() { return close(']'); }

    /// Writes `"name":` inside an object; the next value belongs to it.
    json_writer& key(std::string_view name) {
        separate();
        write_string(name);
        out_ << (pretty_ ? ": " : ":");
        after_key_ = true;
        return *this;
    }

    json_writer& value(std::string_view s) {
        separate();
        write_string(s);
        return *this;
    }
    json_writer& value(char const* s) { return value(std::string_view(s)); }
    json_writer& value(std::int64_t v) {
        separate();
        out_ << v;
        return *this;
    }
    json_writer& value(int v) { return value(static_cast<std::int64_t>(v)); }
    json_writer& value(std::size_t v) { return value(static_cast<std::int64_t>(v)); }
    json_writer& value(bool v) {
        separate();
        out_ << (v ? "true" : "false");
        return *this;
    }
    /// Doubles print with up to 6 significant decimals; non-finite values print as null.
    json_writer& value(double v) {
        separate();
        if (!std::isfinite(v)) {
            out_ << "null";
        } else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.6g", v);
            out_ << buf;
        }
        return *this;
    }
    json_writer& null() {
        separate();
        out_ << "null";
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

    /// Ends the document with a newline.
    void finish() { out_ << '\n'; }

private:
    json_writer& open(char c) {
        separate();
        out_ << c;
        first_.push_back(true);
        return *this;
    }
    json_writer& close(char c) {
        bool const empty = first_.back();
        first_.pop_back();
        if (pretty_ && !empty) newline();
        out_ << c;
        return *this;
    }
    void separate() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (first_.empty()) return;
        if (!first_.back()) out_ << ',';
        first_.back() = false;
        if (pretty_) newline();
    }
    void newline() {
        out_ << '\n';
        for (std::size_t i = 0; i < first_.size(); ++i) out_ << "  ";
    }
    void write_string(std::string_view s) {
        out_ << '"';
        for (char c : s) {
            switch (c) {
                case '"': out_ << "\\\""; break;
                case '\\': out_ << "\\\\"; break;
                case '\n': out_ << "\\n"; break;
                case '\r': out_ << "\\r"; break;
                case '\t': out_ << "\\t"; break;
                default:
                    if (static_cast<unsigned char>(c) < 0x20) {
                        char buf[8];
                        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                        out_ << buf;
                    } else {
                        out_ << c;
                    }
            }
        }
        out_ << '"';
    }

    std::ostream& out_;
    bool pretty_;
    bool after_key_ = false;
    std::vector<bool> first_;
};

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_JSON_WRITER_HPP
