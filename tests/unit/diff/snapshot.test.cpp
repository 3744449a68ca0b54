// Snapshots (hlomem/diff/snapshot.hpp, snapshot_diff.hpp, output/snapshot_report.hpp): a
// snapshot against its own compilation is identical; a diff with a snapshot side agrees with the
// diff of the two dumps on everything a snapshot keeps (over the bundled pairs of
// tests/data/corpus/compilations and regressions); the JSON is the same bytes on every run, for
// two checkouts of one file, and after a round trip through read_snapshot; bad JSON is refused
// with its line and column; `hlomem diff --json` is one document whatever its sides
// (output/diff_report.hpp, print_diff_json): a snapshot side has every key of two dumps' diff.
#include <hlomem/diff.hpp>
#include <hlomem/hlomem.hpp>
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <catch2/catch.hpp>
#include "test_data.hpp"

#include <cstddef>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using hlomem_test::read_data;

namespace {

struct snapshot_side {
    hlomem::buffer_assignment ba;
    hlomem::source_attribution sources;
};

snapshot_side snapshot_side_of(std::string const& text, std::string const& name) {
    snapshot_side s{hlomem::parse_buffer_assignment(text, name), {}};
    s.sources = hlomem::attribute_values(s.ba);
    return s;
}

hlomem::memory_snapshot snapshot_of(snapshot_side const& s) { return hlomem::make_snapshot(s.ba, s.sources); }

std::string json_of(hlomem::memory_snapshot const& s) {
    std::ostringstream out;
    hlomem::write_snapshot_json(out, s);
    return out.str();
}

std::string const compilation_pairs = "corpus/compilations/";
std::string const chol = "corpus/regressions/jit__batched_chol_";

/// The rows of a color's peak by source line, keyed by the file's name (the last component, the
/// one part that a dump's path, a shared tail and a snapshot's relative path all keep) and line.
std::map<std::tuple<bool, std::string, std::int64_t>, std::pair<std::int64_t, std::int64_t>> snapshot_rows_of(hlomem::color_diff const& c) {
    std::map<std::tuple<bool, std::string, std::int64_t>, std::pair<std::int64_t, std::int64_t>> out;
    for (auto const& l : c.peak_by_source) {
        std::string const name = l.relative_file.substr(l.relative_file.find_last_of('/') + 1);
        auto& row = out[{l.known, name, l.source_line}];
        row.first += l.bytes.a;
        row.second += l.bytes.b;
    }
    return out;
}

/// The key paths of a JSON document (`colors[].peak_by_source[].values_a`: arrays' elements as
/// `[]`, their keys united), and those whose value is null or empty (what is under them unknown).
struct key_paths {
    std::set<std::string> keys, open;

    explicit key_paths(std::string const& json) {
        std::istringstream in(json);
        boost::property_tree::ptree tree;
        boost::property_tree::read_json(in, tree);
        collect(tree, "");
    }
    void collect(boost::property_tree::ptree const& t, std::string const& path) {
        for (auto const& [key, child] : t) {
            std::string const p = key.empty() ? path + "[]" : (path.empty() ? key : path + "." + key);
            keys.insert(p);
            if (child.empty() && (child.data() == "null" || child.data().empty())) open.insert(p);
            collect(child, p);
        }
    }
    /// Whether `path` is a key here, or lies under a key whose value is null or empty.
    bool covers(std::string const& path) const {
        if (keys.count(path)) return true;
        for (std::size_t at = path.find_first_of(".["); at != std::string::npos; at = path.find_first_of(".[", at + 1)) {
            if (open.count(path.substr(0, at))) return true;
        }
        return false;
    }
};

std::string diff_json(hlomem::diff_document<hlomem::default_policy> const& doc) {
    std::ostringstream out;
    hlomem::print_diff_json(out, doc);
    return out.str();
}

}  // namespace

