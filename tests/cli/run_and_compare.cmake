# Runs PROGRAM with ARGS (a ;-list) in WORKING_DIRECTORY and checks its exit status against
# EXPECTED_EXIT and its standard output and error against the files EXPECTED_STDOUT and
# EXPECTED_STDERR (relative to this folder; "-" means the stream must be empty). With STDIN_FILE
# (relative to WORKING_DIRECTORY), the program reads that file on its standard input.
set(stdin_option)
if(DEFINED STDIN_FILE)
  set(stdin_option INPUT_FILE ${WORKING_DIRECTORY}/${STDIN_FILE})
endif()
execute_process(
  COMMAND ${PROGRAM} ${ARGS}
  WORKING_DIRECTORY ${WORKING_DIRECTORY}
  ${stdin_option}
  OUTPUT_VARIABLE actual_stdout
  ERROR_VARIABLE actual_stderr
  RESULT_VARIABLE actual_exit)

set(failed FALSE)
if(NOT actual_exit STREQUAL EXPECTED_EXIT)
  message(SEND_ERROR "exit status ${actual_exit}, expected ${EXPECTED_EXIT}")
  set(failed TRUE)
endif()

foreach(stream stdout stderr)
  string(TOUPPER ${stream} upper)
  set(expected_file ${EXPECTED_${upper}})
  if(expected_file STREQUAL "-")
    set(expected "")
  else()
    file(READ ${CMAKE_CURRENT_LIST_DIR}/${expected_file} expected)
  endif()
  if(NOT actual_${stream} STREQUAL expected)
    message(SEND_ERROR "${stream} differs from ${expected_file}:\n--- actual ---\n${actual_${stream}}--- expected ---\n${expected}")
    set(failed TRUE)
  endif()
endforeach()

if(failed)
  message(FATAL_ERROR "command: ${PROGRAM} ${ARGS}")
endif()
