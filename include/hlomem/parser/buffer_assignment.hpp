// hlomem/parser/buffer_assignment.hpp: the Spirit X3 grammar for the `*-buffer-assignment.txt`
// dump XLA writes (BufferAssignment::ToString, ToVerboseString), with or without the HloLiveRange
// text appended (parser/live_range.hpp), and the entry point `try_parse_buffer_assignment`.
//
// The text is line-structured (docs/FORMATS.md 5): blanks between tokens are skipped, line ends
// are tokens, and every line must be one of the forms below; a line that fits none is an error at
// that line and column, never skipped.
//
//   BufferAssignment:
//   allocation 2: size 268435456, parameter 2, shape |f32[32,512,4096]| at ShapeIndex {}:
//    value: <151 param @0> (size=268435456,offset=0): f32[32,512,4096]{2,1,0:T(8,128)}
//   allocation 0: 0x27017c46b600, size 32768, maybe-live-out:          (legacy: an address)
//
//   Total bytes used: 2885767252 (2.69GiB)
//
//   Used values:
//   <130 param.2 @0>                                                   (or `<106 param.5{1} (phi) @0>`)
//    positions:
//     param.2                                                          (or `tuple.16 {0}`)
//    uses:                                                             (or ` uses are not initialized yet.`)
//     convert.1, operand 0                                             (or `while.2.0, operand 0 {1}`, `(none)`)
//    from instruction: %param.2 = f32[3584,4096]{1,0:T(8,128)} parameter(1), ...
//
//   HloLiveRange (max 80):                                             (parser/live_range.hpp)
//   ...
//
// Every shape (value lines, allocation headers, the defining instruction's result shape) is read
// into the model's shape table, each distinct text parsed once.
#ifndef HLOMEM_PARSER_BUFFER_ASSIGNMENT_HPP
#define HLOMEM_PARSER_BUFFER_ASSIGNMENT_HPP

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <cstring>
#if defined(__GLIBC__)
#include <string.h>  // memrchr
#endif
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#include <time.h>
#endif
#include <chrono>

#include <hlomem/detail/huge_pages.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/parser/allocation_header.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/dump_common.hpp>
#include <hlomem/parser/intern_shape.hpp>
#include <hlomem/parser/live_range.hpp>
#include <hlomem/parser/value_id_index.hpp>

namespace hlomem::parser {

namespace dump {

// ---------------------------------------------------------------------------------------------
// Attributes of the line rules
// ---------------------------------------------------------------------------------------------

/// `<150 all-gather.30{2} (phi) @0>`.
struct value_key {
    std::int64_t id = 0;
    std::string_view name;
    index_path index;
    bool index_printed = false;
    bool is_phi = false;
    std::optional<std::int64_t> color;
    char const* where = nullptr;
};

struct value_line {
    value_key key;
    std::int64_t size = 0;
    std::int64_t offset = 0;
    shape_id shape = no_shape;
};

/// `  tuple.16 {0}` under ` positions:`.
struct position_line {
    std::string_view name;
    index_path index;
    bool index_printed = false;
};

/// `  while.2.0, operand 0 {1}` under ` uses:`.
struct use_line {
    std::string_view name;
    std::int64_t operand = 0;
    index_path index;
    bool index_printed = false;
};

namespace a {

inline constexpr auto key_start = [](auto& ctx, auto&, char const* where) { x3::_val(ctx).where = where; };
inline constexpr auto key_index = [](auto& ctx, index_path& path, char const*) {
    x3::_val(ctx).index = std::move(path);
    x3::_val(ctx).index_printed = true;
};
inline constexpr auto key_phi = [](auto& ctx, auto&, char const*) { x3::_val(ctx).is_phi = true; };

// Builder calls: one per finished line.
inline constexpr auto on_allocation = [](auto& ctx, allocation_header& h, char const*) { builder(ctx).allocation(h); };
inline constexpr auto on_value_line = [](auto& ctx, value_line& v, char const*) { builder(ctx).value(v); };
inline constexpr auto on_used_values = [](auto& ctx, auto&, char const*) { builder(ctx).used_values(); };
inline constexpr auto on_block = [](auto& ctx, value_key& k, char const*) { builder(ctx).block(k); };
inline constexpr auto on_position = [](auto& ctx, position_line& p, char const*) { builder(ctx).position(p); };
inline constexpr auto on_use = [](auto& ctx, use_line& u, char const*) { builder(ctx).use(u); };
inline constexpr auto on_uses = [](auto& ctx, auto&, char const*) { builder(ctx).uses(uses_state::empty); };
inline constexpr auto on_uses_none = [](auto& ctx, auto&, char const*) { builder(ctx).uses(uses_state::none); };
inline constexpr auto on_uses_uninitialized = [](auto& ctx, auto&, char const*) {
    builder(ctx).uses(uses_state::not_initialized);
};
inline constexpr auto on_instruction = [](auto& ctx, std::string_view text, char const* where) {
    builder(ctx).instruction(text, where);
};

}  // namespace a

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

using x3::lit;

struct value_key_id;
struct value_line_id;
struct position_line_id;
struct use_line_id;
struct buffer_assignment_id;

inline constexpr x3::rule<value_key_id, value_key> value_key_rule{"a value such as <150 all-gather.30 @0>"};
inline constexpr x3::rule<value_line_id, value_line> value_line_rule{"a value line"};
inline constexpr x3::rule<position_line_id, position_line> position_line_rule{"a position"};
inline constexpr x3::rule<use_line_id, use_line> use_line_rule{"a use"};
inline constexpr x3::rule<buffer_assignment_id> buffer_assignment_rule{"a buffer assignment"};

// `<150 all-gather.30{2} (phi) @0>`: after '<' the rest must follow.
inline auto const value_key_rule_def = on_match(lit('<'), a::key_start) > on_match(uint64_, a::set_id) >
                                       on_match(name, a::set_name) > -on_match(index, a::key_index) >
                                       -on_match(lit("(phi)"), a::key_phi) > -(lit('@') > on_match(int64_, a::set_color)) >
                                       named("'>'", lit('>'));

// ` value: <171 convert.2 @0> (size=29360128,offset=0): bf16[4096,3584]{1,0:T(8,128)(2,1)}`
inline auto const value_line_rule_def = lit("value:") > on_match(value_key_rule, a::set_key) > '(' > lit("size=") >
                                        on_match(uint64_, a::set_size) > ',' > lit("offset=") >
                                        on_match(uint64_, a::set_offset) > ')' > ':' >
                                        on_match(named("a shape", shape), a::set_shape);

// Used values blocks.
// A position or use line is only handed to the builder once it has matched whole: `uses:` and
// `from instruction:` begin like names.
inline auto const position_line_rule_def = on_match(name, a::set_name) >> -on_match(index, a::set_printed_index) >> &eol;
inline auto const use_line_rule_def = (on_match(name, a::set_name) >> lit(',')) > lit("operand") >
                                      on_match(int64_, a::set_operand) > -on_match(index, a::set_printed_index);
inline auto const position_entry = on_match(position_line_rule, a::on_position) > eol;
inline auto const use_entry = on_match(use_line_rule, a::on_use) > eol;
inline auto const uses_part = (on_match(lit("uses are not initialized yet."), a::on_uses_uninitialized) > eol) |
                              (on_match(lit("uses:"), a::on_uses) > eol >
                               ((on_match(lit("(none)"), a::on_uses_none) > eol) | *use_entry));
// Older XLA wrote `from instruction:` without a space before the text; the blank skipper makes
// both read the same.
inline auto const value_block = on_match(value_key_rule, a::on_block) > eol > lit("positions:") > eol >
                                 *position_entry > named("' uses:' or a position", uses_part) >
                                 named("a use such as 'fusion.10, operand 2' or 'from instruction:'",
                                       lit("from instruction:")) >
                                 on_match(rest_of_line, a::on_instruction) > eol;
inline auto const used_values = on_match(lit("Used values:"), a::on_used_values) > eol > *(blank_lines >> value_block);

// A whole buffer-assignment dump.
inline auto const allocation_block = on_match(allocation_header_rule, a::on_allocation) > eol >
                                     *(on_match(value_line_rule, a::on_value_line) > eol);
inline auto const buffer_assignment_rule_def =
    blank_lines > named("'BufferAssignment:'", lit("BufferAssignment:")) > eol > *allocation_block > blank_lines >
    named("an allocation header, a value line, or 'Total bytes used:' after a blank line", total_line) > blank_lines >
    -used_values > blank_lines > -live_range_text > blank_lines >
    named("'Used values:', a Used-values block, 'HloLiveRange (max N):' or the end of the dump", end_of_input);

// `output_to_operand_aliasing={{1}: (0, {}), {2}: (1, {})}` inside a defining instruction's text.
struct alias_entry {
    index_path output;
    std::int64_t operand = 0;
    index_path operand_index;
};
inline constexpr auto alias_output = [](auto& ctx, index_path& p, char const*) {
    x3::_val(ctx).emplace_back();
    x3::_val(ctx).back().output = std::move(p);
};
inline constexpr auto alias_operand = [](auto& ctx, std::int64_t n, char const*) { x3::_val(ctx).back().operand = n; };
inline constexpr auto alias_operand_index = [](auto& ctx, index_path& p, char const*) {
    x3::_val(ctx).back().operand_index = std::move(p);
};
struct aliasing_id;
inline constexpr x3::rule<aliasing_id, std::vector<alias_entry>> aliasing_rule{"an output_to_operand_aliasing list"};
inline auto const alias_entry_def = on_match(index, alias_output) > ':' > '(' > on_match(uint64_, alias_operand) > ',' >
                                    on_match(index, alias_operand_index) > ')';
inline auto const aliasing_rule_def = lit('{') > -(alias_entry_def > *(',' > alias_entry_def)) > named("',' or '}'", lit('}'));

BOOST_SPIRIT_DEFINE(aliasing_rule)

BOOST_SPIRIT_DEFINE(value_key_rule, value_line_rule, position_line_rule, use_line_rule, buffer_assignment_rule)

// The parts of a dump that read apart (see read_in_parts below): together, in text order, they
// read what buffer_assignment_rule reads; each stops at the end of its part.
struct allocations_part_id;
struct used_values_head_part_id;
struct used_values_part_id;
struct live_range_part_id;
inline constexpr x3::rule<allocations_part_id> allocations_part_rule{"a buffer assignment"};
inline constexpr x3::rule<used_values_head_part_id> used_values_head_part_rule{"the Used values"};
inline constexpr x3::rule<used_values_part_id> used_values_part_rule{"Used-values blocks"};
inline constexpr x3::rule<live_range_part_id> live_range_part_rule{"the live ranges"};
inline auto const allocations_part_rule_def = blank_lines > named("'BufferAssignment:'", lit("BufferAssignment:")) > eol >
                                              *allocation_block > blank_lines > total_line > blank_lines > end_of_input;
inline auto const used_values_head_part_rule_def = used_values > blank_lines > end_of_input;
inline auto const used_values_part_rule_def = *(blank_lines >> value_block) > blank_lines > end_of_input;
inline auto const live_range_part_rule_def = live_range_text > blank_lines > end_of_input;
BOOST_SPIRIT_DEFINE(allocations_part_rule, used_values_head_part_rule, used_values_part_rule, live_range_part_rule)

// ---------------------------------------------------------------------------------------------
// The builder
// ---------------------------------------------------------------------------------------------

/// Reads a whole buffer-assignment dump.
template <class P>
struct buffer_assignment_builder : live_range_builder<P> {
    using base = builder_base<P>;
    basic_buffer_assignment<P>& ba;
    value_id_index by_id;  // value id -> index in ba.values
    std::size_t current = npos;                            // the value whose block is being read
    std::optional<basic_hlo_live_range<P>> live;

