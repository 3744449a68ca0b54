// commands/diff.cpp: `hlomem diff [--json] [-o OUT.html] A B` — why memory changed between two
// compilations of one program: the two buffer assignments (dumps, or derived from scheduled
// modules) compared by the library (<hlomem/diff.hpp>), the verdict first.
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../diff/page.hpp"
#include "../input.hpp"
#include "../json_writer.hpp"
#include "../report/buffer_assignment.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* diff_usage =
    "usage: hlomem diff [--json] [-o OUT.html] [--top N] [--fail-above BYTES|PERCENT%] A B\n"
    "\n"
    "Compares two compilations of one program: A (the baseline) and B are buffer-assignment dumps\n"
    "or scheduled HLO modules (whose assignment is derived), in any mix. Values are matched across\n"
    "the two although XLA renames instructions: by metadata (op_name, source line, op_type), then\n"
    "by shape and position in the schedule, then by name. It prints the verdict (what explains\n"
    "most of the change), then per color the bytes by allocation kind, the peak and its moment,\n"
    "the peak by source line, padding, the temp arena against its lower bound, and the largest\n"
    "new, removed, grown and shrunk values.\n"
    "\n"
    "  --json                  one JSON object instead of text\n"
    "  -o OUT.html             also write a self-contained page: both timelines of each color on\n"
    "                          one byte scale, and the deltas\n"
    "  --top N                 how many values each list of largest changes holds (default 10)\n"
    "  --fail-above BYTES      exit 1 when the peak of a color grew by more than BYTES\n"
    "  --fail-above P%         exit 1 when the peak of a color grew by more than P percent of A's\n"
    "Exit status: 0 for a diff, 1 when --fail-above is exceeded, 2 when an input cannot be read.\n";

/// One side: the loaded file, its assignment and each value's metadata (its dump's own, joined
/// with the module read beside it or the module it was derived from). The attribution views the
/// loaded models, which therefore stay in one place.
struct diff_input {
    std::unique_ptr<hlomem::loaded> loaded;
    hlomem::source_attribution sources;
    hlomem::buffer_assignment const& assignment() const { return *loaded->assignment(); }
};

std::optional<diff_input> load_side(std::string const& path, std::ostream& err) {
    auto in = read_input(path, err);
    if (!in) return std::nullopt;
    if (in->kind != hlomem::dump_kind::buffer_assignment && in->kind != hlomem::dump_kind::hlo_module) {
        err << "hlomem diff: " << path
            << ": not a buffer-assignment dump or an HLO module (the first line should be 'BufferAssignment:' or "
               "'HloModule name, ...')\n";
        return std::nullopt;
    }
    hlomem::load_options options;
    options.find_live_range = true;
    options.find_module = true;
    options.derive_assignment = true;
    auto loaded = load(std::move(*in), options, err);
    if (!loaded) return std::nullopt;
    diff_input out{std::make_unique<hlomem::loaded>(std::move(*loaded)), {}};
    // A derived assignment is named after its module; the diff names files.
    if (out.loaded->derived) out.loaded->assignment()->file = path;
    out.sources = hlomem::attribute_values(*out.loaded);
    return out;
}

/// `--fail-above`: bytes, or a percentage of A's peak.
struct threshold {
    std::int64_t bytes = 0;
    std::optional<double> percent;

    bool exceeded(hlomem::byte_pair const& peak) const {
        std::int64_t const grew = peak.delta();
        if (grew <= 0) return false;
        if (percent) return peak.a == 0 || 100.0 * static_cast<double>(grew) / static_cast<double>(peak.a) > *percent;
        return grew > bytes;
    }
};

std::optional<threshold> threshold_named(std::string_view v) {
    threshold t;
    if (!v.empty() && v.back() == '%') {
        std::string const number(v.substr(0, v.size() - 1));
        if (number.empty() || number.find_first_not_of("0123456789.") != std::string::npos ||
            number.find('.') != number.rfind('.')) {
            return std::nullopt;
        }
        t.percent = std::stod(number);
        return t;
    }
    auto const n = decimal(v);
    if (!n) return std::nullopt;
    t.bytes = *n;
    return t;
}

std::string pair_text(hlomem::byte_pair const& p) {
    std::string s = pad_left(std::to_string(p.a), 14) + pad_left(std::to_string(p.b), 14) +
                    pad_left((p.delta() > 0 ? "+" : "") + std::to_string(p.delta()), 15) + "  " +
                    hlomem::signed_human_bytes(p.delta());
    if (p.a != 0 && p.delta() != 0) s += " (" + hlomem::signed_percent(p.delta(), p.a) + ")";
    return s;
}

