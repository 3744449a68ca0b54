// Source attribution (hlo/attribution.hpp) and the holdings of a peak (memory/peak_holdings.hpp):
// each value's metadata as its ` from instruction:` line states it, on every real dump; the join
// of a dump with its module; the breakdowns adding up to each color's peak; a Python stack read
// from the StackFrames tables by hand.
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlomem.hpp>
#include <hlomem/load/derive.hpp>
#include <hlomem/memory/peak_holdings.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

using hlomem_test::read_data;

/// The field `key` of a `metadata={...}` text, read with a regular expression (not with the
/// reader under test): the quoted string as written, or the bare number.
std::string field(std::string const& metadata, std::string const& key) {
    std::smatch m;
    std::regex const quoted("(?:^|[{ ])" + key + "=\"((?:[^\"\\\\]|\\\\.)*)\"");
    if (std::regex_search(metadata, m, quoted)) return m[1];
    std::regex const bare("(?:^|[{ ])" + key + "=(-?[0-9]+)");
    if (std::regex_search(metadata, m, bare)) return m[1];
    return std::string();
}

/// Sum of a tree's own values' bytes, recursively; and each node's bytes checked against it.
std::int64_t check_tree(hlomem::holding_tree const& t, hlomem::peak_holdings const& h, std::multiset<std::size_t>& seen) {
    std::int64_t sum = 0;
    for (std::size_t v : t.values) {
        seen.insert(v);
        auto it = std::find_if(h.values.begin(), h.values.end(), [&](auto const& x) { return x.value == v; });
        REQUIRE(it != h.values.end());
        sum += it->bytes;
    }
    for (auto const& c : t.children) sum += check_tree(c, h, seen);
    CHECK(sum == t.bytes);
    return sum;
}

}  // namespace

TEST_CASE("each value's metadata is what its from-instruction line states, on every real dump", "[attribution]") {
    std::size_t with = 0, total = 0;
    for (auto const& file : hlomem_test::real_dumps) {
        INFO(file);
        std::string const text = read_data(file);
        auto const ba = hlomem::parse_buffer_assignment(text, file);
        auto const sources = hlomem::attribute_values(ba);
        REQUIRE(sources.values.size() == ba.values.size());
        // Walk the text: each ` from instruction: ` line belongs to the Used-values block above it.
        std::regex const header(R"(^<(\d+) )");
        std::int64_t id = -1;
        std::size_t lines = 0;
        std::size_t start = 0;
        while (start < text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            std::string const line = text.substr(start, end - start);
            start = end + 1;
            std::smatch m;
            if (std::regex_search(line, m, header)) id = std::stoll(m[1]);
            if (line.rfind(" from instruction:", 0) != 0) continue;
            ++lines;
            auto const* v = ba.find_value(id);
            REQUIRE(v != nullptr);
            auto const& s = sources[static_cast<std::size_t>(v - ba.values.data())];
            auto const at = line.find(", metadata={");
            if (at == std::string::npos) {
                CHECK_FALSE(s.has_metadata());
                continue;
            }
            std::string const md = line.substr(at + 11);
            CHECK(s.origin == hlomem::metadata_origin::dump);
            CHECK(std::string(s.op_type) == field(md, "op_type"));
            CHECK(std::string(s.op_name) == field(md, "op_name"));
            CHECK(std::string(s.source_file) == field(md, "source_file"));
            CHECK(std::to_string(s.source_line) == (field(md, "source_line").empty() ? "0" : field(md, "source_line")));
        }
        CHECK(lines > 0);
        total += ba.values.size();
        with += sources.with_metadata();
    }
    CHECK(with > total / 2);  // most values of the GPU dumps carry metadata; the TPU seeds carry none
}

