// The buffer-assignment model (dump/buffer_assignment.hpp): a value's name as XLA prints it.
#include <hlomem/dump/buffer_assignment.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

TEST_CASE("display_name: a value as XLA names it in live ranges", "[load][buffer_assignment]") {
    hlomem::logical_value v;
    v.name = "tuple.3";
    v.index = hlomem::parse_shape_index("{1}");
    CHECK(v.display_name() == "tuple.3");
    v.index_printed = true;
    CHECK(v.display_name() == "tuple.3{1}");
}

TEST_CASE("dump/buffer_assignment: the lookup by name through its directory of hash prefixes, against a scan",
          "[buffer_assignment]") {
    // From 64 values on, a lookup searches only the entries whose hash shares its top bits
    // (index_hash_prefixes); below, the whole list. At each size, every name and index (present,
    // absent, repeated) is found where a scan of the values in order finds it first.
    for (std::size_t n : {std::size_t(5), std::size_t(63), std::size_t(64), std::size_t(65), std::size_t(4099)}) {
        INFO("values " << n);
        hlomem::buffer_assignment ba;
        for (std::size_t i = 0; i < n; ++i) {
            hlomem::logical_value v;
            v.id = static_cast<std::int64_t>(i);
            v.name = "get-tuple-element." + std::to_string(i * 7919 % (n / 2 + 1));  // most names twice
            v.index = hlomem::shape_index{static_cast<std::int64_t>(i % 2)};
            ba.values.push_back(v);
        }
        ba.reindex();
        for (std::size_t k = 0; k < n / 2 + 3; ++k) {
            std::string const name = "get-tuple-element." + std::to_string(k);
            std::vector<std::size_t> all;
            for (std::int64_t index : {0, 1, 2}) {
                std::size_t first = hlomem::npos;
                for (std::size_t i = 0; i < n && first == hlomem::npos; ++i) {
                    if (std::string_view(ba.values[i].name) == name && ba.values[i].index == hlomem::shape_index{index}) first = i;
                }
                CHECK(ba.value_index(name, hlomem::shape_index{index}) == first);
            }
            for (std::int64_t index : {0, 1}) {
                for (std::size_t i = 0; i < n; ++i) {
                    if (std::string_view(ba.values[i].name) == name && ba.values[i].index == hlomem::shape_index{index}) {
                        all.push_back(i);
                    }
                }
            }
            CHECK(ba.values_of_instruction(name) == all);
        }
        CHECK(ba.value_index("no-such-instruction", {}) == hlomem::npos);
    }
}
