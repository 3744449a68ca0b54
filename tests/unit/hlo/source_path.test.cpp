// One source file across checkouts and machines (hlomem/hlo/source_path.hpp): common tails,
// roots stripped, and the matching of two sides' files, with the paths of the bundled
// jit__batched_chol pair (tests/data/corpus/regressions), two checkouts of one program.
#include <hlomem/hlo/source_path.hpp>
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view chol_b_source = "/global/homes/j/jackm/software/lorrax_B/src/common/cholesky_2d.py";
constexpr std::string_view chol_d = "/pscratch/sd/j/jackm/lorrax_sandbox/sources/lorrax_D/src/common/cholesky_2d.py";

}  // namespace

TEST_CASE("common_tail_length counts the trailing components two paths share") {
    CHECK(hlomem::common_tail_length(chol_b_source, chol_d) == 3);  // src/common/cholesky_2d.py
    CHECK(hlomem::common_tail_length(chol_b_source, chol_b_source) == 9);  // global/homes/j/jackm/software/lorrax_B/src/common/cholesky_2d.py
    CHECK(hlomem::common_tail_length("/a/model.py", "/a/other.py") == 0);
    // A component, not a suffix of characters: `xmodel.py` is not `model.py`.
    CHECK(hlomem::common_tail_length("/a/xmodel.py", "/b/model.py") == 0);
    // Empty components (a leading, doubled or trailing `/`) are not components.
    CHECK(hlomem::common_tail_length("/r//src/m.py", "src/m.py") == 2);
    CHECK(hlomem::common_tail_length("/r/src/m.py/", "/q/src/m.py") == 2);
    CHECK(hlomem::common_tail_length("", "/a/m.py") == 0);
}

TEST_CASE("path_tail gives the last components as written") {
    CHECK(hlomem::path_tail(chol_b_source, 3) == "src/common/cholesky_2d.py");
    CHECK(hlomem::path_tail("/x/m.py", 1) == "m.py");
    CHECK(hlomem::path_tail("/x/m.py", 2) == "x/m.py");
    CHECK(hlomem::path_tail("/x/m.py", 3) == "/x/m.py");
    CHECK(hlomem::path_tail("m.py", 1) == "m.py");
}

TEST_CASE("strip_root removes the longest root a path lies under, by whole components") {
    std::vector<std::string> const roots = {"/global/homes/j/jackm/software", "/global/homes/j/jackm/software/lorrax_B/"};
    CHECK(hlomem::strip_root(chol_b_source, roots) == "src/common/cholesky_2d.py");
    CHECK(hlomem::strip_root(chol_d, roots) == chol_d);  // under neither
    CHECK(hlomem::strip_root("/a/bc/d.py", {"/a/b"}) == "/a/bc/d.py");
    CHECK(hlomem::strip_root("/a/b", {"/a/b"}) == "/a/b");
    CHECK(hlomem::strip_root("/a/b/c.py", {"/a/b"}) == "c.py");
    CHECK(hlomem::strip_root("/a/b/c.py", {}) == "/a/b/c.py");
    CHECK(hlomem::strip_root("/a/b/c.py", {"/"}) == "/a/b/c.py");  // `/` names no root to show below
}

TEST_CASE("match_source_files: the two checkouts of cholesky_2d.py are one file, shown by their common tail") {
    auto const files = hlomem::match_source_files({chol_b_source}, {chol_d});
    REQUIRE(files.size() == 1);
    CHECK(files[0].a == chol_b_source);
    CHECK(files[0].b == chol_d);
    CHECK(files[0].shown == "src/common/cholesky_2d.py");
    CHECK(files[0].across_roots());
}

TEST_CASE("match_source_files: identical paths first, then the longest tail, and each file once") {
    // A's src/a/util.py and src/b/util.py each find the B file with their folder (tail 3 against 1).
    std::vector<std::string_view> const a = {"/r1/src/a/util.py", "/r1/src/b/util.py", "/same/main.py", "/r1/only_a.py"};
    std::vector<std::string_view> const b = {"/r2/src/b/util.py", "/same/main.py", "/r2/src/a/util.py", "/r2/only_b.py"};
    auto const files = hlomem::match_source_files(a, b);
    REQUIRE(files.size() == 5);
    CHECK(files[0].b == "/r2/src/a/util.py");
    CHECK(files[0].shown == "src/a/util.py");
    CHECK(files[1].b == "/r2/src/b/util.py");
    CHECK(files[2].b == "/same/main.py");
    CHECK(files[2].shown == "/same/main.py");  // no root to take away
    CHECK_FALSE(files[2].across_roots());
    CHECK(files[3].a == "/r1/only_a.py");
    CHECK(files[3].b.empty());
    CHECK(files[4].a.empty());
    CHECK(files[4].b == "/r2/only_b.py");
    CHECK(files[4].shown == "/r2/only_b.py");
}

TEST_CASE("match_source_files: a tie on the longest tail matches nothing") {
    // A's util.py shares only its name with both of B's: which one it became cannot be told.
    auto const files = hlomem::match_source_files({"/x/a/util.py"}, {"/y/b/util.py", "/y/c/util.py"});
    REQUIRE(files.size() == 3);
    for (auto const& f : files) CHECK_FALSE(f.across_roots());
    // Nor on B's side: two of A's files tie for B's one.
    auto const other = hlomem::match_source_files({"/x/a/util.py", "/x/b/util.py"}, {"/y/util.py"});
    REQUIRE(other.size() == 3);
    CHECK(other[0].b.empty());
    CHECK(other[1].b.empty());
    CHECK(other[2].b == "/y/util.py");
    // A longer tail breaks the tie: lib/util.py against a/util.py and lib/util.py.
    auto const broken = hlomem::match_source_files({"/x/lib/util.py"}, {"/y/a/util.py", "/y/lib/util.py"});
    REQUIRE(broken.size() == 2);
    CHECK(broken[0].b == "/y/lib/util.py");
    CHECK(broken[0].shown == "lib/util.py");
}

TEST_CASE("source_file_index looks a file up by either side's path") {
    hlomem::source_file_index const index({chol_b_source, "/same/main.py"}, {"/same/main.py", chol_d});
    CHECK(index.across_roots());
    CHECK(index.key_of(chol_d, true) == chol_b_source);
    CHECK(index.key_of(chol_b_source, false) == chol_b_source);
    CHECK(index.key_of("/same/main.py", true) == "/same/main.py");
    REQUIRE(index.find(chol_d, true) != nullptr);
    CHECK(index.find(chol_d, true)->shown == "src/common/cholesky_2d.py");
    CHECK(index.find(chol_d, false) == nullptr);  // a path of B only, looked up in A
    CHECK_FALSE(hlomem::source_file_index({"/same/main.py"}, {"/same/main.py"}).across_roots());
}
