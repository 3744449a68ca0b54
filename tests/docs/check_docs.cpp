// check_docs: what keeps hlomem's documents from drifting away from the code (tests/CMakeLists.txt,
// the `docs:` tests). Standard C++17 only: it reads text, it does not use hlomem.
//
//   check_docs tour README.md OUT.cpp    the C++ of README.md's "A short tour", as a program whose
//                                        value comments are checks (below); the build compiles
//                                        and ctest runs it
//   check_docs layers CMAKELISTS MD...   each "| folder | ... | may include ..." table of the MD
//                                        files against tests/CMakeLists.txt's hlomem_layers
//   check_docs citations ROOT            every repository path the documents and the comments of
//                                        include/ cite exists under ROOT
//   check_docs figures README BENCHMARKS every speed, time, ratio and size README states is
//                                        one BENCHMARKS.md (written by run_benchmarks.sh) holds
//   check_docs commands MAIN DIR MD...   the command table of the tool's MAIN against the files of
//                                        DIR (commands/NAME.cpp) and each MD: its row
//                                        "| `commands/NAME.cpp` | ...: `a`, `b` |" lists them all,
//                                        or, without that row, it shows each as `hlomem NAME
//
// A value comment (the README says so above its tour): a statement followed, on its line or
// alone on the next, by a comment that begins with a value (a number, true, false, a "string" or
// an hlomem:: name) and then `:` or the end of the comment, states that value. `EXPR;  // V: why`
// becomes a check that EXPR == V; `TYPE NAME = EXPR;  // V` checks NAME. Any other comment is
// prose.
//
// Each command prints what disagrees, as FILE:LINE: ..., and exits 1 when anything does.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

int problems = 0;

void report(std::string const& file, std::size_t line, std::string const& message) {
    ++problems;
    std::cerr << file << ":" << line << ": " << message << "\n";
}

std::vector<std::string> read_lines(fs::path const& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "check_docs: cannot open '" << path.string() << "'\n";
        std::exit(2);
    }
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

std::string trim(std::string const& s) {
    auto const b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// --- tour ------------------------------------------------------------------------------------

/// A line of C++ cut into its code and its `//` comment (outside string and character literals).
struct cpp_line {
    std::string code;     ///< trimmed
    std::string comment;  ///< after `//`, trimmed; empty when there is none
    bool has_comment = false;
};

cpp_line split_comment(std::string const& line) {
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        char const c = line[i];
        if (quote) {
            if (c == '\\') ++i;
            else if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
            return {trim(line.substr(0, i)), trim(line.substr(i + 2)), true};
        }
    }
    return {trim(line), {}, false};
}

/// The value a comment begins with, or "" when it is prose.
std::string stated_value(std::string const& comment) {
    static std::regex const value(R"(^(-?[0-9][0-9']*|true|false|"(?:[^"\\]|\\.)*"|hlomem::[A-Za-z_][A-Za-z_0-9:]*)(:|$))");
    std::smatch m;
    return std::regex_search(comment, m, value) ? m[1].str() : std::string();
}

/// `R"hlomem_tour(text)hlomem_tour"`: the statement as the README spells it, for messages.
std::string raw_literal(std::string const& text) { return "R\"hlomem_tour(" + text + ")hlomem_tour\""; }

/// The C++ blocks of README.md's "## A short tour" section, as (line number, text).
std::vector<std::pair<std::size_t, std::string>> tour_lines(std::vector<std::string> const& lines) {
    std::vector<std::pair<std::size_t, std::string>> out;
    bool in_section = false, in_block = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string const& l = lines[i];
        if (!in_block && l.rfind("## ", 0) == 0) in_section = l == "## A short tour";
        if (!in_section) continue;
        if (!in_block && l == "```cpp") {
            in_block = true;
        } else if (in_block && l == "```") {
            in_block = false;
        } else if (in_block) {
            out.emplace_back(i + 1, l);
        }
    }
    return out;
}

