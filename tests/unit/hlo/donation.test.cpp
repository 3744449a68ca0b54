// Donations (hlomem/hlo/donation.hpp): which donated parameters a compilation used, which it did
// not, and which parameters could alias an output of their shape, by XLA's rule
// (optimize_input_output_buffer_alias.cc: a donor left in buffer_donor after the pass is one no
// output took).
#include <hlomem/hlo.hpp>
#include <hlomem/parser.hpp>
#include <catch2/catch.hpp>
#include "test_data.hpp"

#include <string>

using hlomem_test::read_data;

TEST_CASE("JAX 0.11's unused donation: no parameter aliases an output, and no output has a parameter's shape") {
    // tests/data/jax_0_11/unused_donation.*: a f32[4096,1024] and b f32[8,1024] donated, the
    // output f32[1024]; memory_analysis() states alias_size_in_bytes 0.
    std::string const text = read_data("jax_0_11/unused_donation-buffer-assignment.txt") +
                             read_data("jax_0_11/unused_donation-buffer-assignment-values.txt");
    auto const ba = hlomem::parse_buffer_assignment(text, "unused_donation");
    auto const d = hlomem::analyze_donations(ba);
    CHECK_FALSE(d.donors_known);
    CHECK(d.used.empty());
    CHECK(d.unused.empty());
    CHECK(d.could_alias.empty());
}

TEST_CASE("a module whose buffer_donor entries no output took: both are unused") {
    // tests/data/hand/unused_donation.hlo: the entry signature of the JAX 0.11 dump above, with
    // the two donations as JAX marks donations it cannot pair with an output (buffer_donor).
    auto const m = hlomem::parse_hlo_module(read_data("hand/unused_donation.hlo"), "unused_donation.hlo");
    std::string const text = read_data("jax_0_11/unused_donation-buffer-assignment.txt") +
                             read_data("jax_0_11/unused_donation-buffer-assignment-values.txt");
    auto const ba = hlomem::parse_buffer_assignment(text, "unused_donation");
    auto const d = hlomem::analyze_donations(ba, &m);
    CHECK(d.donors_known);
    CHECK(d.used.empty());
    REQUIRE(d.unused.size() == 2);
    CHECK(d.unused[0].parameter_number == 0);
    CHECK(d.unused[0].parameter_index == "{}");
    CHECK(d.unused[0].shape == "f32[4096,1024]{1,0}");
    CHECK(d.unused[0].bytes == 16777216);
    CHECK(d.unused[1].parameter_number == 1);
    CHECK(d.unused[1].bytes == 32768);
    CHECK(d.could_alias.empty());
}

TEST_CASE("lorrax's donated parameter: used, as output {}; the dump alone says the same") {
    std::string const dir = "corpus/lorrax/lorrax_donated_param_output_alias.";
    auto const m = hlomem::parse_hlo_module(read_data(dir + "after_opt.hlo"), "after_opt.hlo");
    auto const ba = hlomem::parse_buffer_assignment(read_data(dir + "buffer_assignment.txt"), "ba");
    for (bool with_module : {true, false}) {
        CAPTURE(with_module);
        auto const d = hlomem::analyze_donations(ba, with_module ? &m : nullptr);
        CHECK(d.donors_known == with_module);
        REQUIRE(d.used.size() == 1);
        CHECK(d.used[0].parameter_number == 0);
        CHECK(d.used[0].output_index == "{}");
        // The module's entry layout has the layout; the dump's allocation header prints the shape
        // without it (`shape |c128[4,4,4,120,256]| at ShapeIndex {}`).
        CHECK(d.used[0].shape == (with_module ? "c128[4,4,4,120,256]{4,3,2,1,0}" : "c128[4,4,4,120,256]"));
        CHECK(d.used[0].bytes == 31457280);
        CHECK(d.unused.empty());
        CHECK(d.could_alias.empty());
    }
}

TEST_CASE("a parameter of an output's shape that no alias pairs could alias it") {
    // input_output_alias={ {0}: (0, {}, may-alias) }; parameter 1 f32[4] and output {1} f32[4].
    auto const m = hlomem::parse_hlo_module(read_data("hand/liveness_donated.hlo"), "liveness_donated.hlo");
    hlomem::buffer_assignment const ba;
    auto const d = hlomem::analyze_donations(ba, &m);
    REQUIRE(d.used.size() == 1);
    CHECK(d.used[0].parameter_number == 0);
    CHECK(d.used[0].output_index == "{0}");
    REQUIRE(d.could_alias.size() == 1);
    CHECK(d.could_alias[0].parameter_number == 1);
    CHECK(d.could_alias[0].output_index == "{1}");
    CHECK(d.could_alias[0].shape == "f32[4]{0}");
    CHECK_FALSE(d.could_alias[0].donated);
}
