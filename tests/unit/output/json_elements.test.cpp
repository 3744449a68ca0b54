// The elements of a JSON array written on two threads (output/json_elements.hpp): the text is,
// byte for byte, the indented array written here by hand, for every length and run around the
// handovers; each thread makes its own state; an exception in either thread's run reaches the
// caller and stops the other.
#include <hlomem/output/json_elements.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

/// `{"values": [{"i": 0, "twice": 0}, ...]}` as the writer indents it, n elements, built by hand.
std::string expected_document(std::size_t n) {
    std::string s = "{\n  \"values\": [";
    for (std::size_t i = 0; i < n; ++i) {
        s += i == 0 ? "\n" : ",\n";
        s += "    {\n      \"i\": " + std::to_string(i) + ",\n      \"twice\": " + std::to_string(2 * i) + "\n    }";
    }
    s += n == 0 ? "]" : "\n  ]";
    return s + "\n}\n";
}

/// The same document through write_elements with `options`.
std::string written_document(std::size_t n, hlomem::elements_options options) {
    std::ostringstream out;
    hlomem::json_writer json(out);
    json.begin_object();
    json.key("values").begin_array();
    hlomem::write_elements(
        json, n, [] { return 0; },
        [](hlomem::json_writer& w, int&, std::size_t i) {
            w.begin_object();
            w.member("i", i);
            w.member("twice", 2 * i);
            w.end_object();
        },
        options);
    json.end_array();
    json.end_object();
    json.finish();
    return out.str();
}

}  // namespace

TEST_CASE("write_elements: the text of one writer, on one thread or two, for every length and run", "[output][json][threads]") {
    CHECK(expected_document(1) == "{\n  \"values\": [\n    {\n      \"i\": 0,\n      \"twice\": 0\n    }\n  ]\n}\n");
    for (std::size_t threads : {1, 2}) {
        for (std::size_t run : {1, 2, 3, 7, 1024}) {
            for (std::size_t n : {0, 1, 2, 3, 4, 5, 6, 7, 8, 13, 14, 15, 21, 22, 50}) {
                INFO("threads " << threads << ", run " << run << ", " << n << " elements");
                CHECK(written_document(n, {threads, run}) == expected_document(n));
            }
        }
    }
    // Runs longer than the writer's buffer (256 KiB): a handed-over text goes to the stream whole.
    CHECK(written_document(30000, {2, 10000}) == expected_document(30000));
}

TEST_CASE("write_elements: each thread writes with a state of its own", "[output][json][threads]") {
    // Catch's assertions are made on this thread alone: the writers only record what they saw.
    std::mutex m;
    std::set<std::thread::id> makers, writers;
    bool each_with_its_own = true;
    std::ostringstream out;
    hlomem::json_writer json(out, false);
    json.begin_array();
    hlomem::write_elements(
        json, 8,
        [&] {
            std::lock_guard<std::mutex> lock(m);
            makers.insert(std::this_thread::get_id());
            return std::this_thread::get_id();
        },
        [&](hlomem::json_writer& w, std::thread::id const& made_on, std::size_t i) {
            std::lock_guard<std::mutex> lock(m);
            each_with_its_own = each_with_its_own && made_on == std::this_thread::get_id();
            writers.insert(made_on);
            w.value(i);
        },
        {2, 2});
    json.end_array();
    json.finish();
    CHECK(out.str() == "[0,1,2,3,4,5,6,7]\n");
    CHECK(each_with_its_own);
    CHECK(makers.size() == 2);
    CHECK(writers == makers);
}

TEST_CASE("write_elements: an exception in either thread's run reaches the caller", "[output][json][threads]") {
    // Runs of 2 over 20 elements: element 5 lies in run 2 (this thread's), element 7 in run 3
    // (the other thread's); element 19 in the last run, the other thread's.
    for (std::size_t failing : {0, 5, 7, 19}) {
        INFO("element " << failing << " fails");
        std::ostringstream out;
        hlomem::json_writer json(out, false);
        json.begin_array();
        auto write = [failing](hlomem::json_writer& w, int&, std::size_t i) {
            if (i == failing) throw std::runtime_error("element " + std::to_string(i));
            w.value(i);
        };
        CHECK_THROWS_WITH(hlomem::write_elements(json, 20, [] { return 0; }, write, {2, 2}), "element " + std::to_string(failing));
    }
}
