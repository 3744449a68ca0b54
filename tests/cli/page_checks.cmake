# page_checks.cmake: what the tests of the tool's pages (timeline_page.cmake, diff_page.cmake)
# do and check alike. Included by them; they call write_page first, which sets `chromium` (the
# browser's command line with its flags) for page_dom and expect_screenshot.

# write_page(NAME PAGE ARGS...): writes PAGE (in WORK_DIR) by running the tool, PROGRAM ARGS..., in
# SOURCE_DIR, and fails when it exits other than 0. In MODE=browser without CHROMIUM, it prints
# "SKIPPED: chromium not found" (the tests' skip expression) and ends the test script instead: a
# macro's return() returns from the script that calls it. `chromium` gets a fresh profile per NAME,
# so that tests run side by side.
macro(write_page name page)
  if(MODE STREQUAL "browser" AND NOT CHROMIUM)
    message("SKIPPED: chromium not found; install Debian's chromium (scripts/install-deps.sh chromium) to run this test")
    return()
  endif()
  file(MAKE_DIRECTORY ${WORK_DIR})
  execute_process(COMMAND ${PROGRAM} ${ARGN}
    WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "hlomem ${ARGV2} exited with ${status}:\n${output}${errors}")
  endif()
  set(chromium ${CHROMIUM} --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run
    --user-data-dir=${WORK_DIR}/profile-${name} --hide-scrollbars)
endmacro()

# page_dom(URL DOM BODY): the DOM ${chromium} has after the page at URL ran its script, and its
# <body ...> tag with the attributes the script set.
function(page_dom url dom_out body_out)
  execute_process(COMMAND ${chromium} --dump-dom ${url} TIMEOUT 60
    RESULT_VARIABLE status OUTPUT_VARIABLE dom ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "chromium --dump-dom exited with ${status}:\n${errors}")
  endif()
  if(NOT dom MATCHES "<body[^>]*>")
    message(FATAL_ERROR "chromium's DOM has no <body>:\n${dom}")
  endif()
  set(${body_out} "${CMAKE_MATCH_0}" PARENT_SCOPE)
  set(${dom_out} "${dom}" PARENT_SCOPE)
endfunction()

# matches_joined(OUT REGEX REPLACEMENT TEXT): every match of REGEX (with groups) in TEXT, each
# rewritten by REPLACEMENT (\\1...), joined by spaces: "0:123 1:456" to compare with an expectation.
function(matches_joined out regex replacement text)
  string(REGEX MATCHALL "${regex}" found "${text}")
  set(items)
  foreach(item IN LISTS found)
    string(REGEX REPLACE "${regex}" "${replacement}" item "${item}")
    list(APPEND items "${item}")
  endforeach()
  string(REPLACE ";" " " items "${items}")
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# `actual` must equal `expected`.
function(expect what actual expected)
  if(NOT actual STREQUAL expected)
    message(SEND_ERROR "${what}: '${actual}', expected '${expected}'")
  endif()
endfunction()

# The page `html` loads nothing: a Content-Security-Policy that allows nothing to be loaded, and no
# src=, href=, url(, @import, https: or <link anywhere.
function(expect_self_contained html)
  string(FIND "${html}" "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';" csp)
  if(csp EQUAL -1)
    message(SEND_ERROR "the page has no Content-Security-Policy that forbids loading")
  endif()
  foreach(reference " src=" " href=" "url(" "@import" "https:" "<link")
    string(FIND "${html}" "${reference}" at)
    if(NOT at EQUAL -1)
      message(SEND_ERROR "the page refers to something outside it: '${reference}' at ${at}")
    endif()
  endforeach()
endfunction()

# expect_body_attributes(BODY ATTRIBUTE EXPECTED ...): each ATTRIBUTE of the page's <body> (BODY,
# from page_dom) is there and equals its EXPECTED, which may be "".
function(expect_body_attributes body)
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 1 ${last} 2)
    math(EXPR j "${i} + 1")
    set(attribute "${ARGV${i}}")
    if(body MATCHES " ${attribute}=\"([^\"]*)\"")
      expect("${attribute}" "${CMAKE_MATCH_1}" "${ARGV${j}}")
    else()
      message(SEND_ERROR "the page's <body> has no ${attribute}")
    endif()
  endforeach()
endfunction()

# A screenshot of `page` taken by ${chromium} into `screenshot`, which must be a PNG.
function(expect_screenshot page screenshot)
  execute_process(COMMAND ${chromium} --window-size=1150,1300 --screenshot=${screenshot} file://${page} TIMEOUT 60
    RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE errors)
  if(NOT status EQUAL 0 OR NOT EXISTS ${screenshot})
    message(FATAL_ERROR "chromium --screenshot exited with ${status}:\n${errors}")
  endif()
  file(READ ${screenshot} signature LIMIT 8 HEX)
  expect("the screenshot's PNG signature" "${signature}" "89504e470d0a1a0a")
  file(SIZE ${screenshot} bytes)
  message("screenshot: ${screenshot} (${bytes} bytes)")
endfunction()
