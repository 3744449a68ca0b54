// result<T, E> (core/result.hpp): parse_result behaves as load_result does (tests/unit/load/
// load.test.cpp): a value, or an error whose own exception is thrown when the value is asked for.
#include <hlomem/core/result.hpp>
#include <hlomem/core/error.hpp>
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <type_traits>
#include <utility>

static_assert(std::is_same_v<hlomem::parse_result<hlomem::shape>, hlomem::result<hlomem::shape, hlomem::parse_error_info>>);

TEST_CASE("parse_result: a value is reached by *, -> and value(), on lvalues and rvalues", "[result]") {
    auto r = hlomem::try_parse_shape("bf16[4096,3584]{1,0:T(8,128)(2,1)}");
    REQUIRE(r.has_value());
    CHECK(static_cast<bool>(r));
    CHECK(hlomem::to_string(*r) == "bf16[4096,3584]{1,0:T(8,128)(2,1)}");
    CHECK(r->dimensions().size() == 2);
    CHECK(&r.value() == &*r);
    auto const& c = r;
    CHECK(&c.value() == &*c);
    hlomem::shape moved = *std::move(r);
    CHECK(hlomem::to_string(moved) == "bf16[4096,3584]{1,0:T(8,128)(2,1)}");
}

TEST_CASE("parse_result: an error throws its own parse_error from *, -> and value()", "[result]") {
    // The README tour's error: column 14 is the second '1' of {1,1}.
    auto r = hlomem::try_parse_shape("f32[8,128]{1,1}");
    REQUIRE_FALSE(r.has_value());
    CHECK_FALSE(static_cast<bool>(r));
    CHECK(r.error().line == 1);
    CHECK(r.error().column == 14);
    auto thrown = [&](auto&& access) {
        try {
            access();
        } catch (hlomem::parse_error const& e) {
            return e.info() == r.error() && std::string(e.what()) == r.error().to_string();
        }
        return false;
    };
    CHECK(thrown([&] { (void)*r; }));
    CHECK(thrown([&] { (void)r->dimensions(); }));
    CHECK(thrown([&] { (void)r.value(); }));
    CHECK(thrown([&] { (void)std::as_const(r).value(); }));
    CHECK(thrown([&] { auto copy = r; (void)*std::move(copy); }));
    CHECK_THROWS_AS(*r, hlomem::error);  // every exception hlomem throws is an hlomem::error
}
