// hlomem/dump/printer.hpp: writes a buffer assignment and its live ranges back as XLA's text.
//
// The output follows BufferAssignment::ToString and HloLiveRange::ToString (docs/FORMATS.md
// 5.2 and 6.1) in the form the model was read from — legacy allocation addresses, shapes without
// bars, `from instruction:` without a space, the newest peak list with cumulative sums and its
// stack-trace tree — so that for XLA's own dumps print(parse(text)) == text byte for byte. Use it to
// write dumps changed or generated in code (the synthetic inputs of the benchmarks are made so).
#ifndef HLOMEM_DUMP_PRINTER_HPP
#define HLOMEM_DUMP_PRINTER_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/core/shape_table.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>

namespace hlomem {

namespace detail {

/// `1234567` or, with `spaced`, `1 234 567` (the newest breakdown's FormatBytesWithSpaces).
inline std::string byte_count_text(std::int64_t n, bool spaced) {
    return spaced ? format_bytes_with_spaces(n) : std::to_string(n);
}

template <class P>
void print_value_key(std::ostream& os, basic_logical_value<P> const& v) {
    os << '<' << v.id << ' ' << std::string_view(v.name);
    if (v.index_printed) os << to_string(v.index);
    if (v.is_phi) os << " (phi)";
    if (v.color) os << " @" << *v.color;
    os << '>';
}

}  // namespace detail

/// Writes the HloLiveRange text (every line ends with a newline), as HloLiveRange::ToString
/// (xla/hlo/utils/hlo_live_range.cc) does: the sequence, the ranges, then the stated peak in the
/// listing it holds, older (`    %s: %lld bytes`) or newest
/// (`    %s%s: %lld bytes (cumulative: %lld bytes)\n`, the index always printed), and the
/// breakdown FormatStackTraceBreakdown (xla/hlo/utils/hlo_stack_trace.cc) appends when it has one
/// (from a dump, or made from the module: hlo/stack_trace_breakdown.hpp).
template <class P>
void print_live_range(std::ostream& os, basic_hlo_live_range<P> const& lr) {
    if (lr.not_available) {
        os << "HloLiveRange not available (finalized or constructed from proto)\n";
        return;
    }
    os << "HloLiveRange (max " << lr.max << "):\n";
    // The two long lists go through one buffer, written out every 64 KiB: a module's live
    // ranges run to millions of lines, and a stream insertion per field costs more than the text.
    std::string text;
    auto flush = [&](bool force) {
        if (force || text.size() >= 65536) {
            os.write(text.data(), static_cast<std::streamsize>(text.size()));
            text.clear();
        }
    };
    text += "  InstructionSequence:\n";
    for (std::size_t t = 0; t < lr.instruction_sequence.size(); ++t) {
        text += "    ";
        detail::append_int(text, static_cast<std::int64_t>(t));
        text += ':';
        text += std::string_view(lr.instruction_sequence[t]);
        text += '\n';
        flush(false);
    }
    text += "  BufferLiveRange:\n";
    for (auto const& r : lr.buffer_live_ranges) {
        text += "    ";
        text += std::string_view(r.name);
        text += '{';
        detail::append_int_list(text, r.index);
        text += "}:";
        detail::append_int(text, static_cast<std::int64_t>(r.range.start));
        text += '-';
        detail::append_int(text, static_cast<std::int64_t>(r.range.end));
        text += '\n';
        flush(false);
    }
    flush(true);
    if (lr.peak_undetermined) os << "  " << peak_undetermined_text << '\n';
    if (!lr.stated_peak) return;
    auto const& peak = *lr.stated_peak;
    os << "  Live ranges at " << peak.time << " (peak):\n";
    for (auto const& e : peak.entries) {
        os << "    " << std::string_view(e.name);
        if (e.index) os << to_string(*e.index);
        os << ": " << e.bytes << " bytes";
        if (e.cumulative_bytes) os << " (cumulative: " << *e.cumulative_bytes << " bytes)";
        os << '\n';
    }
    if (!peak.stack_trace_total_bytes) return;
    // FormatStackTraceBreakdown's text: `"  Stack trace breakdown for peak usage: %s bytes\n"`, then
    // PrintStackTree's lines in pre-order, each `prefix + connector + name` and
    // `" (%.1f%%, total: %s bytes, current: %s bytes, remaining: %s bytes)\n"`, the figures
    // through FormatBytesWithSpaces (plain when the dump's were: an older XLA).
    bool const spaced = peak.spaced_numbers;
    os << "  Stack trace breakdown for peak usage: " << detail::byte_count_text(*peak.stack_trace_total_bytes, spaced)
       << " bytes\n";
    // The tree's drawing follows from the depths, as PrintStackTree draws it: the top-level nodes
    // at `    `; below them the connector `├── `, or `└── ` for the last of its siblings (no later
    // node at its depth before one shallower), after `│   ` for each ancestor that is not the last
    // of its siblings and `    ` for each that is.
    auto const& nodes = peak.stack_trace;
    std::vector<bool> last(nodes.size(), true);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        for (std::size_t j = i + 1; j < nodes.size() && nodes[j].depth >= nodes[i].depth; ++j) {
            if (nodes[j].depth == nodes[i].depth) {
                last[i] = false;
                break;
            }
        }
    }
    std::vector<bool> open;  // open[d]: the ancestor at depth d has later siblings
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        auto const& n = nodes[i];
        // A node may sit deeper than its predecessor's child (a damaged dump): the ancestors it
        // skips have no later siblings, so they draw blanks.
        if (open.size() <= static_cast<std::size_t>(n.depth)) open.resize(static_cast<std::size_t>(n.depth) + 1);
        std::string prefix = "  ";
        if (n.depth == 0) {
            prefix += "  ";
        } else {
            for (int d = 0; d < n.depth; ++d) prefix += open[static_cast<std::size_t>(d)] ? "\u2502   " : "    ";
            prefix += last[i] ? "\u2514\u2500\u2500 " : "\u251c\u2500\u2500 ";
        }
        open[static_cast<std::size_t>(n.depth)] = !last[i];
        // XLA prints the share with one decimal (`30.8`); one read from a damaged dump may have
        // hundreds of digits, so the text is as long as it needs to be.
        std::string percent(static_cast<std::size_t>(std::snprintf(nullptr, 0, "%.1f", n.percent)), '\0');
        std::snprintf(percent.data(), percent.size() + 1, "%.1f", n.percent);
        os << prefix << std::string_view(n.name) << " (" << percent
           << "%, total: " << detail::byte_count_text(n.total_bytes, spaced)
           << " bytes, current: " << detail::byte_count_text(n.current_bytes, spaced)
           << " bytes, remaining: " << detail::byte_count_text(n.remaining_bytes, spaced) << " bytes)\n";
    }
}

