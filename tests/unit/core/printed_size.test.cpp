// Printed sizes: the TPU runtime's `570.00M` and XLA's `570.00MiB`, and the rule that says which
// byte counts a printed size stands for (printed_size.hpp). Figures from the two real reports in
// tests/data/oom and docs/FORMATS.md 5.6.
#include <hlomem/core/printed_size.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>

TEST_CASE("the TPU runtime prints XLA's digits without iB", "[printed_size]") {
    auto [bytes, text] = GENERATE(table<std::int64_t, char const*>({
        {597688320, "570.00M"},   // tpu_oom_pytorch_xla_3041: f32[29184,2,2560]{2,1,0:T(2,128)}
        {298844160, "285.00M"},   // the same report: f32[29184,1,2560] unpadded
        {4096, "4.0K"},           // `global 4.0K`
        {6144, "6.0K"},           // `Output size 6.0K`
        {0, "0B"},                // `shares 0B with arguments`
        {512, "512B"},
        {1174405120, "1.09G"},    // s32[29360128,10] unpadded: 1120 MiB
        {1048575, "1024.0K"},     // XLA's quirk, docs/FORMATS.md 5.6
    }));
    CAPTURE(bytes);
    CHECK(hlomem::tpu_human_bytes(bytes) == text);
    CHECK(hlomem::format_size(bytes, hlomem::size_function_kind::tpu) == text);
    CHECK(hlomem::format_size(bytes, hlomem::size_function_kind::xla) == hlomem::human_bytes(bytes));
}

TEST_CASE("a printed size stands for the byte counts that print as it", "[printed_size]") {
    // text, nominal bytes, smallest and largest byte count printing as text
    auto [text, nominal, min, max] = GENERATE(table<char const*, std::int64_t, std::int64_t, std::int64_t>({
        // 570.00M: floor(b/1024)/1024 within 0.005 of 570: floor(b/1024) in [583675, 583685].
        {"570.00M", 597688320, 583675 * 1024LL, 583686 * 1024LL - 1},
        {"570.00MiB", 597688320, 583675 * 1024LL, 583686 * 1024LL - 1},
        // 1.09G: floor(b/2^20) in [1112, 1121].
        {"1.09G", 1170378588, 1112LL << 20, (1122LL << 20) - 1},
        // 4.0K: b/1024 within 0.05 of 4.0, no truncation below 1 MiB: b in [4045, 4147].
        {"4.0K", 4096, 4045, 4147},
        {"384.0KiB", 393216, 393165, 393267},
        {"0B", 0, 0, 0},
        {"16B", 16, 16, 16},
    }));
    CAPTURE(text);
    auto const size = hlomem::parse_printed_size(text);
    REQUIRE(size);
    CHECK(size->nominal_bytes == nominal);
    CHECK(size->min_bytes == min);
    CHECK(size->max_bytes == max);
    CHECK(size->covers(min));
    CHECK(size->covers(max));
    CHECK_FALSE(size->covers(min - 1));
    CHECK_FALSE(size->covers(max + 1));
    CHECK(hlomem::to_string(*size) == text);
}

TEST_CASE("every byte count is covered by its own printed form, and its neighbours' forms are not", "[printed_size]") {
    // The rule and the printer agree: the bounds are exactly the set that prints as the text.
    std::mt19937_64 random(20240501);
    for (int i = 0; i < 20000; ++i) {
        int const magnitude = static_cast<int>(random() % 44);  // up to 16 TiB
        std::int64_t const bytes = static_cast<std::int64_t>(random() % (std::uint64_t{1} << (magnitude + 1)));
        for (auto style : {hlomem::size_function_kind::tpu, hlomem::size_function_kind::xla}) {
            std::string const text = hlomem::format_size(bytes, style);
            CAPTURE(bytes, text);
            auto const size = hlomem::parse_printed_size(text);
            REQUIRE(size);
            REQUIRE(size->covers(bytes));
            if (size->min_bytes > 0) REQUIRE(hlomem::format_size(size->min_bytes - 1, style) != text);
            REQUIRE(hlomem::format_size(size->max_bytes + 1, style) != text);
        }
    }
}

TEST_CASE("text that is not a printed size", "[printed_size]") {
    for (char const* text : {"", "M", "570.00", "570.00X", "570.00Mx", "570.M", ".5K", "1.5B", "384", "-4.0K", "1.00000M",
                             "99999999999999999999M", "9999999.99E"}) {
        CAPTURE(text);
        CHECK_FALSE(hlomem::parse_printed_size(text));
    }
}
