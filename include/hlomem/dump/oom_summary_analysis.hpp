// hlomem/dump/oom_summary_analysis.hpp: what the summary of an out-of-memory report
// (dump/oom_log.hpp) means: the relations between its printed figures that XLA's printing must
// satisfy, checked on their rounded values, and the share of the program its entries account
// for (`analyze_summary`).
#ifndef HLOMEM_DUMP_OOM_SUMMARY_ANALYSIS_HPP
#define HLOMEM_DUMP_OOM_SUMMARY_ANALYSIS_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/error.hpp>
#include <hlomem/core/layout.hpp>
#include <hlomem/core/padding.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/printed_size.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/oom_log.hpp>

namespace hlomem {

/// One relation between a report's figures that XLA's printing must satisfy, checked on the
/// printed (rounded) values: each figure stands for a range of byte counts, and a relation holds
/// when the ranges allow it.
struct oom_summary_check {
    std::string relation;   ///< `used - capacity = exceeded`
    bool agrees = true;
    std::size_t line = 0;   ///< of the figure the relation is about
    std::string message;    ///< the figures and what they give, in a sentence
};

/// What the listed entries account for: the sum of their reported sizes against a total the
/// report states (TPU: the program requirement, or the `program` usage line; GPU: the `total
/// allocation` stat).
struct oom_entries_share {
    std::size_t entries = 0;        ///< entries with a reported size
    std::int64_t listed_bytes = 0;  ///< the sum of their sizes (nominal values of the printed sizes)
    std::string of;                 ///< `program requirement`, `program`, `total allocation`
    std::int64_t of_bytes = 0;
    double share() const noexcept { return of_bytes > 0 ? static_cast<double>(listed_bytes) / static_cast<double>(of_bytes) : 0.0; }
};

/// What hlomem makes of a report's summary.
struct oom_summary_analysis {
    std::vector<oom_summary_check> checks;
    std::optional<oom_entries_share> share;