/// Writes the tour as a program: its #include lines first, its statements in main(), each
/// preceded by `#line` so that compiler errors and failed checks name README.md's lines.
int extract_tour(fs::path const& readme, fs::path const& out_path) {
    auto const tour = tour_lines(read_lines(readme));
    std::string const file = fs::absolute(readme).lexically_normal().generic_string();
    if (tour.empty()) report(file, 1, "no ```cpp block under \"## A short tour\"");
    static std::regex const declaration(R"(^(?:auto|[A-Za-z_][A-Za-z_0-9:<>]*)\s+([A-Za-z_][A-Za-z_0-9]*)\s*=\s*[^=].*;$)");
    std::ostringstream includes, body;
    std::size_t checks = 0;
    for (std::size_t i = 0; i < tour.size(); ++i) {
        auto const& [number, text] = tour[i];
        cpp_line const l = split_comment(text);
        std::string const directive = "#line " + std::to_string(number) + " \"" + file + "\"\n";
        if (l.code.rfind("#include", 0) == 0) {
            includes << directive << text << "\n";
            continue;
        }
        std::string value = l.has_comment ? stated_value(l.comment) : std::string();
        if (l.code.empty() && !value.empty()) {
            report(file, number, "a value comment that follows no statement: " + text);
            continue;
        }
        // A value alone on the next line belongs to this statement.
        if (value.empty() && !l.has_comment && !l.code.empty() && i + 1 < tour.size()) {
            cpp_line const next = split_comment(tour[i + 1].second);
            if (next.code.empty() && next.has_comment && !stated_value(next.comment).empty()) {
                value = stated_value(next.comment);
                ++i;
            }
        }
        body << directive;
        if (value.empty()) {
            body << "    " << text << "\n";
            continue;
        }
        if (l.code.back() != ';' || l.code.rfind("for", 0) == 0 || l.code.rfind("if", 0) == 0) {
            report(file, number, "a value comment after what is not one whole statement: " + text);
            continue;
        }
        ++checks;
        std::string const expression = l.code.substr(0, l.code.size() - 1);
        std::smatch m;
        std::string checked = expression;
        if (std::regex_match(l.code, m, declaration)) {
            body << "    " << l.code << "\n" << directive;
            checked = m[1].str();
        }
        body << "    hlomem_tour::check(" << number << ", " << raw_literal(checked) << ", " << raw_literal(value)
             << ", (" << checked << "), " << value << ");\n";
    }
    std::ofstream out(out_path, std::ios::binary);
    out << "// Generated from " << file << " by tests/docs/check_docs.cpp (tour): do not edit.\n"
        << "#include \"tour_support.hpp\"\n"
        << includes.str() << "\nint main() {\n"
        << body.str() << "#line 1 \"" << out_path.generic_string() << "\"\n"
        << "    return hlomem_tour::finish(\"" << file << "\", " << checks << ");\n}\n";
    if (!out) report(out_path.string(), 1, "cannot write");
    return problems ? 1 : 0;
}

// --- layers ----------------------------------------------------------------------------------

/// tests/CMakeLists.txt's `set(hlomem_layers "FOLDER=A|B|..." ...)`: each folder and what it may
/// include.
std::map<std::string, std::set<std::string>> cmake_layers(fs::path const& cmakelists) {
    std::map<std::string, std::set<std::string>> layers;
    bool inside = false;
    static std::regex const entry(R"re("([a-z_]+)=([a-z_|]*)")re");
    for (std::string const& line : read_lines(cmakelists)) {
        if (!inside) {
            inside = trim(line).rfind("set(hlomem_layers", 0) == 0;
            if (!inside) continue;
        }
        for (std::sregex_iterator it(line.begin(), line.end(), entry), end; it != end; ++it) {
            std::set<std::string>& allowed = layers[(*it)[1].str()];
            std::stringstream list((*it)[2].str());
            for (std::string folder; std::getline(list, folder, '|');) allowed.insert(folder);
        }
        if (line.find(')') != std::string::npos) break;
    }
    if (layers.empty()) report(cmakelists.string(), 1, "no set(hlomem_layers ...) list");
    return layers;
}