/// Writes the whole `*-buffer-assignment.txt` text, with the live ranges appended when present.
template <class P>
void print_buffer_assignment(std::ostream& os, basic_buffer_assignment<P> const& ba) {
    auto shape_text = [&](shape_id id) { return id == no_shape ? std::string("<unknown shape>") : to_string(ba.shapes[id]); };
    auto header_shape = [&](basic_allocation<P> const& a, shape_id id) {
        return a.shapes_in_bars ? "|" + shape_text(id) + "|" : shape_text(id);
    };
    os << "BufferAssignment:\n";
    for (auto const& a : ba.allocations) {
        os << "allocation " << a.index << ": ";
        if (a.address) {
            char address[32];
            std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(*a.address));
            os << address << ", ";
        }
        os << "size " << a.size;
        if (a.page) os << ", page " << *a.page;
        if (a.color != 0) os << ", color " << a.color;
        if (a.parameter_number) {
            os << ", parameter " << *a.parameter_number << ", shape " << header_shape(a, a.parameter_shape) << " at ShapeIndex "
               << to_string(a.parameter_shape_index);
        }
        if (a.output_shape) os << ", output shape is " << header_shape(a, *a.output_shape);
        if (a.is_constant) os << ", constant";
        if (a.is_thread_local) os << ", thread-local";
        if (a.maybe_live_out) os << ", maybe-live-out";
        if (a.is_preallocated_temp) os << ", preallocated-temp";
        os << ":\n";
        for (std::size_t vi : a.values) {
            auto const& v = ba.values[vi];
            os << " value: ";
            detail::print_value_key(os, v);
            os << " (size=" << v.size << ",offset=" << v.offset << "): " << shape_text(v.shape) << '\n';
        }
        // BufferAllocation::ToString lists again, by id, the values whose color is not the
        // allocation's.
        bool head = false;
        for (std::size_t vi : a.values) {
            auto const& v = ba.values[vi];
            if (!v.cross_color) continue;
            if (!head) os << " reused by buffers of a different color:\n";
            head = true;
            os << "  value: ";
            detail::print_value_key(os, v);
            os << " (color=" << v.color.value_or(a.color) << ")\n";
        }
    }
    if (ba.stated_total_bytes) {
        // XLA writes HumanReadableNumBytes of the total in the parentheses (BufferAssignment::
        // ToString); a model that holds no text of its own there (a predicted assignment that views
        // its module's text, assign/finish.hpp) is printed as XLA prints it.
        std::string_view const human = ba.stated_total_human;
        os << "\nTotal bytes used: " << *ba.stated_total_bytes << " (";
        if (human.empty()) os << human_bytes(*ba.stated_total_bytes);
        else os << human;
        os << ")\n";
    }
    if (ba.has_used_values) {
        os << "\nUsed values:\n";
        for (auto const& v : ba.values) {
            if (!v.has_block) continue;
            detail::print_value_key(os, v);
            os << "\n positions:\n";
            for (auto const& p : v.positions) {
                os << "  " << std::string_view(p.instruction);
                if (p.index_printed) os << ' ' << to_string(p.index);
                os << '\n';
            }
            if (v.uses_as_printed == uses_state::not_initialized) {
                os << " uses are not initialized yet.\n";
            } else {
                os << " uses:\n";
                if (v.uses_as_printed == uses_state::none) os << "  (none)\n";
                for (auto const& u : v.uses) {
                    os << "  " << std::string_view(u.instruction) << ", operand " << u.operand_number;
                    if (u.index_printed) os << ' ' << to_string(u.operand_index);
                    os << '\n';
                }
            }
            os << " from instruction:" << (v.instruction_text_spaced ? " " : "") << std::string_view(v.instruction_text)
               << '\n';
        }
    }
    if (ba.live_range) {
        os << "\n\n";
        print_live_range(os, *ba.live_range);
    }
}

