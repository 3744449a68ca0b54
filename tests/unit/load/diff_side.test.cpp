// One side of a diff read from a file (load/diff_side.hpp), on the bundled scan_window pair
// (tests/data/corpus/compilations): a file is told a snapshot, a dump or a module by its content;
// a side that is neither, or a snapshot that is not one, fails with what the tool prints. The
// comparison of two sides is tests/unit/diff/side.test.cpp's.
#include <hlomem/hlomem.hpp>
#include <hlomem/load/diff_side.hpp>
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

std::string const side_dir = std::string(HLOMEM_TEST_DATA_DIR) + "/corpus/compilations/";
std::string const side_base = side_dir + "scan_window_b.buffer_assignment.txt";

/// A snapshot file of `side` (`hlomem snapshot`'s JSON), written under the system's temporary
/// folder; removed when the holder goes.
struct snapshot_file {
    std::string path;
    explicit snapshot_file(hlomem::basic_diff_side<hlomem::view_policy> const& side, char const* name)
        : path((std::filesystem::temp_directory_path() / name).string()) {
        std::ofstream out(path, std::ios::binary);
        hlomem::write_snapshot_json(out, side.to_snapshot(10));
    }
    ~snapshot_file() { std::remove(path.c_str()); }
};

}  // namespace

TEST_CASE("diff side: a dump, a module and a snapshot are told by their content") {
    auto const dump = hlomem::open_diff_side(side_base);
    REQUIRE(dump);
    CHECK_FALSE(dump->is_snapshot());
    REQUIRE(dump->assignment != nullptr);
    CHECK(dump->assignment->values.size() == 110);
    CHECK(dump->assignment->total_bytes() == 268297668);
    CHECK(dump->module == nullptr);  // no scan_window_b.txt beside it
    CHECK(dump->name == side_base);
    CHECK(dump->sources.values.size() == 110);

    auto const module = hlomem::open_diff_side(side_dir + "scan_window_b.after_opt.hlo");
    REQUIRE(module);
    CHECK_FALSE(module->is_snapshot());
    REQUIRE(module->module != nullptr);  // the assignment derived from it
    // The same live bytes at the peak as XLA's dump of the same compilation gives (268,295,276).
    auto const live = hlomem::assigned_live_bytes(*module->assignment);
    REQUIRE(live.size() == 1);
    CHECK(live[0].peak_bytes == 268295276);

    snapshot_file const file(*dump, "hlomem-diff-side-base.hlomem.json");
    auto const snapshot = hlomem::open_diff_side(file.path);
    REQUIRE(snapshot);
    CHECK(snapshot->is_snapshot());
    CHECK(snapshot->assignment == nullptr);
    CHECK(snapshot->snapshot->total_bytes == 268297668);

    hlomem::diff_side_options dumps_only;  // `hlomem snapshot` reads no snapshot
    dumps_only.snapshots = false;
    auto const refused = hlomem::open_diff_side(file.path, dumps_only);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().failure == hlomem::load_failure::unknown_kind);
}

TEST_CASE("diff side: what is not a side fails with what it is not") {
    std::string const bad_snapshot = std::string(HLOMEM_TEST_DATA_DIR) + "/hand/snapshot_trailing_comma.hlomem.json";
    auto const bad = hlomem::open_diff_side(bad_snapshot);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().failure == hlomem::load_failure::unparsable);
    CHECK_FALSE(bad.error().parse.has_value());
    CHECK(bad.error().message == bad_snapshot + ": not a snapshot: not JSON: line 4, column 1: expected a key (a string)");

    std::string const live_range = std::string(HLOMEM_TEST_DATA_DIR) + "/synthetic/newest_simple-live-range.txt";
    auto const neither = hlomem::open_diff_side(live_range);
    REQUIRE_FALSE(neither);
    CHECK(neither.error().failure == hlomem::load_failure::unknown_kind);
    CHECK(neither.error().message == live_range +
                                         ": not a buffer-assignment dump or an HLO module (the first line should be "
                                         "'BufferAssignment:' or 'HloModule name, ...')");

    auto const missing = hlomem::open_diff_side(side_dir + "no_such-buffer-assignment.txt");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().failure == hlomem::load_failure::unreadable);
}
