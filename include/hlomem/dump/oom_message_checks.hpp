// hlomem/dump/oom_message_checks.hpp: the relations between the figures of the one-line
// out-of-memory messages and the BFC allocator's log (parser/oom_messages.hpp shows the texts),
// checked as analyze_summary (dump/oom_summary_analysis.hpp) checks a TPU summary: on the printed
// (rounded) values, each standing for a range of byte counts. `analyze_report` is analyze_summary
// with these added.
#ifndef HLOMEM_DUMP_OOM_MESSAGE_CHECKS_HPP
#define HLOMEM_DUMP_OOM_MESSAGE_CHECKS_HPP

#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <hlomem/core/printed_size.hpp>
#include <hlomem/dump/oom_log.hpp>
#include <hlomem/dump/oom_summary_analysis.hpp>

namespace hlomem {

namespace detail {

/// `N% utilization: Unpadded (X) Padded (Y)` in a text (a usage line's detail, `HLO temp 3.93G (97.4%
/// utilization: Unpadded (3.81G) Padded (3.92G), ...)`): the percent's digits and decimals and the
/// two sizes.
struct utilization_figures {
    std::int64_t digits = 0;
    int decimals = 0;
    printed_size unpadded;
    printed_size padded;
};

inline std::optional<utilization_figures> utilization_in(std::string_view text) {
    auto const at = text.find("% utilization: Unpadded (");
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t start = at;
    while (start > 0 && (std::isdigit(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '.')) --start;
    if (start == at) return std::nullopt;
    utilization_figures out;
    for (std::size_t i = start; i < at; ++i) {
        if (text[i] == '.') {
            out.decimals = 0;
            for (std::size_t j = i + 1; j < at; ++j) ++out.decimals;
            continue;
        }
        out.digits = out.digits * 10 + (text[i] - '0');
    }
    auto inside = [&](std::size_t from, std::string_view key) -> std::optional<printed_size> {
        auto const k = text.find(key, from);
        if (k == std::string_view::npos) return std::nullopt;
        auto const close = text.find(')', k + key.size());
        if (close == std::string_view::npos) return std::nullopt;
        return parse_printed_size(text.substr(k + key.size(), close - k - key.size()));
    };
    auto unpadded = inside(at, "Unpadded (");
    auto padded = inside(at + 25, " Padded (");
    if (!unpadded || !padded) return std::nullopt;
    out.unpadded = *unpadded;
    out.padded = *padded;
    return out;
}

/// The check that `unpadded / padded` rounds to the printed percent: the ratio of the figures'
/// ranges meets the percent's half-unit range.
inline oom_summary_check utilization_check(utilization_figures const& u, std::size_t line) {
    double const scale = std::pow(10.0, u.decimals);
    double const percent = static_cast<double>(u.digits) / scale;
    double const low = u.padded.max_bytes > 0 ? 100.0 * static_cast<double>(u.unpadded.min_bytes) / static_cast<double>(u.padded.max_bytes) : 0;
    double const high = u.padded.min_bytes > 0 ? 100.0 * static_cast<double>(u.unpadded.max_bytes) / static_cast<double>(u.padded.min_bytes) : 0;
    double const half = 0.5 / scale + 1e-9;
    bool const ok = high >= percent - half && low <= percent + half;
    std::string percent_text = std::to_string(u.digits);
    if (u.decimals > 0) {
        while (percent_text.size() <= static_cast<std::size_t>(u.decimals)) percent_text.insert(0, "0");
        percent_text.insert(percent_text.size() - static_cast<std::size_t>(u.decimals), ".");
    }
    char range[64];
    std::snprintf(range, sizeof range, "%.4f%% to %.4f%%", low, high);
    std::string const message = "Unpadded " + to_string(u.unpadded) + " over padded " + to_string(u.padded) + " is " + range +
                                "; the report says " + percent_text + "%";
    return oom_summary_check{"unpadded / padded = utilization", ok, line, message + (ok ? "." : ", which is not in that range.")};
}

template <class P>
std::optional<figure_range> figure_of(basic_oom_report<P> const& r, std::string_view name) {
    auto const* u = usage_named(r, oom_usage_part::other, name);
    return u ? range_of(*u) : std::nullopt;
}

}  // namespace detail

/// The BFC log's relations (bfc_allocator.cc, BFCAllocator::DumpMemoryLog):
///   - per bin, the chunks in use are at most its chunks and its bytes in use at most its bytes;
///   - `N Chunks of size S totalling T`: N·S prints as T; their sum is `Sum Total of in-use chunks`;
///   - the bins' bytes in use add up to the sum, and the sum is the `InUse` stat;
///   - `memory_limit_` less `total_region_allocated_bytes_` is `available bytes`, and is `Limit`;
///   - InUse ≤ MaxInUse ≤ Limit, MaxAllocSize ≤ MaxInUse, LargestFreeBlock ≤ Limit − InUse.
template <class P>
void add_bfc_checks(basic_oom_report<P> const& r, oom_summary_analysis& out) {
    using detail::figure_range;
    auto const& b = r.bfc;
    auto add = [&](std::string relation, bool ok, std::size_t line, std::string message) {
        out.checks.push_back(oom_summary_check{std::move(relation), ok, line, std::move(message)});
    };
    auto xla = [](std::int64_t v) { return format_size(v, size_function_kind::xla); };
    if (!b.bins.empty()) {
        std::size_t bad = 0, line = b.bins.front().line;
        figure_range in_use;
        bool all_sized = true;
        for (auto const& bin : b.bins) {
            bool ok = bin.chunks_in_use <= bin.total_chunks;
            if (bin.in_use && bin.allocated) ok = ok && detail::range_of(*bin.in_use).min <= detail::range_of(*bin.allocated).max;
            if (!ok && bad++ == 0) line = bin.line;
            if (bin.in_use) in_use = in_use + detail::range_of(*bin.in_use);
            else all_sized = false;
        }
        add("bin: in use <= allocated", bad == 0, line,
            std::to_string(b.bins.size()) + " bins: " + (bad == 0 ? "in each, the chunks and bytes in use are at most its chunks and bytes."
                                                                   : std::to_string(bad) + " hold more in use than allocated."));
        auto const* in_use_stat = b.printed_stat("InUse");
        if (all_sized && (b.sum_in_use || in_use_stat)) {
            figure_range const total = detail::range_of(b.sum_in_use ? *b.sum_in_use : *in_use_stat);
            bool const ok = in_use.meets(total);
            add("bins' in use = in-use total", ok, b.bins.back().line,
                "The bins' bytes in use add up to " + detail::range_text(in_use, size_function_kind::xla) + "; the in-use total is " +
                    detail::range_text(total, size_function_kind::xla) + (ok ? "." : ", not in that range."));
        }
    }
    if (!b.chunk_sizes.empty()) {
        std::size_t bad = 0, line = b.chunk_sizes.front().line;
        std::int64_t sum = 0;
        for (auto const& c : b.chunk_sizes) {
            sum += c.count * c.size;
            if (c.total && !c.total->size.covers(c.count * c.size) && bad++ == 0) line = c.line;
        }
        add("chunks x size = totalling", bad == 0, line,
            std::to_string(b.chunk_sizes.size()) + " chunk sizes: " +
                (bad == 0 ? "each count times its size prints as its total." : std::to_string(bad) + " totals do not."));
        if (b.sum_in_use) {
            bool const ok = b.sum_in_use->size.covers(sum);
            add("sum of chunk sizes = in-use total", ok, b.sum_in_use->line,
                "The chunks in use add up to " + std::to_string(sum) + " bytes (" + xla(sum) + "); the log says " +
                    std::string(std::string_view(b.sum_in_use->text)) + (ok ? "." : ", which does not cover it."));
        }
    }
    auto const stat = [&](std::string_view name) -> std::optional<figure_range> {
        auto const* st = b.printed_stat(name);
        return st ? std::optional<figure_range>(detail::range_of(*st)) : std::nullopt;
    };
    auto const stat_text = [&](std::string_view name) { return std::string(name) + " " + std::string(std::string_view(b.printed_stat(name)->text)); };
    auto const in_use = stat("InUse");
    auto const limit = stat("Limit");
    if (b.sum_in_use && in_use) {
        bool const ok = detail::range_of(*b.sum_in_use).meets(*in_use);
        add("in-use total = InUse", ok, b.sum_in_use->line,
            "Sum Total of in-use chunks " + std::string(std::string_view(b.sum_in_use->text)) + (ok ? " is " : " is not ") + stat_text("InUse") + ".");
    }
    if (b.memory_limit && b.region_allocated && b.available) {
        bool const ok = *b.memory_limit - *b.region_allocated == *b.available;
        add("limit - region allocated = available", ok, r.line,
            "memory_limit_ " + std::to_string(*b.memory_limit) + " less total_region_allocated_bytes_ " + std::to_string(*b.region_allocated) +
                " is " + std::to_string(*b.memory_limit - *b.region_allocated) + "; available bytes " + std::to_string(*b.available) +
                (ok ? "." : ": they differ."));
    }
    if (b.memory_limit && limit) {
        bool const ok = limit->meets(figure_range{*b.memory_limit, *b.memory_limit});
        add("memory_limit_ = Limit", ok, r.line, "memory_limit_ " + std::to_string(*b.memory_limit) + (ok ? " is " : " is not ") + stat_text("Limit") + ".");
    }
    if (limit && in_use) {
        auto const max_in_use = stat("MaxInUse");
        bool const ok = in_use->min <= limit->max && (!max_in_use || (in_use->min <= max_in_use->max && max_in_use->min <= limit->max));
        add("InUse <= MaxInUse <= Limit", ok, r.line,
            stat_text("InUse") + (max_in_use ? ", " + stat_text("MaxInUse") : std::string()) + " and " + stat_text("Limit") +
                (ok ? " are in order." : " are not in order."));
        if (auto largest = stat("LargestFreeBlock")) {
            figure_range const free = *limit - *in_use;
            bool const fits = largest->min <= free.max;
            add("LargestFreeBlock <= Limit - InUse", fits, r.line,
                "The largest free block (" + stat_text("LargestFreeBlock") + ")" + (fits ? " is within" : " exceeds") + " the " +
                    detail::range_text(free, size_function_kind::xla) + " not in use under the limit.");
        }
    }
    if (auto max_alloc = stat("MaxAllocSize"); max_alloc && stat("MaxInUse")) {
        bool const ok = max_alloc->min <= stat("MaxInUse")->max;
        add("MaxAllocSize <= MaxInUse", ok, r.line, stat_text("MaxAllocSize") + (ok ? " is within " : " exceeds ") + stat_text("MaxInUse") + ".");
    }
    if (b.pool_free && b.pool_largest_free) {
        bool const ok = detail::range_of(*b.pool_largest_free).min <= detail::range_of(*b.pool_free).max;
        add("largest free chunk <= free in pool", ok, b.pool_free->line,
            "The largest free chunk " + std::string(std::string_view(b.pool_largest_free->text)) + (ok ? " is within" : " exceeds") +
                " the pool's free " + std::string(std::string_view(b.pool_free->text)) + ".");
    }
}

/// The relations of the one-line messages, added to `out`:
///   - E1000: TensorCore + SparseCore usage exceeds the available bytes (why it failed);
///   - `Allocation (size=N) would exceed memory (size=M)`: N > M (its shape's size is the entry's);
///   - `N% utilization: Unpadded (X) Padded (Y)`: X/Y rounds to N% (also inside a TPU summary's
///     `HLO temp` line);
///   - rematerialization: each printed size is its exact byte count, and the reduced size is above
///     the limit;
///   - HLO temporaries exceed the available HBM.
template <class P>
void add_message_checks(basic_oom_report<P> const& r, oom_summary_analysis& out) {
    using detail::figure_range;
    size_function_kind const style = size_style_of(r.kind);
    auto add = [&](std::string relation, bool ok, std::size_t line, std::string message) {
        out.checks.push_back(oom_summary_check{std::move(relation), ok, line, std::move(message)});
    };
    auto text = [](auto const& reported) { return std::string(std::string_view(reported.text)); };
    if (r.kind == oom_report_kind::sparsecore && r.capacity) {
        auto const tc = detail::figure_of(r, "TensorCore");
        auto const sc = detail::figure_of(r, "SparseCore");
        if (tc && sc) {
            figure_range const sum = *tc + *sc;
            bool const ok = sum.max > detail::range_of(*r.capacity).min;
            add("TensorCore + SparseCore > available", ok, r.capacity->line,
                "TensorCore and SparseCore use " + detail::range_text(sum, style) + " together; the available bytes are " + text(*r.capacity) +
                    (ok ? ": over, which is why it failed." : ": not over."));
        }
    }
    if ((r.kind == oom_report_kind::runtime_allocation || r.kind == oom_report_kind::hlo_temporaries) && r.capacity) {
        auto const need = r.kind == oom_report_kind::runtime_allocation ? (r.requested ? std::optional<figure_range>(detail::range_of(*r.requested)) : std::nullopt)
                                                                        : detail::figure_of(r, "HLO temporaries");
        if (need) {
            bool const ok = need->max > detail::range_of(*r.capacity).min;
            std::string const what = r.kind == oom_report_kind::runtime_allocation ? "allocation" : "HLO temporaries";
            add(what + " > memory", ok, r.capacity->line,
                "The " + what + " of " + detail::range_text(*need, style) + (ok ? " exceeds" : " does not exceed") + " the " +
                    detail::range_text(detail::range_of(*r.capacity), style) + " of memory.");
        }
    }
    if (r.kind == oom_report_kind::utilization && r.utilization) {
        auto const* unpadded = detail::usage_named(r, oom_usage_part::other, "Unpadded");
        auto const* padded = detail::usage_named(r, oom_usage_part::other, "Padded");
        if (unpadded && padded && unpadded->size && padded->size) {
            detail::utilization_figures u{r.utilization->digits, r.utilization->decimals, unpadded->size->size, padded->size->size};
            out.checks.push_back(detail::utilization_check(u, r.utilization->line));
        }
    }
    for (auto const& u : r.usage) {
        if (u.part == oom_usage_part::other) continue;
        if (auto f = detail::utilization_in(std::string_view(u.detail))) out.checks.push_back(detail::utilization_check(*f, u.line));
    }
    if (r.kind == oom_report_kind::rematerialization) {
        for (auto const& u : r.usage) {
            if (!u.size || !u.exact_bytes) continue;
            bool const ok = u.size->size.covers(*u.exact_bytes);
            add(std::string(std::string_view(u.name)) + ": printed = bytes", ok, u.line,
                std::string(std::string_view(u.name)) + " " + text(*u.size) + (ok ? " is" : " is not") + " " + std::to_string(*u.exact_bytes) +
                    " bytes (" + format_size(*u.exact_bytes, style) + ").");
        }
        auto const* limit = detail::usage_named(r, oom_usage_part::other, "limit");
        auto const* reduced = detail::usage_named(r, oom_usage_part::other, "reduced to");
        if (limit && reduced && limit->bytes() && reduced->bytes()) {
            bool const ok = *reduced->bytes() > *limit->bytes();
            add("reduced to > limit", ok, reduced->line,
                "Rematerialization reached " + std::to_string(*reduced->bytes()) + " bytes, " + (ok ? "above" : "not above") + " the limit " +
                    std::to_string(*limit->bytes()) + (ok ? ", which is why it warns." : "."));
        }
    }
    if (r.kind == oom_report_kind::bfc) add_bfc_checks(r, out);
}

/// analyze_summary and the checks of the one-line messages and the BFC log.
template <class P>
oom_summary_analysis analyze_report(basic_oom_report<P> const& r) {
    oom_summary_analysis out = analyze_summary(r);
    add_message_checks(r, out);
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_DUMP_OOM_MESSAGE_CHECKS_HPP
