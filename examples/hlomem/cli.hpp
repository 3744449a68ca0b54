// cli.hpp: what every command of the hlomem tool shares: exit codes, the one-line usage error,
// the way it prints ratios, and the commands themselves (each defined in commands/NAME.cpp).
#ifndef HLOMEM_EXAMPLES_CLI_HPP
#define HLOMEM_EXAMPLES_CLI_HPP

#include <fstream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace hlomem_cli {

/// Exit statuses of every command.
enum exit_status : int {
    exit_ok = 0,       ///< done; for `check`: sound
    exit_findings = 1, ///< the command found problems in a readable input
    exit_error = 2,    ///< bad usage, unreadable or unparsable input
};

/// A command's arguments, after its name.
using arguments = std::vector<std::string_view>;

/// A command: reads its arguments, writes its results on `out` and its complaints on `err`, and
/// returns its exit status.
using command_function = int (*)(arguments const&, std::ostream& out, std::ostream& err);

int run_shape(arguments const& args, std::ostream& out, std::ostream& err);
int run_report(arguments const& args, std::ostream& out, std::ostream& err);
int run_check(arguments const& args, std::ostream& out, std::ostream& err);
int run_graph(arguments const& args, std::ostream& out, std::ostream& err);
int run_liveness(arguments const& args, std::ostream& out, std::ostream& err);
int run_explain(arguments const& args, std::ostream& out, std::ostream& err);
int run_timeline(arguments const& args, std::ostream& out, std::ostream& err);
int run_repack(arguments const& args, std::ostream& out, std::ostream& err);
int run_assign(arguments const& args, std::ostream& out, std::ostream& err);
int run_diff(arguments const& args, std::ostream& out, std::ostream& err);
int run_snapshot(arguments const& args, std::ostream& out, std::ostream& err);
int run_whatif(arguments const& args, std::ostream& out, std::ostream& err);
int run_advise(arguments const& args, std::ostream& out, std::ostream& err);

/// A mistake on the command line: one line that names it and where to read the options, rather
/// than the whole usage text burying the message. Returns exit_error.
///   hlomem report: unknown option '--bogus'
///   Run 'hlomem report --help' for its options.
inline int usage_error(std::ostream& err, std::string_view command, std::string_view message) {
    err << "hlomem " << command << ": " << message << "\nRun 'hlomem " << command
        << " --help' for its options.\n";
    return exit_error;
}

/// Writes `produce(stream)` to `path` ("-": standard output); false and a message on `err` when it
/// cannot.
template <class Produce>
bool write_output(std::string_view command, std::string const& path, std::ostream& out, std::ostream& err, Produce produce) {
    if (path == "-") {
        produce(out);
        return true;
    }
    std::ofstream file(path, std::ios::binary);
    if (file) produce(file);
    file.close();
    if (!file) {
        err << "hlomem " << command << ": cannot write '" << path << "'\n";
        return false;
    }
    return true;
}

/// Whether `s` ends with `suffix`.
inline bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_CLI_HPP
