// hlomem/parser/oom_report.hpp: finds the out-of-memory reports in a log or a pasted issue (TPU
// summaries and `Largest program allocations in hbm:` lists, GPU `BufferAssignment OOM
// Debugging.` blocks, dump/oom_report.hpp) and reads every entry and summary that is there.
// Entry point: `try_parse_oom_reports` / `parse_oom_reports`.
//
// Reports reach hlomem as people paste them, so the reader reads line by line and never gives up
// on a whole input:
//   - whatever stands in front of the text of a line is skipped (parser/oom_lines.hpp): log
//     headers, indentation, markdown quotes, colour codes, launcher tags (`[rank3]:`, `(pid=123)`);
//   - each line is classified by its text alone (an entry head, a field, a `====` line, a report
//     header, a summary phrase, anything else); a summary phrase is found anywhere in a line
//     (`RuntimeError: ... Ran out of memory in memory space hbm. Used ...`);
//   - the pieces are grouped into reports in XLA's order (TPU: the summary, the capacity lines,
//     `Total hbm usage`, `Output size`, `Program hbm requirement`, the list, its entries; GPU: the
//     allocation that failed, the header, the stats, `Peak buffers:`, the buffers); a piece that
//     comes again, or earlier in that order, or of the other kind, starts the next report;
//   - an excerpt that starts inside an entry yields that entry without its head (the fields it
//     has; its number is the next entry's minus one when one follows); a field that an entry
//     already has starts the next entry, whose head was not copied;
//   - a line that is no part of a report is skipped; when the report goes on after such lines
//     (a remark, a traceback, `...` between entries) they are a warning with their line numbers;
//     when it does not, the report ended there, and an entry left open is cut off (a note);
//   - a line that continues a free-text field (a label or operator wrapped by the page, the next
//     line of the entry coming after it) is part of that field; a Shape wrapped over two lines is
//     read across them;
//   - a value that does not read (a Size cut to `384`, a Shape cut to `f32[29184,1,25`, a layout
//     that lists a dimension twice) is kept as text, with a note at its line and column.
// So nothing is dropped silently and nothing fails the whole input: a file without any report
// gives an empty log, which callers report as such.
//
// The reader is in four headers: parser/oom_figures.hpp reads the figures of a line,
// parser/oom_reports.hpp groups the lines into reports and reads their summaries,
// parser/oom_messages.hpp reads the one-line messages (E0100, E0101, E1000, the TPU runtime's
// allocation, utilization, rematerialization, HLO temporaries) and the BFC allocator's log, and
// this one reads the entries and runs the pass. This header includes them all.
#ifndef HLOMEM_PARSER_OOM_REPORT_HPP
#define HLOMEM_PARSER_OOM_REPORT_HPP

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/error.hpp>
#include <hlomem/core/printed_size.hpp>
#include <hlomem/detail/checked.hpp>
#include <hlomem/dump/oom_report.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/oom_figures.hpp>
#include <hlomem/parser/oom_lines.hpp>
#include <hlomem/parser/oom_messages.hpp>
#include <hlomem/parser/oom_reports.hpp>
#include <hlomem/parser/shape.hpp>

namespace hlomem::parser {

namespace oom {

/// The reader: one pass over the lines, with a look ahead where a line's meaning depends on what
/// follows (a wrapped field, the kind and number of an entry whose head was not copied). Its
/// base (parser/oom_reports.hpp) holds the lines and the report being read.
template <class P>
class reader : message_reader<P> {
    using base = message_reader<P>;

public:
    using typename base::string_type;

    reader(std::string_view text, std::string_view file, basic_oom_log<P>& log) : base(text, file, log) {}