std::vector<std::string> table_cells(std::string const& row) {
    std::vector<std::string> cells;
    std::string t = trim(row);
    if (t.size() < 2 || t.front() != '|') return cells;
    std::stringstream in(t.substr(1, t.size() - (t.back() == '|' ? 2 : 1)));
    for (std::string cell; std::getline(in, cell, '|');) cells.push_back(trim(cell));
    return cells;
}

std::string joined(std::set<std::string> const& s) {
    std::string out;
    for (auto const& x : s) out += (out.empty() ? "" : " ") + x;
    return out.empty() ? "-" : out;
}

/// Each "| folder | ... | may include (and `detail/`) |" table of `md` against `layers`: a row a
/// layer, its list in backquotes (`core dump`) or `-`, detail/ implied.
void check_layer_table(fs::path const& md, std::map<std::string, std::set<std::string>> const& layers) {
    auto const lines = read_lines(md);
    std::size_t tables = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        auto const header = table_cells(lines[i]);
        auto const column = std::find_if(header.begin(), header.end(), [](std::string const& c) { return c.rfind("may include", 0) == 0; });
        if (header.empty() || header[0] != "folder" || column == header.end()) continue;
        ++tables;
        std::size_t const index = static_cast<std::size_t>(column - header.begin());
        std::set<std::string> rows;
        std::size_t j = i + 2;
        for (; j < lines.size() && !table_cells(lines[j]).empty(); ++j) {
            auto const cells = table_cells(lines[j]);
            static std::regex const folder_cell(R"(^`([a-z_]+)/`$)");
            std::smatch m;
            if (cells.size() <= index || !std::regex_match(cells[0], m, folder_cell)) {
                report(md.string(), j + 1, "a row of the layer table that names no `folder/`: " + lines[j]);
                continue;
            }
            std::string const folder = m[1].str();
            rows.insert(folder);
            std::set<std::string> stated = {"detail"};
            static std::regex const list_cell(R"(^(-|`[a-z_ ]+`)$)");
            if (!std::regex_match(cells[index], list_cell)) {
                report(md.string(), j + 1, folder + "/: write what it may include as `a b c` or -, not '" + cells[index] + "'");
                continue;
            }
            std::stringstream words(cells[index] == "-" ? "" : cells[index].substr(1, cells[index].size() - 2));
            for (std::string w; words >> w;) stated.insert(w);
            auto const it = layers.find(folder);
            if (it == layers.end()) {
                report(md.string(), j + 1, folder + "/ is not in tests/CMakeLists.txt's hlomem_layers");
            } else if (it->second != stated) {
                std::set<std::string> shown = it->second;
                shown.erase("detail");
                report(md.string(), j + 1, folder + "/ may include `" + joined(shown) +
                                               "` by tests/CMakeLists.txt's hlomem_layers; the table says " + cells[index]);
            }
        }
        for (auto const& [folder, allowed] : layers) {
            if (!rows.count(folder)) report(md.string(), j, "the layer table has no row for " + folder + "/ (hlomem_layers has one)");
        }
    }
    if (tables == 0) report(md.string(), 1, "no \"| folder | ... | may include ... |\" table");
}

// --- citations -------------------------------------------------------------------------------