TEST_CASE("every breakdown adds up to each color's peak, on every real dump", "[attribution]") {
    for (auto const& file : hlomem_test::real_dumps) {
        INFO(file);
        auto const ba = hlomem::parse_buffer_assignment(read_data(file), file);
        auto const sources = hlomem::attribute_values(ba);
        auto const colors = hlomem::assigned_live_bytes(ba);
        REQUIRE_FALSE(colors.empty());
        auto const holdings = hlomem::peak_holdings_by_color(ba, colors, sources);
        REQUIRE(holdings.size() == colors.size());
        for (std::size_t c = 0; c < colors.size(); ++c) {
            auto const& h = holdings[c];
            CHECK(h.color == colors[c].color);
            CHECK(h.time == colors[c].peak_time);
            CHECK(h.bytes == colors[c].peak_bytes);
            // Every value live at the peak is held once.
            std::vector<std::size_t> held, live = hlomem::values_live_at(ba, h.color, h.time);
            for (auto const& v : h.values) held.push_back(v.value);
            live.erase(std::remove_if(live.begin(), live.end(), [&](std::size_t i) { return ba.values[i].size <= 0; }), live.end());
            std::sort(live.begin(), live.end());
            CHECK(held == live);
            // Without the source-first precedence too.
            CHECK(hlomem::holdings_at(ba, h.color, h.time).bytes == h.bytes);

            std::int64_t sum = 0;
            std::size_t values = 0;
            auto const by_line = hlomem::peak_by_source_line(h, sources);
            for (std::size_t k = 0; k < by_line.size(); ++k) {
                sum += by_line[k].bytes;
                values += by_line[k].values.size();
                if (k > 0) CHECK(by_line[k - 1].bytes >= by_line[k].bytes);
                for (std::size_t v : by_line[k].values) CHECK(hlomem::origin_key(sources.origin_of(v)) == by_line[k].key);
            }
            CHECK(sum == h.bytes);
            CHECK(values == h.values.size());

            for (auto const& tree : {hlomem::peak_by_op_name(h, sources), hlomem::peak_by_stack_frame(h, sources)}) {
                std::multiset<std::size_t> seen;
                CHECK(check_tree(tree, h, seen) == h.bytes);
                CHECK(tree.bytes == h.bytes);
                CHECK(seen.size() == h.values.size());
                CHECK(std::set<std::size_t>(seen.begin(), seen.end()).size() == seen.size());
            }
        }
    }
}

TEST_CASE("the metadata of the values live at the peaks alone is theirs, and the holdings the same", "[attribution]") {
    std::size_t named = 0;
    for (auto const& file : hlomem_test::real_dumps) {
        INFO(file);
        auto const ba = hlomem::parse_buffer_assignment(read_data(file), file);
        auto const every = hlomem::attribute_values(ba);
        auto const colors = hlomem::assigned_live_bytes(ba);
        std::vector<std::size_t> wanted;
        for (auto const& c : colors) {
            for (std::size_t i : hlomem::values_live_at(ba, c.color, c.peak_time)) wanted.push_back(i);
        }
        auto const some = hlomem::attribute_values(ba, wanted);
        REQUIRE(some.values.size() == ba.values.size());
        std::vector<char> is_wanted(ba.values.size(), 0);
        for (std::size_t i : wanted) is_wanted[i] = 1;
        std::size_t with = 0;
        for (std::size_t i = 0; i < ba.values.size(); ++i) {
            auto const& s = some[i];
            if (!is_wanted[i]) {
                CHECK_FALSE(s.has_metadata());
                CHECK(some.origin_of(i).kind == hlomem::origin_kind::none);
                continue;
            }
            with += s.has_metadata() ? 1 : 0;
            // The origin too: traced for these alone (a few lookups, each a scan of the dump's
            // positions) it is the one every value's tracing gives (the positions sorted once).
            auto const& o = some.origin_of(i);
            auto const& e = every.origin_of(i);
            CHECK(o.kind == e.kind);
            CHECK(o.how == e.how);
            CHECK(o.argument == e.argument);
            CHECK(o.output == e.output);
            CHECK(o.through == e.through);
            CHECK(o.source.source_file == e.source.source_file);
            CHECK(o.source.source_line == e.source.source_line);
            CHECK(s.origin == every[i].origin);
            CHECK(s.op_type == every[i].op_type);
            CHECK(s.op_name == every[i].op_name);
            CHECK(s.source_file == every[i].source_file);
            CHECK(s.source_line == every[i].source_line);
        }
        CHECK(some.with_metadata() == with);
        // One origin for each value asked for (each once), none for the others.
        CHECK(some.origins.size() == static_cast<std::size_t>(std::count(is_wanted.begin(), is_wanted.end(), 1)));
        CHECK(some.traced.size() == some.origins.size());
        named += with;
        // The holdings rank shared bytes by the live values' metadata only.
        auto const h_every = hlomem::peak_holdings_by_color(ba, colors, every);
        auto const h_some = hlomem::peak_holdings_by_color(ba, colors, some);
        REQUIRE(h_every.size() == h_some.size());
        for (std::size_t c = 0; c < h_every.size(); ++c) {
            REQUIRE(h_every[c].values.size() == h_some[c].values.size());
            for (std::size_t k = 0; k < h_every[c].values.size(); ++k) {
                CHECK(h_every[c].values[k].value == h_some[c].values[k].value);
                CHECK(h_every[c].values[k].bytes == h_some[c].values[k].bytes);
            }
        }
    }
    CHECK(named > 0);
}

