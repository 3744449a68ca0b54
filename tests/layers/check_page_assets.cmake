# check_page_assets.cmake: writes include/hlomem/output/page_assets.hpp again from
# include/hlomem/output/assets/ (cmake/hlomemPageAssets.cmake) into WORK_DIR and fails when it
# differs from the committed header: an asset edited without running the script.
#   cmake -DROOT=SOURCE_TREE -DWORK_DIR=DIR -P check_page_assets.cmake
cmake_minimum_required(VERSION 3.16)
set(fresh ${WORK_DIR}/page_assets.hpp)
execute_process(COMMAND ${CMAKE_COMMAND} -DOUTPUT=${fresh} -P ${ROOT}/cmake/hlomemPageAssets.cmake RESULT_VARIABLE written)
if(NOT written EQUAL 0)
  message(FATAL_ERROR "cmake/hlomemPageAssets.cmake failed")
endif()
file(READ ${fresh} want)
file(READ ${ROOT}/include/hlomem/output/page_assets.hpp have)
if(NOT want STREQUAL have)
  message(FATAL_ERROR "include/hlomem/output/page_assets.hpp is not what include/hlomem/output/assets/ makes: run\n"
                      "  cmake -DOUTPUT=include/hlomem/output/page_assets.hpp -P cmake/hlomemPageAssets.cmake")
endif()
message(STATUS "page_assets.hpp is in step with include/hlomem/output/assets/")
