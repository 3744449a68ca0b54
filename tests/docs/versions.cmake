# versions.cmake: the library's version is stated in three places, which must agree: CMake's
# project(VERSION) (passed as PROJECT_VERSION), include/hlomem/core/version.hpp's
# HLOMEM_VERSION_STRING and pyproject.toml's [project] version (what pip installs).
#
#   cmake -DROOT=<repository> -DPROJECT_VERSION=0.1.0 -P versions.cmake
file(STRINGS ${ROOT}/include/hlomem/core/version.hpp header REGEX "^#define HLOMEM_VERSION_STRING \"")
string(REGEX REPLACE "^#define HLOMEM_VERSION_STRING \"([^\"]*)\".*" "\\1" header "${header}")
file(STRINGS ${ROOT}/pyproject.toml python REGEX "^version = \"")
string(REGEX REPLACE "^version = \"([^\"]*)\".*" "\\1" python "${python}")
if(NOT header STREQUAL PROJECT_VERSION OR NOT python STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "versions part: CMake's project() says '${PROJECT_VERSION}', "
    "include/hlomem/core/version.hpp '${header}', pyproject.toml '${python}'")
endif()
message(STATUS "version ${PROJECT_VERSION} in CMakeLists.txt, core/version.hpp and pyproject.toml")