/// The comment text of a header's lines (the rest blanked), so that line numbers stay.
std::vector<std::string> comments_of(std::vector<std::string> const& lines) {
    std::vector<std::string> out;
    bool in_block = false;
    for (std::string const& line : lines) {
        std::string text;
        char quote = 0;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (in_block) {
                if (line.compare(i, 2, "*/") == 0) {
                    in_block = false;
                    ++i;
                } else {
                    text += line[i];
                }
            } else if (quote) {
                if (line[i] == '\\') ++i;
                else if (line[i] == quote) quote = 0;
            } else if (line[i] == '"' || line[i] == '\'') {
                quote = line[i];
            } else if (line.compare(i, 2, "//") == 0) {
                text += line.substr(i + 2);
                break;
            } else if (line.compare(i, 2, "/*") == 0) {
                in_block = true;
                ++i;
            }
        }
        out.push_back(text);
    }
    return out;
}

/// Whether `pattern` (a path whose parts may hold `*`, `<name>` or an upper-case placeholder such
/// as NAME or LAYER) names something under `root`.
bool cited_path_exists(fs::path const& root, std::string const& pattern) {
    static std::regex const placeholder(R"(\*|<[^>]*>|\b(?:NAME|LAYER|FOLDER|NN|N|X|KIND)\b)");
    std::vector<fs::path> candidates = {root};
    std::stringstream parts(pattern);
    for (std::string part; std::getline(parts, part, '/');) {
        if (part.empty() || part == ".") continue;
        std::vector<fs::path> next;
        bool const wild = std::regex_search(part, placeholder);
        std::string re;
        if (wild) {
            // Each placeholder stands for one or more characters of a name; the rest is literal.
            std::string literal;
            auto flush = [&] {
                for (char c : literal) re += std::string(std::strchr(".^$|()[]{}+?\\", c) ? "\\" : "") + c;
                literal.clear();
            };
            std::size_t at = 0;
            for (std::sregex_iterator it(part.begin(), part.end(), placeholder), end; it != end; ++it) {
                literal = part.substr(at, static_cast<std::size_t>(it->position()) - at);
                flush();
                re += ".+";
                at = static_cast<std::size_t>(it->position() + it->length());
            }
            literal = part.substr(at);
            flush();
        }
        std::regex const part_re(wild ? re : std::string("x"));
        for (fs::path const& c : candidates) {
            if (!wild) {
                if (fs::exists(c / part)) next.push_back(c / part);
                continue;
            }
            if (!fs::is_directory(c)) continue;
            for (auto const& e : fs::directory_iterator(c)) {
                if (std::regex_match(e.path().filename().string(), part_re)) next.push_back(e.path());
            }
        }
        candidates = std::move(next);
        if (candidates.empty()) return false;
    }
    return true;
}

/// The repository paths `text` cites: paths from the repository's top folders, `<hlomem/...>`
/// and hlomem/... (include/hlomem/...), and, in headers, a layer's own paths (`load/kind.hpp`).
/// A path inside another (xla/docs/tiled_layout.md, a URL) is not ours and is left alone.
std::vector<std::string> cited_paths(std::string const& text, std::set<std::string> const& layers, bool header) {
    static std::regex const ours(
        R"((^|[^A-Za-z0-9_./*<>-])((?:\.ci|include|tests|docs|examples|benchmarks|scripts|python|fuzz|cmake|hlomem)/[A-Za-z0-9_./*<>{}-]*[A-Za-z0-9_*>}/]))");
    std::vector<std::string> out;
    for (std::sregex_iterator it(text.begin(), text.end(), ours), end; it != end; ++it) {
        std::string path = (*it)[2].str();
        if (path.rfind("hlomem/", 0) == 0) path = "include/" + path;
        out.push_back(path);
    }
    if (header) {
        std::string alternatives;
        for (auto const& l : layers) alternatives += (alternatives.empty() ? "" : "|") + l;
        std::regex const layer_path("(^|[^A-Za-z0-9_./-])((?:" + alternatives + ")/[A-Za-z0-9_/]+\\.hpp)");
        for (std::sregex_iterator it(text.begin(), text.end(), layer_path), end; it != end; ++it) {
            out.push_back("include/hlomem/" + (*it)[2].str());
        }
    }
    return out;
}

