// Reading a buffer-assignment dump on several threads (parser/threaded_read.hpp, read_in_parts;
// its parts: parser/dump_parts.hpp, split_dump) must give exactly the model the one-thread read
// gives: every field, every line number, the shape table in the same order, and the same error
// for a damaged dump.
#include <catch2/catch.hpp>

#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>

#include <hlomem/hlomem.hpp>
#include <hlomem/parser/buffer_assignment.hpp>  // read_in_parts and split_dump, tested directly

#include "test_data.hpp"

namespace {

template <class Index>
std::string index_text(Index const& i) {
    return hlomem::to_string(i);
}

/// Everything the parser puts in the model, line numbers and shape ids included, as text.
template <class P>
std::string everything(hlomem::basic_buffer_assignment<P> const& ba) {
    std::ostringstream o;
    o << hlomem::to_string(ba) << "\n--\n";
    o << "file " << ba.file << " total " << ba.stated_total_bytes.value_or(-1) << ' ' << std::string_view(ba.stated_total_human)
      << " used_values " << ba.has_used_values << '\n';
    for (std::size_t s = 0; s < ba.shapes.size(); ++s) o << "shape " << s << ' ' << hlomem::to_string(ba.shapes[s]) << '\n';
    for (auto const& a : ba.allocations) {
        o << "allocation " << a.index << ' ' << a.size << ' ' << a.color << " line " << a.line << " shape " << a.parameter_shape
          << ' ' << (a.output_shape ? static_cast<long long>(*a.output_shape) : -1LL) << " values";
        for (auto v : a.values) o << ' ' << v;
        o << '\n';
    }
    for (auto const& v : ba.values) {
        o << "value " << v.id << ' ' << std::string_view(v.name) << index_text(v.index) << ' ' << v.index_printed << v.is_phi
          << ' ' << v.color.value_or(-1) << " alloc " << v.allocation << ' ' << v.offset << ' ' << v.size << " shape "
          << v.shape << " line " << v.line << " block " << v.has_block << ' ' << v.block_line << " uses "
          << static_cast<int>(v.uses_as_printed) << " instr " << std::string_view(v.instruction_text) << ' '
          << v.instruction_text_spaced << ' ' << v.instruction_shape << ' ' << std::string_view(v.instruction_opcode) << ' '
          << std::string_view(v.fusion_kind);
        for (auto const& p : v.positions) o << " p " << std::string_view(p.instruction) << index_text(p.index) << p.index_printed;
        for (auto const& u : v.uses) {
            o << " u " << std::string_view(u.instruction) << ' ' << u.operand_number << index_text(u.operand_index) << u.index_printed;
        }
        for (auto const& a : v.output_to_operand_aliasing) {
            o << " a " << index_text(a.output_index) << a.operand_number << index_text(a.operand_index);
        }
        if (v.live_range) o << " live " << v.live_range->start << '-' << v.live_range->end;
        o << '\n';
    }
    if (auto const& lr = ba.live_range) {
        o << "live_range max " << lr->max << " line " << lr->line << ' ' << lr->not_available << " sequence "
          << lr->instruction_sequence.size() << '\n';
        for (auto const& r : lr->buffer_live_ranges) {
            o << "range " << std::string_view(r.name) << index_text(r.index) << ' ' << r.range.start << '-' << r.range.end
              << " value " << r.value << " line " << r.line << '\n';
        }
        if (auto const& peak = lr->stated_peak) {
            o << "peak " << peak->time << " line " << peak->line << ' ' << peak->spaced_numbers << '\n';
            for (auto const& e : peak->entries) o << "entry " << std::string_view(e.name) << ' ' << e.bytes << " line " << e.line << '\n';
            for (auto const& n : peak->stack_trace) o << "stack " << std::string_view(n.name) << " line " << n.line << '\n';
        }
    }
    return o.str();
}

template <class P>
std::string read_with(std::string_view text, std::size_t threads) {
    auto r = hlomem::try_parse_buffer_assignment<P>(text, "dump.txt", threads);
    return r ? everything(*r) : "error: " + r.error().to_string();
}


}  // namespace

TEST_CASE("a dump read on several threads equals the one-thread read", "[buffer_assignment][threads]") {
    for (auto const& file : hlomem_test::real_dumps) {
        INFO(file);
        std::string const text = hlomem_test::read_data(file);
        std::string const one = read_with<hlomem::default_policy>(text, 1);
        REQUIRE(one.rfind("error", 0) != 0);
        // 2 threads split the Used values in about eight parts; 7 in many more (down to a block a part).
        for (std::size_t threads : {2, 3, 7, 64}) {
            INFO("threads " << threads);
            CHECK(read_with<hlomem::default_policy>(text, threads) == one);
            CHECK(read_with<hlomem::view_policy>(text, threads) == read_with<hlomem::view_policy>(text, 1));
        }
    }
}

