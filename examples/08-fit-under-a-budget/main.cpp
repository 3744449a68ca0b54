// 08-fit-under-a-budget: which edits bring a compiled program under a memory budget, and a check
// that the edited program really fits.
//
// What it shows:
//   1. what_if: the one-time setup on a scheduled module (dataflow, aliasing, XLA's live ranges);
//      color_peak(0) is what the device's buffers hold at their highest, and live_at_color_peak
//      the values live there;
//   2. advise: every donation, and every value live at the peak rematerialized or offloaded to the
//      host from the peak on, each evaluated on the live ranges and ranked by bytes saved per
//      byte of cost; then the smallest set found that brings the peak under 90% of itself. The
//      what-if holds that set on return;
//   3. emit_module: the module's text with the set written in (the clones, the copy-start /
//      copy-done pairs to memory space 5, the input_output_alias entries), read back and its
//      peak derived from scratch (assign_module), which must be what the advice said.
// `hlomem advise --budget 90% MODULE --emit-module OUT --page OUT.html` does the same and draws
// the curves before and after.
//
// Run: 08-fit-under-a-budget [MODULE [EDITED_OUT]]   (default: the lorrax FFT loop, whose peak
// an offload brings under the budget; with EDITED_OUT, the edited module is written there too)
#include <hlomem/assign.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/parser.hpp>
#include <hlomem/whatif.hpp>

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

std::string bytes(std::int64_t b) { return std::to_string(b) + " bytes (" + hlomem::human_bytes(b) + ")"; }

/// The edit in words: `remat fusion.3 from 40`, `donate parameter 2`.
std::string said(hlomem::hlo_module const& m, hlomem::what_if_edit const& e) {
    if (e.kind == hlomem::what_if_kind::donate) return "donate parameter " + std::to_string(e.parameter_number);
    return std::string(hlomem::to_string(e.kind)) + " " + std::string(std::string_view(m.instruction(e.instruction).name)) + " from " +
           std::to_string(e.from);
}

}  // namespace

int main(int argc, char** argv) {
    // Run by ctest from its own folder, so the bundled module is two levels up.
    std::string const path = argc > 1 ? argv[1] : "../../tests/data/corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo";
    std::string const text = read(path);
    auto const module = hlomem::parse_hlo_module(text, path);
    std::cout << "module " << std::string_view(module.name()) << ": " << module.instruction_count() << " instructions\n";

    // 1. The peak of device memory (color 0) and the largest values live there.
    hlomem::what_if w(module);
    auto const before = w.color_peak(0);
    std::cout << "\npeak of color 0: " << bytes(before.bytes) << " at time " << before.time << " of " << w.max() << '\n';
    auto live = w.live_at_color_peak(0);
    std::stable_sort(live.begin(), live.end(), [&](std::size_t a, std::size_t b) { return w.buffer_bytes(a) > w.buffer_bytes(b); });
    std::cout << live.size() << " values live there, the largest:\n";
    auto const& df = w.liveness().dataflow();
    for (std::size_t k = 0; k < live.size() && k < 5; ++k) {
        auto const& v = df.values()[live[k]];
        std::cout << "  " << hlomem::human_bytes(w.buffer_bytes(live[k])) << "  " << df.name_of(v) << " ("
                  << module.opcode_name(v.instruction) << ")\n";
    }

    // 2. Advice for 90% of the peak: the set, each edit with what it saves alone and its cost.
    hlomem::advise_options options;
    options.budget_fraction = 0.9;
    auto const a = hlomem::advise(w, options);
    std::cout << "\nbudget: 90% of the peak\n" << a.candidates.size() << " candidates; the set (" << a.chosen.size() << "):\n";
    for (std::size_t j : a.chosen) {
        auto const& c = a.candidates[j];
        std::cout << "  " << said(module, c.outcome.edit) << ": saves " << bytes(c.saved) << " alone, costs "
                  << (c.cost_bytes == 0 ? std::string("nothing") : bytes(c.cost_bytes)) << '\n';
    }
    for (auto const& c : a.colors) {
        std::cout << "color " << c.color << ": before " << bytes(c.before.bytes) << ", budget " << bytes(c.budget) << ", after "
                  << bytes(c.after.bytes) << " at time " << c.after.time << " of " << w.max() << (c.fits ? ": fits\n" : ": does not fit\n");
    }

    // 3. The edited module, written and read back: its own derived peak is the advice's.
    std::string const edited = hlomem::emit_module(text, w);
    if (argc > 2) std::ofstream(argv[2], std::ios::binary) << edited;
    std::cout << "\nedited module: " << std::count(edited.begin(), edited.end(), '\n') - std::count(text.begin(), text.end(), '\n')
              << " lines more than the original\n";
    auto const back = hlomem::parse_hlo_module(edited, "edited");
    auto const r = hlomem::assign_module(back);
    bool all_same = true;
    for (auto const& c : hlomem::assigned_live_bytes(r.derived->assignment)) {
        auto const said_by_advice = std::find_if(a.colors.begin(), a.colors.end(), [&](auto const& x) { return x.color == c.color; });
        std::int64_t const expected = said_by_advice == a.colors.end() ? w.color_peak(c.color).bytes : said_by_advice->after.bytes;
        bool const same = c.peak_bytes == expected;
        all_same = all_same && same;
        std::cout << "  derived peak of color " << c.color << ": " << bytes(c.peak_bytes) << " at time " << c.peak_time
                  << (same ? ", as advised\n" : ", the advice said " + bytes(expected) + "\n");
    }
    return all_same ? 0 : 1;
}