namespace detail {

/// The lines print_live_range writes, from `line` (its first): each part's 1-based line set as
/// the parser sets it.
template <class P>
void number_live_range_lines(basic_hlo_live_range<P>& lr, std::size_t line) {
    lr.line = line++;  // `HloLiveRange (max N):`, or the not-available line alone
    if (lr.not_available) return;
    line += 1 + lr.instruction_sequence.size() + 1;  // `  InstructionSequence:`, its lines, `  BufferLiveRange:`
    for (auto& r : lr.buffer_live_ranges) r.line = line++;
    if (!lr.stated_peak) return;
    auto& peak = *lr.stated_peak;
    peak.line = line++;  // `  Live ranges at N (peak):`
    for (auto& e : peak.entries) e.line = line++;
    if (!peak.stack_trace_total_bytes) return;
    ++line;  // `  Stack trace breakdown for peak usage: N bytes`
    for (auto& n : peak.stack_trace) n.line = line++;
}

}  // namespace detail

/// Makes `ba` what reading its printed text back gives (print_buffer_assignment, then the
/// parser), without printing it: each allocation header, value line, Used-values block and
/// live-range line gets the 1-based line it is printed on, and the shape table holds the shapes
/// in the order the text first names them (allocation headers' parameter and output shapes,
/// value lines, then each block's `from instruction:` result shape), one per distinct text, as
/// the parser interns them, and no other. A model made in code (hlomem's BufferAssigner,
/// assign/finish.hpp) then equals, field by field, the parse of its own dump, and what is
/// computed from it (`hlomem assign --json`, Python's hlomem.assign) is what its text gives.
/// Shapes the text does not print (of a value without a value line or block) stay, after the
/// others.
template <class P>
void renumber_as_printed(basic_buffer_assignment<P>& ba) {
    basic_shape_table<P> shapes;
    std::vector<shape_id> ids(ba.shapes.size(), no_shape);
    auto const intern = [&](shape_id id) {
        if (id != no_shape && ids[id] == no_shape) ids[id] = shapes.insert(ba.shapes[id]);
    };
    std::size_t line = 2;  // after `BufferAssignment:`
    for (auto& a : ba.allocations) {
        a.line = line++;
        if (a.parameter_number) intern(a.parameter_shape);
        if (a.output_shape) intern(*a.output_shape);
        for (std::size_t vi : a.values) {
            ba.values[vi].line = line++;
            intern(ba.values[vi].shape);
        }
    }
    if (ba.stated_total_bytes) line += 2;  // a blank line, `Total bytes used: N (...)`
    if (ba.has_used_values) {
        line += 2;  // a blank line, `Used values:`
        for (auto& v : ba.values) {
            if (!v.has_block) continue;
            v.block_line = line;
            // `<id name @c>`, ` positions:` and a line each, the uses (` uses are not initialized
            // yet.`, or ` uses:`, `  (none)` when printed and a line each), `from instruction:`.
            std::size_t const uses = v.uses_as_printed == uses_state::not_initialized
                                         ? 1
                                         : 1 + v.uses.size() + (v.uses_as_printed == uses_state::none ? 1 : 0);
            line += 2 + v.positions.size() + uses + 1;
            intern(v.instruction_shape);
        }
    }
    if (ba.live_range) detail::number_live_range_lines(*ba.live_range, line + 2);  // after two blank lines
    auto const remap = [&](shape_id& id) {
        intern(id);
        if (id != no_shape) id = ids[id];
    };
    for (auto& a : ba.allocations) {
        remap(a.parameter_shape);
        if (a.output_shape) remap(*a.output_shape);
    }
    for (auto& v : ba.values) {
        remap(v.shape);
        remap(v.instruction_shape);
    }
    ba.shapes = std::move(shapes);
}

template <class P>
std::string to_string(basic_buffer_assignment<P> const& ba) {
    std::ostringstream os;
    print_buffer_assignment(os, ba);
    return os.str();
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_PRINTER_INSTANTIATIONS(EXTERN, P) \
    EXTERN template void print_live_range<P>(std::ostream&, basic_hlo_live_range<P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_PRINTER_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_DUMP_PRINTER_HPP
