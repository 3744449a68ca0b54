// One input read whole, and what can go wrong loading it (load/input.hpp): load_result, the
// load_exception its value throws, read_input.
#include <hlomem/load/input.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "data_path.hpp"
#include "test_data.hpp"

#include <string>
#include <type_traits>
#include <utility>

using hlomem::dump_kind;
using hlomem_test::read_data;

TEST_CASE("load_result: behaves as parse_result, and an error throws load_exception with its load_error", "[load][result]") {
    static_assert(std::is_same_v<hlomem::load_result<hlomem::input>, hlomem::result<hlomem::input, hlomem::load_error>>);
    auto read = hlomem::read_input(data_path("seeds/002_b0117d631587537a.txt"));
    REQUIRE(read.has_value());
    CHECK(read->kind == dump_kind::buffer_assignment);
    CHECK(&read.value() == &*read);
    hlomem::input moved = *std::move(read);
    CHECK(moved.text.rfind("BufferAssignment:", 0) == 0);

    // What the value of a failed load throws: the load_error itself (here an unparsable module's,
    // with its parse_error_info), not std::bad_variant_access.
    auto r = hlomem::load_text(read_data("malformed/hlo-bad-layout.txt"), "malformed/hlo-bad-layout.txt");
    REQUIRE_FALSE(r.has_value());
    CHECK_FALSE(static_cast<bool>(r));
    auto thrown = [&](auto&& access) {
        try {
            access();
        } catch (hlomem::load_exception const& e) {
            return e.info().failure == hlomem::load_failure::unparsable && e.info().message == r.error().message &&
                   e.info().parse == r.error().parse && std::string(e.what()) == r.error().message;
        }
        return false;
    };
    CHECK(thrown([&] { (void)*r; }));
    CHECK(thrown([&] { (void)r->kind(); }));
    CHECK(thrown([&] { (void)r.value(); }));
    CHECK(thrown([&] { (void)std::as_const(r).value(); }));
    CHECK(thrown([&] { (void)*std::move(r); }));
    CHECK_THROWS_AS(*hlomem::read_input(data_path("no-such-file.txt")), hlomem::error);
}

TEST_CASE("load/input: a text's kind and name, and what cannot be read is an error, never a crash", "[load][input]") {
    // The kind is detect_dump_kind's (kind.hpp): the first line `HloModule ` is a module.
    auto const module = hlomem::input_from_text("HloModule m\n", "-");
    CHECK(module.kind == dump_kind::hlo_module);
    CHECK(module.name() == "<stdin>");  // standard input, in messages
    CHECK(module.path == "-");
    auto const other = hlomem::input_from_text("hello\n", "x.txt");
    CHECK(other.kind == dump_kind::unknown);
    CHECK(other.name() == "x.txt");

    std::string const missing = data_path("no-such-file.txt");
    auto const none = hlomem::read_input(missing);
    REQUIRE_FALSE(none);
    CHECK(none.error().failure == hlomem::load_failure::unreadable);
    CHECK(none.error().file == missing);
    CHECK(none.error().message == "cannot open '" + missing + "'");
    CHECK_FALSE(none.error().parse);

    // A parse error's load_error carries it whole; its message is the report the tool prints.
    hlomem::parse_error_info info;
    info.file = "m.txt";
    info.line = 2;
    info.column = 3;
    info.message = "expected ']'";
    info.source_line = "f32[8";
    info.caret = 5;
    auto const e = hlomem::unparsable("m.txt", info);
    CHECK(e.failure == hlomem::load_failure::unparsable);
    CHECK(e.file == "m.txt");
    CHECK(e.message == "m.txt:2:3: error: expected ']'\nf32[8\n     ^");
    REQUIRE(e.parse);
    CHECK(*e.parse == info);
}

// A folder opens as an ifstream on Linux, and on ext4 tellg() at its end is 9223372036854775807:
// read_input once resized its string to that and threw std::length_error. It refuses the folder.
TEST_CASE("load/input: a folder is an error naming it, never an exception", "[load][input]") {
    std::string const folder = data_path("seeds");
    auto const dir = hlomem::read_input(folder);
    REQUIRE_FALSE(dir);
    CHECK(dir.error().failure == hlomem::load_failure::unreadable);
    CHECK(dir.error().file == folder);
    CHECK(dir.error().message == "cannot read '" + folder + "': it is a folder, not a file");
    auto const mapped = hlomem::mapped_text::open(folder);
    REQUIRE_FALSE(mapped);
    CHECK(mapped.error().message == dir.error().message);
}
