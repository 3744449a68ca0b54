// hlomem/load/input.hpp: the text of one input, read whole and once, and what can go wrong
// loading it.
//
//   auto in = hlomem::read_input("module-buffer-assignment.txt");   // or "-": standard input
//   if (!in) std::cerr << in.error().message << '\n';
//   else if (in->kind == hlomem::dump_kind::buffer_assignment) ...
//
// A file is read with one read of its exact size; standard input, whose size is not known
// before, to its end. The kind comes from the content (load/kind.hpp), not from the name.
#ifndef HLOMEM_LOAD_INPUT_HPP
#define HLOMEM_LOAD_INPUT_HPP

#include <cstdint>
#include <fstream>
#include <ios>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include <hlomem/core/error.hpp>
#include <hlomem/load/kind.hpp>

namespace hlomem {

/// Why an input could not be loaded.
enum class load_failure : std::uint8_t {
    unreadable,    ///< the file (or a sibling) cannot be opened or read
    unparsable,    ///< its text is not what its kind says: a parse error with file:line:column
    unknown_kind,  ///< not a kind of text hlomem reads
};

/// What went wrong loading an input or one of its sibling files.
struct load_error {
    load_failure failure = load_failure::unreadable;
    std::string file;     ///< the file concerned: the input, or a sibling of it
    std::string message;  ///< `cannot open 'x.txt'`; for parse errors parse_error_info::to_string()
    /// For unparsable input: where and why, field by field (what `message` prints), for callers
    /// that present errors their own way (an embedding language's exception, an editor's marker).
    std::optional<parse_error_info> parse = std::nullopt;
};

/// A loaded value, or the error that stopped the loading.
template <class T>
class load_result {
public:
    load_result(T value) : data_(std::in_place_index<0>, std::move(value)) {}
    load_result(load_error error) : data_(std::in_place_index<1>, std::move(error)) {}

    bool has_value() const noexcept { return data_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    T& operator*() & { return std::get<0>(data_); }
    T const& operator*() const& { return std::get<0>(data_); }
    T&& operator*() && { return std::get<0>(std::move(data_)); }
    T* operator->() { return &std::get<0>(data_); }
    T const* operator->() const { return &std::get<0>(data_); }

    /// The error; only valid when !has_value().
    load_error const& error() const { return std::get<1>(data_); }

private:
    std::variant<T, load_error> data_;
};

/// The error for a failed parse of `file`.
inline load_error unparsable(std::string file, parse_error_info const& info) {
    return {load_failure::unparsable, std::move(file), info.to_string(), info};
}

/// One input's whole text and its kind.
struct input {
    std::string path;  ///< as given; "-" is standard input
    std::string text;
    dump_kind kind = dump_kind::unknown;

    /// What messages about modules and logs call it: the path, `<stdin>` for standard input. (A
    /// dump's model keeps the path as given in its `file`.)
    std::string name() const { return path == "-" ? std::string("<stdin>") : path; }
};

/// An input made of text already in memory, named `path` in messages.
inline input input_from_text(std::string text, std::string path) {
    dump_kind const kind = detect_dump_kind(text);
    return input{std::move(path), std::move(text), kind};
}

/// Reads `path` ("-": standard input) whole, once.
inline load_result<input> read_input(std::string const& path) {
    if (path == "-") {
        std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        return input_from_text(std::move(text), path);
    }
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return load_error{load_failure::unreadable, path, "cannot open '" + path + "'"};
    std::streamoff const size = in.tellg();
    std::string text;
    if (size >= 0) {
        text.resize(static_cast<std::size_t>(size));
        in.seekg(0);
        in.read(text.data(), size);
    }
    if (size < 0 || !in || in.gcount() != size) return load_error{load_failure::unreadable, path, "cannot read '" + path + "'"};
    return input_from_text(std::move(text), path);
}

}  // namespace hlomem

#endif  // HLOMEM_LOAD_INPUT_HPP