TEST_CASE("shared bytes count once, for the value that states a source line", "[attribution]") {
    // An in-place dynamic-update-slice shares the broadcast's slice; a negate without metadata
    // lies beside them. At time 1 all three are live: 64 + 32 bytes.
    std::string const text = R"(BufferAssignment:
allocation 0: size 96, preallocated-temp:
 value: <1 broadcast.1 @0> (size=64,offset=0): f32[16]{0}
 value: <2 dynamic-update-slice.2 @0> (size=64,offset=0): f32[16]{0}
 value: <3 negate.3 @0> (size=32,offset=64): f32[8]{0}

Total bytes used: 96 (96B)

Used values:
<1 broadcast.1 @0>
 positions:
  broadcast.1
 uses:
  dynamic-update-slice.2, operand 0
 from instruction: %broadcast.1 = f32[16]{0} broadcast(f32[] %c), dimensions={}
<2 dynamic-update-slice.2 @0>
 positions:
  dynamic-update-slice.2
 uses:
  (none)
 from instruction: %dynamic-update-slice.2 = f32[16]{0} dynamic-update-slice(f32[16]{0} %broadcast.1, f32[4]{0} %p, s32[] %i), metadata={op_type="xla__update_slice" op_name="jit(f)/while/body/dynamic_update_slice" source_file="/src/model \"v2\".py" source_line=20}
<3 negate.3 @0>
 positions:
  negate.3
 uses:
  (none)
 from instruction: %negate.3 = f32[8]{0} negate(f32[8]{0} %q)

HloLiveRange (max 3):
  InstructionSequence:
    0:broadcast.1
    1:dynamic-update-slice.2
    2:negate.3
  BufferLiveRange:
    broadcast.1{}:0-1
    dynamic-update-slice.2{}:1-3
    negate.3{}:1-2
)";
    auto const ba = hlomem::parse_buffer_assignment(text, "shared.txt");
    auto const sources = hlomem::attribute_values(ba);
    CHECK_FALSE(sources[0].has_metadata());
    CHECK(sources[1].op_type == "xla__update_slice");
    CHECK(hlomem::c_unescape(sources[1].source_file) == "/src/model \"v2\".py");
    CHECK(sources[1].source_line == 20);
    CHECK(sources.from_dump == 1);

    auto const colors = hlomem::assigned_live_bytes(ba);
    REQUIRE(colors.size() == 1);
    CHECK(colors[0].peak_time == 1);
    CHECK(colors[0].peak_bytes == 96);

    // By default the broadcast, live since 0, holds the shared slice.
    auto const plain = hlomem::holdings_at(ba, 0, 1);
    REQUIRE(plain.values.size() == 3);
    CHECK(plain.values[0].bytes == 64);
    CHECK(plain.values[1].bytes == 0);
    CHECK(plain.values[2].bytes == 32);

    // With sources, the line that states itself holds it.
    auto const h = hlomem::peak_holdings_by_color(ba, colors, sources)[0];
    CHECK(h.values[0].bytes == 0);
    CHECK(h.values[1].bytes == 64);
    auto const by_line = hlomem::peak_by_source_line(h, sources);
    REQUIRE(by_line.size() == 2);
    CHECK(by_line[0].key.source_line == 20);
    CHECK(by_line[0].bytes == 64);
    CHECK(by_line[0].values == std::vector<std::size_t>{1});
    CHECK(by_line[1].key.is_no_source());
    CHECK(by_line[1].bytes == 32);
    CHECK(by_line[1].values == std::vector<std::size_t>{0, 2});

    auto const tree = hlomem::peak_by_op_name(h, sources);
    CHECK(tree.bytes == 96);
    REQUIRE(tree.children.size() == 2);
    CHECK(tree.children[0].name == "jit(f)");
    CHECK(tree.children[0].bytes == 64);
    REQUIRE(tree.children[0].children.size() == 1);
    CHECK(tree.children[0].children[0].name == "jit(f)/while");
    CHECK(tree.children[0].children[0].children[0].children[0].name == "jit(f)/while/body/dynamic_update_slice");
    CHECK(tree.children[0].children[0].children[0].children[0].values == std::vector<std::size_t>{1});
    CHECK(tree.children[1].name == hlomem::no_source_group);
    CHECK(tree.children[1].bytes == 32);
}

