// A file's text mapped rather than read (load/mapped_file.hpp): the bytes are the file's, an empty
// file (which mmap refuses: length 0) is read instead, and a missing one is the loader's error.
#include <hlomem/load/mapped_file.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "data_path.hpp"
#include "test_data.hpp"

#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>

TEST_CASE("load/mapped_file: a dump mapped whole, an empty file read, a missing one an error", "[load][mapped_file]") {
    std::string const path = data_path("synthetic/newest_simple-buffer-assignment.txt");
    auto const text = hlomem::mapped_text::open(path);
    REQUIRE(text);
    CHECK((*text)->text() == hlomem_test::read_data("synthetic/newest_simple-buffer-assignment.txt"));
    auto const loaded = hlomem::load_mapped<hlomem::view_policy>(path);
    REQUIRE(loaded);
    REQUIRE(loaded->assignment() != nullptr);
    std::string_view const name = loaded->assignment()->values.at(0).name;  // a view into the mapped text
    CHECK(name.data() >= loaded->text->text().data());
    CHECK(name.data() + name.size() <= loaded->text->text().data() + loaded->text->text().size());

    std::string const empty = std::string(HLOMEM_TEST_BINARY_DIR) + "/mapped_file_empty.txt";
    { std::ofstream out(empty, std::ios::binary); }
    auto const none = hlomem::mapped_text::open(empty);
    auto const empty_load = hlomem::load_mapped(empty);
    std::remove(empty.c_str());
    REQUIRE(none);
    CHECK((*none)->text().empty());
    REQUIRE_FALSE(empty_load);
    CHECK(empty_load.error().failure == hlomem::load_failure::unknown_kind);

    auto const missing = hlomem::mapped_text::open(path + ".missing");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().failure == hlomem::load_failure::unreadable);
    CHECK(missing.error().message == "cannot open '" + path + ".missing'");
}
