# check_structure.cmake: the rules of docs/ARCHITECTURE.md that a file's place and size can break,
# checked on the source tree (cmake -DROOT=... -P check_structure.cmake):
#   - nothing under python/ or tests/unit/ includes a file of examples/ (the tool is a client of
#     the library; what it prints is the library's, in include/hlomem/output/);
#   - no header of include/hlomem/ is over 700 lines;
#   - no command file of the tool (examples/hlomem/commands/*.cpp) is over 150 lines: a command
#     parses its arguments, calls the library and prints.
# Every breach is listed; the test fails when there is one.
cmake_minimum_required(VERSION 3.16)
if(NOT DEFINED ROOT)
  message(FATAL_ERROR "check_structure.cmake: pass -DROOT=the source tree")
endif()
set(breaches "")

file(GLOB_RECURSE clients ${ROOT}/python/*.cpp ${ROOT}/python/*.hpp ${ROOT}/tests/unit/*.cpp ${ROOT}/tests/unit/*.hpp)
foreach(file IN LISTS clients)
  file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<][^\">]*examples/")
  foreach(line IN LISTS includes)
    file(RELATIVE_PATH rel ${ROOT} ${file})
    string(APPEND breaches "  ${rel} includes a file of examples/: ${line}\n")
  endforeach()
endforeach()

function(check_lines glob limit what)
  file(GLOB_RECURSE files ${glob})
  foreach(file IN LISTS files)
    file(READ ${file} text)
    string(REGEX MATCHALL "\n" ends "${text}")
    list(LENGTH ends n)
    if(n GREATER ${limit})
      file(RELATIVE_PATH rel ${ROOT} ${file})
      string(APPEND breaches "  ${rel}: ${n} lines, over the ${limit} a ${what} may have\n")
    endif()
  endforeach()
  set(breaches "${breaches}" PARENT_SCOPE)
endfunction()
check_lines("${ROOT}/include/hlomem/*.hpp" 700 "header")
check_lines("${ROOT}/examples/hlomem/commands/*.cpp" 150 "command file")

if(breaches)
  message(FATAL_ERROR "the source tree breaks its structure rules:\n${breaches}")
endif()
message(STATUS "structure: no client includes examples/, no header over 700 lines, no command file over 150 lines")