TEST_CASE("op_name parts split at slashes outside brackets", "[attribution]") {
    using v = std::vector<std::string_view>;
    CHECK(hlomem::op_name_parts("jit(f)/while/body/dot_general") == v{"jit(f)", "while", "body", "dot_general"});
    CHECK(hlomem::op_name_parts("jit(f)/transpose(jvp(a/b))/mul") == v{"jit(f)", "transpose(jvp(a/b))", "mul"});
    CHECK(hlomem::op_name_parts("weights['a/b']/x") == v{"weights['a/b']", "x"});
    CHECK(hlomem::op_name_parts("P_l_3d") == v{"P_l_3d"});
    CHECK(hlomem::op_name_parts("").empty());
}

TEST_CASE("a dump without metadata joined with its module", "[attribution]") {
    for (char const* tag : {"scan_window_a", "sternheimer_core_b", "reshard_xfirst"}) {
        INFO(tag);
        std::string const dump_file = std::string("corpus/compilations/") + tag + ".buffer_assignment.txt";
        std::string text = read_data(dump_file);
        auto const with = hlomem::parse_buffer_assignment(text, dump_file);
        auto const module = hlomem::parse_hlo_module(read_data(std::string("corpus/compilations/") + tag + ".after_opt.hlo"));
        // The same dump with every metadata={...} taken out of its instruction texts.
        std::string stripped;
        std::size_t at = 0;
        for (std::size_t m; (m = text.find(", metadata={", at)) != std::string::npos;) {
            stripped.append(text, at, m - at);
            at = text.find('}', m) + 1;
        }
        stripped.append(text, at, std::string::npos);
        auto const without = hlomem::parse_buffer_assignment(stripped, dump_file);
        REQUIRE(without.values.size() == with.values.size());
        CHECK(hlomem::attribute_values(without).with_metadata() == 0);

        auto const dump_says = hlomem::attribute_values(with);
        auto const joined = hlomem::attribute_values(without, module);
        auto const both = hlomem::attribute_values(with, module);
        CHECK(joined.from_dump == 0);
        CHECK(joined.from_module >= dump_says.from_dump);
        CHECK(both.from_dump == dump_says.from_dump);
        for (std::size_t i = 0; i < with.values.size(); ++i) {
            INFO(std::string(with.values[i].name));
            if (!dump_says[i].has_metadata()) continue;
            CHECK(joined[i].origin == hlomem::metadata_origin::module);
            CHECK(joined[i].op_name == dump_says[i].op_name);
            CHECK(joined[i].source_file == dump_says[i].source_file);
            CHECK(joined[i].source_line == dump_says[i].source_line);
            CHECK(both[i].origin == hlomem::metadata_origin::dump);
        }
    }
}

TEST_CASE("an assignment derived from a module takes the module's metadata", "[attribution]") {
    auto const module = hlomem::parse_hlo_module(read_data("corpus/compilations/scan_window_a.after_opt.hlo"));
    auto const derived = hlomem::derive_assignment(module);
    auto const sources = hlomem::attribute_values(derived.assignment, module);
    CHECK(sources.from_dump == 0);
    CHECK(sources.from_module > 0);
    for (std::size_t i = 0; i < derived.assignment.values.size(); ++i) {
        auto const id = module.find_instruction(std::string_view(derived.assignment.values[i].name));
        REQUIRE(id);
        auto const* md = module.metadata(*id);
        CHECK(sources[i].has_metadata() == (md != nullptr));
        if (md) CHECK(sources[i].source_line == md->source_line);
    }
    auto const colors = hlomem::assigned_live_bytes(derived.assignment);
    for (auto const& h : hlomem::peak_holdings_by_color(derived.assignment, colors, sources)) {
        std::int64_t sum = 0;
        for (auto const& g : hlomem::peak_by_source_line(h, sources)) sum += g.bytes;
        CHECK(sum == h.bytes);
    }
}