    void run() {
        for (std::size_t i = 0; i < lines_.size(); ++i) i = read_line(i);
        finish_report();
        for (auto& r : log_.reports) infer_numbers(r);
    }

private:
    using typename base::section;
    using base::file_;
    using base::begin_;
    using base::end_;
    using base::log_;
    using base::lines_;
    using base::open_;
    using base::phase_;
    using base::section_;
    using base::part_;
    using base::entry_open_;
    using base::waiting_used_;
    using base::waiting_exceeded_;
    using base::wrap_field_;
    using base::wrap_start_;
    using base::wrap_line_;
    using base::skipped_first_;
    using base::skipped_last_;
    using base::str;
    using base::number_of;
    using base::report;
    using base::entry;
    using base::entry_name;
    using base::note;
    using base::shortened;
    using base::enter;
    using base::finish_report;
    using base::skip;
    using base::set_memory_space;
    using base::space_name;
    using base::reported;
    using base::add_usage;
    using base::read_used_and_exceeded;
    using base::ran_out;
    using base::reservation;
    using base::figure_header;
    using base::output_size;
    using base::gpu_allocate;
    using base::message_line;
    using base::program_load;

    // -- entries -------------------------------------------------------------------------------

    /// The kind of report that a field line at `index` belongs to when no report says it: told by
    /// the field or by the entries that follow (TPU labels are `XLA label:`, GPU `XLA Label:`;
    /// GPU sizes print `iB`).
    oom_report_kind kind_of_fields(std::size_t index) const {
        for (std::size_t i = index; i < lines_.size() && i < index + 64; ++i) {
            auto const& w = lines_[i].what;
            if (w.kind == text_kind::tpu_entry_head || w.kind == text_kind::tpu_list) return oom_report_kind::tpu;
            if (w.kind == text_kind::gpu_entry_head || w.kind == text_kind::gpu_peak) return oom_report_kind::gpu;
            if (w.kind != text_kind::field) continue;
            switch (w.field) {
                case field_name::unpadded_size:
                case field_name::padding_size:
                case field_name::tpu_label:
                case field_name::allocation_type: return oom_report_kind::tpu;
                case field_name::gpu_label:
                case field_name::parameter_shape: return oom_report_kind::gpu;
                case field_name::size: {
                    if (auto s = read_size(w.rest, lines_[i].end)) return s->size.binary_suffix ? oom_report_kind::gpu : oom_report_kind::tpu;
                    break;
                }
                default: break;
            }
        }
        return oom_report_kind::tpu;
    }

    void begin_entry(std::size_t index, std::int64_t number, bool has_head) {
        basic_oom_entry<P> e;
        e.number = number;
        e.line = number_of(index);
        e.has_head = has_head;
        report().entries.push_back(std::move(e));
        entry_open_ = true;
        wrap_field_ = nullptr;
    }

    /// An entry that was not closed by its `====` line when the next one starts.
    void close_unfinished(std::size_t index, char const* where, std::string const& why) {
        if (!entry_open_) return;
        note(index, where, entry_name() + " has no '====' line " + why);
        entry_open_ = false;
    }

    void entry_head(std::size_t index, oom_report_kind kind) {
        auto const& l = lines_[index];
        enter(kind, entries, index);
        section_ = section::none;
        close_unfinished(index, l.content, "before the next entry");
        begin_entry(index, l.what.number, true);
        if (kind == oom_report_kind::tpu) size_value(index, l.what.rest, entry().size, "Size");
    }

    bool has_field(basic_oom_entry<P> const& e, field_name f) const {
        switch (f) {
            case field_name::size: return e.size.has_value();
            case field_name::unpadded_size: return e.unpadded_size.has_value();
            case field_name::padding_size: return e.padding_size.has_value();
            case field_name::shape:
            case field_name::parameter_shape: return e.shape_line != 0;
            case field_name::operator_text: return !std::string_view(e.operator_text).empty();
            case field_name::tpu_label:
            case field_name::gpu_label: return !std::string_view(e.label).empty();
            case field_name::allocation_type: return !std::string_view(e.allocation_type).empty();
        }
        return false;
    }

    static char const* field_text(field_name f) {
        switch (f) {
            case field_name::size: return "Size";
            case field_name::unpadded_size: return "Unpadded size";
            case field_name::padding_size: return "Extra memory due to padding";
            case field_name::shape: return "Shape";
            case field_name::parameter_shape: return "Entry Parameter Subshape";
            case field_name::operator_text: return "Operator";
            case field_name::tpu_label: return "XLA label";
            case field_name::gpu_label: return "XLA Label";
            case field_name::allocation_type: return "Allocation type";
        }
        return "";
    }