    buffer_assignment_builder(std::string_view f, char const* b, char const* e, basic_buffer_assignment<P>& target)
        : live_range_builder<P>(f, b, e, &live), ba(target), by_id(static_cast<std::size_t>(e - b)) {}

    /// Room for the values and allocations a text of `bytes` bytes may hold, reserved once: a
    /// vector grown by doubling moves every value at each step into pages touched for the first
    /// time (at 10^6 values, 300 MB more than the values' own 264 MB). A value takes some 250 bytes
    /// of a dump or more (its value line, its Used-values block and its live range: the generated
    /// dumps take 885, seeds 000, 002 and 003 take 825, 1,258 and 674), an allocation over 1,000
    /// with its value lines. The room beyond what the text fills must cost nothing: only a block
    /// that the C library maps on its own leaves its untouched pages out of memory (and unmaps it
    /// when freed), and glibc maps every block of 32 MiB or more (its largest mmap threshold). So a
    /// vector is reserved only where its block reaches that size; smaller ones, and a denser text,
    /// grow as they fill. Where even the address space is refused (a text near the machine's
    /// memory, with overcommit limited), the vectors grow as they fill too.
    static constexpr std::size_t mapped_block_bytes = std::size_t(32) << 20;
    void reserve_for(std::size_t bytes) {
        auto const reserve = [](auto& vector, std::size_t n) {
            if (n < mapped_block_bytes / sizeof(vector[0])) return;
            vector.reserve(n);
            // The block is mapped on its own, so huge pages serve it (detail/huge_pages.hpp):
            // 1/512 of the page faults as its values are written.
            detail::advise_huge_pages(vector.data(), vector.capacity() * sizeof(vector[0]));
        };
        try {
            reserve(ba.values, bytes / 256);
            reserve(value_lines, bytes / 256);
            reserve(ba.allocations, bytes / 1024);
        } catch (std::bad_alloc const&) {
        } catch (std::length_error const&) {
        }
    }

    basic_shape_table<P>& shapes() { return ba.shapes; }

    // The value lines of the allocation being read, moved into it once it ends (at the next header
    // and at `Total bytes used`): one allocation of the exact size each, not one per regrowth.
    typename P::template vector_type<std::size_t> pending_allocation_values;

    void end_allocation() {
        if (ba.allocations.empty() || pending_allocation_values.empty()) return;
        take_pending(ba.allocations.back().values, pending_allocation_values);
    }

    void allocation(allocation_header const& h) {
        end_allocation();
        basic_allocation<P> a;
        a.index = h.index;
        a.address = h.address;
        a.size = h.size;
        copy_flags<P>(a, h.flags);
        a.line = this->line_of(h.where);
        previous_line = a.line;
        ba.allocations.push_back(std::move(a));
    }

