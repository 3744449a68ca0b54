// The donations as text and JSON (output/donation_report.hpp), the lines the header shows: a used
// donation, an unused one with XLA's reason, an alias that could be made, and the two closing
// lines (donors not known; nothing to say). Sizes print as XLA's HumanReadableNumBytes does
// (core/human_bytes.hpp): 4096 -> 4.0KiB, 32 -> 32B.
#include <hlomem/output/donation_report.hpp>

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

namespace {

hlomem::donation_analysis three_findings() {
    hlomem::donation_analysis d;
    d.donors_known = true;
    d.used.push_back({0, "{}", "f32[1024]{0}", 4096, "{0}", {}});
    d.unused.push_back({1, "{}", "f32[8]{0}", 32, {}, "no output of its size (32 bytes) in memory space 0"});
    d.could_alias.push_back({2, "{1}", "{1}", "f32[16]{0}", 64, false});
    return d;
}

std::string text_of(hlomem::donation_analysis const& d) {
    std::ostringstream out;
    hlomem::print_donations_text(out, d, "  ");
    return out.str();
}

}  // namespace

TEST_CASE("output/donation_report: one line a finding, as the header shows them", "[donation_report]") {
    CHECK(text_of(three_findings()) ==
          "  used: parameter 0 f32[1024]{0} (4.0KiB) is output {0}\n"
          "  unused: parameter 1 f32[8]{0} (32B) was donated (buffer_donor) and no output took it: no output of its size "
          "(32 bytes) in memory space 0\n"
          "  could alias: parameter 2 {1} f32[16]{0} (64B) and output {1}, of the same shape (donate the parameter to reuse "
          "its buffer)\n");
    // A donated parameter that could alias: no advice to donate it; a size not known: no bytes.
    hlomem::donation_analysis d;
    d.donors_known = true;
    d.could_alias.push_back({3, "{}", "{0}", "s32[]", 0, true});
    CHECK(text_of(d) == "  could alias: parameter 3 s32[] and output {0}, of the same shape\n");
    // Nothing found, and the donors not known (a dump read without its module).
    CHECK(text_of(hlomem::donation_analysis{}) ==
          "  donations not used: not known (the dump does not list buffer_donor; read its module with it)\n");
    hlomem::donation_analysis none;
    none.donors_known = true;
    CHECK(text_of(none) == "  no donation, and no parameter of an output's shape\n");
}

TEST_CASE("output/donation_report: the JSON object, `why` only for an unused donation", "[donation_report]") {
    std::ostringstream out;
    {
        hlomem::json_writer json(out, false);
        hlomem::write_donations_json(json, three_findings());
    }
    CHECK(out.str() ==
          R"({"donors_known":true,)"
          R"("used":[{"parameter":0,"parameter_index":"{}","shape":"f32[1024]{0}","bytes":4096,"output_index":"{0}"}],)"
          R"("unused":[{"parameter":1,"parameter_index":"{}","shape":"f32[8]{0}","bytes":32,)"
          R"("why":"no output of its size (32 bytes) in memory space 0"}],)"
          R"("could_alias":[{"parameter":2,"parameter_index":"{1}","output_index":"{1}","shape":"f32[16]{0}","bytes":64,"donated":false}]})");
}
