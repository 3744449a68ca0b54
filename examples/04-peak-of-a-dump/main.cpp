// 04-peak-of-a-dump: read a buffer-assignment dump and list what is live at its peak.
//
// What it shows:
//   1. hlomem::parse_buffer_assignment reads XLA's `*-buffer-assignment.txt` with the live ranges
//      XLA appends (`HloLiveRange (max 80)` ... `param.2{}:0-80`): allocations, values, where each
//      value sits (allocation, offset, assigned size) and when it is live (inclusive ranges);
//   2. assigned_live_bytes: for each color (memory space), the bytes the live values occupy at
//      every step of program order, with slices that share memory counted once; the peak is the
//      first step where that is highest, and InstructionSequence names the instruction there;
//   3. values_live_at: what is live at the peak, largest first; with each value's shape, its
//      allocation kind and its padding (padded bytes under the TPU size function against the
//      unpadded bytes of its data);
//   4. why XLA's own peak (`Live ranges at 78 (peak)`, compute_xla_peak) reads smaller: it adds up
//      the unpadded ByteSizeOf of each value's defining instruction, and a value of a tuple-shaped
//      instruction (fusion.10{0}, 896MiB) counts as the tuple's table of pointers (136 bytes).
// `hlomem timeline DUMP -o page.html` draws the same data (<hlomem/memory/timeline.hpp>).
//
// Run: 04-peak-of-a-dump [DUMP]   (default: seed dump 002, a TPU program with four memory spaces)
#include <hlomem/memory.hpp>
#include <hlomem/parser.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

namespace {

/// `s` and at least one space, filled to `width`.
std::string pad(std::string s, std::size_t width) {
    s.resize(std::max(width, s.size() + 1), ' ');
    return s;
}

/// The curve as a small bar chart: one column per step, `rows` lines high, the peak marked.
void draw(std::vector<std::int64_t> const& bytes, hlomem::logical_time peak, int rows) {
    std::int64_t const top = std::max<std::int64_t>(1, *std::max_element(bytes.begin(), bytes.end()));
    for (int r = rows; r >= 1; --r) {
        std::cout << "    |";
        for (std::size_t t = 0; t < bytes.size(); ++t) {
            // A column is filled up to its share of the peak, rounded up.
            bool const filled = bytes[t] * rows > (r - 1) * top;
            std::cout << (filled ? (static_cast<hlomem::logical_time>(t) == peak ? '^' : '#') : ' ');
        }
        std::cout << '\n';
    }
    std::cout << "    +" << std::string(bytes.size(), '-') << "> program order 0.." << bytes.size() - 1 << "\n";
}

}  // namespace

int main(int argc, char** argv) {
    // Run by ctest from its own folder, so the bundled dump is two levels up.
    std::string const path = argc > 1 ? argv[1] : "../../tests/data/seeds/002_b0117d631587537a.txt";
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "cannot open " << path << '\n';
        return 1;
    }
    std::string const text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto const ba = hlomem::parse_buffer_assignment(text, path);
    if (!ba.live_range) {
        std::cerr << path << " has no live ranges\n";
        return 1;
    }
    auto const& sequence = *ba.live_range;
    std::cout << path.substr(path.find_last_of('/') + 1) << ": " << ba.allocations.size() << " allocations, "
              << ba.values.size() << " values, program order 0.." << sequence.max << "\n\n";

    auto const sizing = hlomem::size_function_of(ba);  // tpu: the dump has tiled layouts
    for (auto const& color : hlomem::assigned_live_bytes(ba)) {
        std::cout << "color " << color.color << ": peak " << color.peak_bytes << " bytes ("
                  << hlomem::human_bytes(color.peak_bytes) << ") of " << hlomem::human_bytes(color.allocated_bytes)
                  << " allocated, at step " << color.peak_time << " (" << sequence.instruction_at(color.peak_time) << ")\n";
        if (color.color == 0) draw(color.bytes_at, color.peak_time, 6);
        auto const live = hlomem::values_live_at(ba, color.color, color.peak_time);
        std::cout << "  " << live.size() << (live.size() == 1 ? " value" : " values") << " live there, largest first:\n";
        std::size_t shown = 0;
        for (std::size_t i : live) {
            if (++shown > 5) {
                std::cout << "    ... and " << live.size() - 5 << " more\n";
                break;
            }
            auto const& v = ba.values[i];
            auto const& allocation = ba.allocations[v.allocation];
            auto const& shape = *ba.shape_of(v);
            std::string const name = v.display_name();
            std::string padding = "tuple";
            if (shape.is_array()) {
                std::int64_t const extra = hlomem::bytes_under(shape, sizing) - hlomem::unpadded_byte_size(shape);
                padding = extra == 0 ? "no padding" : hlomem::human_bytes(extra) + " padding";
            }
            std::cout << "    " << pad(name, 26) << pad(hlomem::human_bytes(v.size), 10) << "live "
                      << pad(std::to_string(v.live_range->start) + "-" + std::to_string(v.live_range->end), 7)
                      << pad(std::string(hlomem::to_string(allocation.kind())), 19) << pad(padding, 12)
                      << hlomem::to_string(shape) << '\n';
        }
    }

    // XLA's own figure (older XLA): ByteSizeOf of each live value's defining instruction, summed.
    auto const xla = hlomem::compute_xla_peak(ba);
    std::int64_t listed = 0;
    for (auto s : xla.sizes) listed += s;
    std::cout << "\nXLA's own peak ('Live ranges at " << xla.time << " (peak)', reproduced by compute_xla_peak): "
              << xla.values.size() << " values, " << hlomem::human_bytes(listed) << ".\n"
              << "It sizes each value by its defining instruction's shape, unpadded, all memory spaces together;\n"
              << "a value of a tuple-shaped instruction counts as the tuple's table of pointers:\n";
    for (std::size_t k = 0; k < xla.values.size(); ++k) {
        auto const& v = ba.values[xla.values[k]];
        std::cout << "    " << pad(v.name, 26) << pad(hlomem::human_bytes(xla.sizes[k]), 11) << "assigned "
                  << hlomem::human_bytes(v.size) << '\n';
    }
    return 0;
}