    /// A value line's fields, kept in text order until the allocations end (`Total bytes used`),
    /// when the values are made from them in id order (place_values): the value lines come
    /// allocation by allocation, in no id order, and the model holds its values in id order. Made
    /// in text order, every value (264 bytes) would move once more to its place, a random access
    /// each into some 250 MB at 10^6 values (an eighth of the parse); these records are a third of
    /// that, read once in id order and freed.
    struct value_line_record {
        std::int64_t id = 0;
        typename P::string_type name;
        basic_shape_index<P> index;
        std::optional<std::int64_t> color;
        std::size_t allocation = npos;
        std::int64_t offset = 0;
        std::int64_t size = 0;
        std::size_t line = 0;
        shape_id shape = no_shape;
        bool index_printed = false;
        bool is_phi = false;
    };
    // The line of the allocation header or value line read last (0 once the allocations end).
    std::size_t previous_line = 0;
    // Until place_values, by_id gives an index into value_lines; then, into ba.values.
    std::vector<value_line_record> value_lines;
    bool values_placed = false;

    /// Makes the values of the value lines read so far, in id order, before any other value (a
    /// block's) exists; renumbers the allocations' values and by_id. Once, at `Total bytes used`.
    void place_values() {
        if (values_placed) return;
        values_placed = true;
        if (value_lines.empty()) return;
        std::vector<std::size_t> const order = by_id.in_id_order();
        std::vector<std::size_t> new_index(value_lines.size());
        ba.values.reserve(ba.values.size() + order.size());
        for (std::size_t from : order) {
            auto& r = value_lines[from];
            new_index[from] = ba.values.size();
            auto& v = ba.values.emplace_back();
            v.id = r.id;
            v.name = std::move(r.name);
            v.index = std::move(r.index);
            v.color = r.color;
            v.allocation = r.allocation;
            v.offset = r.offset;
            v.size = r.size;
            v.line = r.line;
            v.shape = r.shape;
            v.index_printed = r.index_printed;
            v.is_phi = r.is_phi;
        }
        for (auto& a : ba.allocations) {
            for (auto& vi : a.values) vi = new_index[vi];
        }
        by_id.renumber(new_index);
        value_lines = {};
    }

    /// A builder that reads only Used-values blocks (a part of them, read_in_parts: ids_ascending)
    /// meets their ids in increasing order (XLA's), so a block names a new value exactly when its
    /// id exceeds the last one: by_id stays empty (its table would span some five ids a block)
    /// until an id breaks that order, when it takes the values read so far and works as always.
    std::size_t value_for(value_key const& k) {
        if (ids_ascending) {
            if (k.id > last_id) {
                last_id = k.id;
                return new_value(k);
            }
            ids_ascending = false;
            for (std::size_t i = first_value; i < ba.values.size(); ++i) by_id.emplace(ba.values[i].id, i);
        }
        auto const [index, inserted] = by_id.emplace(k.id, ba.values.size());
        if (inserted) new_value(k);
        return index;
    }
    /// A value made from a block's key (`<19 x.65 @0>`), where no value line made it; its index.
    std::size_t new_value(value_key const& k) {
        basic_logical_value<P> v;
        v.id = k.id;
        v.name = base::str(k.name);
        v.index = base::to_index(k.index);
        v.index_printed = k.index_printed;
        v.is_phi = k.is_phi;
        v.color = k.color;
        ba.values.push_back(std::move(v));
        return ba.values.size() - 1;
    }

    void value(value_line const& line) {
        auto const [i, inserted] = by_id.emplace(line.key.id, value_lines.size());
        if (!inserted) {
            auto const& seen = value_lines[i];
            throw failure(line.key.where, "value " + std::to_string(line.key.id) + " is already assigned to allocation " +
                                              std::to_string(ba.allocations[seen.allocation].index) + " on line " +
                                              std::to_string(seen.line));
        }
        auto& r = value_lines.emplace_back();
        r.id = line.key.id;
        r.name = base::str(line.key.name);
        r.index = base::to_index(line.key.index);
        r.index_printed = line.key.index_printed;
        r.is_phi = line.key.is_phi;
        r.color = line.key.color;
        r.allocation = ba.allocations.size() - 1;
        r.offset = line.offset;
        r.size = line.size;
        r.shape = line.shape;
        // A value line follows its allocation's header or the value line before it, one line end
        // apart (allocation_block): it is the line after that one, and the count goes on from here.
        if (previous_line != 0) {
            r.line = previous_line + 1;
            this->start_lines_at(line.key.where, r.line);
        } else {
            r.line = this->line_of(line.key.where);
        }
        previous_line = r.line;
        pending_allocation_values.push_back(i);
    }

    /// `HloLiveRange (max N):`. The `BufferLiveRange:` lines that follow are about as many as the
    /// value lines read before them (seed 000: 132 for 135 values; the generated dumps: 9,900 for
    /// 10,125), so that many are reserved; more grow the vector past it as before. A builder that
    /// reads the live ranges without the value lines (read_in_parts) reserves `live_ranges_hint`.
    void live_range(std::int64_t max, char const* where) {
        live_range_builder<P>::live_range(max, where);
        auto& ranges = live->buffer_live_ranges;
        ranges.reserve(std::max(ba.values.size(), live_ranges_hint));
        if (ranges.capacity() * sizeof(ranges[0]) >= mapped_block_bytes) {
            detail::advise_huge_pages(ranges.data(), ranges.capacity() * sizeof(ranges[0]));
        }
    }

    void total(std::int64_t n) {
        previous_line = 0;
        end_allocation();
        place_values();
        ba.stated_total_bytes = n;
    }
    void total_human(std::string_view s) { ba.stated_total_human = base::str(s); }
    void used_values() { ba.has_used_values = true; }

    void block(value_key const& k) {
        current = value_for(k);
        auto& v = ba.values[current];
        if (v.has_block) throw failure(k.where, "a second Used-values block for value " + std::to_string(k.id));
        // Compared in place: a block of a tuple's element (`<7 tuple.3{1} @0>`) would otherwise
        // allocate an index only to compare it.
        bool const same_index = std::equal(v.index.begin(), v.index.end(), k.index.begin(), k.index.end());
        if (std::string_view(v.name) != k.name || !same_index) {
            throw failure(k.where, "value " + std::to_string(k.id) + " is " + std::string(std::string_view(v.name)) +
                                       to_string(v.index) + " on its value line but " + std::string(k.name) +
                                       to_string(base::to_index(k.index)) + " here");
        }
        v.has_block = true;
        v.block_line = this->line_of(k.where);
    }
    // A block's positions and uses are gathered here and copied into the value once their count
    // is known (at ` uses:` and at `from instruction:`): one allocation each, not one per regrowth.
    typename P::template vector_type<basic_hlo_position<P>> pending_positions;
    typename P::template vector_type<basic_hlo_use<P>> pending_uses;

    void position(position_line const& p) {
        pending_positions.push_back(basic_hlo_position<P>{base::str(p.name), base::to_index(p.index), p.index_printed});
    }
    void uses(uses_state s) {
        auto& v = ba.values[current];
        v.uses_as_printed = s;
        take_pending(v.positions, pending_positions);
    }
    void use(use_line const& u) {
        pending_uses.push_back(basic_hlo_use<P>{base::str(u.name), u.operand, base::to_index(u.index), u.index_printed});
        ba.values[current].uses_as_printed = uses_state::listed;
    }
    template <class Vector>
    static void take_pending(Vector& into, Vector& pending) {
        if (pending.empty()) return;
        into.reserve(into.size() + pending.size());
        for (auto& e : pending) into.push_back(std::move(e));
        pending.clear();
    }