    /// A size field's value at `p`; a value that does not read is a note.
    void size_value(std::size_t index, char const* p, std::optional<basic_reported_size<P>>& field, char const* name) {
        auto const& l = lines_[index];
        auto s = read_size(p, l.end);
        char const* value = skip_blanks(p, l.end);
        if (!s) {
            report().cut_off = report().cut_off || index + 1 == lines_.size();
            note(index, value, "the " + std::string(name) + " of " + entry_name() + " does not read as a size: '" +
                                   std::string(value, static_cast<std::size_t>(l.end - value)) + "'");
            return;
        }
        field = reported(*s, index);
        char const* rest = skip_blanks(s->end, l.end);
        if (rest != l.end && field_name_is_padding(name)) {
            expansion(index, rest);
        } else if (rest != l.end) {
            note(index, rest, "the text after the " + std::string(name) + " of " + entry_name() + " is not part of it: '" +
                                  shortened(std::string_view(rest, static_cast<std::size_t>(l.end - rest))) + "'");
        }
    }
    static bool field_name_is_padding(char const* name) { return std::string_view(name) == "Extra memory due to padding"; }

    /// `(2.0x expansion)` after the padding size.
    void expansion(std::size_t index, char const* p) {
        auto const& l = lines_[index];
        char const* q = p + 1;
        char const* const number = q;
        std::int64_t digits = 0;
        int decimals = 0;
        bool point = false;
        for (; q < l.end && (is_digit(*q) || (*q == '.' && !point)) && q - number < 18; ++q) {
            if (*q == '.') {
                point = true;
                continue;
            }
            digits = digits * 10 + (*q - '0');
            decimals += point ? 1 : 0;
        }
        std::string_view const tail = "x expansion)";
        if (*p == '(' && q != number && is_digit(q[-1]) && starts_with(q, l.end, tail)) {
            entry().expansion = basic_reported_ratio<P>{str(std::string_view(number, static_cast<std::size_t>(q - number))), digits,
                                                        decimals, number_of(index)};
            return;
        }
        note(index, p, "the expansion of " + entry_name() + " does not read: '" +
                           shortened(std::string_view(p, static_cast<std::size_t>(l.end - p))) + "'");
    }

    /// A shape field; one wrapped over two lines is read across them. Returns the last line used.
    std::size_t shape_value(std::size_t index, char const* p, bool entry_parameter) {
        auto const& l = lines_[index];
        auto& e = entry();
        char const* const value = skip_blanks(p, l.end);
        e.shape_line = number_of(index);
        e.entry_parameter = entry_parameter;
        char const* const name = entry_parameter ? "Entry Parameter Subshape" : "Shape";
        std::string message;
        try {
            char const* q = value;
            e.shape = parse_shape_prefix<P>(q, l.end, file_, begin_);
            e.shape_text = str(std::string_view(value, static_cast<std::size_t>(q - value)));
            char const* rest = skip_blanks(q, l.end);
            if (rest != l.end) {
                note(index, rest, "the text after the " + std::string(name) + " of " + entry_name() + " is not part of it: '" +
                                      shortened(std::string_view(rest, static_cast<std::size_t>(l.end - rest))) + "'");
            }
            return index;
        } catch (parse_error const& err) {
            message = err.info().message;
            e.shape.reset();
        }
        // Wrapped by the page: the next line, with nothing between, completes it.
        if (index + 1 < lines_.size() && lines_[index + 1].what.kind == text_kind::other) {
            auto const& next = lines_[index + 1];
            std::string joined(value, static_cast<std::size_t>(l.end - value));
            joined.append(next.content, static_cast<std::size_t>(next.end - next.content));
            try {
                char const* q = joined.data();
                auto shape = parse_shape_prefix<P>(q, joined.data() + joined.size(), file_, joined.data());
                if (skip_blanks(q, joined.data() + joined.size()) == joined.data() + joined.size()) {
                    e.shape = std::move(shape);
                    e.shape_text = str(std::string_view(value, static_cast<std::size_t>(next.end - value)));
                    note(index, value, "the " + std::string(name) + " of " + entry_name() + " is wrapped over lines " +
                                           std::to_string(number_of(index)) + " and " + std::to_string(number_of(index + 1)));
                    return index + 1;
                }
            } catch (parse_error const&) {
            }
        }
        e.shape_text = str(std::string_view(value, static_cast<std::size_t>(l.end - value)));
        if (index + 1 == lines_.size() || next_is_not_report(index)) report().cut_off = true;
        note(index, value, "the " + std::string(name) + " of " + entry_name() + " does not read (" + message + "): '" +
                               shortened(std::string_view(value, static_cast<std::size_t>(l.end - value))) + "'");
        return index;
    }