/// Markdown links and images, `[text](target)`, whose target is a file of this repository.
std::vector<std::string> linked_paths(std::string const& text) {
    static std::regex const link(R"(\]\(([^)\s#]+)(?:#[^)]*)?\))");
    std::vector<std::string> out;
    for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it) {
        std::string const target = (*it)[1].str();
        if (target.find("://") == std::string::npos && target.rfind("mailto:", 0) != 0) out.push_back(target);
    }
    return out;
}

int check_citations(fs::path const& root) {
    std::set<std::string> layers;
    std::vector<fs::path> headers;
    if (fs::is_directory(root / "include" / "hlomem")) {
        for (auto const& e : fs::directory_iterator(root / "include" / "hlomem")) {
            if (e.is_directory()) layers.insert(e.path().filename().string());
        }
        for (auto const& e : fs::recursive_directory_iterator(root / "include")) {
            if (e.path().extension() == ".hpp") headers.push_back(e.path());
        }
    }
    std::vector<fs::path> documents;
    for (fs::path const& top : {root / "README.md", root / "BENCHMARKS.md"}) {
        if (fs::exists(top)) documents.push_back(top);
    }
    for (fs::path const& dir : {root / "docs", root / "benchmarks", root / "python"}) {
        if (!fs::is_directory(dir)) continue;
        for (auto const& e : fs::directory_iterator(dir)) {
            if (e.path().extension() == ".md") documents.push_back(e.path());
        }
    }
    std::sort(documents.begin(), documents.end());
    std::sort(headers.begin(), headers.end());
    std::size_t cited = 0;
    auto check = [&](fs::path const& file, bool header) {
        auto lines = read_lines(file);
        if (header) lines = comments_of(lines);
        std::string const name = fs::relative(file, root).generic_string();
        for (std::size_t i = 0; i < lines.size(); ++i) {
            for (std::string const& path : cited_paths(lines[i], layers, header)) {
                ++cited;
                if (!cited_path_exists(root, path)) report(name, i + 1, "cites " + path + ", which the repository lacks");
            }
            if (header) continue;
            for (std::string const& target : linked_paths(lines[i])) {
                ++cited;
                if (!cited_path_exists(file.parent_path(), target)) report(name, i + 1, "links to " + target + ", which the repository lacks");
            }
        }
    };
    for (auto const& d : documents) check(d, false);
    for (auto const& h : headers) check(h, true);
    std::cout << documents.size() << " documents and " << headers.size() << " headers cite " << cited
              << " repository paths" << (problems ? "" : "; each exists") << "\n";
    return problems ? 1 : 0;
}

// --- figures ---------------------------------------------------------------------------------

/// The figures of `text`: a number, or a range ("272-536 MB/s": both ends), and a unit of speed,
/// time, ratio or size ("356 MB/s", "1.50 s", "0.96×", "1.44 GiB"), each as "NUMBER UNIT".
std::vector<std::string> figures(std::string const& text) {
    static std::regex const figure(
        R"((^|[^A-Za-z0-9_.^])([0-9][0-9,]*(?:\.[0-9]+)?)(?:(?:-|–| to )([0-9][0-9,]*(?:\.[0-9]+)?))? ?(MB/s|GB/s|KB/s|ms|µs|us|ns|s|×|x|GiB|MiB|KiB)(?![A-Za-z0-9_/]))");
    std::vector<std::string> out;
    for (std::sregex_iterator it(text.begin(), text.end(), figure), end; it != end; ++it) {
        std::string const unit = (*it)[4].str();
        out.push_back((*it)[2].str() + " " + unit);
        if ((*it)[3].matched) out.push_back((*it)[3].str() + " " + unit);  // both ends of a range
    }
    return out;
}

