# Writes the timeline page of DUMP with PROGRAM (the hlomem tool) into WORK_DIR and checks it.
#
#   MODE=structure  without a browser: the page is self-contained (a Content-Security-Policy that
#                   allows nothing to be loaded, no src=, href=, url( or @import) and its markup
#                   holds EXPECTED_RECTANGLES buffer rectangles and the peak markers EXPECTED_PEAKS.
#   MODE=browser    renders it in headless Chromium (CHROMIUM): from the DOM after its script ran,
#                   data-rendered must be EXPECTED_RECTANGLES, data-peak-bytes EXPECTED_PEAKS,
#                   data-table-rows EXPECTED_TABLE_ROWS and data-errors empty; with CARD_VALUE, the
#                   page opened at #value=CARD_VALUE must show that value's card containing each of
#                   CARD_TEXTS (a ;-list, as the DOM escapes them); with SOURCE_ROWS, the "by
#                   source line" view must have that many bars (data-source-rows), and the page
#                   opened at #source=SOURCE_ROW (PANEL:RANK) must hover that bar, which must
#                   highlight exactly the rectangles of the values EXPECTED_HIGHLIGHT (ids, a
#                   space-separated list, as data-highlighted). A screenshot is taken to
#                   SCREENSHOT and must be a PNG. Prints "SKIPPED: chromium not found" (the test's
#                   skip expression) when there is no browser.
# EXPECTED_PEAKS reads "color:bytes color:bytes", as the page's data-peak-bytes.
cmake_minimum_required(VERSION 3.19)
include(${CMAKE_CURRENT_LIST_DIR}/page_checks.cmake)

get_filename_component(name ${DUMP} NAME_WE)
set(page ${WORK_DIR}/${name}.html)
write_page(${name} ${page} timeline ${DUMP} -o ${page})

# The value of attribute `name` in `text` (its first occurrence), or NOTFOUND.
function(attribute text name out)
  if(text MATCHES " ${name}=\"([^\"]*)\"")
    set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  else()
    set(${out} NOTFOUND PARENT_SCOPE)
  endif()
endfunction()

if(MODE STREQUAL "structure")
  file(READ ${page} html)
  expect_self_contained("${html}")
  string(REGEX MATCHALL "<rect [^>]* data-v=\"[0-9]+\"" rectangles "${html}")
  list(LENGTH rectangles count)
  expect("buffer rectangles in the markup" "${count}" "${EXPECTED_RECTANGLES}")
  matches_joined(peaks "<g class=\"peak\" data-color=\"([0-9]+)\" data-peak-bytes=\"([0-9]+)\"" "\\1:\\2" "${html}")
  expect("peak markers" "${peaks}" "${EXPECTED_PEAKS}")
  # The data is valid JSON with one entry per drawn value at least.
  string(REGEX MATCH "<script id=\"timeline-data\" type=\"application/json\">([^<]*)</script>" data "${html}")
  string(JSON values LENGTH "${CMAKE_MATCH_1}" values)
  if(values LESS EXPECTED_RECTANGLES)
    message(SEND_ERROR "the page's data lists ${values} values for ${EXPECTED_RECTANGLES} rectangles")
  endif()
  return()
endif()

page_dom("file://${page}" dom body)
message("chromium: ${body}")
attribute("${body}" data-errors errors)
expect("script errors (data-errors)" "${errors}" "")
attribute("${body}" data-rendered rendered)
expect("rectangles drawn (data-rendered)" "${rendered}" "${EXPECTED_RECTANGLES}")
attribute("${body}" data-peak-bytes peaks)
expect("peaks (data-peak-bytes)" "${peaks}" "${EXPECTED_PEAKS}")
attribute("${body}" data-table-rows rows)
expect("rows of the peak tables (data-table-rows)" "${rows}" "${EXPECTED_TABLE_ROWS}")
if(DEFINED SOURCE_ROWS)
  attribute("${body}" data-source-rows source_rows)
  expect("bars of the by-source-line view (data-source-rows)" "${source_rows}" "${SOURCE_ROWS}")
  attribute("${body}" data-highlighted highlighted)
  expect("rectangles highlighted before any hover" "${highlighted}" "NOTFOUND")
  # The page dispatches a mouseenter on the bar #source= names (the tests' hand on the mouse).
  page_dom("file://${page}#source=${SOURCE_ROW}" dom body)
  attribute("${body}" data-errors errors)
  expect("script errors with #source=${SOURCE_ROW}" "${errors}" "")
  attribute("${body}" data-highlighted highlighted)
  expect("values highlighted by hovering source line ${SOURCE_ROW}" "${highlighted}" "${EXPECTED_HIGHLIGHT}")
  string(REGEX MATCHALL "<rect [^>]*class=\"hl-src\"" lit "${dom}")
  list(LENGTH lit lit_count)
  string(REPLACE " " ";" expected_list "${EXPECTED_HIGHLIGHT}")
  list(LENGTH expected_list expected_count)
  expect("rectangles with class hl-src" "${lit_count}" "${expected_count}")
endif()

if(DEFINED CARD_VALUE)
  page_dom("file://${page}#value=${CARD_VALUE}" dom body)
  attribute("${body}" data-errors errors)
  expect("script errors with #value=${CARD_VALUE}" "${errors}" "")
  if(NOT dom MATCHES "<div id=\"card\" style=\"display: block;[^\"]*\">(.*)</div>")
    message(SEND_ERROR "#value=${CARD_VALUE} shows no card")
  endif()
  set(card "${CMAKE_MATCH_1}")
  foreach(text IN LISTS CARD_TEXTS)
    string(FIND "${card}" "${text}" at)
    if(at EQUAL -1)
      message(SEND_ERROR "the card of value ${CARD_VALUE} lacks '${text}':\n${card}")
    endif()
  endforeach()
endif()

expect_screenshot(${page} ${SCREENSHOT})
