// generate_module: writes a realistic scheduled HLO module of about N instructions by replicating
// a real one, for measuring how hlomem's module parser and liveness analysis scale.
//
//   generate_module SEED.hlo N OUT.hlo
//
// Replica r of the seed gets the suffix `.rN` on every `%name` (instructions and computations),
// its entry parameters are renumbered after those of replica r-1, and the entry computations of
// all replicas are concatenated, in schedule order, into one ENTRY whose ROOT is the last
// replica's. The module header keeps only `is_scheduled=true` (the entry layout and aliasing of
// the seed no longer describe the result). The seed must name instructions with `%`, as XLA's
// dumps do by default.
#include <hlomem/hlomem.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace {

bool identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

/// Appends `.rN` to every `%name` of `line` and renumbers `parameter(i)` by `parameter_shift`.
std::string replicate_line(std::string_view line, std::string const& suffix, std::int64_t parameter_shift) {
    std::string out;
    out.reserve(line.size() + 64);
    for (std::size_t i = 0; i < line.size();) {
        if (line[i] == '%') {
            std::size_t j = i + 1;
            while (j < line.size() && identifier_char(line[j])) ++j;
            out.append(line.substr(i, j - i)).append(suffix);
            i = j;
        } else if (parameter_shift != 0 && line.compare(i, 10, "parameter(") == 0) {
            std::size_t j = i + 10;
            std::int64_t n = 0;
            while (j < line.size() && line[j] >= '0' && line[j] <= '9') n = n * 10 + (line[j++] - '0');
            out.append("parameter(").append(std::to_string(n + parameter_shift));
            i = j;
        } else {
            out.push_back(line[i++]);
        }
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: generate_module SEED.hlo N OUT.hlo\n";
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::string const text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto const seed = hlomem::parse_hlo_module<hlomem::view_policy>(text, argv[1]);
    std::int64_t const parameters = static_cast<std::int64_t>(seed.parameters(seed.entry()).size());

    // Split the text into lines, and find the entry computation's lines.
    std::vector<std::string_view> lines;
    for (std::size_t p = 0; p < text.size();) {
        std::size_t const e = text.find('\n', p);
        std::size_t const end = e == std::string::npos ? text.size() : e;
        lines.push_back(std::string_view(text).substr(p, end - p));
        p = end + 1;
    }
    std::size_t entry_begin = lines.size(), entry_end = lines.size();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].rfind("ENTRY ", 0) == 0) entry_begin = i;
        if (entry_begin < lines.size() && i > entry_begin && lines[i] == "}") {
            entry_end = i;
            break;
        }
    }
    if (entry_begin == lines.size() || entry_end == lines.size() || text.find(" = ") == std::string::npos ||
        lines[entry_begin + 1].find('%') == std::string_view::npos) {
        std::cerr << "generate_module: the seed needs an ENTRY computation that names instructions with '%'\n";
        return 2;
    }

    std::size_t const wanted = static_cast<std::size_t>(std::strtoull(argv[2], nullptr, 10));
    std::size_t const per_replica = seed.instruction_count();
    std::size_t const replicas = std::max<std::size_t>(1, (wanted + per_replica - 1) / per_replica);

    std::ofstream out(argv[3], std::ios::binary);
    out << "HloModule " << std::string_view(seed.name()) << "_x" << replicas << ", is_scheduled=true\n\n";
    for (std::size_t r = 0; r < replicas; ++r) {  // every computation but the entry, per replica
        std::string const suffix = ".r" + std::to_string(r);
        for (std::size_t i = 1; i < lines.size(); ++i) {
            if (i >= entry_begin && i <= entry_end) continue;
            if (lines[i].rfind("HloModule ", 0) == 0) continue;
            out << replicate_line(lines[i], suffix, 0) << '\n';
        }
    }
    out << "ENTRY %main {\n";
    for (std::size_t r = 0; r < replicas; ++r) {
        std::string const suffix = ".r" + std::to_string(r);
        for (std::size_t i = entry_begin + 1; i < entry_end; ++i) {
            std::string line = replicate_line(lines[i], suffix, static_cast<std::int64_t>(r) * parameters);
            auto const root = line.find("ROOT ");
            if (r + 1 < replicas && root != std::string::npos && line.find_first_not_of(' ') == root) line.erase(root, 5);
            out << line << '\n';
        }
    }
    out << "}\n";
    std::cerr << "generate_module: " << replicas << " replicas, " << replicas * per_replica << " instructions\n";
    return out ? 0 : 1;
}