int check_figures(fs::path const& readme, fs::path const& benchmarks) {
    std::set<std::string> held;
    for (std::string const& line : read_lines(benchmarks)) {
        for (std::string const& f : figures(line)) held.insert(f);
    }
    auto const lines = read_lines(readme);
    std::size_t stated = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        for (std::string f : figures(lines[i])) {
            ++stated;
            if (f.back() == 'x') f = f.substr(0, f.size() - 1) + "×";
            if (!held.count(f)) {
                report(readme.string(), i + 1, "states " + f + ", a figure " + benchmarks.filename().string() +
                                                   " does not hold (benchmarks/run_benchmarks.sh writes it)");
            }
        }
    }
    std::cout << readme.filename().string() << " states " << stated << " figures; " << benchmarks.filename().string()
              << " holds " << held.size() << "\n";
    return problems ? 1 : 0;
}

}  // namespace

// --- functions ---------------------------------------------------------------------------------

/// docs/ARCHITECTURE.md's rule that no function is over `max` lines, on the headers of
/// include/hlomem/, the tool (examples/) and the Python module (python/src/). The code is
/// formatted with four-space indents, so a function at namespace scope (or a member function)
/// ends with a line that is `}` alone at column 0 (4), and begins at the last line before it that
/// starts at that column with code: its signature's first line (`template <...>`, `inline ...`).
/// A block inside a function that is matched so (`    for (...) {` ... `    }`) is shorter than its
/// function, so no function over the limit is missed and none under it reported.
int check_functions(fs::path const& root, std::size_t max) {
    std::vector<fs::path> files;
    for (fs::path const& dir : {root / "include" / "hlomem", root / "examples", root / "python" / "src"}) {
        if (!fs::is_directory(dir)) continue;
        for (auto const& e : fs::recursive_directory_iterator(dir)) {
            auto const ext = e.path().extension();
            if (ext == ".hpp" || ext == ".cpp") files.push_back(e.path());
        }
    }
    std::sort(files.begin(), files.end());
    std::size_t functions = 0;
    for (fs::path const& file : files) {
        auto const lines = read_lines(file);
        for (std::size_t indent : {std::size_t(0), std::size_t(4)}) {
            std::string const pad(indent, ' ');
            for (std::size_t end = 0; end < lines.size(); ++end) {
                if (lines[end] != pad + "}") continue;
                std::size_t begin = end;
                while (begin > 0) {
                    std::string const& l = lines[--begin];
                    if (l.size() > indent && l.compare(0, indent, pad) == 0 && l[indent] != ' ' && l[indent] != '}' && l[indent] != '#' &&
                        l.compare(indent, 2, "//") != 0) {
                        break;
                    }
                }
                ++functions;
                std::size_t const length = end - begin + 1;
                if (length > max) {
                    report(fs::relative(file, root).generic_string(), begin + 1,
                           std::to_string(length) + " lines, over the " + std::to_string(max) + " a function may have: " + trim(lines[begin]));
                }
            }
        }
    }
    if (!problems) std::cout << functions << " functions and blocks, none over " << max << " lines\n";
    return problems ? 1 : 0;
}

// --- commands ---------------------------------------------------------------------------------

