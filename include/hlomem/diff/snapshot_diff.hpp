// hlomem/diff/snapshot_diff.hpp: two compilations compared when either side, or both, is a
// snapshot (diff/snapshot.hpp): `hlomem diff step.hlomem.json new-buffer-assignment.txt`.
//
//   hlomem::snapshot_diff d = hlomem::diff_snapshots(snapshot_a, snapshot_b);
//   d.d.verdict, d.d.colors[0].peak_live_bytes   // as diff_assignments fills them
//   d.not_compared                               // what a snapshot does not keep
//
// A full side is snapshotted first (make_snapshot), so both sides are measured by one code. The
// figures are the ones diff_assignments computes for the same pair, and equal them: the total,
// XLA's peak, and per color the bytes by kind, the peak and its moment, padding, the temp arena
// and its bound, and the peak by source line (files matched by their longest common tail,
// hlo/source_path.hpp, as diff_assignments matches them). The verdict is diff_assignments' but
// for one case: where no source line explains a peak, it cannot name the value that does, since
// no value is matched. Not compared, and said so in `not_compared`: which value of A is which of
// B (and so the changed, new, removed, grown and shrunk values), the values that are not among
// the largest at a peak, and live ranges.
#ifndef HLOMEM_DIFF_SNAPSHOT_DIFF_HPP
#define HLOMEM_DIFF_SNAPSHOT_DIFF_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <hlomem/diff/assignment_diff.hpp>
#include <hlomem/diff/knobs.hpp>
#include <hlomem/diff/snapshot.hpp>
#include <hlomem/hlo/source_path.hpp>

namespace hlomem {

struct snapshot_diff {
    assignment_diff d;  ///< matching, changes and the lists of values empty
    memory_snapshot a, b;
    std::vector<std::string> not_compared;
};

/// The lines that say what a diff with a snapshot side cannot compare.
inline std::vector<std::string> snapshot_not_compared() {
    return {"which value of A is which of B, and so the changed, new, removed, grown and shrunk values: a snapshot keeps no values to match",
            "values that are not among the largest at a color's peak",
            "live ranges: a snapshot keeps each peak's moment, not when each value lives"};
}

/// The diff of snapshot `b` against snapshot `a` (see the file's comment).
inline snapshot_diff diff_snapshots(memory_snapshot a, memory_snapshot b) {
    snapshot_diff out;
    assignment_diff& d = out.d;
    d.total_bytes = {a.total_bytes, b.total_bytes};
    d.xla_peak_a.measured = a.xla_peak_measured;
    d.xla_peak_a.bytes = a.xla_peak_bytes;
    d.xla_peak_b.measured = b.xla_peak_measured;
    d.xla_peak_b.bytes = b.xla_peak_bytes;
    d.memory_a = a.memory;
    d.memory_b = b.memory;
    std::vector<std::string_view> files_a, files_b;
    auto gather = [](memory_snapshot const& s, std::vector<std::string_view>& files) {
        for (auto const& c : s.colors) {
            for (auto const& l : c.peak_by_source) {
                if (l.known && std::find(files.begin(), files.end(), l.file) == files.end()) files.push_back(l.file);
            }
        }
    };
    gather(a, files_a);
    gather(b, files_b);
    source_file_index const files(files_a, files_b);
    std::map<std::int64_t, color_diff> colors;
    for (auto const* s : {&a, &b}) {
        for (auto const& c : s->colors) colors[c.color].color = c.color;
    }
    for (auto& entry : colors) {
        std::int64_t const color = entry.first;
        color_diff& c = entry.second;
        std::map<std::tuple<bool, std::string, std::int64_t>, source_line_bytes> lines;
        for (bool side_b : {false, true}) {
            memory_snapshot const& s = side_b ? b : a;
            auto it = std::find_if(s.colors.begin(), s.colors.end(), [&](snapshot_color const& x) { return x.color == color; });
            if (it == s.colors.end()) continue;
            auto pick = [&](byte_pair& p) -> std::int64_t& { return side_b ? p.b : p.a; };
            pick(c.allocated_bytes) = it->allocated_bytes;
            for (auto const& kb : it->allocated_by_kind) {
                auto k = std::find_if(c.allocated_by_kind.begin(), c.allocated_by_kind.end(), [&](kind_bytes const& x) { return x.kind == kb.first; });
                if (k == c.allocated_by_kind.end()) k = c.allocated_by_kind.insert(c.allocated_by_kind.end(), kind_bytes{kb.first, {}});
                pick(k->bytes) = kb.second;
            }
            pick(c.padded_bytes) = it->padded_bytes;
            pick(c.unpadded_bytes) = it->unpadded_bytes;
            pick(c.temp_allocated_bytes) = it->temp_allocated_bytes;
            pick(c.temp_lower_bound_bytes) = it->temp_lower_bound_bytes;
            if (!it->peak_measured) continue;
            side_peak& peak = side_b ? c.peak_b : c.peak_a;
            peak.measured = true;
            peak.time = it->peak_time;
            peak.instruction = it->peak_instruction;
            pick(c.peak_live_bytes) = it->peak_bytes;
            for (auto const& l : it->peak_by_source) {
                if (l.argument >= 0) {  // keyed as measure_color keys an argument's row
                    auto& line = lines[{true, std::string(), -1 - l.argument}];
                    line.known = true;
                    line.argument = l.argument;
                    line.relative_file = l.file;
                    pick(line.bytes) += l.bytes;
                    continue;
                }
                auto& line = lines[{l.known, std::string(files.key_of(l.file, side_b)), l.line}];
                line.known = l.known;
                if (auto const* f = l.known ? files.find(l.file, side_b) : nullptr) {
                    line.source_file = std::string(f->a.empty() ? f->b : f->a);
                    line.source_file_b = std::string(f->b);
                    line.relative_file = std::string(f->shown);
                }
                line.source_line = l.line;
                pick(line.bytes) += l.bytes;
            }
        }
        std::sort(c.allocated_by_kind.begin(), c.allocated_by_kind.end(), [](kind_bytes const& x, kind_bytes const& y) { return x.kind < y.kind; });
        detail::sort_peak_by_source(lines, c.peak_by_source);
        d.colors.push_back(std::move(c));
    }
    d.verdict = detail::verdict_of(d, [](color_diff const& c) { return detail::explain_peak_by_line(c); });
    d.knobs = name_snapshot_knobs(d, a.donations, b.donations);
    out.a = std::move(a);
    out.b = std::move(b);
    out.not_compared = snapshot_not_compared();
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_DIFF_SNAPSHOT_DIFF_HPP
