// What `hlomem report --json` says about sources (<hlomem/output/assignment_report.hpp>,
// the code the tool runs), read back with a JSON parser: on every real dump, each value's
// op_type, op_name, source_file and source_line are what its ` from instruction:` line states
// (null where it states none), and each color's peak_by_source, peak_by_op_name and
// peak_by_stack_frame add up to its peak_live_bytes; and the report is the same, byte for byte,
// on one thread and on two.
#include <hlomem/hlomem.hpp>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using hlomem_test::read_data;
using ptree = boost::property_tree::ptree;

/// The four fields of the metadata on one ` from instruction:` line, read by regular expressions
/// and C escapes read back as JSON holds them; "null" for a field the line does not state.
std::map<std::string, std::string> stated(std::string const& line) {
    std::map<std::string, std::string> out{{"op_type", "null"}, {"op_name", "null"}, {"source_file", "null"}, {"source_line", "null"}};
    auto const at = line.find(", metadata={");
    if (at == std::string::npos) return out;
    std::string const md = line.substr(at + 11);
    for (char const* key : {"op_type", "op_name", "source_file"}) {
        std::smatch m;
        if (std::regex_search(md, m, std::regex(std::string("(?:[{ ])") + key + "=\"((?:[^\"\\\\]|\\\\.)*)\""))) {
            out[key] = hlomem::c_unescape(m[1].str());
        }
    }
    std::smatch m;
    if (out["source_file"] != "null" && std::regex_search(md, m, std::regex("[{ ]source_line=(-?[0-9]+)"))) out["source_line"] = m[1];
    if (out["source_file"] != "null" && out["source_line"] == "null") out["source_line"] = "0";
    return out;
}

std::int64_t tree_sum(ptree const& node) {
    std::int64_t sum = 0;
    for (auto const& c : node.get_child("children")) sum += c.second.get<std::int64_t>("bytes");
    return sum;
}

/// Every node's bytes are at least its children's; returns the number of nodes.
std::size_t check_nodes(ptree const& node) {
    std::size_t n = 1;
    CHECK(tree_sum(node) <= node.get<std::int64_t>("bytes"));
    for (auto const& c : node.get_child("children")) n += check_nodes(c.second);
    return n;
}

}  // namespace

TEST_CASE("report --json: every value's metadata as its from-instruction line states it; breakdowns sum to the peak",
          "[attribution][report]") {
    std::vector<std::string> const& files = hlomem_test::real_dumps;
    std::size_t values_checked = 0, with_source = 0;
    for (auto const& file : files) {
        INFO(file);
        std::string const text = read_data(file);
        auto const ba = hlomem::parse_buffer_assignment(text, file);
        // On two threads, as a large dump's report is written (report_threads): the analyses beside
        // the metadata, and the values in runs handed from one thread to the other.
        auto const facts = hlomem::facts_with(ba, [&] { return hlomem::attribute_values(ba); }, 2);
        std::ostringstream json;
        hlomem::print_buffer_assignment_json(json, facts, 2);
        std::istringstream in(json.str());
        ptree report;
        boost::property_tree::read_json(in, report);

        // The dump's own statements, by value id.
        std::map<std::int64_t, std::map<std::string, std::string>> by_id;
        std::regex const header(R"(^<(\d+) )");
        std::int64_t id = -1;
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) {
            std::smatch m;
            if (std::regex_search(line, m, header)) id = std::stoll(m[1]);
            if (line.rfind(" from instruction:", 0) == 0) by_id[id] = stated(line);
        }
        REQUIRE_FALSE(by_id.empty());
        for (auto const& entry : report.get_child("values")) {
            auto const& v = entry.second;
            auto const vid = v.get<std::int64_t>("id");
            INFO("value " << vid);
            auto it = by_id.find(vid);
            std::map<std::string, std::string> const none{{"op_type", "null"}, {"op_name", "null"}, {"source_file", "null"}, {"source_line", "null"}};
            auto const& expected = it == by_id.end() ? none : it->second;
            for (auto const& [key, want] : expected) {
                // property_tree reads JSON null as the text "null".
                CHECK(v.get<std::string>(key) == want);
            }
            ++values_checked;
            if (expected.at("source_file") != "null") ++with_source;
        }

        for (auto const& entry : report.get_child("colors")) {
            auto const& c = entry.second;
            if (c.get<std::string>("peak_live_bytes") == "null") continue;
            auto const peak = c.get<std::int64_t>("peak_live_bytes");
            INFO("color " << c.get<std::int64_t>("color"));
            std::int64_t sum = 0, previous = peak;
            for (auto const& g : c.get_child("peak_by_source")) {
                auto const bytes = g.second.get<std::int64_t>("bytes");
                CHECK(bytes <= previous);
                previous = bytes;
                sum += bytes;
            }
            CHECK(sum == peak);
            for (char const* tree : {"peak_by_op_name", "peak_by_stack_frame"}) {
                auto const& root = c.get_child(tree);
                CHECK(root.get<std::int64_t>("bytes") == peak);
                CHECK(check_nodes(root) >= 1);
            }
        }
    }
    CHECK(values_checked > 900);
    CHECK(with_source > 0);
}

TEST_CASE("report: the same text and JSON on one thread and on two", "[report][threads]") {
    std::size_t handed_over = 0;
    for (auto const& file : hlomem_test::real_dumps) {
        INFO(file);
        auto const ba = hlomem::parse_buffer_assignment(read_data(file), file);
        CHECK(hlomem::report_threads(ba, 1) == 1);
        CHECK(hlomem::report_threads(ba, 5) == 2);
        std::string texts[2], jsons[2];
        for (std::size_t threads : {1, 2}) {
            // Every value's metadata (JSON), and only the values' at the peaks (the text).
            auto const every = hlomem::facts_with(ba, [&] { return hlomem::attribute_values(ba); }, threads);
            auto const at_peaks = hlomem::facts_with(
                ba, [&](std::vector<hlomem::color_live_bytes> const& colors) { return hlomem::attribute_values(ba, hlomem::values_at_peaks(ba, colors)); },
                threads);
            std::ostringstream json, text;
            hlomem::print_buffer_assignment_json(json, every, threads);
            hlomem::print_buffer_assignment_text(text, at_peaks, 20);
            jsons[threads - 1] = json.str();
            texts[threads - 1] = text.str();
        }
        CHECK(jsons[1] == jsons[0]);
        CHECK(texts[1] == texts[0]);
        // Runs of a sixteenth of the values, 16 at least: from 32 values one is handed over.
        handed_over += ba.values.size() >= 32;
    }
    CHECK(handed_over >= 10);
}