TEST_CASE("a damaged dump gives the one-thread error on several threads", "[buffer_assignment][threads][malformed]") {
    std::string const text = hlomem_test::read_data("seeds/000_5960cad812240b69.txt");
    auto const used = text.find("\nUsed values:");
    auto const live = text.find("\nHloLiveRange");
    REQUIRE(used != std::string::npos);
    REQUIRE(live != std::string::npos);
    auto damaged_at = [&](std::size_t at, std::string_view what, std::string_view with) {
        std::string t = text;
        auto const p = t.find(what, at);
        REQUIRE(p != std::string::npos);
        t.replace(p, what.size(), with);
        return t;
    };
    // A bad line in each section; a block whose name disagrees with its value line; a second
    // block for one value (the parts would each read theirs); a second `Used values:` header.
    std::string const second_block = [&] {
        auto const block_start = text.find("\n<", used) + 1;
        auto const block_end = text.find("\n<", block_start) + 1;
        std::string t = text;
        t.insert(live + 1, text.substr(block_start, block_end - block_start));
        return t;
    }();
    std::string const second_header = [&] {
        auto const mid = text.find("\n<", used + (live - used) / 2) + 1;
        std::string t = text;
        t.insert(mid, "Used values:\n");
        return t;
    }();
    for (std::string const& bad : {damaged_at(0, "size ", "sise "), damaged_at(used, "operand ", "operant "),
                                   damaged_at(used + (live - used) / 2, " positions:", " position:"),
                                   damaged_at(used, "<19 x.65 @0>", "<19 y.65 @0>"), damaged_at(live, ":", ";"),
                                   second_block, second_header}) {
        std::string const one = read_with<hlomem::default_policy>(bad, 1);
        CHECK(one.rfind("error: dump.txt:", 0) == 0);
        for (std::size_t threads : {2, 5}) CHECK(read_with<hlomem::default_policy>(bad, threads) == one);
    }
}

namespace {

/// The threaded read of `text` on `threads` threads, with where its time went (and whether the
/// blocks joined in id order); "error" when it declined (the caller then reads the text whole).
std::string read_in_parts(std::string const& text, std::size_t threads, hlomem::parser::dump::read_statistics& stats) {
    auto ba = hlomem::parser::dump::read_in_parts<hlomem::default_policy>("dump.txt", text.data(), text.data() + text.size(),
                                                                          threads, &stats);
    return ba ? everything(*ba) : "error";
}

}  // namespace

TEST_CASE("blocks in id order join by id; any other order joins one by one, to the same model",
          "[buffer_assignment][threads]") {
    std::string const text = hlomem_test::read_data("seeds/000_5960cad812240b69.txt");
    auto const used = text.find("\nUsed values:\n");
    auto const live = text.find("\nHloLiveRange");
    REQUIRE(used != std::string::npos);
    REQUIRE(live != std::string::npos);
    // The first block (`<19 x.65 @0>`, the lowest id) and its value line.
    auto const first_block = text.find("\n<19 x.65 @0>\n", used) + 1;
    auto const first_block_end = text.find("\n<", first_block) + 1;
    auto const value_line = text.find(" value: <19 x.65 @0>");
    auto const value_line_end = text.find('\n', value_line) + 1;
    REQUIRE(first_block > used);
    REQUIRE(first_block_end > first_block);
    REQUIRE(value_line < used);
    std::string const block = text.substr(first_block, first_block_end - first_block);
    auto without = [](std::string t, std::size_t at, std::size_t to) { return t.erase(at, to - at); };
    // The lowest id's block moved after the others: out of id order.
    std::string const moved = [&] {
        std::string t = without(text, first_block, first_block_end);
        t.insert(live + 1 - block.size(), block);
        return t;
    }();
    struct variant {
        char const* what;
        std::string text;
        bool in_id_order;
    };
    // Value 575 (wrapped_concatenate, the first live range, after values without one) renamed
    // x.65 like value 19, and live ranges for y.66 and x.65 put first: on the threads the live
    // ranges, attached before the lookup by name exists, take y.66 and then the x.65 that follows
    // it (575), where the lookup gives the first x.65 (19). The check against the lookup must
    // catch it and attach them again.
    std::string const repeated_name = [&] {
        std::string t = text;
        for (std::size_t at; (at = t.find("<575 wrapped_concatenate @0>")) != std::string::npos;) {
            t.replace(at, 28, "<575 x.65 @0>");
        }
        t.insert(t.find("  BufferLiveRange:\n") + 19, "    y.66{}:0-1\n    x.65{}:0-1\n");
        return t;
    }();
    REQUIRE(repeated_name.find("wrapped_concatenate @0>") == std::string::npos);
    for (auto const& v : {variant{"as XLA wrote it", text, true}, variant{"a block out of id order", moved, false},
                          variant{"a value line without its block", without(text, first_block, first_block_end), false},
                          variant{"a block without its value line", without(text, value_line, value_line_end), true},
                          variant{"a value name repeated, live ranges out of step", repeated_name, true}}) {
        INFO(v.what);
        std::string const one = read_with<hlomem::default_policy>(v.text, 1);
        REQUIRE(one.rfind("error", 0) != 0);
        for (std::size_t threads : {2, 3, 9}) {
            INFO("threads " << threads);
            hlomem::parser::dump::read_statistics stats;
            CHECK(read_in_parts(v.text, threads, stats) == one);
            CHECK(stats.in_id_order == v.in_id_order);
            CHECK(stats.part_cpu_s.size() > threads);
        }
    }
}