/// The tool's commands by its command table (`{"report", hlomem_cli::run_report},` in MAIN), its
/// files (DIR/NAME.cpp) and each document: a document with the row of the tool's files
/// ("| `commands/NAME.cpp` | ...") lists every command there, one without it shows each as
/// `hlomem NAME ...` (TOOL.md, README.md).
int check_commands(fs::path const& main_cpp, fs::path const& dir, std::vector<fs::path> const& documents) {
    std::set<std::string> table;
    static std::regex const entry(R"re(\{"([a-z_]+)", hlomem_cli::run_([a-z_]+)\})re");
    auto const main_lines = read_lines(main_cpp);
    for (std::size_t i = 0; i < main_lines.size(); ++i) {
        for (std::sregex_iterator it(main_lines[i].begin(), main_lines[i].end(), entry), end; it != end; ++it) {
            if ((*it)[1].str() != (*it)[2].str()) {
                report(main_cpp.string(), i + 1, "command " + (*it)[1].str() + " runs run_" + (*it)[2].str());
            }
            table.insert((*it)[1].str());
        }
    }
    if (table.empty()) report(main_cpp.string(), 1, "no command table ({\"NAME\", hlomem_cli::run_NAME})");
    std::set<std::string> files;
    for (auto const& e : fs::directory_iterator(dir)) {
        if (e.path().extension() == ".cpp") files.insert(e.path().stem().string());
    }
    for (auto const& name : table) {
        if (!files.count(name)) report(main_cpp.string(), 1, "command " + name + " has no " + (dir / (name + ".cpp")).string());
    }
    for (auto const& name : files) {
        if (!table.count(name)) report((dir / (name + ".cpp")).string(), 1, "is in no command table of " + main_cpp.string());
    }
    for (fs::path const& md : documents) {
        auto const lines = read_lines(md);
        bool row = false;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            auto const cells = table_cells(lines[i]);
            if (cells.size() < 2 || cells[0] != "`commands/NAME.cpp`") continue;
            row = true;
            std::set<std::string> listed;
            std::string const& job = cells[1];
            static std::regex const word("`([a-z_]+)`");
            auto const colon = job.find(':');
            std::string const list = colon == std::string::npos ? std::string() : job.substr(colon);
            for (std::sregex_iterator it(list.begin(), list.end(), word), end; it != end; ++it) listed.insert((*it)[1].str());
            if (listed != table) {
                report(md.string(), i + 1, "lists the commands `" + joined(listed) + "`; the tool has `" + joined(table) + "`");
            }
        }
        if (row) continue;
        std::string text;
        for (auto const& l : lines) text += l + "\n";
        for (auto const& name : table) {
            if (text.find("`hlomem " + name + " ") == std::string::npos && text.find("`hlomem " + name + "`") == std::string::npos) {
                report(md.string(), 1, "never shows `hlomem " + name + " ...`, a command of the tool");
            }
        }
    }
    if (!problems) std::cout << table.size() << " commands; their files and every document agree\n";
    return problems ? 1 : 0;
}

// --- tests -----------------------------------------------------------------------------------

/// The first cells of the rows of the table under `## HEADING` in `md` (up to the next heading),
/// backquotes taken off, with their lines.
std::map<std::string, std::size_t> table_rows(std::vector<std::string> const& md, std::string const& heading) {
    std::map<std::string, std::size_t> out;
    bool inside = false;
    for (std::size_t i = 0; i < md.size(); ++i) {
        if (md[i].rfind("## ", 0) == 0) inside = md[i] == "## " + heading;
        if (!inside) continue;
        auto const cells = table_cells(md[i]);
        if (cells.size() < 2 || cells[0].size() < 3 || cells[0].front() != '`' || cells[0].back() != '`') continue;
        out.emplace(cells[0].substr(1, cells[0].size() - 2), i + 1);
    }
    return out;
}

