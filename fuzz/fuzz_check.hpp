// fuzz_check.hpp: what every fuzz target shares. A fuzz target feeds libFuzzer's bytes to one
// parser and checks what must hold for any input: no crash, no sanitizer report, an error that
// names a position inside the input, and, where hlomem has a printer, a round trip
// (parse -> print -> parse gives the same model, so print(parse(print(x))) == print(x)).
#ifndef HLOMEM_FUZZ_CHECK_HPP
#define HLOMEM_FUZZ_CHECK_HPP

#include <hlomem/core/error.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace hlomem_fuzz {

/// Stops the run with a message: libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(char const* what, std::string_view detail) {
    std::fprintf(stderr, "hlomem fuzz check failed: %s\n%.*s\n", what, static_cast<int>(detail.size()), detail.data());
    std::abort();
}

inline void check(bool ok, char const* what, std::string_view detail = {}) {
    if (!ok) fail(what, detail);
}

inline std::string_view as_text(std::uint8_t const* data, std::size_t size) {
    return std::string_view(reinterpret_cast<char const*>(data), size);
}

/// A parse error must point into the input (line 1.., column 1..), name what it expected or what
/// is wrong, and print as `file:line:column: error: ...`.
inline void check_error(hlomem::parse_error_info const& e, std::string_view text, std::string_view file) {
    check(e.line >= 1 && e.column >= 1, "an error names line and column from 1", e.to_string());
    std::size_t lines = 1;
    for (char c : text) lines += c == '\n';
    check(e.line <= lines, "an error names a line of the input", e.to_string());
    check(!e.message.empty(), "an error says what is wrong", e.to_string());
    std::string const printed = e.to_string();
    check(printed.compare(0, file.size(), file) == 0, "an error starts with the file name", printed);
}

}  // namespace hlomem_fuzz

#endif  // HLOMEM_FUZZ_CHECK_HPP