TEST_CASE("the threaded read splits the live ranges off at the last HloLiveRange line", "[buffer_assignment][threads]") {
    std::string const text = hlomem_test::read_data("seeds/000_5960cad812240b69.txt");
    auto const live = text.find("\nHloLiveRange") + 1;
    auto const parts = hlomem::parser::dump::split_dump(text.data(), text.data() + text.size(), 4096);
    REQUIRE(parts.size() > 4);
    CHECK(parts.front().kind == hlomem::parser::dump::part_kind::allocations);
    CHECK(parts[1].kind == hlomem::parser::dump::part_kind::used_values_head);
    CHECK(parts.back().kind == hlomem::parser::dump::part_kind::live_range);
    CHECK(parts.back().first == text.data() + live);
    // The parts cover the text, in order, each after the first Used-values part at a block.
    for (std::size_t k = 1; k < parts.size(); ++k) {
        CHECK(parts[k].first == parts[k - 1].last);
        if (parts[k].kind == hlomem::parser::dump::part_kind::used_values) CHECK(*parts[k].first == '<');
    }
    CHECK(parts.back().last == text.data() + text.size());
    // A second HloLiveRange header among the blocks, or after the first: the one-thread error.
    auto const mid = text.find("\n<", text.find("\nUsed values:") + (live - text.find("\nUsed values:")) / 2) + 1;
    for (std::size_t at : {mid, text.find("\n  BufferLiveRange:", live) + 1}) {
        std::string bad = text;
        bad.insert(at, "HloLiveRange (max 166):\n");
        std::string const one = read_with<hlomem::default_policy>(bad, 1);
        CHECK(one.rfind("error: dump.txt:", 0) == 0);
        for (std::size_t threads : {2, 4}) CHECK(read_with<hlomem::default_policy>(bad, threads) == one);
    }
}

TEST_CASE("the lookup by name is the same built in pieces, duplicates included", "[buffer_assignment][threads]") {
    hlomem::buffer_assignment ba;
    // Two values of one name and index (a damaged dump): the lookup finds the first.
    for (std::int64_t id : {4, 7, 9, 12, 15}) {
        hlomem::logical_value v;
        v.id = id;
        v.name = id == 9 || id == 15 ? "fusion.3" : "add." + std::to_string(id);
        ba.values.push_back(v);
    }
    auto const run_all = [](std::size_t n, auto const& work) {
        for (std::size_t k = n; k-- > 0;) work(k);  // any order
    };
    for (std::size_t pieces : {1, 2, 3, 5, 9}) {
        INFO("pieces " << pieces);
        ba.reindex(pieces, run_all);
        CHECK(ba.value_index("fusion.3", {}) == 2);
        CHECK(ba.value_index("add.12", {}) == 3);
        CHECK(ba.value_index("add.5", {}) == hlomem::npos);
        CHECK(ba.values_of_instruction("fusion.3") == std::vector<std::size_t>{2, 4});
    }
}

