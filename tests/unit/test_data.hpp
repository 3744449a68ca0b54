// test_data.hpp: reading the files under tests/data from a unit test.
#ifndef HLOMEM_TESTS_TEST_DATA_HPP
#define HLOMEM_TESTS_TEST_DATA_HPP

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>

namespace hlomem_test {

/// The bytes of tests/data/<relative>, e.g. read_data("seeds/002_b0117d631587537a.txt"); the
/// test fails when the file cannot be opened.
inline std::string read_data(std::string const& relative) {
    std::ifstream in(std::string(HLOMEM_TEST_DATA_DIR) + "/" + relative, std::ios::binary);
    REQUIRE(in);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace hlomem_test

#endif  // HLOMEM_TESTS_TEST_DATA_HPP