void print_text(std::ostream& out, diff_input const& sa, diff_input const& sb, hlomem::assignment_diff const& d) {
    auto const& a = sa.assignment();
    auto const& b = sb.assignment();
    out << "diff of A " << a.file << " and B " << b.file << '\n';
    for (auto const& line : d.verdict) out << "  " << line << '\n';
    auto const& m = d.matching;
    out << "\nvalues: A " << a.values.size() << ", B " << b.values.size() << "; " << m.pairs.size() << " matched (";
    for (auto rule : hlomem::all_match_rules) {
        out << (rule == hlomem::match_rule::metadata ? "" : ", ") << m.count(rule) << " by " << hlomem::to_string(rule);
    }
    out << "), " << m.only_in_a.size() << " only in A, " << m.only_in_b.size() << " only in B; " << d.changes.size()
        << " matched values changed size, shape or live range\n";
    out << "\n" << pad_right("", 34) << pad_left("A", 14) << pad_left("B", 14) << pad_left("B - A", 15) << '\n';
    out << "  " << pad_right("total bytes", 32) << pair_text(d.total_bytes) << '\n';
    if (d.xla_peak_a.measured || d.xla_peak_b.measured) {
        out << "  " << pad_right("XLA's peak (HloLiveRange)", 32) << pair_text({d.xla_peak_a.bytes, d.xla_peak_b.bytes}) << '\n';
        auto moment = [](hlomem::side_xla_peak const& p) {
            if (!p.measured) return std::string("none (no live ranges)");
            std::string s = std::to_string(p.time);
            if (p.stated_time) s += *p.stated_time == p.time ? ", as the dump states" : ", the dump states " + std::to_string(*p.stated_time);
            return s;
        };
        out << "    at time: A " << moment(d.xla_peak_a) << "; B " << moment(d.xla_peak_b) << '\n';
    }
    for (auto const& c : d.colors) {
        out << "color " << c.color << '\n';
        out << "  " << pad_right("allocated", 32) << pair_text(c.allocated_bytes) << '\n';
        for (auto const& k : c.allocated_by_kind) out << "    " << pad_right(std::string(hlomem::to_string(k.kind)), 30) << pair_text(k.bytes) << '\n';
        out << "  " << pad_right("peak live bytes", 32) << pair_text(c.peak_live_bytes) << '\n';
        auto moment = [](hlomem::side_peak const& p) {
            return p.measured ? std::to_string(p.time) + " (" + p.instruction + ")" : std::string("none (no live ranges)");
        };
        out << "    at time: A " << moment(c.peak_a) << ", B " << moment(c.peak_b) << "; values live there: A "
            << c.peak_a.live.size() << ", B " << c.peak_b.live.size() << '\n';
        out << "  " << pad_right("padding", 32)
            << pair_text({c.padded_bytes.a - c.unpadded_bytes.a, c.padded_bytes.b - c.unpadded_bytes.b}) << '\n';
        out << "  " << pad_right("temp arena", 32) << pair_text(c.temp_allocated_bytes) << '\n';
        out << "  " << pad_right("  its lower bound", 32) << pair_text(c.temp_lower_bound_bytes) << '\n';
        out << "  " << pad_right("  above the bound", 32) << pair_text(c.temp_above_bound()) << '\n';
        if (!c.peak_by_source.empty()) {
            out << "  the peak by source line\n";
            for (auto const& l : c.peak_by_source) {
                out << "    " << pad_right(cut(hlomem::line_label(l), 30), 30) << pair_text(l.bytes) << '\n';
            }
        }
    }
    auto value_text = [](hlomem::buffer_assignment const& ba, std::size_t i) {
        auto const& v = ba.values[i];
        auto const* s = ba.shape_of(v);
        return v.display_name() + " " + hlomem::human_bytes(v.size) + (s ? " " + hlomem::to_string(*s) : std::string());
    };
    auto list = [&](char const* heading, std::vector<std::size_t> const& items, auto line) {
        if (items.empty()) return;
        out << heading << '\n';
        for (std::size_t k : items) out << "  " << line(k) << '\n';
    };
    list("\nlargest values new in B", d.largest_new, [&](std::size_t j) { return value_text(b, j); });
    list("\nlargest values only in A", d.largest_removed, [&](std::size_t i) { return value_text(a, i); });
    auto change_text = [&](std::size_t k) {
        auto const& ch = d.changes[k];
        return a.values[ch.pair.a].display_name() + " -> " + b.values[ch.pair.b].display_name() + ": " +
               hlomem::human_bytes(ch.size.a) + " -> " + hlomem::human_bytes(ch.size.b) + " (" +
               hlomem::signed_human_bytes(ch.size.delta()) + ", matched by " + std::string(hlomem::to_string(ch.pair.rule)) + ")";
    };
    list("\nlargest values grown", d.largest_grown, change_text);
    list("\nlargest values shrunk", d.largest_shrunk, change_text);
}

