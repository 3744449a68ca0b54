// Reading a buffer-assignment dump on several threads (parser/buffer_assignment.hpp,
// read_in_parts) must give exactly the model the one-thread read gives: every field, every line
// number, the shape table in the same order, and the same error for a damaged dump.
#include <catch2/catch.hpp>

#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>

#include <hlomem/hlomem.hpp>

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
