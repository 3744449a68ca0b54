# Writes the page of `hlomem diff A B -o OUT.html` with PROGRAM (the hlomem tool) into WORK_DIR and
# checks it, as timeline_page.cmake checks the timeline's page.
#
#   MODE=structure  without a browser: the page is self-contained (a Content-Security-Policy that
#                   allows nothing to be loaded; no src=, href=, url( or @import), both sides of
#                   each color are drawn with their peak markers EXPECTED_PEAKS ("a0:BYTES b0:BYTES
#                   ...", A's and B's of each color), and the deltas' rows say EXPECTED_DELTAS (the
#                   peak delta of each color, "0:-24 ...").
#   MODE=browser    renders it in headless Chromium (CHROMIUM): from the DOM after its script ran,
#                   data-rendered must be EXPECTED_RECTANGLES (buffer rectangles of both sides),
#                   data-peak-bytes EXPECTED_PEAKS, data-delta-rows EXPECTED_ROWS and data-errors
#                   empty (the script also checks that each color's markers differ by the delta
#                   its table states). A screenshot is taken to SCREENSHOT and must be a PNG.
#                   Prints "SKIPPED: chromium not found" (the test's skip expression) without one.
cmake_minimum_required(VERSION 3.19)
include(${CMAKE_CURRENT_LIST_DIR}/page_checks.cmake)

get_filename_component(name ${A} NAME_WE)
set(page ${WORK_DIR}/${name}-diff.html)
write_page(${name} ${page} diff ${A} ${B} -o ${page})

if(MODE STREQUAL "structure")
  file(READ ${page} html)
  expect_self_contained("${html}")
  # Each side's svg (data-side) and the peak marker that follows it.
  string(REGEX MATCHALL "data-side=\"[ab]\" data-color=\"[0-9]+\"|<g class=\"peak\" data-color=\"[0-9]+\" data-peak-bytes=\"[0-9]+\"" marks "${html}")
  set(peaks)
  set(side)
  foreach(mark IN LISTS marks)
    if(mark MATCHES "^data-side=\"([ab])\"")
      set(side ${CMAKE_MATCH_1})
    elseif(mark MATCHES "data-color=\"([0-9]+)\" data-peak-bytes=\"([0-9]+)\"")
      list(APPEND peaks "${side}${CMAKE_MATCH_1}:${CMAKE_MATCH_2}")
    endif()
  endforeach()
  string(REPLACE ";" " " peaks "${peaks}")
  expect("peak markers" "${peaks}" "${EXPECTED_PEAKS}")
  matches_joined(deltas "<section data-color=\"([0-9]+)\" data-peak-delta=\"(-?[0-9]+)\"" "\\1:\\2" "${html}")
  expect("peak deltas" "${deltas}" "${EXPECTED_DELTAS}")
  return()
endif()

page_dom("file://${page}" dom body)
message("chromium: ${body}")
expect_body_attributes("${body}" data-errors "" data-rendered "${EXPECTED_RECTANGLES}" data-peak-bytes "${EXPECTED_PEAKS}"
  data-delta-rows "${EXPECTED_ROWS}")

expect_screenshot(${page} ${SCREENSHOT})
