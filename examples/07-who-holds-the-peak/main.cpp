// 07-who-holds-the-peak: which lines of the user's program hold the memory at the peak.
//
// What it shows:
//   1. attribute_values: each logical value's defining instruction's metadata, read from the
//      dump's ` from instruction: %fft.2.0 = ... metadata={op_name="jit(f)/fft"
//      source_file="/x/fft_helpers.py" source_line=86}`; given the module the dump was assigned
//      from (`*after_optimizations.txt`), what the dump's texts lack is taken from it, by
//      instruction name;
//   2. peak_holdings_by_color: each color's peak (assigned_live_bytes, slices shared by aliased
//      values counted once) split value by value, every byte held by one value;
//   3. peak_by_source_line: the peak grouped by the origin of each value's bytes (hlo/origin.hpp:
//      its own line; the line a copy, a loop's state or a fusion without metadata inherits; or
//      an argument of the function), largest first, adding up to the peak exactly; values traced
//      to nothing form the group `no source`;
//   4. peak_by_op_name: the same bytes as a tree of op_name prefixes (jit(f) -> jit(f)/while ->
//      jit(f)/while/body/...), as XLA's hlo_stack_trace groups them.
// `hlomem report DUMP` prints the same section; `hlomem timeline DUMP -o page.html` draws it.
//
// Run: 07-who-holds-the-peak [DUMP [MODULE]]   (default: the largest lorrax dump, with its module)
#include <hlomem/hlo.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/parser.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

namespace {

std::string read(std::string const& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "cannot open " << path << '\n';
        std::exit(1);
    }
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// `/global/u2/.../src/common/fft_helpers.py:86` -> `common/fft_helpers.py:86`: the last two parts.
std::string short_path(std::string const& file) {
    auto const last = file.find_last_of('/');
    if (last == std::string::npos || last == 0) return file;
    auto const before = file.find_last_of('/', last - 1);
    return before == std::string::npos ? file : file.substr(before + 1);
}

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.insert(0, width - s.size(), ' ');
    return s;
}

void print_tree(hlomem::holding_tree const& t, std::int64_t whole, int depth, int level) {
    for (auto const& c : t.children) {
        std::string name = c.name;
        if (level > 0) name = name.substr(t.name.size());  // the part this level adds: `/while`
        std::cout << "    " << std::string(2 * static_cast<std::size_t>(level), ' ') << pad(hlomem::human_bytes(c.bytes), 9) << "  "
                  << hlomem::c_unescape(name) << '\n';
        if (level + 1 < depth) print_tree(c, whole, depth, level + 1);
    }
}

}  // namespace

int main(int argc, char** argv) {
    // Run by ctest from its own folder, so the bundled dump is two levels up.
    std::string const base = "../../tests/data/corpus/lorrax/lorrax_bse_full_run_large";
    std::string const dump_path = argc > 1 ? argv[1] : base + ".buffer_assignment.txt";
    std::string const module_path = argc > 2 ? argv[2] : argc > 1 ? std::string() : base + ".after_opt.hlo";
    auto const ba = hlomem::parse_buffer_assignment(read(dump_path), dump_path);
    std::cout << dump_path.substr(dump_path.find_last_of('/') + 1) << ": " << ba.values.size() << " values\n";

    // 1. The metadata of every value: the dump's own, joined with the module's when there is one.
    hlomem::hlo_module module;
    if (!module_path.empty()) module = hlomem::parse_hlo_module(read(module_path), module_path);
    auto const sources = module_path.empty() ? hlomem::attribute_values(ba) : hlomem::attribute_values(ba, module);
    std::size_t named = 0, lined = 0;
    for (auto const& s : sources.values) {
        named += !s.op_name.empty();
        lined += s.has_source_line();
    }
    std::cout << "  " << sources.from_dump << " have a metadata={...} in the dump, " << sources.from_module
              << " only in the module, " << ba.values.size() - sources.with_metadata() << " none; " << named
              << " name an op, " << lined << " a source line\n";

    // 2. Each color's peak, value by value; 3. grouped by source line.
    auto const colors = hlomem::assigned_live_bytes(ba);
    auto const holdings = hlomem::peak_holdings_by_color(ba, colors, sources);
    for (auto const& h : holdings) {
        auto const lines = hlomem::peak_by_source_line(h, sources);
        std::cout << "\ncolor " << h.color << ": peak " << hlomem::human_bytes(h.bytes) << " at step " << h.time << " ("
                  << ba.live_range->instruction_at(h.time) << "), " << h.values.size() << " values live, from "
                  << lines.size() << " source lines:\n";
        std::int64_t sum = 0;
        std::size_t shown = 0;
        for (auto const& g : lines) {
            sum += g.bytes;
            if (++shown > 8) continue;
            // Each value's bytes go to their origin (hlo/origin.hpp): the line that made them, also
            // for a copy or a loop's state, which inherit it; or an argument of the function.
            std::string where = g.key.is_no_source() ? std::string("no source")
                                : g.key.is_argument()
                                    ? hlomem::c_unescape(hlomem::argument_label(g.key.argument, g.key.argument_name, g.key.donated))
                                    : short_path(hlomem::c_unescape(g.key.source_file)) + ":" + std::to_string(g.key.source_line);
            if (g.key.kind == hlomem::origin_kind::inherited) where += " (inherited)";
            std::cout << "  " << pad(hlomem::human_bytes(g.bytes), 9) << pad(std::to_string(100 * g.bytes / std::max<std::int64_t>(1, h.bytes)), 4)
                      << "%  " << where << "  (" << g.values.size() << (g.values.size() == 1 ? " value)" : " values)") << '\n';
        }
        if (lines.size() > 8) std::cout << "  ... and " << lines.size() - 8 << " more lines\n";
        std::cout << "  the lines add up to " << sum << " bytes; the peak is " << h.bytes << " bytes\n";

        // 4. The same bytes by op_name prefix, two levels deep.
        std::cout << "  by op_name:\n";
        print_tree(hlomem::peak_by_op_name(h, sources), h.bytes, 2, 0);
    }
    return 0;
}