TEST_CASE("a Python stack from the StackFrames tables, checked by hand", "[attribution]") {
    // tests/data/hand/stack_frames.hlo, its tables as HloModule's printer writes them, each
    // parent_frame_id one higher than the frame it names: frame 3 is `dense` (layers.py:41)
    // called from frame 2, `forward` (model.py:12), called from frame 1, `<module>` (train.py:30,
    // printed parent 1: none); frame 4 is `forward` at model.py:13 (printed parent 2: frame 1).
    // dot.2 states its line and its frame; tanh.3, as the newest XLA prints, only its frame.
    std::string const text = read_data("hand/stack_frames.hlo");
    auto const m = hlomem::parse_hlo_module(text);
    auto const& index = m.stack_frame_index();
    REQUIRE(index.stack_frames.size() == 4);
    CHECK(index.stack_frames[0].parent_frame_id == 0);
    CHECK(index.stack_frames[1].parent_frame_id == 1);
    CHECK(index.stack_frames[2].parent_frame_id == 2);
    CHECK(index.stack_frames[3].parent_frame_id == 1);
    auto const stack = hlomem::python_stack(index, 3);
    REQUIRE(stack.size() == 3);
    CHECK(stack[0].frame_id == 1);
    CHECK(stack[0].file_name == "/src/train.py");
    CHECK(stack[0].function_name == "<module>");
    CHECK(stack[0].line == 30);
    CHECK(stack[0].column == 4);
    CHECK(stack[1].frame_id == 2);
    CHECK(stack[1].function_name == "forward");
    CHECK(stack[1].line == 12);
    CHECK(stack[2].frame_id == 3);
    CHECK(stack[2].file_name == "/src/layers.py");
    CHECK(stack[2].function_name == "dense");
    CHECK(stack[2].line == 41);
    CHECK(hlomem::frame_label(stack[2]) == "dense (/src/layers.py:41)");
    auto const four = hlomem::python_stack(index, 4);
    REQUIRE(four.size() == 2);
    CHECK(four[0].frame_id == 1);
    CHECK(four[1].line == 13);
    CHECK(hlomem::python_stack(index, 0).empty());
    CHECK(hlomem::python_stack(index, 9).empty());

    auto const derived = hlomem::derive_assignment(m);
    auto const& ba = derived.assignment;
    auto const sources = hlomem::attribute_values(ba, m);
    REQUIRE(sources.frames != nullptr);
    std::size_t const dot = ba.values_of_instruction("dot.2").at(0);
    std::size_t const tanh = ba.values_of_instruction("tanh.3").at(0);
    CHECK(sources.stack_of(dot).size() == 3);
    REQUIRE(sources.stack_of(tanh).size() == 2);
    CHECK(sources.stack_of(tanh)[1].function_name == "forward");
    // tanh.3's line is its frame's: model.py:13, its own (not dot.2's, which it would inherit).
    CHECK(sources[tanh].source_file == "/src/model.py");
    CHECK(sources[tanh].source_line == 13);
    CHECK(sources.origin_of(tanh).kind == hlomem::origin_kind::output);
    CHECK(sources.origin_of(tanh).through.empty());
    CHECK(sources.origin_of(tanh).source.source_line == 13);
    CHECK(sources[dot].source_file == "/src/layers.py");
    CHECK(sources[dot].source_line == 41);
    CHECK(sources.lines_from_frames == 1);

    // The stack tree: <module> -> forward (12) -> dense, and <module> -> forward (13); dot.2 and
    // tanh.3 are both 16 KiB, live together at tanh.3 (the peak, with the parameter).
    auto const colors = hlomem::assigned_live_bytes(ba);
    REQUIRE(colors.size() == 1);
    auto const h = hlomem::peak_holdings_by_color(ba, colors, sources)[0];
    auto const tree = hlomem::peak_by_stack_frame(h, sources);
    CHECK(tree.bytes == colors[0].peak_bytes);
    std::multiset<std::size_t> seen;
    CHECK(check_tree(tree, h, seen) == h.bytes);
    auto const top = std::find_if(tree.children.begin(), tree.children.end(),
                                  [](auto const& n) { return n.name == "<module> (/src/train.py:30)"; });
    REQUIRE(top != tree.children.end());
    REQUIRE(top->children.size() == 2);
    CHECK(top->children[0].name == "forward (/src/model.py:12)");
    CHECK(top->children[0].children.at(0).name == "dense (/src/layers.py:41)");
    CHECK(top->children[0].bytes == 64 * 64 * 4);
    CHECK(top->children[1].name == "forward (/src/model.py:13)");
    CHECK(top->children[1].bytes == 64 * 64 * 4);

    // Without the tables (the dump's text alone) a stack_frame_id names no line.
    hlomem::hlo_metadata md;
    md.stack_frame_id = 4;
    CHECK_FALSE(hlomem::metadata_position(md, &index).file.empty());
    CHECK(hlomem::metadata_position(md, static_cast<decltype(&index)>(nullptr)).file.empty());
    md.stack_frame_id = 5;  // past the table
    CHECK(hlomem::metadata_position(md, &index).file.empty());
}

