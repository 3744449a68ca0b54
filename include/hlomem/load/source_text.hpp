// hlomem/load/source_text.hpp: the text of the source lines an XLA module's metadata points at,
// read from the user's files when they can be found.
//
//   hlomem::source_text text({"/home/me/project"});     // --source-root; none: paths as written
//   text.line("/workspace/project/train.py", 212);      // "    h = jnp.tanh(x @ w)" or nullopt
//
// XLA keeps only a path and a line (`source_file="/workspace/project/train.py" source_line=212`
// in an instruction's metadata, or the FileNames/FileLocations tables behind `stack_frame_id`),
// written on the machine that traced the program. A path is looked for, in this order:
//   1. as written (an absolute path, or one relative to the working directory): the dump was made
//      on this machine;
//   2. below each source root in turn, first with the whole path appended, then with its leading
//      folders dropped one by one, so that `/workspace/project/train.py` under the root
//      `/home/me/project` tries `/home/me/project/workspace/project/train.py`, then
//      `/home/me/project/project/train.py`, then `/home/me/project/train.py`.
// The first readable file wins, and is read once. A file over 64 MiB, or a line number past its
// end, gives no text; the files looked for and not found are kept (`missing`) so that a caller can
// say so rather than print nothing silently.
#ifndef HLOMEM_LOAD_SOURCE_TEXT_HPP
#define HLOMEM_LOAD_SOURCE_TEXT_HPP

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <ios>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hlomem {

class source_text {
public:
    /// The largest source file read.
    static constexpr std::int64_t max_file_bytes = std::int64_t{64} << 20;
    /// A line is cut to this many characters (with `...`): a label, not a listing.
    static constexpr std::size_t max_line_chars = 160;

    source_text() = default;
    explicit source_text(std::vector<std::string> roots) : roots_(std::move(roots)) {}

    std::vector<std::string> const& roots() const noexcept { return roots_; }

    /// Line `line` (1-based) of `file`, without its indentation and end of line; nullopt when the
    /// file is not found or has no such line.
    std::optional<std::string> line(std::string_view file, std::int64_t line) {
        if (file.empty() || line <= 0) return std::nullopt;
        auto const* f = find(std::string(file));
        if (!f || static_cast<std::size_t>(line) >= f->starts.size()) return std::nullopt;
        std::size_t const begin = f->starts[static_cast<std::size_t>(line) - 1];
        std::size_t end = f->starts[static_cast<std::size_t>(line)];
        std::string_view text(f->text.data() + begin, end - begin);
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
        if (text.size() > max_line_chars) return std::string(text.substr(0, max_line_chars - 3)) + "...";
        return std::string(text);
    }

    /// The path a source file was read from (nullopt: not found).
    std::optional<std::string> found_at(std::string_view file) {
        auto const* f = find(std::string(file));
        return f ? std::optional<std::string>(f->path) : std::nullopt;
    }

    /// The files looked for and not found, in the order they were first asked for.
    std::vector<std::string> const& missing() const noexcept { return missing_; }
    /// How many distinct files were found.
    std::size_t found_count() const {
        std::size_t n = 0;
        for (auto const& [name, f] : files_) n += f.has_value();
        return n;
    }

    /// The paths tried for `file`, in order (the rule above).
    std::vector<std::string> candidates(std::string const& file) const {
        std::vector<std::string> out{file};
        std::string_view rest = file;
        while (!rest.empty() && rest.front() == '/') rest.remove_prefix(1);
        for (auto const& root : roots_) {
            std::string_view tail = rest;
            std::string const base = root.empty() || root.back() == '/' ? root : root + "/";
            while (!tail.empty()) {
                out.push_back(base + std::string(tail));
                std::size_t const slash = tail.find('/');
                if (slash == std::string_view::npos) break;
                tail.remove_prefix(slash + 1);
            }
        }
        return out;
    }

private:
    struct file_lines {
        std::string path;
        std::string text;
        std::vector<std::size_t> starts;  ///< where each line begins, and the end of the text last
    };

    static std::optional<file_lines> read(std::string const& path) {
        std::ifstream in(path, std::ios::binary | std::ios::ate);
        if (!in) return std::nullopt;
        std::streamoff const size = in.tellg();
        if (size < 0 || size > max_file_bytes) return std::nullopt;
        file_lines f{path, std::string(static_cast<std::size_t>(size), '\0'), {0}};
        in.seekg(0);
        in.read(f.text.data(), size);
        if (!in || in.gcount() != size) return std::nullopt;
        for (std::size_t i = 0; i < f.text.size(); ++i) {
            if (f.text[i] == '\n') f.starts.push_back(i + 1);
        }
        if (f.starts.back() != f.text.size()) f.starts.push_back(f.text.size());
        return f;
    }

    file_lines const* find(std::string const& file) {
        auto it = files_.find(file);
        if (it == files_.end()) {
            std::optional<file_lines> f;
            for (auto const& path : candidates(file)) {
                if ((f = read(path))) break;
            }
            if (!f) missing_.push_back(file);
            it = files_.emplace(file, std::move(f)).first;
        }
        return it->second ? &*it->second : nullptr;
    }

    std::vector<std::string> roots_;
    std::map<std::string, std::optional<file_lines>> files_;
    std::vector<std::string> missing_;
};

}  // namespace hlomem

#endif  // HLOMEM_LOAD_SOURCE_TEXT_HPP