    /// True when no line of a report follows line `index` (only blanks and other text).
    bool next_is_not_report(std::size_t index) const {
        for (std::size_t i = index + 1; i < lines_.size(); ++i) {
            auto const k = lines_[i].what.kind;
            if (k == text_kind::blank || k == text_kind::fence || k == text_kind::other) continue;
            return false;
        }
        return true;
    }

    void text_field(std::size_t index, char const* p, string_type& field) {
        auto const& l = lines_[index];
        char const* value = skip_blanks(p, l.end);
        field = str(std::string_view(value, static_cast<std::size_t>(l.end - value)));
        wrap_field_ = &field;
        wrap_start_ = value;
        wrap_line_ = index;
    }

    /// Returns the last line used.
    std::size_t field(std::size_t index) {
        auto const& l = lines_[index];
        field_name const f = l.what.field;
        bool const listing = open_ && (report().kind == oom_report_kind::tpu || report().kind == oom_report_kind::gpu);
        oom_report_kind kind = listing && phase_ >= tpu_summary ? report().kind : kind_of_fields(index);
        if (f == field_name::tpu_label || f == field_name::unpadded_size || f == field_name::padding_size ||
            f == field_name::allocation_type) {
            kind = oom_report_kind::tpu;
        } else if (f == field_name::gpu_label || f == field_name::parameter_shape) {
            kind = oom_report_kind::gpu;
        }
        bool const joined = enter(kind, entries, index);
        section_ = section::none;
        if (entry_open_ && has_field(entry(), f)) {
            close_unfinished(index, l.content, std::string("before a second '") + field_text(f) +
                                                   ":' line, which starts an entry whose first line was not copied");
        }
        if (!entry_open_) {
            bool const at_start = !joined || report().entries.empty();
            begin_entry(index, 0, false);
            note(index, l.content, std::string(at_start ? "the paste starts inside an entry" : "an entry starts without its first line") +
                                       ": its fields from '" + field_text(f) + ":' on are kept");
        }
        auto& e = entry();
        switch (f) {
            case field_name::size: size_value(index, l.what.rest, e.size, "Size"); break;
            case field_name::unpadded_size: size_value(index, l.what.rest, e.unpadded_size, "Unpadded size"); break;
            case field_name::padding_size: size_value(index, l.what.rest, e.padding_size, "Extra memory due to padding"); break;
            case field_name::shape: return shape_value(index, l.what.rest, false);
            case field_name::parameter_shape: return shape_value(index, l.what.rest, true);
            case field_name::operator_text: text_field(index, l.what.rest, e.operator_text); break;
            case field_name::tpu_label:
            case field_name::gpu_label:
                text_field(index, l.what.rest, e.label);
                e.label_instruction = read_label(std::string_view(e.label));
                break;
            case field_name::allocation_type: text_field(index, l.what.rest, e.allocation_type); wrap_field_ = nullptr; break;
        }
        return index;
    }

    /// Whether the `other` line at `index` continues the free-text field before it: nothing between,
    /// and the entry goes on right after it (a field, its `====` line, the next entry).
    bool continues_field(std::size_t index) const {
        if (!wrap_field_ || wrap_line_ + 1 != index) return false;
        for (std::size_t i = index + 1; i < lines_.size() && i <= index + 3; ++i) {
            auto const k = lines_[i].what.kind;
            if (k == text_kind::other) continue;
            return k == text_kind::field || k == text_kind::separator || k == text_kind::tpu_entry_head ||
                   k == text_kind::gpu_entry_head;
        }
        return false;
    }

