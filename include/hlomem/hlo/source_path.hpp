// hlomem/hlo/source_path.hpp: one source file across checkouts and machines.
//
// XLA writes the path JAX gave it, absolute, into each instruction's metadata:
//
//   metadata={op_name="jit(_batched_chol)/.../dot_general"
//             source_file="/global/homes/j/jackm/software/lorrax_B/src/common/cholesky_2d.py" source_line=204}
//
// and the same program built from another checkout, or on another machine, writes
//
//   source_file="/pscratch/sd/j/jackm/lorrax_sandbox/sources/lorrax_D/src/common/cholesky_2d.py"
//
// for the same file. Two rules make them one:
//   - roots named by the user are stripped (strip_root): `--strip-root /global/homes/j/jackm/software/lorrax_B`
//     shows `src/common/cholesky_2d.py`;
//   - the files of two sides are matched (match_source_files): identical paths first; then a file
//     of A and a file of B are one file when they share a tail of at least the file name and
//     each is the other's only file with the longest shared tail (in path components). The file
//     is shown by that tail, `src/common/cholesky_2d.py`. On a tie (A's `/x/a/util.py` against
//     B's `/y/b/util.py` and `/y/c/util.py`, which share only `util.py`) nothing is matched: the
//     paths cannot tell which of the two is the one moved, and each file keeps its own path.
// Paths are POSIX: components are split at `/`, empty ones (a leading `/`, `//`) skipped.
// Paths are compared as XLA wrote them (C escapes kept), which is the path itself for any path
// without a quote or a backslash.
#ifndef HLOMEM_HLO_SOURCE_PATH_HPP
#define HLOMEM_HLO_SOURCE_PATH_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hlomem {

/// How many trailing path components `a` and `b` share: `/x/lorrax_B/src/common/c.py` and
/// `/y/lorrax_D/src/common/c.py` share 3 (`src/common/c.py`); 0 when their file names differ.
inline std::size_t common_tail_length(std::string_view a, std::string_view b) {
    std::size_t n = 0;
    while (true) {
        while (!a.empty() && a.back() == '/') a.remove_suffix(1);
        while (!b.empty() && b.back() == '/') b.remove_suffix(1);
        if (a.empty() || b.empty()) return n;
        std::size_t const sa = a.find_last_of('/'), sb = b.find_last_of('/');
        std::string_view const ca = sa == std::string_view::npos ? a : a.substr(sa + 1);
        std::string_view const cb = sb == std::string_view::npos ? b : b.substr(sb + 1);
        if (ca != cb) return n;
        ++n;
        a.remove_suffix(ca.size());
        b.remove_suffix(cb.size());
    }
}

/// The last `n` components of `path`, a view into it: path_tail("/x/src/c.py", 2) is `src/c.py`;
/// the whole path when it has `n` components or fewer.
inline std::string_view path_tail(std::string_view path, std::size_t n) {
    std::size_t end = path.size();
    for (std::size_t k = 0; k < n; ++k) {
        while (end > 0 && path[end - 1] == '/') --end;
        std::size_t const slash = path.find_last_of('/', end == 0 ? 0 : end - 1);
        if (slash == std::string_view::npos || end == 0) return path;
        end = slash;
    }
    return path.substr(end + 1);
}

/// `path` below the longest of `roots` it lies under, a view into it; `path` itself when it lies
/// under none. A root matches whole components: `/a/b` (or `/a/b/`) makes `/a/b/c.py` `c.py`,
/// and leaves `/a/bc/d.py` and `/a/b` itself as they are.
inline std::string_view strip_root(std::string_view path, std::vector<std::string> const& roots) {
    std::string_view best = path;
    for (std::string_view root : roots) {
        while (!root.empty() && root.back() == '/') root.remove_suffix(1);
        if (root.empty() || path.size() <= root.size() + 1 || path.compare(0, root.size(), root) != 0 || path[root.size()] != '/') continue;
        std::string_view rest = path.substr(root.size());
        while (!rest.empty() && rest.front() == '/') rest.remove_prefix(1);
        if (!rest.empty() && rest.size() < best.size()) best = rest;
    }
    return best;
}

/// One file of either side, or both (match_source_files).
struct matched_source_file {
    std::string_view a;      ///< A's path; empty when only B has the file
    std::string_view b;      ///< B's path; empty when only A has it
    std::string_view shown;  ///< the tail the two share when their paths differ; else the path