TEST_CASE("the loader reads a dump's module with it and attributes its values", "[attribution][load]") {
    std::string const dir = std::string(HLOMEM_TEST_DATA_DIR) + "/corpus/compilations/";
    hlomem::load_options options;
    options.module_file = dir + "scan_window_b.after_opt.hlo";
    auto const loaded = hlomem::load(dir + "scan_window_b.buffer_assignment.txt", options);
    REQUIRE(loaded);
    REQUIRE(loaded->module);
    CHECK(loaded->module_file == options.module_file);
    CHECK(loaded->assignment_module() == &*loaded->module);
    auto const sources = hlomem::attribute_values(*loaded);
    CHECK(sources.values.size() == loaded->assignment()->values.size());
    CHECK(sources.with_metadata() == hlomem::attribute_values(*loaded->assignment(), *loaded->module).with_metadata());

    // XLA's names: X.txt beside X-buffer-assignment.txt is found; a file that is no module is not.
    auto const found = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/synthetic/tpu_padded-buffer-assignment.txt",
                                    [] { hlomem::load_options o; o.find_module = true; return o; }());
    REQUIRE(found);
    CHECK_FALSE(found->module);
    hlomem::load_options find;
    find.find_module = true;
    std::string const named = std::string(HLOMEM_TEST_DATA_DIR) + "/synthetic/module_0004.jit_left_ifft_after_optimizations";
    auto const beside = hlomem::load(named + "-buffer-assignment.txt", find);
    REQUIRE(beside);
    REQUIRE(beside->module);
    CHECK(beside->module_file == named + ".txt");
    CHECK(std::string_view(beside->module->name()) == "jit__left_ifft_conj");

    // A bare module loaded with derive_assignment attributes from itself.
    hlomem::load_options derive;
    derive.derive_assignment = true;
    auto const derived = hlomem::load(dir + "scan_window_b.after_opt.hlo", derive);
    REQUIRE(derived);
    REQUIRE(derived->assignment_module() != nullptr);
    CHECK(hlomem::attribute_values(*derived).from_module > 0);

    options.module_file = dir + "missing.hlo";
    CHECK_FALSE(hlomem::load(dir + "scan_window_b.buffer_assignment.txt", options));
}

namespace {

/// The line of each frame of a module's StackFrames table, read with regular expressions from
/// its text (not with the parser under test): frame id -> FileLocations line.
std::map<std::int64_t, std::int64_t> frame_lines(std::string const& module_text) {
    std::map<std::int64_t, std::int64_t> location_line, out;
    std::regex const location(R"(\n([0-9]+) \{file_name_id=[0-9]+ function_name_id=[0-9]+ line=([0-9]+) )");
    for (std::sregex_iterator it(module_text.begin(), module_text.end(), location), end; it != end; ++it) {
        location_line[std::stoll((*it)[1])] = std::stoll((*it)[2]);
    }
    std::regex const frame(R"(\n([0-9]+) \{file_location_id=([0-9]+) parent_frame_id=[0-9]+\})");
    for (std::sregex_iterator it(module_text.begin(), module_text.end(), frame), end; it != end; ++it) {
        out[std::stoll((*it)[1])] = location_line.at(std::stoll((*it)[2]));
    }
    return out;
}

}  // namespace

TEST_CASE("JAX 0.11: a value whose instruction names only a stack frame gets that frame's line", "[attribution][jax_0_11]") {
    // tests/data/jax_0_11: the dump's ` from instruction:` texts and the module state
    // `metadata={op_name=... scheduling_name=... stack_frame_id=N}` and no source_file; the
    // module's tables give frame N's line. With the module (beside the dump), every such value has
    // make_pairs.py and that line as its own source.
    struct expected {
        char const* name;
        std::size_t with_frames;  // values whose ` from instruction:` text names a stack_frame_id
    };
    for (auto const& e : {expected{"grad_ckpt", 57}, expected{"grad_plain", 37}}) {
        INFO(e.name);
        std::string const base = std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/" + e.name;
        hlomem::load_options options;
        options.find_module = true;
        auto const loaded = hlomem::load(base + "-buffer-assignment.txt", options);
        REQUIRE(loaded);
        REQUIRE(loaded->module);
        auto const lines = frame_lines(read_data(std::string("jax_0_11/") + e.name + ".txt"));
        REQUIRE(lines.size() == 9);
        auto const& ba = *loaded->assignment();
        auto const sources = hlomem::attribute_values(*loaded);
        std::size_t with_frames = 0;
        for (std::size_t i = 0; i < ba.values.size(); ++i) {
            std::string const text(ba.values[i].instruction_text);
            std::string const id = field(text, "stack_frame_id");
            if (id.empty()) continue;
            ++with_frames;
            INFO(ba.values[i].display_name());
            CHECK(field(text, "source_file").empty());
            CHECK(sources[i].source_file == "/work/main/devcheck/make_pairs.py");
            CHECK(sources[i].source_line == lines.at(std::stoll(id)));
            CHECK(sources[i].stack_frame_id == std::stoll(id));
            // Its own line, not one inherited from an operand or an argument.
            CHECK(sources.origin_of(i).through.empty());
            CHECK(sources.origin_of(i).source.source_line == lines.at(std::stoll(id)));
        }
        CHECK(with_frames == e.with_frames);
        CHECK(sources.lines_from_frames == e.with_frames);
        CHECK(sources.from_module == 0);  // the dump states every instruction's metadata itself

        // Without the module the same ids name no line.
        auto const alone = hlomem::attribute_values(ba);
        CHECK(alone.lines_from_frames == 0);
        for (std::size_t i = 0; i < ba.values.size(); ++i) CHECK_FALSE(alone[i].has_source_line());
    }
}