    void separator(std::size_t index) {
        if (!open_ || phase_ != entries) {
            if (!open_) {
                log_.warnings.push_back(oom_reader_note(number_of(index), 1,
                                                        "a '====' line that ends an entry whose fields were not copied; skipped"));
            } else {
                skip(index);
            }
            return;
        }
        enter(report().kind, entries, index);
        if (!entry_open_) {
            note(index, lines_[index].content, "a '====' line that ends no entry; skipped");
            return;
        }
        entry().complete = true;
        entry_open_ = false;
        wrap_field_ = nullptr;
    }

    /// A line of no known form.
    void other(std::size_t index) {
        auto const& l = lines_[index];
        if (!open_) return;
        if (section_ != section::none) {
            if (auto u = read_usage_line(l.content, l.end)) {
                if (section_ == section::gpu_stats && u->size) {
                    basic_oom_stat<P> s;
                    s.name = str(u->name);
                    s.size = reported(*u->size, index);
                    if (u->detail.size() >= 2 && u->detail.front() == '(' && u->detail.back() == ')') {
                        s.percent = str(u->detail.substr(1, u->detail.size() - 2));
                    }
                    report().stats.push_back(std::move(s));
                    return;
                }
                if (section_ == section::usage) {
                    add_usage(*u, part_, index);
                    return;
                }
            }
        }
        if (phase_ == entries && entry_open_) {
            if (continues_field(index)) {
                *wrap_field_ = str(std::string_view(wrap_start_, static_cast<std::size_t>(l.end - wrap_start_)));
                wrap_line_ = index;
                if (wrap_field_ == &entry().label) entry().label_instruction = read_label(std::string_view(entry().label));
                return;
            }
            if (char const* colon = unknown_field_end(l.content, l.end); colon && skipped_first_ == 0) {
                auto& e = entry();
                char const* value = skip_blanks(colon + 1, l.end);
                e.other_fields.push_back(basic_oom_field<P>{str(std::string_view(l.content, static_cast<std::size_t>(colon - l.content))),
                                                            str(std::string_view(value, static_cast<std::size_t>(l.end - value))),
                                                            number_of(index)});
                note(index, l.content,
                     "'" + std::string(l.content, static_cast<std::size_t>(colon + 1 - l.content)) + "' is not a field hlomem knows; kept as read");
                return;
            }
        }
        skip(index);
    }

