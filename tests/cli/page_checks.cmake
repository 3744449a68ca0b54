# page_checks.cmake: what the tests of the tool's pages (timeline_page.cmake, diff_page.cmake)
# check alike. Included by them; `chromium` (the browser's command line with its flags) is set by
# the includer before expect_screenshot is called.

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
