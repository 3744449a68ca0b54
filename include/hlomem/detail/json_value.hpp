// hlomem/detail/json_value.hpp: a minimal, strict JSON reader for the files hlomem writes and reads
// back (the snapshots of diff/snapshot.hpp, `hlomem snapshot`). It reads RFC 8259 JSON with two
// limits that those files never reach: numbers are integers that fit int64 (a fraction or an
// exponent is an error, since every figure hlomem writes is a byte count or a count), and strings
// hold \uXXXX escapes of the Basic Multilingual Plane or surrogate pairs, written back as UTF-8.
// Anything else is refused with the line and column (1-based) where reading stopped:
//
//   try { auto v = hlomem::detail::parse_json(text); v.at("format_version").integer(); }
//   catch (hlomem::detail::json_error const& e) { e.line; e.column; e.what(); }
//
// Strict: no trailing commas, no comments, no repeated keys in one object, no text after the
// value, no control characters in strings, nesting at most 64 deep.
#ifndef HLOMEM_DETAIL_JSON_VALUE_HPP
#define HLOMEM_DETAIL_JSON_VALUE_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hlomem::detail {

/// A JSON text that cannot be read, or a value of the wrong type; line and column are 1-based
/// (0 for a type error found after reading, which names the key instead).
struct json_error : std::runtime_error {
    std::size_t line = 0, column = 0;
    json_error(std::string const& message, std::size_t l, std::size_t c)
        : std::runtime_error(l ? "line " + std::to_string(l) + ", column " + std::to_string(c) + ": " + message : message),
          line(l),
          column(c) {}
};

class json_value {
public:
    enum class type { null, boolean, integer, string, array, object };

    json_value() = default;
    type kind() const noexcept { return type_; }
    bool is_null() const noexcept { return type_ == type::null; }

    bool boolean() const { return expect(type::boolean, "true or false"), bool_; }
    std::int64_t integer() const { return expect(type::integer, "an integer"), int_; }
    std::string const& string() const { return expect(type::string, "a string"), text_; }
    std::vector<json_value> const& array() const { return expect(type::array, "an array"), items_; }
    /// The members of an object, in the order of the text.
    std::vector<std::pair<std::string, json_value>> const& members() const { return expect(type::object, "an object"), members_; }

    /// The member `key` of an object, or null when it has none.
    json_value const* find(std::string_view key) const {
        for (auto const& m : members()) {
            if (m.first == key) return &m.second;
        }
        return nullptr;
    }
    /// The member `key`; json_error naming it when it is missing.
    json_value const& at(std::string_view key) const {
        auto const* v = find(key);
        if (!v) throw json_error("no member '" + std::string(key) + "'", 0, 0);
        return *v;
    }

private:
    friend class json_reader;
    void expect(type t, char const* what) const {
        if (type_ != t) throw json_error(std::string("expected ") + what, 0, 0);
    }
    type type_ = type::null;
    bool bool_ = false;
    std::int64_t int_ = 0;
    std::string text_;
    std::vector<json_value> items_;
    std::vector<std::pair<std::string, json_value>> members_;
};

class json_reader {
public:
    explicit json_reader(std::string_view text) : text_(text) {}

    json_value read_document() {
        skip_space();
        json_value v = read_value(0);
        skip_space();
        if (at_ != text_.size()) fail("text after the JSON value");
        return v;
    }

private:
    static constexpr int max_depth = 64;

