// generate_dump: writes a realistic buffer-assignment dump of about N values by replicating the
// structure of a real one, for measuring how hlomem scales.
//
//   generate_dump SEED.txt N OUT.txt
//
// Replica r of the seed program runs after replica r-1: its live ranges are shifted by
// r·(max + 1), and one separator instruction ends each replica so that replicas never touch.
// Names get the suffix `.rN`, ids move by r·(largest id + 1). Parameters, outputs, constants and
// thread-local allocations are copied per replica (with new parameter numbers); the temp arena of
// each color stays one allocation that every replica reuses at the seed's offsets, as XLA's heap
// simulator would reuse it for buffers that are never live together. The stated peak is computed
// with XLA's rule, so the result is a consistent, sound dump.
#include <hlomem/hlomem.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>

namespace {

std::string renamed(std::string const& name, std::size_t r) { return name + ".r" + std::to_string(r); }

/// `%name = ...` -> `%name.rN = ...` (only the defining name; operands keep their text).
std::string renamed_instruction(std::string const& text, std::size_t r) {
    auto const eq = text.find(" = ");
    if (eq == std::string::npos) return text;
    return text.substr(0, eq) + ".r" + std::to_string(r) + text.substr(eq);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: generate_dump SEED.txt N OUT.txt\n";
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::string const text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto const seed = hlomem::parse_buffer_assignment(text, argv[1]);
    if (!seed.live_range || seed.values.empty()) {
        std::cerr << "generate_dump: the seed needs values and live ranges\n";
        return 2;
    }
    std::size_t const wanted = static_cast<std::size_t>(std::strtoull(argv[2], nullptr, 10));
    std::size_t const replicas = std::max<std::size_t>(1, (wanted + seed.values.size() - 1) / seed.values.size());
    std::int64_t const id_stride = seed.values.back().id + 1;
    hlomem::logical_time const time_stride = seed.live_range->max + 1;
    std::int64_t parameter_stride = 0;
    for (auto const& a : seed.allocations) {
        if (a.parameter_number) parameter_stride = std::max(parameter_stride, *a.parameter_number + 1);
    }

    hlomem::buffer_assignment out;
    out.shapes = seed.shapes;
    out.has_used_values = seed.has_used_values;
    // Temp arenas first keep their seed index within replica 0's block; later replicas reuse them.
    std::map<std::size_t, std::size_t> shared_temp;  // seed allocation -> output allocation
    std::vector<std::size_t> where(seed.allocations.size());
    out.live_range.emplace();
    auto& lr = *out.live_range;
    lr.max = static_cast<hlomem::logical_time>(replicas) * time_stride;
    for (std::size_t r = 0; r < replicas; ++r) {
        for (std::size_t ai = 0; ai < seed.allocations.size(); ++ai) {
            auto const& a = seed.allocations[ai];
            if (a.kind() == hlomem::allocation_kind::temp && shared_temp.count(ai)) {
                where[ai] = shared_temp[ai];
                continue;
            }
            hlomem::allocation copy = a;
            copy.index = static_cast<std::int64_t>(out.allocations.size());
            copy.values.clear();
            if (copy.parameter_number) *copy.parameter_number += static_cast<std::int64_t>(r) * parameter_stride;
            where[ai] = out.allocations.size();
            if (a.kind() == hlomem::allocation_kind::temp) shared_temp[ai] = out.allocations.size();
            out.allocations.push_back(std::move(copy));
        }
        for (auto const& v : seed.values) {
            hlomem::logical_value copy = v;
            copy.id += static_cast<std::int64_t>(r) * id_stride;
            copy.name = renamed(v.name, r);
            for (auto& p : copy.positions) p.instruction = renamed(p.instruction, r);
            for (auto& u : copy.uses) u.instruction = renamed(u.instruction, r);
            copy.instruction_text = renamed_instruction(v.instruction_text, r);
            if (copy.live_range) {
                copy.live_range->start += static_cast<hlomem::logical_time>(r) * time_stride;
                copy.live_range->end += static_cast<hlomem::logical_time>(r) * time_stride;
            }
            if (v.allocation != hlomem::npos) {
                copy.allocation = where[v.allocation];
                out.allocations[copy.allocation].values.push_back(out.values.size());
            }
            out.values.push_back(std::move(copy));
        }
        for (auto const& name : seed.live_range->instruction_sequence) lr.instruction_sequence.push_back(renamed(name, r));
        lr.instruction_sequence.push_back("replica-end.r" + std::to_string(r));
        for (auto const& range : seed.live_range->buffer_live_ranges) {
            hlomem::buffer_live_range copy = range;
            copy.name = renamed(range.name, r);
            copy.range.start += static_cast<hlomem::logical_time>(r) * time_stride;
            copy.range.end += static_cast<hlomem::logical_time>(r) * time_stride;
            lr.buffer_live_ranges.push_back(std::move(copy));
        }
    }
    out.reindex();
    for (auto& range : lr.buffer_live_ranges) range.value = out.value_index(std::string_view(range.name), range.index);
    // Values of one allocation are printed in id order.
    for (auto& a : out.allocations) {
        std::sort(a.values.begin(), a.values.end(), [&](std::size_t x, std::size_t y) { return out.values[x].id < out.values[y].id; });
    }
    out.stated_total_bytes = out.total_bytes();
    out.stated_total_human = hlomem::human_bytes(*out.stated_total_bytes);
    auto const peak = hlomem::compute_xla_peak(out, hlomem::peak_size_rule::instruction_shape);
    lr.stated_peak.emplace();
    lr.stated_peak->time = peak.time;
    for (std::size_t k = 0; k < peak.values.size(); ++k) {
        hlomem::peak_entry e;
        e.name = out.values[peak.values[k]].name;
        e.bytes = peak.sizes[k];
        lr.stated_peak->entries.push_back(std::move(e));
    }
    std::ofstream os(argv[3], std::ios::binary);
    hlomem::print_buffer_assignment(os, out);
    std::cerr << "generate_dump: " << replicas << " replicas, " << out.values.size() << " values, "
              << out.allocations.size() << " allocations, max " << lr.max << '\n';
    return 0;
}
