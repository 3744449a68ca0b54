// load/source_text.hpp: the text of the source lines a module's metadata points at, found as
// written or below a source root; and the timeline page's data, which carries it.
#include <hlomem/hlomem.hpp>
#include <hlomem/memory/timeline.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_data.hpp"

namespace {
std::string const source_root = std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/source_root";
// The one file the JAX 0.11 modules name (their FileNames table).
std::string const traced_file = "/work/main/devcheck/make_pairs.py";
}  // namespace

TEST_CASE("source_text: a path as written first, then below each root with leading folders dropped", "[load][source_text]") {
    hlomem::source_text const text({"/r1", "/r2/"});
    CHECK(text.candidates("/a/b/c.py") == std::vector<std::string>{"/a/b/c.py", "/r1/a/b/c.py", "/r1/b/c.py", "/r1/c.py", "/r2/a/b/c.py",
                                                                    "/r2/b/c.py", "/r2/c.py"});
    CHECK(text.candidates("c.py") == std::vector<std::string>{"c.py", "/r1/c.py", "/r2/c.py"});
}

TEST_CASE("source_text: lines of a file found below the root, without their indentation", "[load][source_text]") {
    hlomem::source_text text({source_root});
    CHECK(text.line(traced_file, 18) == "# line 18 of a stand-in for make_pairs.py (see tests/data/jax_0_11/source_root/README.md)");
    CHECK(text.line(traced_file, 50).value().rfind("# line 50 ", 0) == 0);
    CHECK_FALSE(text.line(traced_file, 51));  // past the end
    CHECK_FALSE(text.line(traced_file, 0));
    CHECK(text.found_at(traced_file) == source_root + "/devcheck/make_pairs.py");
    CHECK(text.missing().empty());
    CHECK_FALSE(text.line("/elsewhere/other.py", 3));
    CHECK(text.missing() == std::vector<std::string>{"/elsewhere/other.py"});
    CHECK(text.found_count() == 1);

    hlomem::source_text nowhere({std::string(HLOMEM_TEST_DATA_DIR) + "/no-such-folder"});
    CHECK_FALSE(nowhere.line(traced_file, 18));
    CHECK(nowhere.missing() == std::vector<std::string>{traced_file});
}

TEST_CASE("timeline page: each source line's text where its file is found", "[output][source_text]") {
    // grad_ckpt's peak (60.00MiB at 22) is held by make_pairs.py:18 (48 MiB) and :26; the page's data
    // lists the lines of the peak first, and with a root their text beside them.
    hlomem::load_options options;
    options.find_module = true;
    options.find_live_range = true;
    auto const r = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/grad_ckpt-buffer-assignment.txt", options);
    REQUIRE(r);
    auto const* ba = r->assignment();
    auto const tl = hlomem::make_timeline(*ba, {});
    auto const sources = hlomem::attribute_values(*r);
    std::vector<std::size_t> index;
    std::string const without = hlomem::timeline_data_json(*ba, tl, sources, index);
    CHECK(without.find("\"source_text\"") == std::string::npos);
    hlomem::source_text text({source_root});
    std::string const with = hlomem::timeline_data_json(*ba, tl, sources, index, &text);
    auto const at = with.find("\"sources\":[\"" + traced_file + ":18\",\"" + traced_file + ":26\"");
    CHECK(at != std::string::npos);
    CHECK(with.find("\"source_text\":[\"# line 18 of a stand-in", at) != std::string::npos);
    CHECK(with.find("\"source_missing\":[]") != std::string::npos);
}