void write_pair(json_writer& json, std::string_view key, hlomem::byte_pair const& p) {
    json.key(key).begin_object();
    json.member("a", p.a);
    json.member("b", p.b);
    json.member("delta", p.delta());
    json.end_object();
}

void write_value(json_writer& json, diff_input const& side, std::size_t i, shape_text_cache<hlomem::default_policy>& shapes) {
    json.begin_object();
    write_value_members(json, side.assignment(), side.assignment().values[i], shapes, side.sources[i]);
    json.end_object();
}

void print_json(std::ostream& os, diff_input const& sa, diff_input const& sb, hlomem::assignment_diff const& d) {
    auto const& a = sa.assignment();
    auto const& b = sb.assignment();
    json_writer json(os);
    json.begin_object();
    json.member("kind", "diff");
    json.member("a", a.file);
    json.member("b", b.file);
    json.key("verdict").begin_array();
    for (auto const& line : d.verdict) json.value(line);
    json.end_array();
    write_pair(json, "total_bytes", d.total_bytes);
    json.key("xla_peak").begin_object();
    for (auto const& [key, get] : {std::pair<std::string_view, std::optional<std::int64_t> (*)(hlomem::side_xla_peak const&)>{
                                       "time", [](hlomem::side_xla_peak const& p) { return p.measured ? std::optional<std::int64_t>(p.time) : std::nullopt; }},
                                   {"stated_time", [](hlomem::side_xla_peak const& p) { return p.stated_time; }}}) {
        json.key(key).begin_object();
        json.member("a", get(d.xla_peak_a));
        json.member("b", get(d.xla_peak_b));
        json.end_object();
    }
    write_pair(json, "bytes", {d.xla_peak_a.bytes, d.xla_peak_b.bytes});
    json.end_object();
    json.key("colors").begin_array();
    for (auto const& c : d.colors) {
        json.begin_object();
        json.member("color", c.color);
        write_pair(json, "allocated_bytes", c.allocated_bytes);
        write_pair(json, "peak_live_bytes", c.peak_live_bytes);
        auto moment = [&](std::string_view key, auto get) {
            json.key(key).begin_object();
            json.member("a", get(c.peak_a));
            json.member("b", get(c.peak_b));
            json.end_object();
        };
        moment("peak_time", [](hlomem::side_peak const& p) { return p.measured ? std::optional<std::int64_t>(p.time) : std::nullopt; });
        moment("peak_instruction", [](hlomem::side_peak const& p) { return p.measured ? std::optional<std::string>(p.instruction) : std::nullopt; });
        json.key("live_at_peak").begin_object();
        json.key("a").begin_array();
        for (std::size_t i : c.peak_a.live) json.value(a.values[i].id);
        json.end_array();
        json.key("b").begin_array();
        for (std::size_t j : c.peak_b.live) json.value(b.values[j].id);
        json.end_array();
        json.end_object();
        json.key("allocated_by_kind").begin_array();
        for (auto const& k : c.allocated_by_kind) {
            json.begin_object();
            json.member("kind", hlomem::to_string(k.kind));
            json.member("a", k.bytes.a);
            json.member("b", k.bytes.b);
            json.member("delta", k.bytes.delta());
            json.end_object();
        }
        json.end_array();
        json.key("peak_by_source").begin_array();
        for (auto const& l : c.peak_by_source) {
            json.begin_object();
            json.member("source_file", l.known ? std::optional<std::string>(l.source_file) : std::nullopt);
            json.member("source_line", l.known && l.source_line ? std::optional<std::int64_t>(l.source_line) : std::nullopt);
            json.member("a", l.bytes.a);
            json.member("b", l.bytes.b);
            json.member("delta", l.bytes.delta());
            json.key("values_a").begin_array();
            for (std::size_t i : l.values_a) json.value(a.values[i].id);
            json.end_array();
            json.key("values_b").begin_array();
            for (std::size_t j : l.values_b) json.value(b.values[j].id);
            json.end_array();
            json.end_object();
        }
        json.end_array();
        write_pair(json, "padded_bytes", c.padded_bytes);
        write_pair(json, "unpadded_bytes", c.unpadded_bytes);
        write_pair(json, "temp_allocated_bytes", c.temp_allocated_bytes);
        write_pair(json, "temp_lower_bound_bytes", c.temp_lower_bound_bytes);
        write_pair(json, "temp_above_bound_bytes", c.temp_above_bound());
        json.end_object();
    }
    json.end_array();
    auto const& m = d.matching;
    shape_text_cache<hlomem::default_policy> shapes_a(a), shapes_b(b);
    json.key("matching").begin_object();
    json.member("a_values", a.values.size());
    json.member("b_values", b.values.size());
    json.member("matched", m.pairs.size());
    for (auto rule : hlomem::all_match_rules) json.member(std::string("by_") + std::string(hlomem::to_string(rule)), m.count(rule));
    json.end_object();
    auto pair_members = [&](hlomem::value_pair const& p) {
        json.member("rule", hlomem::to_string(p.rule));
        json.key("a");
        write_value(json, sa, p.a, shapes_a);
        json.key("b");
        write_value(json, sb, p.b, shapes_b);
    };
    json.key("matched_values").begin_array();
    for (auto const& p : m.pairs) {
        json.begin_object();
        pair_members(p);
        json.end_object();
    }
    json.end_array();
    json.key("only_in_a").begin_array();
    for (std::size_t i : m.only_in_a) write_value(json, sa, i, shapes_a);
    json.end_array();
    json.key("only_in_b").begin_array();
    for (std::size_t j : m.only_in_b) write_value(json, sb, j, shapes_b);
    json.end_array();
    json.key("changes").begin_array();
    for (auto const& ch : d.changes) {
        json.begin_object();
        pair_members(ch.pair);
        write_pair(json, "size", ch.size);
        json.member("size_changed", ch.size_changed);
        json.member("shape_changed", ch.shape_changed);
        json.member("live_range_changed", ch.live_range_changed);
        json.end_object();
    }
    json.end_array();
    auto ids = [&](std::string_view key, hlomem::buffer_assignment const& ba, std::vector<std::size_t> const& list) {
        json.key(key).begin_array();
        for (std::size_t i : list) json.value(ba.values[i].id);
        json.end_array();
    };
    ids("largest_new", b, d.largest_new);
    ids("largest_removed", a, d.largest_removed);
    for (auto const& [key, list] : {std::pair<std::string_view, std::vector<std::size_t> const*>{"largest_grown", &d.largest_grown},
                                    std::pair<std::string_view, std::vector<std::size_t> const*>{"largest_shrunk", &d.largest_shrunk}}) {
        json.key(key).begin_array();
        for (std::size_t k : *list) {
            json.begin_object();
            json.member("a", a.values[d.changes[k].pair.a].id);
            json.member("b", b.values[d.changes[k].pair.b].id);
            json.member("delta", d.changes[k].size.delta());
            json.end_object();
        }
        json.end_array();
    }
    json.end_object();
    json.finish();
}

}  // namespace