    [[noreturn]] void fail(std::string const& message) const {
        std::size_t line = 1, column = 1;
        for (std::size_t k = 0; k < at_ && k < text_.size(); ++k) {
            if (text_[k] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        throw json_error(message, line, column);
    }
    bool done() const noexcept { return at_ >= text_.size(); }
    char peek() const noexcept { return done() ? '\0' : text_[at_]; }
    void skip_space() {
        while (!done() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) ++at_;
    }
    void expect_char(char c, char const* what) {
        if (peek() != c) fail(std::string("expected ") + what);
        ++at_;
    }
    void expect_word(std::string_view word) {
        if (text_.substr(at_, word.size()) != word) fail("expected a JSON value");
        at_ += word.size();
    }

    json_value read_value(int depth) {
        if (depth > max_depth) fail("nested more than 64 deep");
        json_value v;
        switch (peek()) {
        case '{': read_object(v, depth); break;
        case '[': read_array(v, depth); break;
        case '"':
            v.type_ = json_value::type::string;
            v.text_ = read_string();
            break;
        case 't': expect_word("true"), v.type_ = json_value::type::boolean, v.bool_ = true; break;
        case 'f': expect_word("false"), v.type_ = json_value::type::boolean; break;
        case 'n': expect_word("null"); break;
        default:
            if (peek() != '-' && (peek() < '0' || peek() > '9')) fail(done() ? "unexpected end of text" : "expected a JSON value");
            v.type_ = json_value::type::integer;
            v.int_ = read_integer();
        }
        return v;
    }

    void read_object(json_value& v, int depth) {
        v.type_ = json_value::type::object;
        ++at_;
        skip_space();
        if (peek() == '}') return void(++at_);
        while (true) {
            skip_space();
            if (peek() != '"') fail("expected a key (a string)");
            std::size_t const key_at = at_;
            std::string key = read_string();
            for (auto const& m : v.members_) {
                if (m.first == key) {
                    at_ = key_at;
                    fail("the key '" + key + "' twice in one object");
                }
            }
            skip_space();
            expect_char(':', "':' after a key");
            skip_space();
            v.members_.emplace_back(std::move(key), read_value(depth + 1));
            skip_space();
            if (peek() == ',') {
                ++at_;
                continue;
            }
            expect_char('}', "',' or '}'");
            return;
        }
    }

    void read_array(json_value& v, int depth) {
        v.type_ = json_value::type::array;
        ++at_;
        skip_space();
        if (peek() == ']') return void(++at_);
        while (true) {
            skip_space();
            v.items_.push_back(read_value(depth + 1));
            skip_space();
            if (peek() == ',') {
                ++at_;
                continue;
            }
            expect_char(']', "',' or ']'");
            return;
        }
    }

    std::int64_t read_integer() {
        bool const negative = peek() == '-';
        if (negative) ++at_;
        if (peek() < '0' || peek() > '9') fail("expected a digit");
        if (peek() == '0' && at_ + 1 < text_.size() && text_[at_ + 1] >= '0' && text_[at_ + 1] <= '9') fail("a number with a leading zero");
        std::uint64_t magnitude = 0;
        std::uint64_t const limit = negative ? 9223372036854775808ULL : 9223372036854775807ULL;
        while (peek() >= '0' && peek() <= '9') {
            std::uint64_t const digit = static_cast<std::uint64_t>(peek() - '0');
            if (magnitude > (limit - digit) / 10) fail("an integer out of the range of int64");
            magnitude = magnitude * 10 + digit;
            ++at_;
        }
        if (peek() == '.' || peek() == 'e' || peek() == 'E') fail("a number with a fraction or an exponent (only integers are read)");
        if (!negative) return static_cast<std::int64_t>(magnitude);
        return magnitude == limit ? INT64_MIN : -static_cast<std::int64_t>(magnitude);
    }

    unsigned read_hex4() {
        unsigned u = 0;
        for (int k = 0; k < 4; ++k) {
            char const c = peek();
            unsigned const d = c >= '0' && c <= '9' ? static_cast<unsigned>(c - '0')
                               : c >= 'a' && c <= 'f' ? static_cast<unsigned>(c - 'a' + 10)
                               : c >= 'A' && c <= 'F' ? static_cast<unsigned>(c - 'A' + 10)
                                                      : 16u;
            if (d == 16) fail("expected four hexadecimal digits after \\u");
            u = u * 16 + d;
            ++at_;
        }
        return u;
    }

    static void put_utf8(std::string& out, unsigned cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    std::string read_string() {
        ++at_;  // the opening quote
        std::string out;
        while (true) {
            if (done()) fail("a string without its closing quote");
            char const c = text_[at_];
            if (c == '"') {
                ++at_;
                return out;
            }
            if (static_cast<unsigned char>(c) < 0x20) fail("a control character in a string");
            if (c != '\\') {
                out += c;
                ++at_;
                continue;
            }
            ++at_;
            char const e = peek();
            ++at_;
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                unsigned cp = read_hex4();
                if (cp >= 0xD800 && cp < 0xDC00) {
                    if (peek() != '\\' || at_ + 1 >= text_.size() || text_[at_ + 1] != 'u') fail("a high surrogate without its low one");
                    at_ += 2;
                    unsigned const low = read_hex4();
                    if (low < 0xDC00 || low >= 0xE000) fail("a high surrogate without its low one");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp < 0xE000) {
                    fail("a low surrogate alone");
                }
                put_utf8(out, cp);
                break;
            }
            default: --at_, fail("an unknown escape in a string");
            }
        }
    }

    std::string_view text_;
    std::size_t at_ = 0;
};

/// The JSON value of `text`; json_error with the line and column where it stops being JSON.
inline json_value parse_json(std::string_view text) { return json_reader(text).read_document(); }

}  // namespace hlomem::detail

#endif  // HLOMEM_DETAIL_JSON_VALUE_HPP