TEST_CASE("the lookup by name merged in spans finds what the one-piece lookup finds", "[buffer_assignment][threads]") {
    // 997 values of 61 names, each name with several indices and some (name, index) repeated:
    // the pieces' merges are cut in spans that cross runs and repeated names.
    hlomem::buffer_assignment ba;
    for (std::int64_t i = 0; i < 997; ++i) {
        hlomem::logical_value v;
        v.id = i;
        v.name = "fusion." + std::to_string(i * 37 % 61);
        v.index = hlomem::shape_index{i % 3};
        ba.values.push_back(v);
    }
    auto const everything = [&] {
        std::vector<std::size_t> found;
        for (std::size_t n = 0; n < 62; ++n) {  // fusion.61 names no value
            std::string const name = "fusion." + std::to_string(n);
            for (std::size_t v : ba.values_of_instruction(name)) found.push_back(v);
            for (std::int64_t i = 0; i < 4; ++i) found.push_back(ba.value_index(name, hlomem::shape_index{i}));
        }
        return found;
    };
    ba.reindex();
    std::vector<std::size_t> const one = everything();
    REQUIRE(one.size() == 997 + 62 * 4);
    CHECK(one[0] == 0);  // fusion.0{0}: values 0, 61 (index 1), 122 (index 2), 183 (index 0), ...
    CHECK(ba.value_index("fusion.0", hlomem::shape_index{0}) == 0);
    CHECK(ba.value_index("fusion.0", hlomem::shape_index{1}) == 61);
    auto const run_all = [](std::size_t n, auto const& work) {
        for (std::size_t k = n; k-- > 0;) work(k);
    };
    for (std::size_t pieces : {2, 3, 4, 7, 16, 997, 2000}) {
        INFO("pieces " << pieces);
        ba.reindex(pieces, run_all);
        CHECK(everything() == one);
    }
}

TEST_CASE("live ranges attached without the lookup look ahead, and say which lines they guessed",
          "[buffer_assignment][threads]") {
    hlomem::buffer_assignment ba;
    for (char const* name : {"a", "b", "c", "a", "d"}) {
        hlomem::logical_value v;
        v.name = name;
        ba.values.push_back(v);
    }
    ba.reindex();
    hlomem::live_range_text live;
    for (char const* name : {"b", "a", "d", "e"}) {
        hlomem::buffer_live_range r;
        r.name = name;
        r.range = {1, 2};
        live.buffer_live_ranges.push_back(r);
    }
    std::size_t next = 0;
    std::vector<std::size_t> guessed;
    // b: not value 0, found ahead (1); a: not value 2, found ahead (3, where the lookup gives 0);
    // d: value 4, the one after; e: nowhere ahead: it stops there.
    CHECK(hlomem::attach_live_range_lines(ba, live, 0, next, false, &guessed) == 3);
    CHECK(guessed == std::vector<std::size_t>{0, 1});
    CHECK(live.buffer_live_ranges[1].value == 3);
    CHECK(ba.value_index("a", {}) == 0);
    CHECK(next == 5);
    // With the lookup, from the start: what attach_live_range gives.
    next = 0;
    CHECK(hlomem::attach_live_range_lines(ba, live, 0, next, true) == 4);
    CHECK(live.buffer_live_ranges[0].value == 1);
    CHECK(live.buffer_live_ranges[1].value == 0);
    CHECK(live.buffer_live_ranges[2].value == 4);
    CHECK(live.buffer_live_ranges[3].value == hlomem::npos);
}

TEST_CASE("the lookup by name of thousands of values, sorted by buckets of hashes, in pieces or not", "[buffer_assignment][threads]") {
    hlomem::buffer_assignment ba;
    // Three values of each name, their indices {2}, {1}, {0} in the order of the values; then one
    // name and index a second time (a damaged dump: the lookup finds the first).
    for (std::int64_t i = 0; i < 3000; ++i) {
        hlomem::logical_value v;
        v.id = i;
        v.name = "fusion." + std::to_string(i % 1000);
        v.index = hlomem::shape_index{2 - i / 1000};
        ba.values.push_back(v);
    }
    hlomem::logical_value twice;
    twice.id = 3000;
    twice.name = "fusion.7";
    twice.index = hlomem::shape_index{0};
    ba.values.push_back(twice);
    auto const run_all = [](std::size_t n, auto const& work) {
        for (std::size_t k = n; k-- > 0;) work(k);
    };
    for (std::size_t pieces : {1, 2, 3, 7}) {
        INFO("pieces " << pieces);
        ba.reindex(pieces, run_all);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < 3000; ++i) wrong += ba.value_index(ba.values[i].name, ba.values[i].index) != i;
        CHECK(wrong == 0);
        CHECK(ba.values_of_instruction("fusion.7") == std::vector<std::size_t>{2007, 3000, 1007, 7});
        CHECK(ba.value_index("fusion.1000", {}) == hlomem::npos);
    }
}
