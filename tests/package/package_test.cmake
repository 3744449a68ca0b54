# Builds the consumer project in package/consumer against hlomem in one of two ways and runs it:
#   MODE=find_package      install hlomem into a prefix, then find_package(hlomem CONFIG REQUIRED)
#   MODE=add_subdirectory  add_subdirectory(<hlomem source>) from the consumer
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

# No optimization: the consumer proves that hlomem builds and links this way, not how fast.
set(consumer_args -DHLOMEM_MODE=${MODE} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER} -DCMAKE_BUILD_TYPE=)
if(MODE STREQUAL "find_package")
  run(${CMAKE_COMMAND} -S ${HLOMEM_SOURCE_DIR} -B ${WORK_DIR}/hlomem-build
      -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix -DHLOMEM_BUILD_TESTS=OFF -DHLOMEM_BUILD_EXAMPLES=OFF
      -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER})
  run(${CMAKE_COMMAND} --install ${WORK_DIR}/hlomem-build)
  foreach(f include/hlomem/hlomem.hpp include/hlomem/parser/instantiate.hpp share/cmake/hlomem/hlomemConfig.cmake
            share/cmake/hlomem/hlomemParsers.cmake share/cmake/hlomem/hlomemCompiled.cmake
            include/hlomem/output/instantiate.hpp share/cmake/hlomem/units/compiled.cpp
            share/cmake/hlomem/units/parsers_dump.cpp
            share/cmake/hlomem/hlomemConfigVersion.cmake share/cmake/hlomem/hlomemTargets.cmake)
    if(NOT EXISTS ${WORK_DIR}/prefix/${f})
      message(FATAL_ERROR "not installed: ${f}")
    endif()
  endforeach()
  list(APPEND consumer_args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
else()
  list(APPEND consumer_args -DHLOMEM_SOURCE_DIR=${HLOMEM_SOURCE_DIR})
endif()

run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-build ${consumer_args})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer-build)
run(${WORK_DIR}/consumer-build/consumer)
if(MODE STREQUAL "find_package")
  run(${WORK_DIR}/consumer-build/consumer_separate)
endif()