TEST_CASE("JAX 0.11 grad_ckpt: the cuBLAS workspace and the tanh activations hold the peak at make_pairs.py:18",
          "[attribution][jax_0_11]") {
    hlomem::load_options options;
    options.find_module = true;
    options.find_live_range = true;  // the dump in two files states no live ranges: X-live-range.txt does
    auto const loaded = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/grad_ckpt-buffer-assignment.txt", options);
    REQUIRE(loaded);
    REQUIRE(loaded->module);
    auto const& ba = *loaded->assignment();
    auto const sources = hlomem::attribute_values(*loaded);

    // Frame 7 (custom-call.3's, the rematerialized layer's dot) printed as
    // `7 {file_location_id=2 parent_frame_id=7}`: called from frame 6 (loss_ckpt, line 25), called
    // from frame 4 (grad_ckpt, line 35), called from frame 1 (<module>, line 46), the outermost
    // (printed parent 1).
    auto const stack = hlomem::python_stack(loaded->module->stack_frame_index(), 7);
    REQUIRE(stack.size() == 4);
    CHECK(stack[0].frame_id == 1);
    CHECK(stack[0].function_name == "<module>");
    CHECK(stack[0].line == 46);
    CHECK(stack[1].frame_id == 4);
    CHECK(stack[1].function_name == "grad_ckpt");
    CHECK(stack[1].line == 35);
    CHECK(stack[2].frame_id == 6);
    CHECK(stack[2].function_name == "loss_ckpt");
    CHECK(stack[2].line == 25);
    CHECK(stack[3].frame_id == 7);
    CHECK(stack[3].function_name == "layer");
    CHECK(stack[3].line == 18);
    for (auto const& f : stack) CHECK(f.file_name == "/work/main/devcheck/make_pairs.py");

    // custom-call.3{1}, the 32 MiB workspace (s8[33554432]), is its own: line 18, frame 7's stack.
    std::size_t const workspace = ba.value_index("custom-call.3", hlomem::shape_index{1});
    REQUIRE(workspace != hlomem::npos);
    CHECK(ba.values[workspace].size == 33554432);
    CHECK(sources.origin_of(workspace).kind == hlomem::origin_kind::own);
    CHECK(sources.origin_of(workspace).source.source_line == 18);
    auto const workspace_stack = sources.stack_of(workspace);
    REQUIRE(workspace_stack.size() == 4);
    CHECK(workspace_stack.front().line == 46);
    CHECK(workspace_stack.back().line == 18);

    // The peak (time 22, 60 MiB) by source line, as `hlomem report` prints it: line 18 holds the
    // workspace, custom-call.3{0} and the tuple's 16-byte table, and the three tanh activations
    // wrapped_tanh, .1, .2 (frame 3, line 18): 32 MiB + 4 x 4 MiB + 16 B; line 26 (frame 5) holds
    // gemm_fusion_dot_general.18; the arguments their own parameters.
    auto const colors = hlomem::assigned_live_bytes(ba);
    REQUIRE(colors.size() == 1);
    CHECK(colors[0].peak_time == 22);
    CHECK(colors[0].peak_bytes == 62914576);
    auto const h = hlomem::peak_holdings_by_color(ba, colors, sources)[0];
    auto const groups = hlomem::peak_by_source_line(h, sources);
    REQUIRE(groups.size() == 7);
    CHECK(groups[0].key.source_file == "/work/main/devcheck/make_pairs.py");
    CHECK(groups[0].key.source_line == 18);
    CHECK(groups[0].key.kind == hlomem::origin_kind::own);
    CHECK(groups[0].bytes == 33554432 + 4 * 4194304 + 16);
    std::vector<std::string> names;
    for (std::size_t v : groups[0].values) names.push_back(ba.values[v].display_name());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"custom-call.3{0}", "custom-call.3{1}", "custom-call.3{}", "wrapped_tanh",
                                            "wrapped_tanh.1", "wrapped_tanh.2"});
    CHECK(groups[1].key.source_line == 26);
    CHECK(groups[1].bytes == 4194304);
    REQUIRE(groups[1].values.size() == 1);
    CHECK(ba.values[groups[1].values[0]].display_name() == "gemm_fusion_dot_general.18");
    CHECK(groups[2].key.argument == 4);
    CHECK(groups[2].bytes == 4194304);
    std::int64_t sum = 0;
    for (auto const& g : groups) {
        sum += g.bytes;
        CHECK_FALSE(g.key.is_no_source());
    }
    CHECK(sum == colors[0].peak_bytes);

    // The module's own report reads the same: the assignment derived from grad_ckpt.txt.
    auto const& m = *loaded->module;
    auto const derived = hlomem::derive_assignment(m);
    auto const derived_sources = hlomem::attribute_values(derived.assignment, m);
    auto const derived_colors = hlomem::assigned_live_bytes(derived.assignment);
    REQUIRE(derived_colors.size() == 1);
    auto const dh = hlomem::peak_holdings_by_color(derived.assignment, derived_colors, derived_sources)[0];
    auto const derived_groups = hlomem::peak_by_source_line(dh, derived_sources);
    REQUIRE_FALSE(derived_groups.empty());
    CHECK(derived_groups[0].key.source_line == 18);
    CHECK(derived_groups[0].bytes == 33554432 + 4 * 4194304 + 16);
    CHECK(derived_sources.lines_from_frames > 0);
}

