# check_structure.cmake: the rules of docs/ARCHITECTURE.md that a file's place and size can break,
# checked on the source tree (cmake -DROOT=... -P check_structure.cmake):
#   - nothing under python/ or tests/unit/ includes a file of examples/ (the tool is a client of
#     the library; what it prints is the library's, in include/hlomem/output/);
#   - no header of include/hlomem/ is over 700 lines;
#   - no command file of the tool (examples/hlomem/commands/*.cpp) is over 150 lines: a command
#     parses its arguments, calls the library and prints;
#   - no header compares an XLA opcode's name (`op == "while"`, `"tuple" != text`) outside the
#     headers of opcode rules, hlo/opcode.hpp and memory/opcode_classes.hpp (and the parsers'
#     grammars): a rule on opcodes is written once, and asked by hlo_opcode or by name there.
#   - what a header keeps to itself is in a namespace named `detail` (hlomem::detail,
#     hlomem::parser::detail, or one nested there and named for the header, detail::module_report):
#     no `namespace X_detail`, `namespace impl` or `namespace internal`.
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

# The names of hlo_opcode (hlo/opcode.hpp's hlo_opcode_names), then every comparison of a string
# literal that is one of them.
set(opcode_header "")
if(EXISTS ${ROOT}/include/hlomem/hlo/opcode.hpp)
  file(READ ${ROOT}/include/hlomem/hlo/opcode.hpp opcode_header)
endif()
string(REGEX MATCH "hlo_opcode_names\\{\\{[^}]*\\}\\}" opcode_table "${opcode_header}")
string(REGEX MATCHALL "\"[a-z0-9-]+\"" opcode_names "${opcode_table}")
list(LENGTH opcode_names opcode_count)
if(opcode_count LESS 100)
  string(APPEND breaches "  include/hlomem/hlo/opcode.hpp: hlo_opcode_names not found (${opcode_count} names read)\n")
endif()
file(GLOB_RECURSE headers ${ROOT}/include/hlomem/*.hpp)
foreach(file IN LISTS headers)
  if(file MATCHES "/hlo/opcode\\.hpp$|/memory/opcode_classes\\.hpp$|/parser/")
    continue()
  endif()
  file(STRINGS ${file} lines REGEX "[=!]=[ ]*(std::string_view\\()?\"[a-z0-9-]+\"|\"[a-z0-9-]+\"[ ]*[=!]=")
  foreach(line IN LISTS lines)
    string(REGEX MATCHALL "[=!]=[ ]*(std::string_view\\()?\"[a-z0-9-]+\"|\"[a-z0-9-]+\"[ ]*[=!]=" compared "${line}")
    foreach(c IN LISTS compared)
      string(REGEX MATCH "\"[a-z0-9-]+\"" literal "${c}")
      list(FIND opcode_names "${literal}" at)
      if(at GREATER -1)
        file(RELATIVE_PATH rel ${ROOT} ${file})
        string(STRIP "${line}" shown)
        string(APPEND breaches "  ${rel} compares the opcode name ${literal} outside the opcode rules' headers: ${shown}\n")
      endif()
    endforeach()
  endforeach()
endforeach()

foreach(file IN LISTS headers)
  file(STRINGS ${file} lines REGEX "namespace[ \t]+([a-z_:]*_detail|impl|internal)[ \t]*[{]")
  foreach(line IN LISTS lines)
    file(RELATIVE_PATH rel ${ROOT} ${file})
    string(STRIP "${line}" shown)
    string(APPEND breaches "  ${rel} keeps its own helpers outside a namespace detail: ${shown}\n")
  endforeach()
endforeach()

if(breaches)
  message(FATAL_ERROR "the source tree breaks its structure rules:\n${breaches}")
endif()
message(STATUS "structure: no client includes examples/, no header over 700 lines, no command file over 150 lines, no opcode name compared outside its rules, every header's own helpers in a namespace detail")
