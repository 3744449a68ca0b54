// cli.hpp: what every subcommand of the hlomem tool shares: exit codes, reading inputs, and the
// usage text of the program.
#ifndef HLOMEM_EXAMPLES_CLI_HPP
#define HLOMEM_EXAMPLES_CLI_HPP

#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace hlomem_cli {

/// Exit statuses of every subcommand.
enum exit_status : int {
    exit_ok = 0,       ///< done; for `check`: sound
    exit_findings = 1, ///< the command found problems in a readable input
    exit_error = 2,    ///< bad usage, unreadable or unparsable input
};

using arguments = std::vector<std::string_view>;

/// Reads a whole file (or standard input for "-") into memory; nullopt and a message on `err`
/// when it cannot be read.
inline std::optional<std::string> read_input(std::string_view path, std::ostream& err) {
    if (path == "-") {
        std::ostringstream ss;
        ss << std::cin.rdbuf();
        return ss.str();
    }
    std::ifstream in(std::string(path), std::ios::binary);
    if (!in) {
        err << "hlomem: cannot open '" << path << "'\n";
        return std::nullopt;
    }
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        err << "hlomem: cannot read '" << path << "'\n";
        return std::nullopt;
    }
    return text;
}

/// A mistake on the command line: one line that names it and where to read the options, rather
/// than the whole usage text burying the message. Returns exit_error.
///   hlomem report: unknown option '--bogus'
///   Run 'hlomem report --help' for its options.
inline int usage_error(std::ostream& err, std::string_view command, std::string_view message) {
    err << "hlomem " << command << ": " << message << "\nRun 'hlomem " << command
        << " --help' for its options.\n";
    return exit_error;
}

/// Percentages and ratios as the tool prints them: two decimals.
inline std::string fixed2(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_CLI_HPP
