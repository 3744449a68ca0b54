// arguments.hpp: the one argument reader every command of the hlomem tool uses. A command walks
// its arguments left to right and asks what each is; the messages for mistakes every command
// makes alike (an unknown option, a second FILE) are written here once.
//
//   argument_reader a("liveness", liveness_usage, args, err);
//   while (a.next()) {
//       if (a.is("--json")) as_json = true;
//       else if (a.is_help()) return a.help(out);
//       else if (a.is("--live-range")) { if (!(live_range = a.value())) return a.needs_value(); }
//       else if (auto status = a.take_file(file)) return *status;
//   }
//   if (!file) return a.usage();
#ifndef HLOMEM_EXAMPLES_ARGUMENTS_HPP
#define HLOMEM_EXAMPLES_ARGUMENTS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include <hlomem/memory/soundness.hpp>

#include "cli.hpp"

namespace hlomem_cli {

class argument_reader {
public:
    argument_reader(std::string_view command, char const* usage, arguments const& args, std::ostream& err)
        : command_(command), usage_(usage), args_(args), err_(err) {}

    /// Moves to the next argument; false after the last.
    bool next() { return ++next_ <= args_.size(); }

    /// The argument at hand.
    std::string_view current() const { return args_[next_ - 1]; }
    bool is(std::string_view name) const { return current() == name; }
    bool is_help() const { return is("--help") || is("-h"); }
    /// Starts with '-' and is more than "-" alone (which names standard input).
    bool is_option() const { return current().size() > 1 && current()[0] == '-'; }
    /// The argument at hand as an operand (a FILE).
    std::string operand() const { return std::string(current()); }

    /// Whether an argument follows the one at hand.
    bool has_value() const { return next_ < args_.size(); }
    /// The argument after the one at hand, which it takes; nullopt when none follows.
    std::optional<std::string> value() {
        if (!has_value()) return std::nullopt;
        return std::string(args_[next_++]);
    }

    /// The command's usage on `out`, as --help asks; returns exit_ok.
    int help(std::ostream& out) const {
        out << usage_;
        return exit_ok;
    }
    /// The command's usage on standard error, when it lacks what it needs; returns exit_error.
    int usage() const {
        err_ << usage_;
        return exit_error;
    }

    /// Takes the argument at hand as the command's one FILE; an unknown option or a second FILE
    /// is a mistake, whose exit status comes back:
    ///   hlomem liveness: unknown option '--bogus'      hlomem liveness: one FILE at a time
    std::optional<int> take_file(std::optional<std::string>& file) const {
        if (is_option()) return unknown_option();
        if (file) return error("one FILE at a time");
        file = operand();
        return std::nullopt;
    }
    /// The same, where both mistakes read `unexpected argument 'X'`.
    std::optional<int> take_file_or_unexpected(std::optional<std::string>& file) const {
        if (is_option() || file) return unexpected();
        file = operand();
        return std::nullopt;
    }

    /// Reads the arguments of a command that takes `[--json] FILE` and nothing else (explain,
    /// liveness); nullopt when they were read, else the exit status to return.
    std::optional<int> read_json_and_file(bool& as_json, std::optional<std::string>& file, std::ostream& out) {
        while (next()) {
            if (is("--json")) {
                as_json = true;
            } else if (is_help()) {
                return help(out);
            } else if (auto status = take_file(file)) {
                return status;
            }
        }
        return std::nullopt;
    }

    /// `hlomem COMMAND: MESSAGE` and where to read the options; returns exit_error.
    int error(std::string_view message) const { return usage_error(err_, command_, message); }
    int unknown_option() const { return error("unknown option '" + operand() + "'"); }
    int unexpected() const { return error("unexpected argument '" + operand() + "'"); }
    /// `X needs a value` for the option at hand.
    int needs_value() const { return error(operand() + " needs a value"); }

private:
    std::string_view command_;
    char const* usage_;
    arguments const& args_;
    std::ostream& err_;
    std::size_t next_ = 0;  ///< one past the argument at hand
};

/// `v` read as a number of at most `max_digits` decimal digits; nullopt otherwise.
inline std::optional<std::int64_t> decimal(std::string_view v, std::size_t max_digits = 18) {
    if (v.empty() || v.size() > max_digits || v.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    std::int64_t n = 0;
    for (char c : v) n = n * 10 + (c - '0');
    return n;
}

/// An option's value read as a positive decimal number; nullopt when absent or anything else.
inline std::optional<std::int64_t> positive_decimal(std::optional<std::string> const& v) {
    auto const n = v ? decimal(*v) : std::nullopt;
    return n && *n > 0 ? n : std::nullopt;
}

/// The same, at most `most`: `--time-limit 86400`, `--threads 1024`.
inline std::optional<std::int64_t> positive_at_most(std::optional<std::string> const& v, std::int64_t most) {
    auto const n = positive_decimal(v);
    return n && *n <= most ? n : std::nullopt;
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_ARGUMENTS_HPP
