// hlomem/parser/oom_messages.hpp: the one-line out-of-memory messages and the BFC allocator's log,
// read into reports of dump/oom_log.hpp (the kinds after `tpu` and `gpu`):
//
//   E0100   ValueError: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate
//           8.00M. That was not possible. There are 6.43M free.; (0x0x1_HBM0)
//   E0101   ... Error loading program 'jit_step': Attempting to reserve 29.49G at the bottom of memory. ...
//           (the reservation itself is parser/oom_reports.hpp's; this reads the program's name)
//   E1000   RESOURCE_EXHAUSTED: TPU TensorCore Hbm usage: 34.82G, SparseCore Hbm usage 174.10G,
//           exceeding available bytes: 95.74G
//   TPU     RESOURCE_EXHAUSTED: Allocation (size=107374182400) would exceed memory (size=17179869184)
//           :: #allocation7 [shape = 'u8[327680,327680]{1,0:T(8,128)(4,1)}', space=hbm, size =
//           0xffffffffffffffff, tag = 'output of xor_convert_fusion@{}'] :: <no-hlo-instruction>
//           1.3% utilization: Unpadded (294.49M) Padded (23.01G)
//   XLA     Can't reduce memory use below 13.58GiB (14583876403 bytes) by rematerialization; only
//           reduced to 15.22GiB (16339342336 bytes), down from 16.01GiB (17190797312 bytes) originally
//           (xla/hlo/transforms/simplifiers/hlo_rematerialization.cc, HloRematerialization::Run)
//           total memory required for HLO temporaries (X) exceeds available HBM (Y)
//   BFC     Allocator (GPU_0_bfc) ran out of memory trying to allocate 84.50MiB.  Current allocation summary follows.
//           Bin (256):   Total Chunks: 94, Chunks in use: 94. 23.5KiB allocated for chunks. 23.5KiB in use in bin. ...
//           InUse at 703b12d00 of size 256 next 275
//           9 Chunks of size 256 totalling 2.2KiB
//           Sum Total of in-use chunks: 4.16GiB
//           total_region_allocated_bytes_: 8590983168 memory_limit_: 10562958132 available bytes: 1971974964 ...
//           Stats:
//           Limit:                 10562958132        (InUse, MaxInUse, NumAllocs, MaxAllocSize,
//                                                       Reserved, PeakReserved, LargestFreeBlock)
//           (xla/tsl/framework/bfc_allocator.cc, BFCAllocator::DumpMemoryLog; AllocatorStats::DebugString)
//
// Each message is a report of its own; the BFC log's lines join one report in DumpMemoryLog's
// order, its bins, chunks and stats repeating. A figure that does not read (a line cut off) is a
// note at its line, never a failure.
#ifndef HLOMEM_PARSER_OOM_MESSAGES_HPP
#define HLOMEM_PARSER_OOM_MESSAGES_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <hlomem/core/error.hpp>
#include <hlomem/core/printed_size.hpp>
#include <hlomem/detail/checked.hpp>
#include <hlomem/dump/oom_log.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/oom_figures.hpp>
#include <hlomem/parser/oom_lines.hpp>
#include <hlomem/parser/oom_reports.hpp>
#include <hlomem/parser/shape.hpp>

namespace hlomem::parser::oom {

/// A byte count at `p` (after blanks): digits, optionally with commas; nullopt when none.
inline std::optional<std::int64_t> read_count(char const*& p, char const* end) {
    p = skip_blanks(p, end);
    std::int64_t v = 0;
    char const* start = p;
    for (; p < end && (is_digit(*p) || (*p == ',' && p != start)); ++p) {
        if (*p == ',') continue;
        if (!::hlomem::detail::checked_mul(v, std::int64_t{10}, &v) || !::hlomem::detail::checked_add(v, std::int64_t{*p - '0'}, &v)) {
            return std::nullopt;
        }
    }
    return p == start ? std::nullopt : std::optional<std::int64_t>(v);
}

/// The phases of a BFC log, in BFCAllocator::DumpMemoryLog's order.
enum bfc_phase : int { bfc_header = 0, bfc_bins = 1, bfc_chunks = 2, bfc_sizes = 3, bfc_sum = 4, bfc_region = 5,
                       bfc_stats = 6, bfc_stat_lines = 7, bfc_map = 8 };

/// The one-line messages and the BFC log; oom::reader (parser/oom_report.hpp) derives from this
/// and hands it the lines of these kinds.
template <class P>
class message_reader : public report_reader<P> {
    using base = report_reader<P>;

public:
    using base::base;

protected:
    using base::lines_;
    using base::report;
    using base::enter;
    using base::note;
    using base::str;
    using base::number_of;
    using base::reported;
    using base::shortened;
    using base::file_;

