# hlomemPageAssets.cmake: writes include/hlomem/output/page_assets.hpp, the style and script of the
# pages hlomem writes (the timeline's SVG and HTML, the diff's HTML), from the files they are
# edited in, include/hlomem/output/assets/*.css and *.js. The header is committed, so that the
# installed library has it without a build step; the test `output: page_assets.hpp is in step with
# assets/` (tests/CMakeLists.txt) writes it again into the build tree and compares the two.
#
#   cmake -DOUTPUT=include/hlomem/output/page_assets.hpp -P cmake/hlomemPageAssets.cmake
#
# Each file becomes `inline constexpr char const NAME[]` (namespace hlomem::assets), a raw string
# literal. A leading /* ... */ comment is left out, and so are the line ends of a .css file (its
# rules are written one per line there, but the page and the SVG carry the style as one line).
cmake_minimum_required(VERSION 3.16)
if(NOT DEFINED OUTPUT)
  message(FATAL_ERROR "hlomemPageAssets.cmake: pass -DOUTPUT=FILE")
endif()
get_filename_component(root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(assets "${root}/include/hlomem/output/assets")
set(pairs
  timeline_css timeline.css
  page_css page.css
  page_js page.js
  diff_css diff.css
  diff_js diff.js
  whatif_css whatif.css
  whatif_js whatif.js)
set(delimiter "hlomem_text")
set(literals "")
while(pairs)
  list(POP_FRONT pairs name file)
  file(READ "${assets}/${file}" text)
  string(FIND "${text}" "/*" comment_start)
  if(comment_start EQUAL 0)
    string(FIND "${text}" "*/\n" comment_end)
    math(EXPR text_start "${comment_end} + 3")
    string(SUBSTRING "${text}" ${text_start} -1 text)
  endif()
  if(file MATCHES "\\.css$")
    string(REPLACE "\n" "" text "${text}")
  endif()
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} holds ')${delimiter}\"', which would end its raw string literal")
  endif()
  string(APPEND literals "\n/// include/hlomem/output/assets/${file}\ninline constexpr char const ${name}[] = R\"${delimiter}(${text})${delimiter}\";\n")
endwhile()
file(WRITE "${OUTPUT}" "// hlomem/output/page_assets.hpp: written by cmake/hlomemPageAssets.cmake from
// include/hlomem/output/assets/; edit those files and run the script, not this header.
#ifndef HLOMEM_OUTPUT_PAGE_ASSETS_HPP
#define HLOMEM_OUTPUT_PAGE_ASSETS_HPP

namespace hlomem::assets {
${literals}
}  // namespace hlomem::assets

#endif  // HLOMEM_OUTPUT_PAGE_ASSETS_HPP
")