/// Tests one to one with headers: each header LAYER/H.hpp of ROOT/include/hlomem has its test
/// file tests/unit/LAYER/H.test.cpp, or a row in tests/unit/README.md's table "Headers without a
/// test file of their own" (where its code is tested, or why it has no logic); each test file is
/// named after a header of its folder or has a row in "Test files of a data set or of several
/// headers"; no row names what is not there or what has a file; tests/CMakeLists.txt builds
/// every test file and no other.
int check_tests(fs::path const& root) {
    fs::path const readme = root / "tests" / "unit" / "README.md";
    auto const md = read_lines(readme);
    auto const untested = table_rows(md, "Headers without a test file of their own");
    auto const shared = table_rows(md, "Test files of a data set or of several headers");
    std::set<std::string> headers, tests;
    for (auto const& e : fs::recursive_directory_iterator(root / "include" / "hlomem")) {
        fs::path const rel = fs::relative(e.path(), root / "include" / "hlomem");
        if (e.path().extension() == ".hpp" && std::distance(rel.begin(), rel.end()) == 2) {
            headers.insert((rel.parent_path() / rel.stem()).generic_string());
        }
    }
    for (auto const& e : fs::recursive_directory_iterator(root / "tests" / "unit")) {
        std::string const name = e.path().filename().string();
        if (name.size() > 9 && name.compare(name.size() - 9, 9, ".test.cpp") == 0) {
            fs::path const rel = fs::relative(e.path(), root / "tests" / "unit");
            tests.insert((rel.parent_path() / name.substr(0, name.size() - 9)).generic_string());
        }
    }
    for (auto const& h : headers) {
        if (!tests.count(h) && !untested.count(h)) {
            report(readme.string(), 1, "include/hlomem/" + h + ".hpp has no tests/unit/" + h + ".test.cpp and no row here");
        }
    }
    for (auto const& [h, line] : untested) {
        if (!headers.count(h)) report(readme.string(), line, h + ": no such header");
        if (tests.count(h)) report(readme.string(), line, h + " has its own test file: the row goes");
    }
    for (auto const& t : tests) {
        if (!headers.count(t) && !shared.count(t)) {
            report(readme.string(), 1, "tests/unit/" + t + ".test.cpp is named after no header and has no row here");
        }
    }
    for (auto const& [t, line] : shared) {
        if (!tests.count(t)) report(readme.string(), line, t + ": no such test file");
        if (headers.count(t)) report(readme.string(), line, t + " is named after its header: the row goes");
    }
    std::set<std::string> built;
    fs::path const cmake = root / "tests" / "CMakeLists.txt";
    static std::regex const listed(R"re(^\s+unit/([a-z_0-9/]+)\.test\.cpp\s*$)re");
    auto const cmake_lines = read_lines(cmake);
    for (std::size_t i = 0; i < cmake_lines.size(); ++i) {
        std::smatch m;
        if (!std::regex_match(cmake_lines[i], m, listed)) continue;
        built.insert(m[1].str());
        if (!tests.count(m[1].str())) report(cmake.string(), i + 1, "builds tests/unit/" + m[1].str() + ".test.cpp, which is not there");
    }
    for (auto const& t : tests) {
        if (!built.count(t)) report(cmake.string(), 1, "does not build tests/unit/" + t + ".test.cpp");
    }
    if (!problems) {
        std::cout << headers.size() << " headers, " << headers.size() - untested.size() << " with a test file of their own; "
                  << tests.size() << " test files, all built\n";
    }
    return problems ? 1 : 0;
}

int main(int argc, char** argv) {
    std::vector<std::string> const args(argv + 1, argv + argc);
    if (args.size() == 3 && args[0] == "tour") return extract_tour(args[1], args[2]);
    if (args.size() >= 3 && args[0] == "layers") {
        auto const layers = cmake_layers(args[1]);
        for (std::size_t i = 2; i < args.size(); ++i) check_layer_table(args[i], layers);
        if (!problems) std::cout << layers.size() << " layers; every table agrees with hlomem_layers\n";
        return problems ? 1 : 0;
    }
    if (args.size() == 2 && args[0] == "citations") return check_citations(args[1]);
    if (args.size() == 2 && args[0] == "tests") return check_tests(args[1]);
    if (args.size() == 3 && args[0] == "functions") return check_functions(args[1], std::stoul(args[2]));
    if (args.size() == 3 && args[0] == "figures") return check_figures(args[1], args[2]);
    if (args.size() >= 4 && args[0] == "commands") {
        return check_commands(args[1], args[2], std::vector<fs::path>(args.begin() + 3, args.end()));
    }
    std::cerr << "usage: check_docs tour README.md OUT.cpp | layers CMAKELISTS MD... | citations ROOT | "
                 "figures README.md BENCHMARKS.md | functions ROOT MAX_LINES | commands MAIN DIR MD... | tests ROOT\n";
    return 2;
}