    bool agrees() const noexcept {
        for (auto const& c : checks) {
            if (!c.agrees) return false;
        }
        return true;
    }
};

namespace detail {

/// The byte counts a printed figure stands for.
struct figure_range {
    std::int64_t min = 0;
    std::int64_t max = 0;
    figure_range operator+(figure_range const& o) const { return {min + o.min, max + o.max}; }
    figure_range operator-(figure_range const& o) const { return {min - o.max, max - o.min}; }
    bool meets(figure_range const& o) const { return min <= o.max && o.min <= max; }
};

template <class P>
figure_range range_of(basic_reported_size<P> const& r) {
    return {r.size.min_bytes, r.size.max_bytes};
}

template <class P>
std::optional<figure_range> range_of(basic_oom_usage<P> const& u) {
    if (u.exact_bytes) return figure_range{*u.exact_bytes, *u.exact_bytes};
    if (!u.size) return std::nullopt;
    figure_range r = range_of(*u.size);
    return u.negative ? figure_range{-r.max, -r.min} : r;
}

/// `11733560320 to 11755591677 bytes (10.93G to 10.95G)`
inline std::string range_text(figure_range r, size_function_kind style) {
    auto one = [&](std::int64_t b) { return b < 0 ? "-" + format_size(-b, style) : format_size(b, style); };
    if (r.min == r.max) return std::to_string(r.min) + " bytes (" + one(r.min) + ")";
    return std::to_string(r.min) + " to " + std::to_string(r.max) + " bytes (" + one(r.min) + " to " + one(r.max) + ")";
}

/// The sum of the usage lines of `part`, or nullopt with the name of a line without a value.
template <class P>
std::optional<figure_range> sum_of(basic_oom_report<P> const& r, oom_usage_part part, std::string& missing, std::size_t& count) {
    figure_range sum;
    count = 0;
    for (auto const& u : r.usage) {
        if (u.part != part) continue;
        auto range = range_of(u);
        if (!range) {
            missing = std::string(std::string_view(u.name));
            return std::nullopt;
        }
        sum = sum + *range;
        ++count;
    }
    return sum;
}

template <class P>
basic_oom_usage<P> const* usage_named(basic_oom_report<P> const& r, oom_usage_part part, std::string_view name) {
    for (auto const& u : r.usage) {
        if (u.part == part && std::string_view(u.name) == name) return &u;
    }
    return nullptr;
}

}  // namespace detail

/// Checks the figures of `r`'s summary against each other where XLA's printing makes them add up:
///   - `Used U of C hbm. Exceeded hbm capacity by E.`: U - C = E;
///   - `Total hbm usage >= T:` is the sum of its lines (reserved, program, arguments, ...);
///   - `Program hbm requirement R:` is the sum of its lines (global, scoped, HLO temp, ...);
///   - R is the `program` line of the total;
///   - U is T (older runtimes) or T less its `reserved` line (newer ones);
///   - `HBM capacity C:` less its lines (Top-of-Memory reserved, Currently allocated, Program
///     requirement) is its `Available after request` line;
///   - `Attempting to reserve X ... There are ... V reservable.`: X > V (why it failed);
///   - GPU stats: no allocation stat exceeds `total allocation`.
/// A relation whose figures are not all in the paste is not checked; one whose lines lack a value
/// (`unknown size`, a line cut off) is listed as not checkable, agreeing. Then the share of the
/// program that the listed entries account for.
template <class P>
oom_summary_analysis analyze_summary(basic_oom_report<P> const& r) {
    using detail::figure_range;
    using detail::range_of;
    size_function_kind const style = size_style_of(r.kind);
    auto range_text = [&](detail::figure_range x) { return detail::range_text(x, style); };
    oom_summary_analysis out;
    auto text = [](auto const& reported) { return std::string(std::string_view(reported.text)); };
    auto add = [&](std::string relation, bool agrees, std::size_t line, std::string message) {
        out.checks.push_back(oom_summary_check{std::move(relation), agrees, line, std::move(message)});
    };

    if (r.used && r.capacity && r.exceeded) {
        figure_range const d = range_of(*r.used) - range_of(*r.capacity);
        bool const ok = d.meets(range_of(*r.exceeded));
        add("used - capacity = exceeded", ok, r.exceeded->line,
            "Used " + text(*r.used) + " less capacity " + text(*r.capacity) + " is " + range_text(d) + "; the report says exceeded by " +
                text(*r.exceeded) + (ok ? "." : ", which is not in that range."));
    }
    auto sum_check = [&](std::optional<basic_reported_size<P>> const& total, oom_usage_part part, char const* relation, char const* what) {
        if (!total) return;
        std::string missing;
        std::size_t count = 0;
        auto sum = detail::sum_of(r, part, missing, count);
        if (!sum) {
            add(relation, true, total->line,
                std::string(what) + " " + text(*total) + " cannot be checked: its line '" + missing + "' has no value.");
            return;
        }
        if (count == 0) return;
        bool const ok = sum->meets(range_of(*total));
        add(relation, ok, total->line,
            "The " + std::to_string(count) + " lines under " + what + " " + text(*total) + " add up to " + range_text(*sum) +
                (ok ? "." : ", which " + text(*total) + " (" + range_text(range_of(*total)) + ") does not cover."));
    };
    sum_check(r.total_usage, oom_usage_part::total, "total usage = sum of its lines", "the total usage");
    sum_check(r.program_requirement, oom_usage_part::program, "program requirement = sum of its lines", "the program requirement");

    auto const* program_line = detail::usage_named(r, oom_usage_part::total, "program");
    if (r.program_requirement && program_line && program_line->size) {
        bool const ok = range_of(*r.program_requirement).meets(*range_of(*program_line));
        add("program requirement = program", ok, r.program_requirement->line,
            "The program requirement " + text(*r.program_requirement) + (ok ? " is" : " is not") + " the total's program line " +
                text(*program_line->size) + ".");
    }
    if (r.used && r.total_usage) {
        figure_range const used = range_of(*r.used);
        figure_range const total = range_of(*r.total_usage);
        auto const* reserved = detail::usage_named(r, oom_usage_part::total, "reserved");
        std::optional<figure_range> const reserved_range = reserved ? range_of(*reserved) : std::nullopt;
        bool const as_total = used.meets(total);
        bool const as_less_reserved = reserved_range && used.meets(total - *reserved_range);
        add("used = total usage (- reserved)", as_total || as_less_reserved, r.used->line,
            "Used " + text(*r.used) + (as_less_reserved ? " is the total usage " + text(*r.total_usage) + " less its reserved line"
                                       : as_total     ? " is the total usage " + text(*r.total_usage)
                                                      : " is neither the total usage " + text(*r.total_usage) +
                                                            " nor that less its reserved line") +
                ".");
    }
    if (r.capacity) {
        auto const* available = [&]() -> basic_oom_usage<P> const* {
            for (auto const& u : r.usage) {
                if (u.part == oom_usage_part::capacity && std::string_view(u.name).substr(0, 9) == "Available") return &u;
            }
            return nullptr;
        }();
        if (available && range_of(*available)) {
            figure_range rest = range_of(*r.capacity);
            bool complete = true;
            for (auto const& u : r.usage) {
                if (u.part != oom_usage_part::capacity || &u == available) continue;
                auto range = range_of(u);
                if (!range) complete = false;
                else rest = rest - *range;
            }
            if (complete) {
                bool const ok = rest.meets(*range_of(*available));
                add("capacity - allocations = available", ok, available->line,
                    "Capacity " + text(*r.capacity) + " less the lines above it leaves " + range_text(rest) + "; the report says " +
                        (ok ? "" : "otherwise: ") + std::string(std::string_view(available->name)) + " " +
                        text(*available->size) + ".");
            }
        }
    }
    if (r.requested) {
        if (auto const* reservable = detail::usage_named(r, oom_usage_part::other, "reservable"); reservable && reservable->size) {
            bool const ok = range_of(*r.requested).max > range_of(*reservable->size).min;
            add("requested > reservable", ok, r.requested->line,
                "The reservation of " + text(*r.requested) + (ok ? " exceeds" : " does not exceed") + " the " +
                    text(*reservable->size) + " reservable" + (ok ? ", which is why it failed." : "."));
        }
    }
    if (r.kind == oom_report_kind::gpu) {
        basic_oom_stat<P> const* total = nullptr;
        for (auto const& st : r.stats) {
            if (std::string_view(st.name) == "total allocation") total = &st;
        }
        if (total && !std::string_view(total->size.text).empty()) {
            for (auto const& st : r.stats) {
                std::string_view const name(st.name);
                if (&st == total || std::string_view(st.size.text).empty() || name.find("allocation") == std::string_view::npos) continue;
                bool const ok = range_of(st.size).min <= range_of(total->size).max;
                add(std::string(name) + " <= total allocation", ok, st.size.line,
                    std::string(name) + " " + text(st.size) + (ok ? " is within" : " exceeds") + " the total allocation " +
                        text(total->size) + ".");
            }
        }
    }

    // The share of the program that the listed entries account for.
    oom_entries_share share;
    for (auto const& e : r.entries) {
        if (!e.size) continue;
        ++share.entries;
        share.listed_bytes += e.size->size.nominal_bytes;
    }
    if (share.entries > 0) {
        if (r.program_requirement) {
            share.of = "program requirement";
            share.of_bytes = r.program_requirement->size.nominal_bytes;
        } else if (program_line && program_line->size) {
            share.of = "program";
            share.of_bytes = program_line->size->size.nominal_bytes;
        } else {
            for (auto const& st : r.stats) {
                if (std::string_view(st.name) == "total allocation" && !std::string_view(st.size.text).empty()) {
                    share.of = "total allocation";
                    share.of_bytes = st.size.size.nominal_bytes;
                }
            }
        }
        if (share.of_bytes > 0) out.share = share;
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_DUMP_OOM_SUMMARY_ANALYSIS_HPP
