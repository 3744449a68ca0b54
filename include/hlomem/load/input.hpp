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
#include <filesystem>
#include <fstream>
#include <ios>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include <hlomem/core/error.hpp>
#include <hlomem/core/result.hpp>
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

/// Thrown when the value of a failed load is asked for (`*r`, `r.value()`, `r->`): the
/// load_error in an exception, as parse_error carries a parse_error_info; `what()` is its message.
class load_exception : public error {
public:
    explicit load_exception(load_error info) : error(info.message), info_(std::move(info)) {}

    load_error const& info() const noexcept { return info_; }

private:
    load_error info_;
};

/// Throws the exception of a load error (core/result.hpp finds it by argument-dependent lookup).
[[noreturn]] inline void throw_error(load_error const& info) { throw load_exception(info); }

/// A loaded value, or the error that stopped the loading; it behaves as parse_result does.
template <class T>
using load_result = result<T, load_error>;

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
    // A folder opens as a stream on Linux and tells a size of 2^63 - 1: refused before that.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        return load_error{load_failure::unreadable, path, "cannot read '" + path + "': it is a folder, not a file"};
    }
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return load_error{load_failure::unreadable, path, "cannot open '" + path + "'"};
    std::streamoff const size = in.tellg();
    if (size > 0 && static_cast<std::uint64_t>(size) > std::string().max_size()) {
        return load_error{load_failure::unreadable, path, "cannot read '" + path + "': " + std::to_string(size) + " bytes"};
    }
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