TEST_CASE("diff --json is one document: a snapshot side has the keys of two dumps' diff, null where it cannot know") {
    auto const [a_file, b_file] = GENERATE(table<std::string, std::string>({
        {compilation_pairs + "reshard_xfirst.buffer_assignment.txt", compilation_pairs + "reshard_yfirst.buffer_assignment.txt"},
        {chol + "06a294ff.buffer_assignment.txt", chol + "68697f6f.buffer_assignment.txt"},
    }));
    CAPTURE(a_file, b_file);
    snapshot_side const a = snapshot_side_of(read_data(a_file), "a"), b = snapshot_side_of(read_data(b_file), "b");
    auto const full = hlomem::diff_assignments(a.ba, a.sources, b.ba, b.sources);
    auto const donations_a = hlomem::analyze_donations(a.ba), donations_b = hlomem::analyze_donations(b.ba);
    hlomem::diff_report_side<hlomem::default_policy> const side_a{"a", a.ba, a.sources}, side_b{"b", b.ba, b.sources};
    key_paths const dumps(diff_json({"a", "b", full, donations_a, donations_b, &side_a, &side_b, nullptr}));
    auto const sd = hlomem::diff_snapshots(snapshot_of(a), snapshot_of(b));
    key_paths const snapshots(diff_json({"a", "b", sd.d, sd.a.donations, sd.b.donations, nullptr, nullptr, &sd.not_compared}));
    REQUIRE(dumps.keys.count("colors[].peak_by_source[].values_a"));
    REQUIRE(dumps.keys.count("donations.b"));
    for (auto const& key : dumps.keys) {
        CAPTURE(key);
        CHECK(snapshots.covers(key));
    }
    for (auto const& key : snapshots.keys) {
        CAPTURE(key);
        CHECK(dumps.covers(key));
    }
    // docs/TOOL.md names each key of the document (and ci-memory-gate.md points there).
    std::string const tool_md = read_data("../../docs/TOOL.md");
    for (auto const& key : dumps.keys) {
        if (key.find_first_of(".[") != std::string::npos) continue;
        CAPTURE(key);
        CHECK(tool_md.find("`" + key + "`") != std::string::npos);
    }
    // What a snapshot cannot know is null, and said.
    CHECK(snapshots.open.count("matched_values"));
    CHECK(snapshots.open.count("colors[].live_at_peak.a"));
    CHECK(snapshots.keys.count("not_compared[]"));
}