TEST_CASE("JAX 0.11 grad_plain: the peak at make_pairs.py:18, frame 5's stack four frames deep", "[attribution][jax_0_11]") {
    hlomem::load_options options;
    options.find_module = true;
    options.find_live_range = true;  // the dump in two files states no live ranges: X-live-range.txt does
    auto const loaded = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/grad_plain-buffer-assignment.txt", options);
    REQUIRE(loaded);
    REQUIRE(loaded->module);
    auto const& ba = *loaded->assignment();
    auto const sources = hlomem::attribute_values(*loaded);
    // Frame 5 (the tanh activations'), printed `5 {file_location_id=5 parent_frame_id=4}`: called
    // from frame 3 (loss_plain, 21), from frame 2 (grad_plain, 34), from frame 1 (<module>, 46).
    std::size_t const tanh = ba.value_index("wrapped_tanh", hlomem::shape_index{});
    REQUIRE(tanh != hlomem::npos);
    auto const stack = sources.stack_of(tanh);
    REQUIRE(stack.size() == 4);
    CHECK(stack[0].line == 46);
    CHECK(stack[1].function_name == "grad_plain");
    CHECK(stack[1].line == 34);
    CHECK(stack[2].function_name == "loss_plain");
    CHECK(stack[2].line == 21);
    CHECK(stack[3].function_name == "layer");
    CHECK(stack[3].line == 18);

    // The peak (time 25, 61 MiB): line 18 holds the workspace custom-call.4{1}, custom-call.4{0}
    // and its table, the three activations and loop_multiply_fusion (frame 5, line 18); output 0,
    // loop_reduce_fusion.3 (frame 4, line 18), is the line's output row.
    auto const colors = hlomem::assigned_live_bytes(ba);
    REQUIRE(colors.size() == 1);
    CHECK(colors[0].peak_time == 25);
    auto const h = hlomem::peak_holdings_by_color(ba, colors, sources)[0];
    auto const groups = hlomem::peak_by_source_line(h, sources);
    REQUIRE(groups.size() == 7);
    CHECK(groups[0].key.source_line == 18);
    CHECK(groups[0].key.kind == hlomem::origin_kind::own);
    CHECK(groups[0].bytes == 33554432 + 5 * 4194304 + 16);
    CHECK(groups[0].values.size() == 7);
    auto const output = std::find_if(groups.begin(), groups.end(), [](auto const& g) { return g.key.kind == hlomem::origin_kind::output; });
    REQUIRE(output != groups.end());
    CHECK(output->key.source_line == 18);
    CHECK(output->bytes == 1048576);
}
