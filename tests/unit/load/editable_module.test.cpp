// The module a what-if edits (load/editable_module.hpp), from what the loader read of
// tests/data/jax_0_11/scan_loop (a dump with its module beside it, and the module alone), and
// the refusals for what holds no one module with its text.
#include <hlomem/load/editable_module.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "data_path.hpp"
#include "test_data.hpp"

#include <string>

TEST_CASE("load/editable_module: a module file, or the module beside a dump, with its text", "[load][editable_module]") {
    std::string const module_path = data_path("jax_0_11/scan_loop.txt");
    std::string const module_text = hlomem_test::read_data("jax_0_11/scan_loop.txt");
    hlomem::load_options o;
    o.find_module = true;
    auto const dump = hlomem::load<hlomem::view_policy>(data_path("jax_0_11/scan_loop-buffer-assignment.txt"), o);
    REQUIRE(dump);
    auto const beside = hlomem::editable_module(*dump);
    REQUIRE(beside);
    CHECK(beside->path == module_path);
    REQUIRE(beside->module != nullptr);
    CHECK(beside->module == &*dump->module);
    CHECK(beside->text == module_text);

    auto const alone = hlomem::load<hlomem::view_policy>(module_path);
    REQUIRE(alone);
    auto const m = hlomem::editable_module(*alone);
    REQUIRE(m);
    CHECK(m->path == module_path);
    CHECK(m->text == module_text);
    CHECK(std::string_view(m->module->name()) == std::string_view(beside->module->name()));

    CHECK(hlomem::not_scheduled_note("m.txt") ==
          "m.txt is not scheduled (no is_scheduled=true): its text order stands in for XLA's schedule");
}

TEST_CASE("load/editable_module: no one module with its text is refused with why", "[load][editable_module]") {
    auto const refused = [](auto const& loaded, std::string const& why) {
        REQUIRE(loaded);
        auto const r = hlomem::editable_module(*loaded);
        REQUIRE_FALSE(r);
        CHECK(r.error().failure == hlomem::load_failure::unknown_kind);
        CHECK(r.error().file == loaded->path);
        CHECK(r.error().message == why);
    };
    refused(hlomem::load<hlomem::view_policy>(data_path("hand/two_modules.hlo")), "holds 2 modules; a what-if edits one");
    refused(hlomem::load<hlomem::view_policy>(data_path("jax_0_11/scan_loop-buffer-assignment.txt")),
            "no module beside the dump (X.txt beside X-buffer-assignment.txt)");
    refused(hlomem::load<hlomem::view_policy>(data_path("jax_0_11/scan_loop-memory-usage-report.txt")),
            "not an HLO module nor a dump with its module beside it");
    // A policy that owns its strings keeps no text to rewrite.
    refused(hlomem::load(data_path("jax_0_11/scan_loop.txt")),
            "the module's text was not kept (load it with view_policy): a what-if rewrites it");
}