    /// A size that is an exact byte count (`size=107374182400`, `14583876403 bytes`).
    basic_reported_size<P> exact_size(std::string_view text, std::int64_t bytes, std::size_t index) const {
        printed_size s;
        s.digits = s.nominal_bytes = s.min_bytes = s.max_bytes = bytes;
        return basic_reported_size<P>{str(text), s, number_of(index)};
    }

    /// A figure of a message, kept as a usage line of part `other` (`free`, `TensorCore`, `limit`).
    void figure(std::string_view name, std::optional<size_token> const& size, std::optional<std::int64_t> exact, std::size_t index) {
        basic_oom_usage<P> u;
        u.name = str(name);
        u.part = oom_usage_part::other;
        u.line = number_of(index);
        if (size) u.size = reported(*size, index);
        u.exact_bytes = exact;
        report().usage.push_back(std::move(u));
    }

    /// `name` not found or not read in the line: the message is cut off there.
    void missing(std::size_t index, char const* what) {
        auto const& l = lines_[index];
        report().cut_off = true;
        note(index, l.end, std::string("the message ends before its ") + what + " (cut off)");
    }

    /// The size after `phrase` in the line, or nullopt (a note).
    std::optional<size_token> size_after(std::size_t index, char const* from, std::string_view phrase, char const* what) {
        auto const& l = lines_[index];
        char const* at = find_in(from, l.end, phrase);
        auto s = at ? read_size(at + phrase.size(), l.end) : std::nullopt;
        if (!s) missing(index, what);
        return s;
    }

    /// `Error allocating device buffer: Attempting to allocate 8.00M. That was not possible. There
    /// are 6.43M free.; (0x0x1_HBM0)`
    void device_allocation(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::device_allocation, 0, index);
        report().memory_space = str("hbm");
        auto s = read_size(l.what.rest, l.end);
        if (!s) return missing(index, "requested size");
        report().requested = reported(*s, index);
        if (auto free = size_after(index, s->end, "There are ", "free size")) figure("free", free, std::nullopt, index);
        if (char const* open = find_in(s->end, l.end, "; (")) {
            char const* close = open + 3;
            while (close < l.end && *close != ')') ++close;
            if (close < l.end) report().device = str(std::string_view(open + 3, static_cast<std::size_t>(close - open - 3)));
        }
    }

    /// E0101: `Error loading program 'NAME':` or `Error loading program:` before the reservation.
    void program_load(std::size_t index) {
        auto const& l = lines_[index];
        char const* at = find_in(l.content, l.what.rest, "Error loading program");
        if (!at) return;
        report().program_load = true;
        char const* q = at + 21;
        if (q + 1 < l.end && q[0] == ' ' && q[1] == '\'') {
            char const* name = q + 2;
            char const* close = name;
            while (close < l.end && *close != '\'') ++close;
            if (close < l.end) report().program_name = str(std::string_view(name, static_cast<std::size_t>(close - name)));
        }
    }