TEST_CASE("a diff with snapshot sides agrees with the diff of the dumps on what a snapshot keeps") {
    auto const [a_file, b_file] = GENERATE(table<std::string, std::string>({
        {compilation_pairs + "reshard_xfirst.buffer_assignment.txt", compilation_pairs + "reshard_yfirst.buffer_assignment.txt"},
        {compilation_pairs + "scan_window_b.buffer_assignment.txt", compilation_pairs + "scan_window_a.buffer_assignment.txt"},
        {compilation_pairs + "sternheimer_core_a.buffer_assignment.txt", compilation_pairs + "sternheimer_core_b.buffer_assignment.txt"},
        {chol + "06a294ff.buffer_assignment.txt", chol + "68697f6f.buffer_assignment.txt"},
    }));
    CAPTURE(a_file, b_file);
    snapshot_side const a = snapshot_side_of(read_data(a_file), "a"), b = snapshot_side_of(read_data(b_file), "b");
    auto const full = hlomem::diff_assignments(a.ba, a.sources, b.ba, b.sources);
    // A read back from its JSON, as `hlomem diff A.hlomem.json B` reads it; B snapshotted in place.
    auto const sd = hlomem::diff_snapshots(hlomem::read_snapshot(json_of(snapshot_of(a))), snapshot_of(b));
    auto const& d = sd.d;
    CHECK(d.total_bytes.a == full.total_bytes.a);
    CHECK(d.total_bytes.b == full.total_bytes.b);
    CHECK(d.xla_peak_a.bytes == full.xla_peak_a.bytes);
    CHECK(d.xla_peak_b.bytes == full.xla_peak_b.bytes);
    REQUIRE(d.colors.size() == full.colors.size());
    for (std::size_t k = 0; k < d.colors.size(); ++k) {
        auto const &c = d.colors[k], &f = full.colors[k];
        CAPTURE(c.color);
        CHECK(c.color == f.color);
        CHECK(c.allocated_bytes.a == f.allocated_bytes.a);
        CHECK(c.allocated_bytes.b == f.allocated_bytes.b);
        REQUIRE(c.allocated_by_kind.size() == f.allocated_by_kind.size());
        for (std::size_t j = 0; j < c.allocated_by_kind.size(); ++j) {
            CHECK(c.allocated_by_kind[j].kind == f.allocated_by_kind[j].kind);
            CHECK(c.allocated_by_kind[j].bytes.a == f.allocated_by_kind[j].bytes.a);
            CHECK(c.allocated_by_kind[j].bytes.b == f.allocated_by_kind[j].bytes.b);
        }
        CHECK(c.peak_live_bytes.a == f.peak_live_bytes.a);
        CHECK(c.peak_live_bytes.b == f.peak_live_bytes.b);
        CHECK(c.peak_a.time == f.peak_a.time);
        CHECK(c.peak_b.instruction == f.peak_b.instruction);
        CHECK(c.padded_bytes.b == f.padded_bytes.b);
        CHECK(c.unpadded_bytes.a == f.unpadded_bytes.a);
        CHECK(c.temp_allocated_bytes.a == f.temp_allocated_bytes.a);
        CHECK(c.temp_lower_bound_bytes.b == f.temp_lower_bound_bytes.b);
        CHECK(snapshot_rows_of(c) == snapshot_rows_of(f));
        CHECK(c.peak_by_source.size() == f.peak_by_source.size());
    }
    // The headline is computed from the figures alone; the line after it may name a value,
    // which a snapshot cannot match.
    REQUIRE(!d.verdict.empty());
    CHECK(d.verdict[0] == full.verdict[0]);
    CHECK(sd.not_compared.size() == 3);
}

TEST_CASE("the two checkouts of jit__batched_chol: line 204 of cholesky_2d.py, from one row in a snapshot diff") {
    snapshot_side const a = snapshot_side_of(read_data(chol + "06a294ff.buffer_assignment.txt"), "a");
    snapshot_side const b = snapshot_side_of(read_data(chol + "68697f6f.buffer_assignment.txt"), "b");
    auto const sa = snapshot_of(a), sb = snapshot_of(b);
    // One file in each compilation: kept by its name alone, the same in both. The bytes traced to
    // argument 0 (hlo/origin.hpp) are a row of their own, labelled by the argument.
    for (auto const* s : {&sa, &sb}) {
        std::size_t arguments = 0;
        for (auto const& l : s->colors.at(0).peak_by_source) {
            if (l.argument >= 0) {
                ++arguments;
                CHECK(l.file == "argument 0 (all_C_q)");
            } else if (l.known) {
                CHECK(l.file == "cholesky_2d.py");
            }
        }
        CHECK(arguments == 1);
    }
    auto const sd = hlomem::diff_snapshots(sa, sb);
    std::size_t rows = 0;
    for (auto const& l : sd.d.colors.at(0).peak_by_source) {
        if (!l.known || l.source_line != 204) continue;
        ++rows;
        // Added up in tests/unit/diff/source_files.test.cpp from the dumps' value lines.
        CHECK(l.bytes.a == 4608016);
        CHECK(l.bytes.b == 8192016);
    }
    CHECK(rows == 1);
}

