# Writes the page of `hlomem whatif ... --page OUT.html` or `hlomem advise ... --page OUT.html` with
# PROGRAM (the hlomem tool) into WORK_DIR and checks it, as diff_page.cmake checks the diff's page.
#
#   NAME            the page's file name in WORK_DIR, without .html
#   ARGS            the tool's arguments before `--page OUT.html` (a list)
#   MODE=structure  without a browser: the page is self-contained (a Content-Security-Policy that
#                   allows nothing to be loaded; no src=, href=, url( or @import), each color's
#                   peak markers are EXPECTED_PEAKS ("before0:BYTES after0:BYTES ...") and the
#                   edited values marked are EXPECTED_MARKS ("offload fft.8.0 ...").
#   MODE=browser    renders it in headless Chromium (CHROMIUM): from the DOM after its script ran,
#                   data-peak-bytes must be EXPECTED_PEAKS, data-marks EXPECTED_MARKS and
#                   data-errors empty (the script also checks each marker against its section's
#                   figures). A screenshot is taken to SCREENSHOT and must be a PNG.
#                   Prints "SKIPPED: chromium not found" (the test's skip expression) without one.
cmake_minimum_required(VERSION 3.19)
include(${CMAKE_CURRENT_LIST_DIR}/page_checks.cmake)

set(page ${WORK_DIR}/${NAME}.html)
write_page(${NAME} ${page} ${ARGS} --page ${page})

if(MODE STREQUAL "structure")
  file(READ ${page} html)
  expect_self_contained("${html}")
  matches_joined(peaks "data-curve=\"([a-z]+)\" data-color=\"([0-9]+)\" data-peak-bytes=\"([0-9]+)\"" "\\1\\2:\\3" "${html}")
  expect("peak markers" "${peaks}" "${EXPECTED_PEAKS}")
  matches_joined(marks "<g class=\"mark [a-z-]+\" data-name=\"([^\"]+)\" data-kind=\"([a-z]+)\"" "\\2 \\1" "${html}")
  expect("marked values" "${marks}" "${EXPECTED_MARKS}")
  return()
endif()

page_dom("file://${page}" dom body)
message("chromium: ${body}")
expect_body_attributes("${body}" data-errors "" data-peak-bytes "${EXPECTED_PEAKS}" data-marks "${EXPECTED_MARKS}")

expect_screenshot(${page} ${SCREENSHOT})