    /// `%name = SHAPE opcode(...)`: keeps the text and reads the result shape.
    void instruction(std::string_view text, char const* where) {
        auto& v = ba.values[current];
        // The block's lines are known from what it held: `<id name @c>`, ` positions:`, a line per
        // position, ` uses:` (or `uses are not initialized yet.`), ` (none)` when printed, a line
        // per use, then this one; each rule of the block ends with exactly one line end. So the
        // line count goes on from the end of this line (the start of the next block) instead of
        // searching every byte of the block, whose instruction text rest_of_line has just
        // searched for its line end: at 10^6 values a third of the parse's memchr.
        std::size_t const line = v.block_line + 3 + v.positions.size() + pending_uses.size() +
                                 (v.uses_as_printed == uses_state::none ? 1 : 0);
        this->start_lines_at(text.data() + text.size(), line);
        take_pending(v.uses, pending_uses);
        v.instruction_text = base::str(text);
        v.instruction_text_spaced = where > this->text_begin() && (where[-1] == ' ' || where[-1] == '\t');
        auto const eq = text.find(" = ");
        if (eq == std::string_view::npos) {
            throw failure(where, "expected the defining instruction as '%name = shape opcode(...)'",
                          "the defining instruction");
        }
        char const* p = text.data() + eq + 3;
        char const* const end = text.data() + text.size();
        while (p < end && *p == ' ') ++p;
        v.instruction_shape = intern_shape(ba.shapes, p, end, this->file(), this->text_begin());
        // The opcode follows the shape: `... = f32[8]{0} fusion(...)`.
        while (p < end && *p == ' ') ++p;
        char const* op_end = p;
        while (op_end < end && ((*op_end >= 'a' && *op_end <= 'z') || (*op_end >= '0' && *op_end <= '9') || *op_end == '-')) {
            ++op_end;
        }
        v.instruction_opcode = base::str(std::string_view(p, static_cast<std::size_t>(op_end - p)));
        // Two attributes matter: `, kind=kLoop` and `output_to_operand_aliasing={...}`. Both end
        // with '=', which is rare in an instruction's text, so one scan from '=' to '=' finds the
        // first occurrence of each (searching for each text stopped at every ',' and 'o').
        static constexpr std::string_view kind = ", kind=";
        static constexpr std::string_view aliasing = "output_to_operand_aliasing=";
        char const* kind_at = nullptr;
        char const* aliasing_at = nullptr;
        for (char const* q = op_end; q < end && !(kind_at && aliasing_at);) {
            auto const* sign = static_cast<char const*>(std::memchr(q, '=', static_cast<std::size_t>(end - q)));
            if (!sign) break;
            auto const ends_here = [&](std::string_view s) {
                return static_cast<std::size_t>(sign + 1 - op_end) >= s.size() &&
                       std::string_view(sign + 1 - s.size(), s.size()) == s;
            };
            if (!kind_at && ends_here(kind)) kind_at = sign + 1;
            if (!aliasing_at && ends_here(aliasing)) aliasing_at = sign + 1;
            q = sign + 1;
        }
        if (kind_at) {
            char const* to = kind_at;
            while (to < end && ((*to >= 'a' && *to <= 'z') || (*to >= 'A' && *to <= 'Z'))) ++to;
            v.fusion_kind = base::str(std::string_view(kind_at, static_cast<std::size_t>(to - kind_at)));
        }
        if (aliasing_at) {
            char const* first = aliasing_at;
            std::vector<alias_entry> entries;
            parse_state state;
            x3::phrase_parse(first, end, x3::with<state_tag>(state)[x3::eps > aliasing_rule], blank_skipper, entries);
            for (auto const& e : entries) {
                v.output_to_operand_aliasing.push_back(
                    basic_operand_alias<P>{base::to_index(e.output), e.operand, base::to_index(e.operand_index)});
            }
        }
    }

    /// Moves every line number this builder gave by `by`: it read a part of a text that starts
    /// after `by` lines (read_in_parts). Every field that line_of() sets is here.
    void shift_lines(std::size_t by) {
        auto const shift = [by](std::size_t& line) {
            if (line != 0) line += by;
        };
        for (auto& a : ba.allocations) shift(a.line);
        for (auto& v : ba.values) {
            shift(v.line);
            shift(v.block_line);
        }
        if (!live) return;
        shift(live->line);
        for (auto& r : live->buffer_live_ranges) shift(r.line);
        if (auto& peak = live->stated_peak) {
            shift(peak->line);
            for (auto& e : peak->entries) shift(e.line);
            for (auto& n : peak->stack_trace) shift(n.line);
        }
    }

    /// Takes in what `part` read from a later part of the same text: its shapes, the Used-values
    /// blocks of values this builder knows (and the values it does not), its live ranges. False
    /// where the whole text would not read: a second block for a value, a block that names a
    /// value otherwise than its value line (read_in_parts then reads the text whole, for the error).
    bool merge(buffer_assignment_builder& part) {
        auto& other = part.ba;
        std::vector<shape_id> const shape_ids = ba.shapes.merge(other.shapes);
        auto const ours = [&](shape_id id) { return id == no_shape ? id : shape_ids[id]; };
        for (auto& pv : other.values) {
            pv.instruction_shape = ours(pv.instruction_shape);
            pv.shape = ours(pv.shape);
            auto const [i, inserted] = by_id.emplace(pv.id, ba.values.size());
            if (inserted) {
                ba.values.push_back(std::move(pv));
                continue;
            }
            auto& v = ba.values[i];
            if (!pv.has_block) continue;
            if (v.has_block || std::string_view(v.name) != std::string_view(pv.name) || v.index != pv.index) return false;
            take_block(v, pv);
        }
        ba.has_used_values = ba.has_used_values || other.has_used_values;
        if (part.live) live = std::move(part.live);
        return true;
    }

    /// What a value's Used-values block gave `from` (read apart from its value line), moved into `v`.
    static void take_block(basic_logical_value<P>& v, basic_logical_value<P>& from) {
        v.has_block = true;
        v.block_line = from.block_line;
        v.positions = std::move(from.positions);
        v.uses = std::move(from.uses);
        v.uses_as_printed = from.uses_as_printed;
        v.instruction_text = std::move(from.instruction_text);
        v.instruction_text_spaced = from.instruction_text_spaced;
        v.instruction_shape = from.instruction_shape;
        v.instruction_opcode = std::move(from.instruction_opcode);
        v.fusion_kind = std::move(from.fusion_kind);
        v.output_to_operand_aliasing = std::move(from.output_to_operand_aliasing);
    }