TEST_CASE("snapshot(A) against A is identical, and its JSON is the same bytes every time") {
    auto const file = GENERATE(as<std::string>{}, compilation_pairs + "sternheimer_core_a.buffer_assignment.txt", chol + "06a294ff.buffer_assignment.txt",
                               "corpus/lorrax/lorrax_fft_cublas_while.buffer_assignment.txt");
    CAPTURE(file);
    std::string const text = read_data(file);
    snapshot_side const a = snapshot_side_of(text, "a");
    auto const s = snapshot_of(a);
    auto const sd = hlomem::diff_snapshots(s, s);
    CHECK(sd.d.identical());
    REQUIRE(sd.d.verdict.size() == 1);
    CHECK(sd.d.verdict[0].rfind("no change in memory", 0) == 0);
    std::string const json = json_of(s);
    CHECK(json == json_of(snapshot_of(snapshot_side_of(text, "a again"))));
    CHECK(json == json_of(hlomem::read_snapshot(json)));
    CHECK(json.size() < text.size() / 4);
}

TEST_CASE("a snapshot of one compilation under another root is the same bytes") {
    std::string text = read_data(chol + "06a294ff.buffer_assignment.txt");
    std::string const json = json_of(snapshot_of(snapshot_side_of(text, "a")));
    CHECK(json.find("/global/") == std::string::npos);
    std::string const from = "/global/homes/j/jackm/software/lorrax_B/", to = "/home/runner/work/lorrax/";
    std::size_t replaced = 0;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()), ++replaced) text.replace(at, from.size(), to);
    CHECK(replaced == 40);  // every source_file= of the dump
    CHECK(json_of(snapshot_of(snapshot_side_of(text, "moved"))) == json);
}

TEST_CASE("read_snapshot refuses bad JSON with its line and column, and a wrong snapshot by the key") {
    auto error_of = [](std::string const& text) {
        try {
            hlomem::read_snapshot(text);
        } catch (hlomem::snapshot_error const& e) {
            return std::make_tuple(std::string(e.what()), e.line, e.column);
        }
        FAIL("read");
        return std::make_tuple(std::string(), std::size_t(0), std::size_t(0));
    };
    CHECK(error_of("{\n  \"a\": 1,\n}") == std::make_tuple(std::string("not JSON: line 3, column 1: expected a key (a string)"), std::size_t(3), std::size_t(1)));
    CHECK(std::get<0>(error_of("{\"a\": 1.5}")) == "not JSON: line 1, column 8: a number with a fraction or an exponent (only integers are read)");
    CHECK(std::get<0>(error_of("{\"a\": 1, \"a\": 2}")) == "not JSON: line 1, column 10: the key 'a' twice in one object");
    CHECK(std::get<0>(error_of("{\"a\": 1} x")) == "not JSON: line 1, column 10: text after the JSON value");
    CHECK(std::get<0>(error_of("{\"a\": \"\\q\"}")) == "not JSON: line 1, column 9: an unknown escape in a string");
    CHECK(std::get<0>(error_of("{\"a\": 99999999999999999999}")) == "not JSON: line 1, column 25: an integer out of the range of int64");
    CHECK(std::get<0>(error_of("{\"format_version\": 2}")) == "format_version 2: this hlomem reads version 1");
    // Like every error hlomem throws, a hlomem::error: one catch handles them all.
    CHECK_THROWS_AS(hlomem::read_snapshot("{\"format_version\": 2}"), hlomem::error);
    CHECK(std::get<0>(error_of("{\"format_version\": 1, \"kind\": \"hlomem_snapshot\", \"total_bytes\": \"7\"}")) ==
          "total_bytes: expected an integer");
    // A valid snapshot with one key taken out names the key by its path.
    snapshot_side const a = snapshot_side_of(read_data(compilation_pairs + "reshard_xfirst.buffer_assignment.txt"), "a");
    std::string json = json_of(snapshot_of(a));
    auto const at = json.find("\"temp_lower_bound_bytes\": ");
    REQUIRE(at != std::string::npos);
    json.replace(at, 26, "\"temp_lower_bound\": ");
    CHECK(std::get<0>(error_of(json)) == "colors[0].temp_lower_bound_bytes: missing");
}
