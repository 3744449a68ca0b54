// The lines out-of-memory reports are pasted from: what stands in front of a line's text
// (parser/oom_lines.hpp).
#include <hlomem/parser/oom_lines.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "test_data.hpp"

namespace {

/// The text of `line` after whatever stands in front of it (line_content).
std::string content(std::string const& line) {
    char const* const end = line.data() + line.size();
    return std::string(hlomem::parser::oom::line_content(line.data(), end), end);
}

/// How `text` (a line's content) is classified; `rest` points into `text`.
hlomem::parser::oom::classified classify(std::string_view text) {
    return hlomem::parser::oom::classify(text.data(), text.data() + text.size());
}

}  // namespace

TEST_CASE("log headers: glog and TensorFlow forms, and text that only looks like one", "[oom_report]") {
    using hlomem::parser::oom::skip_log_header;
    auto rest = [](std::string const& line) {
        char const* const end = line.data() + line.size();
        return std::string(skip_log_header(line.data(), end), end);
    };
    CHECK(rest("E1121 10:03:12.123456 12345 pjrt_stream_executor_client.cc:2826] Largest") == "Largest");
    CHECK(rest("W0501 10:00:00.000000    77 tpu_client.cc:12] x") == "x");
    CHECK(rest("E0000 00:00:1714557600.123456   12345 tpu_compiler.cc:99] x") == "x");
    CHECK(rest("2024-05-01 10:00:00.000000: W external/xla/xla/service/gpu/gpu_compiler.cc:1573] x") == "x");
    CHECK(rest("2024-05-01 10:00:00: E tensorflow/core/tpu/kernels/tpu_compile_op_common.cc:230] x") == "x");
    for (char const* text : {"Shape: f32[16,2]{1,0:T(8,128)}", "E1121 something else] x", "I1121 10:03:12 12345 file.cc] x",
                             "2024-05-01 10:00:00.000000: X file.cc:1] x", "Execution of replica 0 failed: x"}) {
        CAPTURE(text);
        CHECK(rest(text) == text);
    }
}

TEST_CASE("parser/oom_lines: a line's text after colour codes, launcher tags, quotes and log headers, in any order",
          "[oom_lines]") {
    // tests/data/oom/pastes/alpa_759.txt, lines 3, 12 and 13: a viewer's line number, colour codes
    // without their escape byte, a Ray worker's tag, then the report's own text.
    std::istringstream paste(hlomem_test::read_data("oom/pastes/alpa_759.txt"));
    std::vector<std::string> lines;
    for (std::string line; std::getline(paste, line);) lines.push_back(line);
    REQUIRE(lines.size() > 13);
    CHECK(content(lines[2]) == "BufferAssignment stats:");
    CHECK(content(lines[11]) == "Buffer 1:");
    CHECK(content(lines[12]) == "Size: 3.83GiB");
    CHECK(content("> [rank3]: E1121 10:03:12.123456 12345 pjrt_stream_executor_client.cc:2826] Largest program allocations in hbm:") ==
          "Largest program allocations in hbm:");
    CHECK(content("[1,0]<stderr>:ERROR:root:   Shape: f32[8]{0}") == "Shape: f32[8]{0}");
    CHECK(content("(pid=123) INFO:absl:\x1b[0m  Total hbm usage >= 22.47G:") == "Total hbm usage >= 22.47G:");
    CHECK(content("\x1b[1;31m(pid=123) Output size 0B; shares 0B with arguments.") == "Output size 0B; shares 0B with arguments.");
    // What only looks like a tag stays: a blank inside brackets, no pid in parentheses, no blank after.
    for (char const* text : {"[error message] x", "(no process id) x", "[rank3]x", "Shape: f32[16,2]{1,0:T(8,128)}"}) {
        CAPTURE(text);
        CHECK(content(text) == text);
    }
}

TEST_CASE("parser/oom_lines: entry heads, fields and report headers classified, with where the rest starts",
          "[oom_lines]") {
    using hlomem::parser::oom::text_kind;
    auto const tpu = classify("17. Size: 64.00M");
    CHECK(tpu.kind == text_kind::tpu_entry_head);
    CHECK(tpu.number == 17);
    CHECK(std::string(tpu.rest) == " 64.00M");
    CHECK(classify("17\\. Size: 64.00M").number == 17);  // markdown's escaped list number
    CHECK(classify("1234567890. Size: 1K").kind == text_kind::other);  // more than 9 digits is no entry number
    auto const gpu = classify("Buffer 13:");
    CHECK(gpu.kind == text_kind::gpu_entry_head);
    CHECK(gpu.number == 13);
    CHECK(classify("Buffer 13").kind == text_kind::other);
    auto const field = classify("Unpadded size: 285.00M");
    CHECK(field.kind == text_kind::field);
    CHECK(field.field == hlomem::parser::oom::field_name::unpadded_size);
    CHECK(std::string(field.rest) == " 285.00M");
    CHECK(classify("XLA Label: fusion").field == hlomem::parser::oom::field_name::gpu_label);
    CHECK(classify("XLA label: fusion").field == hlomem::parser::oom::field_name::tpu_label);
    CHECK(classify("").kind == text_kind::blank);
    CHECK(classify("```text").kind == text_kind::fence);
    CHECK(classify("=====  ").kind == text_kind::separator);
    CHECK(classify("==== x").kind == text_kind::other);
    CHECK(classify("BufferAssignment OOM Debugging.").kind == text_kind::gpu_header);
    CHECK(classify("Total hbm usage >= 22.47G:").kind == text_kind::total_usage);
    CHECK(classify("RESOURCE_EXHAUSTED: Out of memory while trying to allocate 6291456 bytes.").kind == text_kind::gpu_allocate);
    CHECK(classify("Size: 1.00GiB | Requested Size: 1.00GiB | in_use: 0").kind == text_kind::bfc_heading);
}
