// hlomem/output.hpp: the output half of the library, every text, JSON document and page that
// hlomem writes, for the hlomem tool, the Python module and any other program alike
// (docs/ARCHITECTURE.md). The layer is named for what it holds, output, as load/ is named for the
// input half: it sits on top of every analysis and writes what they found.
//
//   <hlomem/output/json_writer.hpp>        json_writer: the one streaming JSON writer
//   <hlomem/output/json_elements.hpp>      write_elements: a long array's elements on two threads, in order
//   <hlomem/output/percent.hpp>            fixed2, share_text: percentages as every output writes them
//   <hlomem/output/sources.hpp>            where values come from: the peak by source line, op_name, stack
//   <hlomem/output/assignment_report.hpp>  facts_with, print_buffer_assignment_text/_json: a dump's report
//   <hlomem/output/module_report.hpp>      report_hlo_modules: a module's report
//   <hlomem/output/donation_report.hpp>    the donations used, unused and possible, as text and JSON
//   <hlomem/output/dump_directory_report.hpp>  `report DIR`: every compilation of a dump folder, by peak
//   <hlomem/output/memory_analysis_report.hpp> what compiled.memory_analysis() would report
//   <hlomem/output/report.hpp>             print_report_text/_json: the report of whatever the loader read
//   <hlomem/output/markup.hpp>             escaped markup, colors and numbers for SVG, HTML and traces
//   <hlomem/output/page_assets.hpp>        the pages' style and script (from output/assets/)
//   <hlomem/output/timeline_page.hpp>      the timeline as SVG and as a self-contained HTML page
//   <hlomem/output/timeline_summary.hpp>   the timeline's summary, as text and JSON
//   <hlomem/output/diff_report.hpp>        two compilations compared, as text and JSON
//   <hlomem/output/diff_page.hpp>          the diff's HTML page
//   <hlomem/output/sides_diff_report.hpp>  two sides compared (diff_sides), in each format: the door
#ifndef HLOMEM_OUTPUT_HPP
#define HLOMEM_OUTPUT_HPP

#include <hlomem/output/assignment_report.hpp>
#include <hlomem/output/oom_explanation.hpp>
#include <hlomem/output/liveness_report.hpp>
#include <hlomem/output/check_report.hpp>
#include <hlomem/output/diff_page.hpp>
#include <hlomem/output/diff_report.hpp>
#include <hlomem/output/donation_report.hpp>
#include <hlomem/output/dump_directory_report.hpp>
#include <hlomem/output/json_elements.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/markup.hpp>
#include <hlomem/output/memory_analysis_report.hpp>
#include <hlomem/output/module_report.hpp>
#include <hlomem/output/page_assets.hpp>
#include <hlomem/output/percent.hpp>
#include <hlomem/output/report.hpp>
#include <hlomem/output/snapshot_report.hpp>
#include <hlomem/output/repack_report.hpp>
#include <hlomem/output/shape_report.hpp>
#include <hlomem/output/sides_diff_report.hpp>
#include <hlomem/output/sources.hpp>
#include <hlomem/output/timeline_page.hpp>
#include <hlomem/output/timeline_summary.hpp>
#include <hlomem/output/timeline_trace.hpp>
#include <hlomem/output/whatif_page.hpp>
#include <hlomem/output/whatif_report.hpp>

#endif  // HLOMEM_OUTPUT_HPP