int run_diff(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> page;
    std::optional<threshold> fail_above;
    hlomem::diff_options options;
    std::vector<std::string> files;
    argument_reader a("diff", diff_usage, args, err);
    while (a.next()) {
        if (a.is("--json")) {
            as_json = true;
        } else if (a.is_help()) {
            return a.help(out);
        } else if (a.is("-o")) {
            if (!(page = a.value())) return a.needs_value();
        } else if (a.is("--top")) {
            auto v = a.value();
            if (!v) return a.needs_value();
            auto n = decimal(*v);
            if (!n) return a.error("--top needs a number");
            options.top = static_cast<std::size_t>(*n);
        } else if (a.is("--fail-above")) {
            auto v = a.value();
            if (!v) return a.needs_value();
            if (!(fail_above = threshold_named(*v))) return a.error("--fail-above needs bytes (1048576) or a percentage (5%)");
        } else if (a.is_option()) {
            return a.unknown_option();
        } else {
            if (files.size() == 2) return a.unexpected();
            files.push_back(a.operand());
        }
    }
    if (files.size() != 2) return a.usage();
    if (files[0] == "-" && files[1] == "-") return a.error("standard input can be only one of A and B");
    auto side_a = load_side(files[0], err);
    if (!side_a) return exit_error;
    auto side_b = load_side(files[1], err);
    if (!side_b) return exit_error;
    auto const d = hlomem::diff_assignments(side_a->assignment(), side_a->sources, side_b->assignment(), side_b->sources, options);
    if (page) {
        std::ofstream file(*page, std::ios::binary);
        write_diff_html(file, side_a->assignment(), side_b->assignment(), d);
        if (!file) {
            err << "hlomem diff: cannot write " << *page << '\n';
            return exit_error;
        }
    }
    if (as_json) {
        print_json(out, *side_a, *side_b, d);
    } else {
        print_text(out, *side_a, *side_b, d);
        if (page) out << "\nwrote " << *page << '\n';
    }
    if (fail_above) {
        for (auto const& c : d.colors) {
            if (!fail_above->exceeded(c.peak_live_bytes)) continue;
            err << "hlomem diff: the peak of color " << c.color << " grew by " << c.peak_live_bytes.delta() << " bytes ("
                << hlomem::signed_percent(c.peak_live_bytes.delta(), c.peak_live_bytes.a) << "), more than --fail-above allows\n";
            return exit_findings;
        }
    }
    return exit_ok;
}

}  // namespace hlomem_cli