    /// Sorts values by id (XLA's canonical order) and attaches the live ranges.
    void finish() {
        end_allocation();
        place_values();
        std::vector<std::size_t> const order = by_id.in_id_order();
        std::vector<std::size_t> new_index(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) new_index[order[i]] = i;
        // The values move to their places in id order along the cycles of the permutation, in
        // the vector they are in: a second vector of every value would be as large again, its
        // pages touched for the first time (at 10^5 values, 30 MB of page faults).
        std::vector<bool> placed(order.size(), false);
        for (std::size_t start = 0; start < order.size(); ++start) {
            if (placed[start] || order[start] == start) continue;
            basic_logical_value<P> held = std::move(ba.values[start]);
            std::size_t to = start;
            for (std::size_t from = order[to]; from != start; from = order[to]) {
                ba.values[to] = std::move(ba.values[from]);
                placed[to] = true;
                to = from;
            }
            ba.values[to] = std::move(held);
            placed[to] = true;
        }
        for (auto& a : ba.allocations) {
            for (auto& vi : a.values) vi = new_index[vi];
        }
        ba.reindex();
        if (live) attach_live_range(ba, std::move(*live));
    }

    // What read_in_parts sets for a builder of one part (value_for, live_range). Last in the
    // struct: placed among the members above, they moved the hot ones and cost the one-thread
    // read some 2% (10^5-value dump, fastest of four: 136.2 ms without them, 138.9 among the
    // others, 136.7 here).
    bool ids_ascending = false;
    std::int64_t last_id = -1;
    std::size_t first_value = 0;  ///< where this builder's values start in ba.values
    std::size_t live_ranges_hint = 0;
};

// ---------------------------------------------------------------------------------------------
// Reading a large dump on several threads
// ---------------------------------------------------------------------------------------------
//
// A dump's sections are independent until the end: the allocations (with their value lines and
// `Total bytes used`), the `Used values:` blocks, and the HloLiveRange text. The blocks, some
// three quarters of a dump's bytes, split further at any line that starts with '<' (only a
// block's first line does: `<19 x.65 @0>`). Each part is read by its own builder into a model of
// its own, on the threads (the blocks' values into one vector a thread, block_store); the longest
// parts go first (the allocations, then the live ranges), so that the threads finish together.
// Line numbers are counted within each part and moved by the lines of the parts before it. Then
// the parts become one model, equal to the one-thread read:
//
//  - the shape tables are merged in text order (the whole text would have interned them so);
//  - XLA prints the Used-values blocks in value-id order (BufferAssignment::ToVerboseString walks
//    HloAliasAnalysis's values, sorted by id), one block per value line. When the parts' blocks
//    are so, the blocks already are the model's values in id order: each thread joins its parts'
//    blocks to their value lines (found by id) in their final places, and nothing is sorted.
//    Where every value line has its block, block j of part k is the value made from value line
//    offset[k] + j, into which the block's fields move; otherwise the blocks move to their
//    places and take their value lines' fields;
//  - a dump whose blocks are out of order, or a value line without a block, takes the general
//    merge instead (each part's values joined one by one, then sorted by id: `merge`, `finish`);
//  - the lookup by name is sorted in pieces and merged on the threads; meanwhile one thread frees
//    the parts and another attaches the live ranges (in XLA's order they need no lookup).
//
// Any part that fails to read, or parts that disagree (a block that names its value otherwise
// than its value line, a value with two blocks), make the whole text read on one thread, for
// the error the one-thread read gives.

/// One part of a dump: the rule that reads it, its text, and the line it starts on.
enum class part_kind : std::uint8_t { allocations, used_values_head, used_values, live_range };
struct dump_part {
    part_kind kind;
    char const* first;
    char const* last;
};

/// The first line of [from, end) that starts with `head`: its first character, or nullptr.
inline char const* find_line_start(char const* from, char const* begin, char const* end, std::string_view head) {
    std::string_view const text(from, static_cast<std::size_t>(end - from));
    for (std::size_t at = text.find(head); at != std::string_view::npos; at = text.find(head, at + 1)) {
        char const* const p = from + at;
        if (p == begin || p[-1] == '\n') return p;
    }
    return nullptr;
}

/// The last `c` in [from, to), or nullptr: glibc's memrchr where there is one.
inline char const* find_last_of(char const* from, char const* to, char c) {
#if defined(__GLIBC__)
    return static_cast<char const*>(::memrchr(from, c, static_cast<std::size_t>(to - from)));
#else
    while (to > from) {
        if (*--to == c) return to;
    }
    return nullptr;
#endif
}

/// The last line of [from, end) that starts with `head`, searched from the end: its first
/// character, or nullptr.
inline char const* find_last_line_start(char const* from, char const* begin, char const* end, std::string_view head) {
    for (char const* p = end; p > from;) {
        char const* const found = find_last_of(from, p, head.front());
        if (!found) return nullptr;
        if ((found == begin || found[-1] == '\n') && static_cast<std::size_t>(end - found) >= head.size() &&
            std::string_view(found, head.size()) == head) {
            return found;
        }
        p = found;
    }
    return nullptr;
}

/// The parts of the dump [begin, end), about `target` bytes each where the blocks allow; empty
/// when the text has no `Used values:` section (then it reads whole). The live ranges are found
/// from the end: they follow the blocks, and are a small part of a dump. A text with a line that
/// starts with `HloLiveRange` among its blocks splits there, and that part then fails to read as
/// blocks: the whole text is read instead, and gives the same model or error as always.
inline std::vector<dump_part> split_dump(char const* begin, char const* end, std::size_t target) {
    std::vector<dump_part> parts;
    char const* const used = find_line_start(begin, begin, end, "Used values:");
    if (!used) return parts;
    char const* const live = find_last_line_start(used, begin, end, "HloLiveRange");
    char const* const used_end = live ? live : end;
    parts.push_back({part_kind::allocations, begin, used});
    char const* first = used;
    while (first < used_end) {
        char const* last = used_end;
        if (static_cast<std::size_t>(used_end - first) > target + target / 2) {
            // The next block after `first + target`: a line that starts with '<'.
            char const* p = first + target;
            last = nullptr;
            while (p < used_end) {
                p = static_cast<char const*>(std::memchr(p, '\n', static_cast<std::size_t>(used_end - p)));
                if (!p || ++p >= used_end) break;
                if (*p == '<') {
                    last = p;
                    break;
                }
            }
            if (!last) last = used_end;
        }
        parts.push_back({first == used ? part_kind::used_values_head : part_kind::used_values, first, last});
        first = last;
    }
    if (live) parts.push_back({part_kind::live_range, live, end});
    return parts;
}

/// The id of the first block of a part of the Used-values blocks (`<19 x.65 @0>`), or 0.
inline std::int64_t first_block_id(dump_part const& part) {
    char const* p = part.first;
    if (part.kind == part_kind::used_values_head) {
        p = static_cast<char const*>(std::memchr(p, '<', static_cast<std::size_t>(part.last - p)));
        if (!p) return 0;
    }
    if (part.kind != part_kind::used_values && part.kind != part_kind::used_values_head) return 0;
    std::int64_t id = 0;
    if (p + 1 >= part.last || std::from_chars(p + 1, part.last, id).ec != std::errc()) return 0;
    return id;
}

/// Dumps from this size on are read on several threads when the process may use several
/// processors: below it, starting threads costs about what they save.
inline constexpr std::size_t threaded_read_bytes = std::size_t(4) << 20;

/// How many threads reading a dump may use: the processors this process may run on.
inline std::size_t available_threads() {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<std::size_t>(std::max(1, CPU_COUNT(&set)));
#endif
    return std::max(1u, std::thread::hardware_concurrency());
}

/// Runs `work(k, worker)` for k in [0, n) on `threads` threads (this one among them, worker 0;
/// the others 1, 2, ..., below `threads`).
template <class Work>
void for_each_on_workers(std::size_t n, std::size_t threads, Work const& work) {
    std::atomic<std::size_t> next{0};
    auto worker = [&](std::size_t w) {
        for (std::size_t k; (k = next.fetch_add(1)) < n;) work(k, w);
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < std::min(threads, n); ++t) {
        try {
            pool.emplace_back(worker, t);
        } catch (std::system_error const&) {
            break;  // no more threads to be had: those running (and this one) do the rest
        }
    }
    worker(0);
    for (auto& t : pool) t.join();
}

/// Runs `work(k)` for k in [0, n) on `threads` threads (this one among them).
template <class Work>
void for_each_on_threads(std::size_t n, std::size_t threads, Work const& work) {
    for_each_on_workers(n, threads, [&](std::size_t k, std::size_t) { work(k); });
}

/// Seconds on this thread's processor clock (the wall clock where there is none).
inline double thread_seconds() {
#if defined(__linux__)
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
#else
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

/// Seconds on the wall clock.
inline double wall_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Where a threaded read spends its time (benchmarks/measure_parse.cpp asks for it). Each step
/// has its wall time and the processor time of the threads that ran it (thread clocks, summed).
/// The steps: finding the parts (one thread), reading the parts (all), joining them (all, but
/// for the shapes), and the end (the lookup by name and the live ranges on all; on one, the live
/// ranges that need the lookup).
struct read_statistics {
    struct step {
        double wall_s = 0;
        double cpu_s = 0;
    };
    step split, parts, merge, finish;
    double merge_serial_s = 0;   ///< of merge: on one thread (the plan's checks, the shapes)
    double finish_serial_s = 0;  ///< of finish: on one thread (live ranges out of XLA's order, which need the lookup)
    std::vector<double> part_cpu_s;
    bool in_id_order = false;  ///< the blocks were in id order (the fast join), not merged one by one
};

/// Times one step: its wall time, and adds to its processor time as each thread reports.
class step_timer {
public:
    explicit step_timer(read_statistics::step* s) : step_(s), wall_(s ? wall_seconds() : 0) {}
    void stop() {
        if (step_) step_->wall_s = wall_seconds() - wall_;
    }
    /// Runs `f` on this thread, adding its processor time to the step's.
    template <class F>
    void count(F&& f) {
        double const start = step_ ? thread_seconds() : 0;
        f();
        if (step_) {
            double const spent = thread_seconds() - start;
            std::lock_guard<std::mutex> lock(mutex_);
            step_->cpu_s += spent;
        }
    }

private:
    read_statistics::step* step_;
    double wall_;
    std::mutex mutex_;
};

/// The values the parts of the Used-values blocks read: each worker thread appends the blocks of
/// every part it reads to one vector of its own, and each part's blocks are a span of it. One
/// vector a thread rather than one a part: in a large dump each is a block the C library maps on
/// its own, reserved once for the thread's share of the blocks and advised for huge pages, whose
/// first, unaligned 2 MiB stay in small pages (some 250 page faults a vector); with one a part
/// that was a fifth of the threaded read's page faults, and as many blocks to unmap at the end.
template <class P>
struct block_store {
    using values_type = typename P::template vector_type<basic_logical_value<P>>;
    struct span {
        std::size_t worker = 0, first = 0, last = 0;
    };
    std::vector<values_type> by_worker;
    std::vector<span> of_part;
    block_store(std::size_t workers, std::size_t parts) : by_worker(workers), of_part(parts) {}

    basic_logical_value<P>* begin(std::size_t part) { return by_worker[of_part[part].worker].data() + of_part[part].first; }
    std::size_t size(std::size_t part) const { return of_part[part].last - of_part[part].first; }

    /// Room in `worker`'s vector for the blocks of `bytes` bytes of text, reserved once: a block
    /// takes 4 lines at least, and XLA's some 100 bytes at least (`<19 x.65 @0>`, ` positions:`,
    /// ` uses:`, `from instruction: ...`). Only the pages filled are touched; where the address
    /// space is refused, the vector grows as it fills. A block the C library maps on its own is
    /// advised for huge pages, as the one-thread read's (reserve_for).
    void reserve(std::size_t worker, std::size_t bytes) {
        auto& values = by_worker[worker];
        if (values.capacity() != 0) return;
        try {
            values.reserve(bytes / 100 + 1);
            std::size_t const reserved = values.capacity() * sizeof(values[0]);
            if (reserved >= buffer_assignment_builder<P>::mapped_block_bytes) detail::advise_huge_pages(values.data(), reserved);
        } catch (std::bad_alloc const&) {
        } catch (std::length_error const&) {
        }
    }
    /// Gives `model` the values of `part`, for the general merge, which joins whole part models.
    void give_back(std::size_t part, values_type& model) {
        basic_logical_value<P>* const b = begin(part);
        model.assign(std::make_move_iterator(b), std::make_move_iterator(b + size(part)));
    }
};

/// How the parts join in id order (the fast join, see above), when the blocks come in id order
/// and every value line has its block: where each block part's values start in the model, and
/// which value line (an index into the first part's values) each place joins, and back.
struct id_order_plan {
    std::vector<std::size_t> offset;         // per part: where its blocks go
    std::vector<std::size_t> new_index;      // per value line: its place in the model
    std::vector<std::size_t> line_of_block;  // per place in the model: its value line, or npos
    std::size_t size = 0;                    // values in the model (blocks)
};

/// The plan for joining `models` (index 0: the allocations part) in id order, or nullopt when
/// the blocks are out of id order, a value line has no block, or a block names its value
/// otherwise than the value line (for that error the whole text is read). Looks up every
/// block's id on the threads.
template <class P>
std::optional<id_order_plan> plan_id_order(basic_buffer_assignment<P> const& first, block_store<P>& store,
                                           value_id_index& by_id, std::size_t threads, step_timer& timer) {
    std::size_t const n = store.of_part.size();
    id_order_plan plan;
    plan.offset.assign(n, 0);
    // The parts' id ranges (first block to last) must follow each other; within them the
    // threads check each part's order, so no two parts name one value line.
    std::int64_t last_id = -1;
    for (std::size_t k = 1; k < n; ++k) {
        std::size_t const size = store.size(k);
        plan.offset[k] = plan.size;
        plan.size += size;
        if (size == 0) continue;
        auto const* const blocks = store.begin(k);
        if (blocks[0].id <= last_id || blocks[size - 1].id < blocks[0].id) return std::nullopt;
        last_id = blocks[size - 1].id;
    }
    auto const& lines = first.values;
    plan.new_index.assign(lines.size(), npos);
    plan.line_of_block.assign(plan.size, npos);
    std::vector<char> usable(n, 1);
    std::vector<std::size_t> joined(n, 0);
    for_each_on_threads(n - 1, threads, [&](std::size_t part) {
        timer.count([&] {
            std::size_t const k = part + 1;
            auto const* const blocks = store.begin(k);
            for (std::size_t j = 0; j < store.size(k); ++j) {
                auto const& v = blocks[j];
                if (j > 0 && v.id <= blocks[j - 1].id) {
                    usable[k] = 0;
                    return;
                }
                std::size_t const from = by_id.find(v.id);
                if (from == npos) continue;
                // The one-thread read checks this as it meets the block (builder::block).
                auto const& line = lines[from];
                if (std::string_view(line.name) != std::string_view(v.name) || line.index != v.index) {
                    usable[k] = 0;
                    return;
                }
                plan.new_index[from] = plan.offset[k] + j;
                plan.line_of_block[plan.offset[k] + j] = from;
                ++joined[k];
            }
        });
    });
    std::size_t total_joined = 0;
    for (std::size_t k = 1; k < n; ++k) {
        if (!usable[k]) return std::nullopt;
        total_joined += joined[k];
    }
    if (total_joined != lines.size()) return std::nullopt;
    return plan;
}

/// What a value line gives a value beyond its name and index (which its block repeats).
struct value_line_fields {
    std::size_t allocation;
    std::int64_t offset;
    std::int64_t size;
    std::int64_t color;
    std::size_t line;
    shape_id shape;
    bool has_color;
    bool index_printed;
    bool is_phi;
};

/// The dump [begin, end) read in parts on `threads` threads; nullopt when any part fails to read
/// or the parts disagree (the caller reads it whole, for the error the whole text gives). `stats`,
/// when given, receives where the time went.
template <class P>
std::optional<basic_buffer_assignment<P>> read_in_parts(std::string_view file, char const* begin, char const* end,
                                                        std::size_t threads, read_statistics* stats = nullptr) {
    step_timer split_timer(stats ? &stats->split : nullptr);
    std::vector<dump_part> parts;
    // Eight parts a thread: the last part to finish then leaves the other threads idle briefly.
    split_timer.count([&] { parts = split_dump(begin, end, static_cast<std::size_t>(end - begin) / (8 * threads) + 1); });
    split_timer.stop();
    if (stats) stats->part_cpu_s.assign(parts.size(), 0);
    if (parts.size() < 2) return std::nullopt;

    step_timer parts_timer(stats ? &stats->parts : nullptr);
    std::vector<basic_buffer_assignment<P>> models(parts.size());
    std::vector<std::size_t> line_ends(parts.size(), 0);  // line ends in each part
    std::vector<std::optional<buffer_assignment_builder<P>>> builders(parts.size());
    std::vector<char> failed(parts.size(), 0);
    // The longest parts first, so that what is left at the end is the blocks' parts, each about
    // as short as another: the allocations with their value lines (in the generated dumps, 42 ms of
    // the 120 ms the parts take at 10^5 values, for 14% of the text), then the live ranges (12 ms;
    // taken last, as in text order, they kept one thread busy while the other stood idle), then the
    // blocks in text order.
    std::vector<std::size_t> order(parts.size());
    for (std::size_t k = 0; k < parts.size(); ++k) order[k] = k;
    if (parts.back().kind == part_kind::live_range) std::rotate(order.begin() + 1, order.end() - 1, order.end());
    block_store<P> store(threads, parts.size());
    std::size_t const block_bytes = static_cast<std::size_t>(
        (parts.back().kind == part_kind::live_range ? parts.back().first : end) - parts[1].first);
    for_each_on_workers(parts.size(), threads, [&](std::size_t task, std::size_t worker) {
        std::size_t const k = order[task];
        auto const& part = parts[k];
        double const part_start = stats ? thread_seconds() : 0;
        parts_timer.count([&] {
            try {
                auto& b = builders[k].emplace(file, begin, end, models[k]);
                // The first part's table is the one every value ends in; the others hold their blocks'.
                if (k > 0) {
                    b.by_id = value_id_index(static_cast<std::size_t>(part.last - part.first), first_block_id(part));
                    b.ids_ascending = true;
                }
                // The value lines' values reserved by the one-thread read's rule, for the whole text:
                // grown by doubling, they would be moved at each step into pages touched afresh,
                // on the longest part.
                if (part.kind == part_kind::allocations) b.reserve_for(static_cast<std::size_t>(end - begin));
                // The live ranges without the value lines (read by the first part meanwhile): room for
                // as many as the part's lines may hold (`    x{}:0-1`, 12 bytes at least), which
                // grown by doubling touched 18 MB of fresh pages at 10^5 values, for 7 MB of ranges.
                if (part.kind == part_kind::live_range) b.live_ranges_hint = static_cast<std::size_t>(part.last - part.first) / 12;
                // A part of the blocks appends to its worker's vector (block_store), lent to its
                // model while it reads.
                bool const blocks = part.kind == part_kind::used_values || part.kind == part_kind::used_values_head;
                auto& values = store.by_worker[worker];
                if (blocks) {
                    // A worker reads about its share of the blocks; twice that, so that one that
                    // takes more (another thread held up) seldom regrows. With two threads, all.
                    store.reserve(worker, 2 * block_bytes / threads);
                    store.of_part[k] = {worker, values.size(), values.size()};
                    b.first_value = values.size();
                    models[k].values.swap(values);
                }
                b.start_lines_at(part.first, 1);
                try {
                    switch (part.kind) {
                        case part_kind::allocations: run(b, allocations_part_rule, part.first, part.last); break;
                        case part_kind::used_values_head: run(b, used_values_head_part_rule, part.first, part.last); break;
                        case part_kind::used_values: run(b, used_values_part_rule, part.first, part.last); break;
                        case part_kind::live_range: run(b, live_range_part_rule, part.first, part.last); break;
                    }
                } catch (...) {
                    if (blocks) models[k].values.swap(values);
                    throw;
                }
                if (blocks) {
                    models[k].values.swap(values);
                    store.of_part[k].last = values.size();
                }
                line_ends[k] = b.line_of(part.last) - 1;
            } catch (...) {
                failed[k] = 1;
            }
        });
        if (stats) stats->part_cpu_s[k] = thread_seconds() - part_start;
    });
    parts_timer.stop();
    if (std::find(failed.begin(), failed.end(), 1) != failed.end()) return std::nullopt;

    step_timer merge_timer(stats ? &stats->merge : nullptr);
    auto& whole = *builders[0];
    // The last allocation's value lines (`Total bytes used`, which the allocations part's rule
    // requires, ends it already; finish() does it for the general merge).
    whole.end_allocation();
    basic_buffer_assignment<P>& ba = models[0];
    std::vector<std::size_t> lines_before(parts.size(), 0);
    for (std::size_t k = 1; k < parts.size(); ++k) lines_before[k] = lines_before[k - 1] + line_ends[k - 1];
    std::optional<id_order_plan> const plan = plan_id_order(ba, store, whole.by_id, threads, merge_timer);
    if (!plan) {
        // The general merge: each part's values joined to the first part's one by one.
        merge_timer.count([&] {
            for (std::size_t k = 1; k < parts.size(); ++k) {
                store.give_back(k, models[k].values);
                builders[k]->shift_lines(lines_before[k]);
                if (!whole.merge(*builders[k])) {
                    failed[0] = 1;
                    return;
                }
            }
        });
        merge_timer.stop();
        if (stats) stats->merge_serial_s = stats->merge.cpu_s;
        if (failed[0]) return std::nullopt;
        step_timer finish_timer(stats ? &stats->finish : nullptr);
        finish_timer.count([&] { whole.finish(); });
        finish_timer.stop();
        if (stats) stats->finish_serial_s = stats->finish.cpu_s;
        ba.file = std::string(file);
        return std::move(ba);
    }
    // The fast join, in the vector that holds the value lines: what each value line gives is
    // copied aside (on the threads), then each block moves to its place in id order (on the
    // threads) and takes its value line's fields. The shapes are merged in text order first.
    std::vector<std::vector<shape_id>> shape_ids(parts.size());
    double const serial_start = stats ? thread_seconds() : 0;
    merge_timer.count([&] {
        for (std::size_t k = 1; k < parts.size(); ++k) {
            shape_ids[k] = ba.shapes.merge(models[k].shapes);
            ba.has_used_values = ba.has_used_values || models[k].has_used_values;
        }
        // Blocks of values without a value line: the model holds more values than value lines.
        if (ba.values.size() < plan->size) ba.values.resize(plan->size);
    });
    if (stats) stats->merge_serial_s = thread_seconds() - serial_start;
    std::size_t const line_count = plan->new_index.size();
    if (plan->size == line_count) {
        // Every value line has its block and every block its value line: both in id order, so
        // block j of part k is the value line at offset[k] + j, a value the first part already
        // made (place_values). Each thread moves its parts' blocks into those values: no value is
        // made twice, nothing is copied aside.
        for_each_on_threads(parts.size() - 1, threads, [&](std::size_t part) {
            merge_timer.count([&] {
                std::size_t const k = part + 1;
                auto* const blocks = store.begin(k);
                for (std::size_t j = 0; j < store.size(k); ++j) {
                    auto& v = ba.values[plan->offset[k] + j];
                    buffer_assignment_builder<P>::take_block(v, blocks[j]);
                    if (v.instruction_shape != no_shape) v.instruction_shape = shape_ids[k][v.instruction_shape];
                    v.block_line += lines_before[k];
                }
            });
        });
    } else {
        // Written before read, on the threads: no value-initialization pass over it.
        std::unique_ptr<value_line_fields[]> const fields(new value_line_fields[line_count]);
        for_each_on_threads(threads, threads, [&](std::size_t share) {
            merge_timer.count([&] {
                for (std::size_t i = line_count * share / threads; i < line_count * (share + 1) / threads; ++i) {
                    auto const& v = ba.values[i];
                    fields[i] = value_line_fields{v.allocation, v.offset, v.size, v.color.value_or(0), v.line, v.shape,
                                                  v.color.has_value(), v.index_printed, v.is_phi};
                }
            });
        });
        for_each_on_threads(parts.size() - 1, threads, [&](std::size_t part) {
            merge_timer.count([&] {
                std::size_t const k = part + 1;
                auto const ours = [&](shape_id id) { return id == no_shape ? id : shape_ids[k][id]; };
                auto* const blocks = store.begin(k);
                for (std::size_t j = 0; j < store.size(k); ++j) {
                    std::size_t const to = plan->offset[k] + j;
                    auto& v = ba.values[to];
                    v = std::move(blocks[j]);
                    v.instruction_shape = ours(v.instruction_shape);
                    v.block_line += lines_before[k];
                    std::size_t const from = plan->line_of_block[to];
                    if (from == npos) continue;
                    auto const& f = fields[from];
                    v.allocation = f.allocation;
                    v.offset = f.offset;
                    v.size = f.size;
                    v.color = f.has_color ? std::optional<std::int64_t>(f.color) : std::nullopt;
                    v.line = f.line;
                    v.shape = f.shape;
                    v.index_printed = f.index_printed;
                    v.is_phi = f.is_phi;
                }
            });
        });
    }
    merge_timer.stop();

    // The end: the lookup by name, the live ranges and freeing the parts, on the threads.
    step_timer finish_timer(stats ? &stats->finish : nullptr);
    std::optional<basic_hlo_live_range<P>> live;
    if (parts.back().kind == part_kind::live_range) {
        builders.back()->shift_lines(lines_before.back());
        live = std::move(builders.back()->live);
    }
    // The lookup by name in pieces on the threads, and its merges (reindex). With the pieces, two
    // tasks taken first: one frees the parts and renumbers the allocations' values, the other
    // attaches the live ranges as far as it can without the lookup (attach_live_range_lines).
    // The lines it matched by looking ahead are checked against the lookup on the threads; what
    // it left is attached on this thread with the lookup, and a failed check (a value name
    // repeated, in a damaged dump) attaches them all again there.
    bool first_run = true;
    std::size_t live_line = 0, next_value = 0;
    std::vector<std::size_t> guessed;
    ba.reindex(2 * threads, [&](std::size_t pieces, auto const& piece) {
        std::size_t const before = first_run ? 2 : 0;
        first_run = false;
        for_each_on_threads(pieces + before, threads, [&](std::size_t task) {
            finish_timer.count([&] {
                if (task >= before) return piece(task - before);
                if (task == 1) {
                    if (live) live_line = attach_live_range_lines(ba, *live, 0, next_value, false, &guessed);
                    return;
                }
                // Where every value line has its block, each value kept its place (new_index is
                // the identity).
                if (plan->size != line_count) {
                    for (auto& a : ba.allocations) {
                        for (auto& vi : a.values) vi = plan->new_index[vi];
                    }
                }
                for (std::size_t k = 1; k < models.size(); ++k) models[k] = basic_buffer_assignment<P>();
                for (auto& b : builders) b.reset();
                store.by_worker.clear();
            });
        });
    });
    if (live) {
        std::atomic<bool> guessed_right{true};
        for_each_on_threads(guessed.empty() ? 0 : threads, threads, [&](std::size_t share) {
            finish_timer.count([&] {
                for (std::size_t i = guessed.size() * share / threads; i < guessed.size() * (share + 1) / threads; ++i) {
                    auto const& r = live->buffer_live_ranges[guessed[i]];
                    if (ba.value_index(std::string_view(r.name), r.index) != r.value) guessed_right = false;
                }
            });
        });
        double const rest_start = stats ? thread_seconds() : 0;
        if (guessed_right) {
            attach_live_range_lines(ba, *live, live_line, next_value, true);
            ba.live_range = std::move(*live);
        } else {
            attach_live_range(ba, std::move(*live));
        }
        if (stats) stats->finish_serial_s = thread_seconds() - rest_start;
    }
    finish_timer.stop();
    if (stats) {
        stats->in_id_order = true;
        stats->finish.cpu_s += stats->finish_serial_s;
    }
    ba.file = std::string(file);
    return std::move(ba);
}

}  // namespace dump

// Declared with its default arguments and documentation in parser/api.hpp.
template <class P>
parse_result<basic_buffer_assignment<P>> try_parse_buffer_assignment(std::string_view text, std::string_view file,
                                                                      std::size_t threads) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    if (threads == 0) threads = text.size() >= dump::threaded_read_bytes ? dump::available_threads() : 1;
    if (threads > 1) {
        try {
            if (auto ba = dump::read_in_parts<P>(file, begin, end, threads)) return parse_result<basic_buffer_assignment<P>>(std::move(*ba));
        } catch (std::exception const&) {
            // Memory or threads ran short: read it whole below.
        }
    }
    return run_parse<basic_buffer_assignment<P>>(file, begin, end, [&] {
        basic_buffer_assignment<P> ba;
        ba.file = std::string(file);
        dump::buffer_assignment_builder<P> builder(file, begin, end, ba);
        builder.reserve_for(text.size());
        dump::run(builder, dump::buffer_assignment_rule);
        builder.finish();
        return ba;
    });
}

}  // namespace hlomem::parser

#endif  // HLOMEM_PARSER_BUFFER_ASSIGNMENT_HPP
