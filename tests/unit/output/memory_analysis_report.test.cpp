// What compiled.memory_analysis() would report, as text and JSON (output/memory_analysis_report.hpp):
// the header's example (peak 67108896 bytes = 12582944 static + 54525952 heap at time 22), its
// columns (each name in 36, each figure right-aligned in 12, then XLA's HumanReadableNumBytes),
// a field no text states, notes, and a trace without live ranges.
#include <hlomem/output/memory_analysis_report.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>

namespace {

hlomem::memory_analysis header_example() {
    hlomem::memory_analysis m;
    m.argument_size_in_bytes = 12582944;
    m.peak_memory_in_bytes = 67108896;
    m.static_bytes = 12582944;
    m.static_unpadded_bytes = 12582912;
    m.heap_peak_bytes = 54525952;
    m.peak_color = 0;
    m.peak_time = 22;
    m.peak_instruction = "custom-call.3";
    m.peak_value_names = {"custom-call.3{1}", "fusion.2"};
    m.notes = {"generated_code_size_in_bytes: the size of the compiled code is in no text XLA dumps"};
    return m;
}

}  // namespace

TEST_CASE("output/memory_analysis_report: the headline and a line for each field", "[memory_analysis_report]") {
    auto const m = header_example();
    CHECK(hlomem::memory_analysis_headline(m) ==
          "memory_analysis() would report: peak 67108896 bytes (64.00MiB) = 12582944 static + 54525952 heap at time 22 "
          "(custom-call.3)");
    std::ostringstream out;
    hlomem::print_memory_analysis_text(out, m, 2);
    std::string const text = out.str();
    // 67108896 / 2^20 = 64.00003: two decimals from a MiB up; 12582944 / 2^20 = 12.00003.
    CHECK(text.find("\n    peak_memory_in_bytes                    67108896  64.00MiB\n") != std::string::npos);
    CHECK(text.find("\n    argument_size_in_bytes                  12582944  12.00MiB\n") != std::string::npos);
    CHECK(text.find("\n    output_size_in_bytes                           0  0B\n") != std::string::npos);
    // A field no text states: its 28-letter name padded to 36, then "     unknown".
    CHECK(text.find("\n    generated_code_size_in_bytes" + std::string(8 + 5, ' ') + "unknown\n") != std::string::npos);
    CHECK(text.find("\n    note: generated_code_size_in_bytes: the size of the compiled code is in no text XLA dumps\n") !=
          std::string::npos);
    // The headline, the 14 fields of memory_analysis_members, one note.
    CHECK(std::count(text.begin(), text.end(), '\n') == 1 + 14 + 1);
    // No live ranges: no peak, and no heap or time to state.
    CHECK(hlomem::memory_analysis_headline(hlomem::memory_analysis{}) ==
          "memory_analysis() would report: no peak (the values have no live ranges)");
    hlomem::memory_analysis no_time;
    no_time.peak_memory_in_bytes = 100;
    no_time.static_bytes = 100;
    CHECK(hlomem::memory_analysis_headline(no_time) == "memory_analysis() would report: peak 100 bytes (100B) = 100 static");
}

TEST_CASE("output/memory_analysis_report: the JSON object, null where a field is unknown", "[memory_analysis_report]") {
    std::ostringstream out;
    {
        hlomem::json_writer json(out, false);
        hlomem::write_memory_analysis_json(json, header_example());
    }
    std::string const json = out.str();
    CHECK(json.rfind(R"({"generated_code_size_in_bytes":null,"argument_size_in_bytes":12582944,)", 0) == 0);
    CHECK(json.find(R"("peak_memory_in_bytes":67108896,)") != std::string::npos);
    CHECK(json.find(R"("peak":{"static_bytes":12582944,"static_unpadded_bytes":12582912,"heap_bytes":54525952,"color":0,)"
                    R"("time":22,"instruction":"custom-call.3","values":["custom-call.3{1}","fusion.2"]},)") != std::string::npos);
    CHECK(json.find(R"("notes":["generated_code_size_in_bytes: the size of the compiled code is in no text XLA dumps"]})") !=
          std::string::npos);
}
