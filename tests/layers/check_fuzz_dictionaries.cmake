# Every libFuzzer dictionary of fuzz/dictionaries/ in the syntax libFuzzer reads
# (ParseDictionaryFile, compiler-rt/lib/fuzzer/FuzzerUtil.cpp): a line is blank, a comment
# (`#`), or an optional name and `=` followed by a quoted string whose only escapes are `\\`,
# `\"` and `\xHH`. libFuzzer refuses a whole dictionary for one other escape (`\t`) only when the
# fuzzer starts, long after the tests ran; this finds it here. Run with -DROOT=<source dir>.
file(GLOB dictionaries ${ROOT}/fuzz/dictionaries/*.dict)
if(NOT dictionaries)
  message(FATAL_ERROR "no dictionary in ${ROOT}/fuzz/dictionaries/")
endif()
set(problems "")
foreach(dict IN LISTS dictionaries)
  # One list element a line: `;`, `[` and `]`, which CMake's lists treat specially, stand as
  # @S@, @L@ and @R@ until a line is shown.
  file(READ ${dict} text)
  string(REPLACE ";" "@S@" text "${text}")
  string(REPLACE "[" "@L@" text "${text}")
  string(REPLACE "]" "@R@" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  get_filename_component(name ${dict} NAME)
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    if(line MATCHES "^[ \t]*$" OR line MATCHES "^[ \t]*#")
      continue()
    endif()
    # The quoted string, with every permitted escape and every plain character taken away, must
    # leave nothing.
    string(REPLACE "@S@" ";" shown "${line}")
    string(REPLACE "@L@" "[" shown "${shown}")
    string(REPLACE "@R@" "]" shown "${shown}")
    if(NOT line MATCHES "^[ \t]*([A-Za-z0-9_]+[ \t]*=[ \t]*)?\"(.*)\"[ \t]*$")
      string(APPEND problems "fuzz/dictionaries/${name}:${n}: not a quoted string: ${shown}\n")
      continue()
    endif()
    set(body "${CMAKE_MATCH_2}")
    string(REGEX REPLACE "\\\\\\\\|\\\\\"|\\\\x[0-9A-Fa-f][0-9A-Fa-f]" "" rest "${body}")
    if(rest MATCHES "[\\\\\"]")
      string(APPEND problems "fuzz/dictionaries/${name}:${n}: an escape libFuzzer does not read (only \\\\, \\\" and \\xHH): ${shown}\n")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
list(LENGTH dictionaries count)
message(STATUS "${count} dictionaries in libFuzzer's syntax")
