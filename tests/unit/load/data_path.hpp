// data_path.hpp: the path of a file under tests/data, for the load/ tests that open files by name
// (one definition for the test files a unity build may compile in one unit).
#ifndef HLOMEM_TESTS_LOAD_DATA_PATH_HPP
#define HLOMEM_TESTS_LOAD_DATA_PATH_HPP

#include <string>

namespace {

std::string data_path(std::string const& relative) { return std::string(HLOMEM_TEST_DATA_DIR) + "/" + relative; }

}  // namespace

#endif  // HLOMEM_TESTS_LOAD_DATA_PATH_HPP