    /// `TPU TensorCore Hbm usage: 34.82G, SparseCore Hbm usage 174.10G, exceeding available bytes: 95.74G`
    void sparsecore(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::sparsecore, 0, index);
        report().memory_space = str("hbm");
        auto tc = read_size(l.what.rest, l.end);
        if (!tc) return missing(index, "TensorCore usage");
        figure("TensorCore", tc, std::nullopt, index);
        // `SparseCore Hbm usage 174.10G`, also with a colon after `usage`.
        char const* at = find_in(tc->end, l.end, "SparseCore Hbm usage");
        char const* p = at ? at + 20 : l.end;
        if (p < l.end && *p == ':') ++p;
        auto sc = at ? read_size(p, l.end) : std::nullopt;
        if (!sc) return missing(index, "SparseCore usage");
        figure("SparseCore", sc, std::nullopt, index);
        if (auto available = size_after(index, sc->end, "available bytes:", "available bytes")) report().capacity = reported(*available, index);
    }

    /// `'...'` after `key` in [from, end): the text between the quotes, or nullopt.
    std::optional<std::string_view> quoted_after(char const* from, char const* end, std::string_view key) const {
        char const* at = find_in(from, end, key);
        if (!at) return std::nullopt;
        char const* open = at + key.size();
        char const* close = open;
        while (close < end && *close != '\'') ++close;
        if (close == end) return std::nullopt;
        return std::string_view(open, static_cast<std::size_t>(close - open));
    }

    /// `Allocation (size=N) would exceed memory (size=M) :: #allocation7 [shape = '...', space=hbm,
    /// size = 0xffffffffffffffff, tag = 'output of NAME@{}'] :: <no-hlo-instruction>`: the
    /// allocation is one entry (its shape recomputed like a TPU list's).
    void runtime_allocation(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::runtime_allocation, 0, index);
        char const* p = l.what.rest;
        char const* digits = p;
        auto size = read_count(p, l.end);
        if (!size || p == l.end || *p != ')') return missing(index, "allocation size");
        report().requested = exact_size(std::string_view(digits, static_cast<std::size_t>(p - digits)), *size, index);
        char const* memory = find_in(p, l.end, "would exceed memory (size=");
        if (!memory) return missing(index, "memory size");
        char const* m = memory + 26;
        char const* m_digits = m;
        auto capacity = read_count(m, l.end);
        if (!capacity) return missing(index, "memory size");
        report().capacity = exact_size(std::string_view(m_digits, static_cast<std::size_t>(m - m_digits)), *capacity, index);
        char const* record = find_in(m, l.end, "#allocation");
        if (!record) return;
        basic_oom_entry<P> e;
        char const* n = record + 11;
        e.number = read_count(n, l.end).value_or(0);
        e.line = number_of(index);
        e.size = report().requested;
        if (auto shape = quoted_after(n, l.end, "shape = '")) {
            e.shape_line = number_of(index);
            e.shape_text = str(*shape);
            try {
                char const* q = shape->data();
                e.shape = parse_shape_prefix<P>(q, shape->data() + shape->size(), file_, shape->data());
            } catch (parse_error const& err) {
                note(index, shape->data(), "the shape of #allocation" + std::to_string(e.number) + " does not read (" + err.info().message +
                                               "): '" + shortened(*shape) + "'");
            }
        } else {
            missing(index, "allocation's shape");
        }
        if (char const* space = find_in(n, l.end, "space=")) report().memory_space = str(base::space_name(space + 6, l.end));
        if (char const* printed = find_in(n, l.end, "size = ")) {
            char const* v = printed + 7;
            char const* stop = v;
            while (stop < l.end && *stop != ',' && *stop != ']') ++stop;
            e.other_fields.push_back(basic_oom_field<P>{str("size"), str(std::string_view(v, static_cast<std::size_t>(stop - v))), number_of(index)});
        }
        if (auto tag = quoted_after(n, l.end, "tag = '")) {
            e.label = str(*tag);
            // `output of xor_convert_fusion@{}`: the instruction and the index of its output.
            std::string_view t = *tag;
            if (t.substr(0, 10) == "output of ") {
                basic_label_instruction<P> li;
                li.name = str(t.substr(10, t.find('@') == std::string_view::npos ? std::string_view::npos : t.find('@') - 10));
                e.label_instruction = std::move(li);
            }
        }
        e.complete = find_in(n, l.end, "] ::") != nullptr;
        report().entries.push_back(std::move(e));
    }

    /// `1.3% utilization: Unpadded (294.49M) Padded (23.01G)`
    void utilization(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::utilization, 0, index);
        char const* p = l.content;
        std::int64_t digits = 0;
        int decimals = 0;
        bool point = false;
        for (; p < l.end && (is_digit(*p) || (*p == '.' && !point)) && p - l.content < 18; ++p) {
            if (*p == '.') {
                point = true;
                continue;
            }
            digits = digits * 10 + (*p - '0');
            decimals += point ? 1 : 0;
        }
        report().utilization = basic_reported_ratio<P>{str(std::string_view(l.content, static_cast<std::size_t>(p - l.content))), digits,
                                                       decimals, number_of(index)};
        auto unpadded = size_after(index, p, "Unpadded (", "unpadded size");
        if (!unpadded) return;
        figure("Unpadded", unpadded, std::nullopt, index);
        if (auto padded = size_after(index, unpadded->end, "Padded (", "padded size")) figure("Padded", padded, std::nullopt, index);
    }

    /// A printed size and its exact count after it: `13.58GiB (14583876403 bytes)`.
    bool sized_figure(std::size_t index, char const* p, std::string_view name, char const* what, char const** after = nullptr) {
        auto const& l = lines_[index];
        auto s = read_size(p, l.end);
        if (!s) {
            missing(index, what);
            return false;
        }
        figure(name, s, read_exact_bytes(s->end, l.end), index);
        if (after) *after = s->end;
        return true;
    }

    /// `Can't reduce memory use below X (N bytes) by rematerialization; only reduced to Y (M bytes),
    /// down from Z (K bytes) originally` (the `down from` part in newer XLA only).
    void rematerialization(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::rematerialization, 0, index);
        char const* after = nullptr;
        if (!sized_figure(index, l.what.rest, "limit", "memory limit", &after)) return;
        char const* reduced = find_in(after, l.end, "only reduced to ");
        if (!reduced) return missing(index, "reduced size");
        if (!sized_figure(index, reduced + 16, "reduced to", "reduced size", &after)) return;
        if (char const* from = find_in(after, l.end, "down from ")) sized_figure(index, from + 10, "originally", "original size");
    }

    /// `total memory required for HLO temporaries (X) exceeds available HBM (Y)`
    void hlo_temporaries(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::hlo_temporaries, 0, index);
        report().memory_space = str("hbm");
        auto temporaries = read_size(l.what.rest, l.end);
        if (!temporaries) return missing(index, "temporaries' size");
        figure("HLO temporaries", temporaries, read_exact_bytes(temporaries->end, l.end), index);
        if (auto available = size_after(index, temporaries->end, "available HBM (", "available HBM")) report().capacity = reported(*available, index);
    }

    // -- the BFC allocator's log -----------------------------------------------------------------

    basic_bfc_log<P>& bfc() { return report().bfc; }

    /// `Allocator (GPU_0_bfc) ran out of memory trying to allocate 84.50MiB ...`
    void bfc_header_line(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::bfc, bfc_header, index);
        if (char const* name = find_in(l.content, l.what.rest, "Allocator (")) {
            char const* close = name + 11;
            while (close < l.what.rest && *close != ')') ++close;
            bfc().allocator = str(std::string_view(name + 11, static_cast<std::size_t>(close - name - 11)));
        }
        if (auto s = read_size(l.what.rest, l.end)) {
            report().requested = reported(*s, index);
            char const* rounded = skip_blanks(s->end, l.end);
            if (starts_with(rounded, l.end, "(rounded to ")) {
                char const* p = rounded + 12;
                bfc().rounded_request = read_count(p, l.end);
            }
        } else {
            missing(index, "requested size");
        }
        bfc().not_a_failure = find_in(l.what.rest, l.end, "not a failure") != nullptr;
    }

    /// `Bin (256): Total Chunks: 94, Chunks in use: 94. 23.5KiB allocated for chunks. ...`
    void bfc_bin_line(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::bfc, bfc_bins, index, true);
        basic_bfc_bin<P> b;
        b.line = number_of(index);
        char const* p = l.content + 5;
        b.bin_size = read_count(p, l.end).value_or(0);
        char const* total = find_in(p, l.end, "Total Chunks:");
        char const* q = total ? total + 13 : l.end;
        auto total_chunks = read_count(q, l.end);
        char const* in_use = find_in(q, l.end, "Chunks in use:");
        char const* r = in_use ? in_use + 14 : l.end;
        auto chunks_in_use = read_count(r, l.end);
        if (!total_chunks || !chunks_in_use) {
            missing(index, "chunk counts");
            bfc().bins.push_back(std::move(b));
            return;
        }
        b.total_chunks = *total_chunks;
        b.chunks_in_use = *chunks_in_use;
        // The sizes, each followed by what it is.
        while (r < l.end) {
            while (r < l.end && (*r == '.' || *r == ',' || is_blank(*r))) ++r;
            auto s = read_size(r, l.end);
            if (!s) break;
            char const* what = skip_blanks(s->end, l.end);
            if (starts_with(what, l.end, "allocated for chunks")) b.allocated = reported(*s, index);
            else if (starts_with(what, l.end, "in use in bin")) b.in_use = reported(*s, index);
            else if (starts_with(what, l.end, "client-requested for chunks")) b.client_requested = reported(*s, index);
            else if (starts_with(what, l.end, "client-requested in use")) b.client_requested_in_use = reported(*s, index);
            r = what;
            while (r < l.end && *r != '.') ++r;
        }
        if (!b.allocated || !b.in_use) missing(index, "bin's sizes");
        bfc().bins.push_back(std::move(b));
    }

    /// `InUse at 703b12d00 of size 256 next 275` / `Free at ... of size N next M`.
    void bfc_chunk_line(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::bfc, bfc_chunks, index, true);
        char const* of = find_in(l.content, l.end, " of size ");
        char const* p = of ? of + 9 : l.end;
        auto size = read_count(p, l.end);
        if (!size) return missing(index, "chunk's size");
        auto& b = bfc();
        if (l.content[0] == 'I') {
            ++b.chunks_in_use;
            b.in_use_chunk_bytes += *size;
            chunk_owner(p, l.end, *size);
        } else {
            ++b.chunks_free;
            b.free_chunk_bytes += *size;
            if (*size > b.largest_free_chunk) b.largest_free_chunk = *size;
        }
    }

    /// `... tag lower allocation_annotation xla.execute{executable=jit_f} next 3` after an in-use
    /// chunk's size: its bytes counted to `jit_f` (to the annotation as printed when it is of
    /// another form).
    void chunk_owner(char const* p, char const* end, std::int64_t size) {
        constexpr std::string_view tag = " allocation_annotation ";
        constexpr std::string_view execute = "xla.execute{executable=";
        char const* at = find_in(p, end, tag);
        if (!at) return;
        char const* first = at + tag.size();
        char const* last = find_in(first, end, " next ");
        std::string_view annotation(first, static_cast<std::size_t>((last ? last : end) - first));
        while (!annotation.empty() && (annotation.back() == ' ' || annotation.back() == '\r')) annotation.remove_suffix(1);
        if (annotation.size() > execute.size() && annotation.substr(0, execute.size()) == execute && annotation.back() == '}') {
            annotation = annotation.substr(execute.size(), annotation.size() - execute.size() - 1);
        }
        auto& owners = bfc().in_use_by_executable;
        auto it = std::find_if(owners.begin(), owners.end(),
                               [&](auto const& o) { return std::string_view(o.executable) == annotation; });
        if (it == owners.end()) {
            owners.emplace_back();
            owners.back().executable = str(annotation);
            it = owners.end() - 1;
        }
        ++it->chunks;
        it->bytes += size;
    }

    /// `9 Chunks of size 256 totalling 2.2KiB`
    void bfc_chunk_sizes_line(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::bfc, bfc_sizes, index, true);
        basic_bfc_chunk_sizes<P> c;
        c.line = number_of(index);
        char const* p = l.content;
        c.count = read_count(p, l.end).value_or(0);
        p += 16;  // ` Chunks of size `
        auto size = read_count(p, l.end);
        if (!size) return missing(index, "chunk size");
        c.size = *size;
        if (auto total = size_after(index, p, "totalling ", "total")) c.total = reported(*total, index);
        bfc().chunk_sizes.push_back(std::move(c));
    }

    /// `total_region_allocated_bytes_: 8590983168 memory_limit_: 10562958132 available bytes: 1971974964`
    void bfc_region_line(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::bfc, bfc_region, index);
        auto value = [&](std::string_view key) -> std::optional<std::int64_t> {
            char const* at = find_in(l.content, l.end, key);
            if (!at) return std::nullopt;
            char const* p = at + key.size();
            return read_count(p, l.end);
        };
        bfc().region_allocated = value("total_region_allocated_bytes_:");
        bfc().memory_limit = value("memory_limit_:");
        bfc().available = value("available bytes:");
        bfc().region_allocation = value("curr_region_allocation_bytes_:");
        if (!bfc().memory_limit || !bfc().available) missing(index, "memory limit and available bytes");
    }

    /// `Allocator memory summary: rounded request 1.00GiB, total free in pool 394.00MiB, largest
    /// free chunk usable by lower end 394.00MiB, unallocated bytes 0B, pool size 59.38GiB, pool limit 59.38GiB`
    void bfc_pool_line(std::size_t index) {
        auto const& l = lines_[index];
        enter(oom_report_kind::bfc, bfc_region, index);
        auto after = [&](std::string_view key, std::optional<basic_reported_size<P>>& field) {
            char const* at = find_in(l.content, l.end, key);
            if (!at) return;
            if (auto s = read_size(at + key.size(), l.end)) field = reported(*s, index);
        };
        after("total free in pool ", bfc().pool_free);
        after("usable by lower end ", bfc().pool_largest_free);
        after("pool size ", bfc().pool_size);
        after("pool limit ", bfc().pool_limit);
        if (!bfc().pool_free) missing(index, "pool's free bytes");
    }

    /// Where a heading of the BFC log stands in DumpMemoryLog's order.
    static int heading_phase(char const* content, char const* end) {
        if (starts_with(content, end, "Summary")) return bfc_sizes;
        if (starts_with(content, end, "Spatial") || starts_with(content, end, "Allocator region")) return bfc_region;
        if (starts_with(content, end, "Bin for") || starts_with(content, end, "Next region") || starts_with(content, end, "Size: ")) return bfc_chunks;
        return bfc_header;  // `Current allocation summary follows.`, `BFCAllocator dump for GPU_0_bfc`, ...
    }

    /// Every other line of a BFC log; returns false for a line of another kind.
    bool bfc_line(std::size_t index) {
        auto const& l = lines_[index];
        switch (l.what.kind) {
            case text_kind::bfc_header: bfc_header_line(index); return true;
            case text_kind::bfc_bin: bfc_bin_line(index); return true;
            case text_kind::bfc_heading: enter(oom_report_kind::bfc, heading_phase(l.content, l.end), index, true); return true;
            case text_kind::bfc_chunk: bfc_chunk_line(index); return true;
            case text_kind::bfc_chunk_sizes: bfc_chunk_sizes_line(index); return true;
            case text_kind::bfc_sum:
                enter(oom_report_kind::bfc, bfc_sum, index);
                if (auto s = read_size(l.content + 28, l.end)) bfc().sum_in_use = reported(*s, index);
                else missing(index, "sum");
                return true;
            case text_kind::bfc_region: bfc_region_line(index); return true;
            case text_kind::bfc_stats: enter(oom_report_kind::bfc, bfc_stats, index); return true;
            case text_kind::bfc_stat: {
                enter(oom_report_kind::bfc, bfc_stat_lines, index, true);
                std::size_t const n = bfc_stat_name_length(l.content, l.end);
                char const* p = l.content + n + 1;
                char const* q = p;
                char const* digits = skip_blanks(p, l.end);
                auto v = read_count(q, l.end);
                std::string_view const name(l.content, n);
                if (v && skip_blanks(q, l.end) == l.end) {
                    bfc().stats.emplace_back(str(name), exact_size(std::string_view(digits, static_cast<std::size_t>(q - digits)), *v, index));
                } else if (auto size = read_size(p, l.end)) {
                    // Newer XLA prints the byte figures as sizes (`59.38GiB`).
                    bfc().stats.emplace_back(str(name), reported(*size, index));
                }
                return true;
            }
            case text_kind::bfc_pool: bfc_pool_line(index); return true;
            case text_kind::bfc_map: enter(oom_report_kind::bfc, bfc_map, index); return true;
            default: return false;
        }
    }

    /// A line of one of this header's kinds; returns false for any other.
    bool message_line(std::size_t index) {
        switch (lines_[index].what.kind) {
            case text_kind::device_allocation: device_allocation(index); return true;
            case text_kind::sparsecore: sparsecore(index); return true;
            case text_kind::runtime_allocation: runtime_allocation(index); return true;
            case text_kind::utilization: utilization(index); return true;
            case text_kind::rematerialization: rematerialization(index); return true;
            case text_kind::hlo_temporaries: hlo_temporaries(index); return true;
            default: return bfc_line(index);
        }
    }
};

}  // namespace hlomem::parser::oom

#endif  // HLOMEM_PARSER_OOM_MESSAGES_HPP
