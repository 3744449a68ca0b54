# Runs PROGRAM liveness MODULE in WORKING_DIRECTORY and checks that it exits 0, writes nothing on
# standard error, and that its standard output from the line `  Live ranges at N (peak):` to the
# end (the peak, its listing and the stack-trace breakdown) is, byte for byte, the same part of
# EXPECTED, the HloLiveRange text XLA wrote for that module (both relative to WORKING_DIRECTORY).
# Above that line the texts differ where the module prints no get-tuple-elements: hlomem names
# each one it makes back as its operand was printed (`custom-call.3#0`), XLA by its own name
# (`get-tuple-element.3`) (docs/FORMATS.md 6.1 and 9).
execute_process(
  COMMAND ${PROGRAM} liveness ${MODULE}
  WORKING_DIRECTORY ${WORKING_DIRECTORY}
  OUTPUT_VARIABLE actual
  ERROR_VARIABLE actual_stderr
  RESULT_VARIABLE actual_exit)
if(NOT actual_exit STREQUAL "0")
  message(FATAL_ERROR "hlomem liveness ${MODULE}: exit status ${actual_exit}, expected 0\n${actual_stderr}")
endif()
if(NOT actual_stderr STREQUAL "")
  message(FATAL_ERROR "hlomem liveness ${MODULE}: standard error is not empty:\n${actual_stderr}")
endif()
file(READ ${WORKING_DIRECTORY}/${EXPECTED} expected)
foreach(text actual expected)
  string(FIND "${${text}}" "\n  Live ranges at " at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the ${text} text has no line '  Live ranges at N (peak):'")
  endif()
  math(EXPR at "${at} + 1")
  string(SUBSTRING "${${text}}" ${at} -1 ${text}_tail)
endforeach()
if(NOT actual_tail STREQUAL expected_tail)
  message(FATAL_ERROR "hlomem liveness ${MODULE} differs from ${EXPECTED} from its peak on:\n--- actual ---\n"
    "${actual_tail}--- expected ---\n${expected_tail}")
endif()