    /// Whether two different paths were taken for one file (their roots differ).
    bool across_roots() const noexcept { return !a.empty() && !b.empty() && a != b; }
};

/// The files of `a` and of `b` (each without repeats) matched by the rule of the file's comment:
/// A's files in their order, each with its match in B, then B's unmatched files in their order.
/// O(|a| |b|) comparisons of paths: a program has tens or hundreds of files, not values' counts.
inline std::vector<matched_source_file> match_source_files(std::vector<std::string_view> const& a,
                                                           std::vector<std::string_view> const& b) {
    constexpr std::size_t none = static_cast<std::size_t>(-1), tie = none - 1;
    std::vector<std::size_t> b_of_a(a.size(), none), a_of_b(b.size(), none);
    std::unordered_map<std::string_view, std::size_t> index_b;
    for (std::size_t j = 0; j < b.size(); ++j) index_b.emplace(b[j], j);
    for (std::size_t i = 0; i < a.size(); ++i) {
        auto it = index_b.find(a[i]);
        if (it != index_b.end()) b_of_a[i] = it->second, a_of_b[it->second] = i;
    }
    // Each unmatched file's only partner with the longest tail (of at least the file name), or
    // `tie` when two share it.
    auto best = [&](std::vector<std::string_view> const& from, std::vector<std::size_t> const& from_matched,
                    std::vector<std::string_view> const& to, std::vector<std::size_t> const& to_matched) {
        std::vector<std::size_t> out(from.size(), none);
        for (std::size_t i = 0; i < from.size(); ++i) {
            if (from_matched[i] != none) continue;
            std::size_t longest = 0;
            for (std::size_t j = 0; j < to.size(); ++j) {
                if (to_matched[j] != none) continue;
                std::size_t const n = common_tail_length(from[i], to[j]);
                if (n == 0 || n < longest) continue;
                out[i] = n == longest ? tie : j;
                longest = n;
            }
        }
        return out;
    };
    std::vector<std::size_t> const best_b = best(a, b_of_a, b, a_of_b), best_a = best(b, a_of_b, a, b_of_a);
    for (std::size_t i = 0; i < a.size(); ++i) {
        std::size_t const j = best_b[i];
        if (j < b.size() && best_a[j] == i) b_of_a[i] = j, a_of_b[j] = i;
    }
    std::vector<matched_source_file> out;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (b_of_a[i] == none) {
            out.push_back({a[i], {}, a[i]});
        } else {
            std::string_view const pb = b[b_of_a[i]];
            out.push_back({a[i], pb, a[i] == pb ? a[i] : path_tail(a[i], common_tail_length(a[i], pb))});
        }
    }
    for (std::size_t j = 0; j < b.size(); ++j) {
        if (a_of_b[j] == none) out.push_back({{}, b[j], b[j]});
    }
    return out;
}

/// The files of two sides matched (match_source_files), looked up by either side's path.
class source_file_index {
public:
    source_file_index() = default;
    source_file_index(std::vector<std::string_view> const& a, std::vector<std::string_view> const& b)
        : files_(match_source_files(a, b)) {
        for (std::size_t k = 0; k < files_.size(); ++k) {
            if (!files_[k].a.empty()) of_a_.emplace(files_[k].a, k);
            if (!files_[k].b.empty()) of_b_.emplace(files_[k].b, k);
            across_roots_ = across_roots_ || files_[k].across_roots();
        }
    }
    std::vector<matched_source_file> const& files() const noexcept { return files_; }
    /// The file of a path of A (`side_b` false) or of B; null for a path not given.
    matched_source_file const* find(std::string_view path, bool side_b) const {
        auto const& map = side_b ? of_b_ : of_a_;
        auto it = map.find(path);
        return it == map.end() ? nullptr : &files_[it->second];
    }
    /// The path a file is known by on both sides: A's when A has it, else B's.
    std::string_view key_of(std::string_view path, bool side_b) const {
        auto const* f = find(path, side_b);
        return !f ? path : f->a.empty() ? f->b : f->a;
    }
    /// Whether any file has two different paths (else every key is the path itself).
    bool across_roots() const noexcept { return across_roots_; }

private:
    std::vector<matched_source_file> files_;
    std::unordered_map<std::string_view, std::size_t> of_a_, of_b_;
    bool across_roots_ = false;
};

}  // namespace hlomem

#endif  // HLOMEM_HLO_SOURCE_PATH_HPP