    /// Reads line `index`; returns the last line it used.
    std::size_t read_line(std::size_t index) {
        auto const& l = lines_[index];
        switch (l.what.kind) {
            case text_kind::blank:
            case text_kind::fence:
                if (section_ == section::usage) section_ = section::none;
                wrap_field_ = nullptr;
                return index;
            case text_kind::rule:
                if (!(open_ && part_ == oom_usage_part::capacity && section_ == section::usage)) other(index);
                return index;
            case text_kind::separator: separator(index); return index;
            case text_kind::tpu_entry_head: entry_head(index, oom_report_kind::tpu); return index;
            case text_kind::gpu_entry_head: entry_head(index, oom_report_kind::gpu); return index;
            case text_kind::field: return field(index);
            case text_kind::tpu_list:
                enter(oom_report_kind::tpu, tpu_list, index);
                set_memory_space(space_name(l.what.rest, l.end));
                report().list_line = number_of(index);
                section_ = section::none;
                return index;
            case text_kind::gpu_header: enter(oom_report_kind::gpu, gpu_header, index); section_ = section::none; return index;
            case text_kind::gpu_stats: enter(oom_report_kind::gpu, gpu_stats, index); section_ = section::gpu_stats; return index;
            case text_kind::gpu_peak:
                enter(oom_report_kind::gpu, gpu_peak, index);
                report().has_peak_buffers = true;
                report().list_line = number_of(index);
                section_ = section::none;
                return index;
            case text_kind::gpu_allocate: gpu_allocate(index); return index;
            case text_kind::ran_out: ran_out(index); return index;
            case text_kind::used_tail:
                if (open_ && (waiting_used_ || waiting_exceeded_)) {
                    read_used_and_exceeded(l.content, l.end, index);
                    return index;
                }
                other(index);
                return index;
            case text_kind::reservation:
                reservation(index);
                program_load(index);
                return index;
            case text_kind::capacity:
                figure_header(index, tpu_capacity, oom_usage_part::capacity, &basic_oom_report<P>::capacity);
                return index;
            case text_kind::total_usage:
                figure_header(index, tpu_total, oom_usage_part::total, &basic_oom_report<P>::total_usage);
                return index;
            case text_kind::program_requirement:
                figure_header(index, tpu_program, oom_usage_part::program, &basic_oom_report<P>::program_requirement);
                return index;
            case text_kind::heap_status:
                enter(oom_report_kind::tpu, tpu_heap, index);
                section_ = section::usage;
                part_ = oom_usage_part::heap;
                return index;
            case text_kind::persistent:
                enter(oom_report_kind::tpu, tpu_persistent, index);
                section_ = section::usage;
                part_ = oom_usage_part::persistent;
                return index;
            case text_kind::output_size: output_size(index); return index;
            case text_kind::other: other(index); return index;
            case text_kind::device_allocation:
            case text_kind::sparsecore:
            case text_kind::runtime_allocation:
            case text_kind::utilization:
            case text_kind::rematerialization:
            case text_kind::hlo_temporaries:
            case text_kind::bfc_header:
            case text_kind::bfc_bin:
            case text_kind::bfc_heading:
            case text_kind::bfc_chunk:
            case text_kind::bfc_chunk_sizes:
            case text_kind::bfc_sum:
            case text_kind::bfc_region:
            case text_kind::bfc_stats:
            case text_kind::bfc_stat:
            case text_kind::bfc_map:
            case text_kind::bfc_pool: message_line(index); return index;
        }
        return index;
    }

    /// Entries whose head was not copied take the number before the next numbered entry.
    static void infer_numbers(basic_oom_report<P>& r) {
        for (std::size_t i = r.entries.size(); i-- > 0;) {
            auto& e = r.entries[i];
            if (e.has_head || i + 1 >= r.entries.size()) continue;
            auto const& next = r.entries[i + 1];
            if (next.number > 1) {
                e.number = next.number - 1;
                e.number_inferred = true;
            }
        }
    }

public:
    /// `%fusion.10 = (f32[...], ...) fusion(...), kind=kLoop`: name, result shape, opcode. Labels
    /// are free text, cut with `...` when long: what does not read is simply not kept.
    static std::optional<basic_label_instruction<P>> read_label(std::string_view text) {
        auto const eq = text.find(" = ");
        if (eq == std::string_view::npos || eq == 0) return std::nullopt;
        std::string_view name = text.substr(0, eq);
        if (name.front() == '%') name.remove_prefix(1);
        if (name.empty() || name.find(' ') != std::string_view::npos) return std::nullopt;
        basic_label_instruction<P> out;
        out.name = str(name);
        char const* p = text.data() + eq + 3;
        char const* const last = text.data() + text.size();
        try {
            out.shape = parse_shape_prefix<P>(p, last, "<XLA label>");
        } catch (parse_error const&) {
            return out;
        }
        p = skip_blanks(p, last);
        char const* opcode = p;
        while (p < last && (std::isalnum(static_cast<unsigned char>(*p)) || *p == '-' || *p == '_')) ++p;
        if (p < last && *p == '(') out.opcode = str(std::string_view(opcode, static_cast<std::size_t>(p - opcode)));
        return out;
    }
};

}  // namespace oom

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

// Declared with its default arguments and documentation in parser/api.hpp.
template <class P>
parse_result<basic_oom_log<P>> try_parse_oom_reports(std::string_view text, std::string_view file) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    return run_parse<basic_oom_log<P>>(file, begin, end, [&] {
        basic_oom_log<P> log;
        log.file = std::string(file);
        oom::reader<P> r(text, file, log);
        r.run();
        return log;
    });
}

}  // namespace hlomem::parser

#endif  // HLOMEM_PARSER_OOM_REPORT_HPP
