// Edits and budgets as named (whatif/edit_request.hpp), on lorrax_fft_cublas_while, whose XLA peak
// is at 46 of 56 (98314736 bytes) and whose fft.8.0 (c128 25.00MiB) is live there: the figures
// `hlomem whatif --offload fft.8.0` prints (tests/cli/whatif_fft_cublas_while.out).
#include <hlomem/hlomem.hpp>
#include <hlomem/whatif.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <string>
#include <vector>

using hlomem_test::read_data;

namespace {

char const* const fft_while = "corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo";

}  // namespace

TEST_CASE("edit_request: a remat or offload without a time splits at XLA's peak before any edit", "[whatif]") {
    auto const text = read_data(fft_while);
    auto const m = hlomem::parse_hlo_module(text, fft_while);
    hlomem::what_if w(m);
    REQUIRE(w.peak_time_original() == 46);
    std::vector<hlomem::edit_request> const requests = {hlomem::edit_request::offload("fft.8.0"), hlomem::edit_request::donate(0),
                                                        hlomem::edit_request::remat("fft.8.0", 43)};
    auto const edits = hlomem::edits_named(m, requests, w.peak_time_original());
    REQUIRE(edits);
    REQUIRE(edits->size() == 3);
    CHECK((*edits)[0].kind == hlomem::what_if_kind::offload);
    CHECK((*edits)[0].instruction == *m.find_instruction("fft.8.0"));
    CHECK((*edits)[0].from == 46);
    CHECK((*edits)[1].kind == hlomem::what_if_kind::donate);
    CHECK((*edits)[1].parameter_number == 0);
    CHECK((*edits)[2].from == 43);

    // The offload moves 25.00MiB each way; XLA refuses the donation: no output has its c128[9].
    auto const outcomes = hlomem::apply_requests(w, {requests[0], requests[1]});
    REQUIRE(outcomes);
    REQUIRE(outcomes->size() == 2);
    CHECK((*outcomes)[0].accepted);
    CHECK((*outcomes)[0].edit.from == 46);
    CHECK((*outcomes)[0].bytes_to_host == 26214400);
    CHECK_FALSE((*outcomes)[1].accepted);
    CHECK((*outcomes)[1].reason == "no output has the shape c128[9]{0} of parameter 0");
    CHECK(w.peak().bytes == 67676728);
    CHECK(w.edits().size() == 1);
}

TEST_CASE("edit_request: an instruction the module lacks is an error, and no edit is applied", "[whatif]") {
    auto const text = read_data(fft_while);
    auto const m = hlomem::parse_hlo_module(text, fft_while);
    hlomem::what_if w(m);
    auto const outcomes = hlomem::apply_requests(w, {hlomem::edit_request::offload("fft.8.0"), hlomem::edit_request::remat("nosuch")});
    REQUIRE_FALSE(outcomes);
    CHECK(outcomes.error().message == "no instruction named 'nosuch'");
    CHECK(w.edits().empty());
    CHECK(w.peak().bytes == 98314736);
    CHECK_THROWS_WITH(outcomes.value(), "no instruction named 'nosuch'");
}

TEST_CASE("edit_request: a budget is bytes or a whole percent up to 100", "[whatif]") {
    auto const percent = hlomem::advise_budget_named("90%");
    REQUIRE(percent);
    CHECK_FALSE(percent->budget_bytes);
    CHECK(percent->budget_fraction == 0.9);
    auto const bytes = hlomem::advise_budget_named("88483096");
    REQUIRE(bytes);
    CHECK(bytes->budget_bytes == 88483096);
    CHECK(hlomem::advise_budget_named("100%"));
    CHECK(hlomem::advise_budget_named("0"));
    for (char const* bad : {"", "%", "101%", "90.5%", "-1", "1e9", "90 %", "8GiB", "1234567890123456789"}) {
        CAPTURE(bad);
        CHECK_FALSE(hlomem::advise_budget_named(bad));
    }
    CHECK(std::string(hlomem::advise_budget_expected) == "bytes or a percent such as 90%");
}
