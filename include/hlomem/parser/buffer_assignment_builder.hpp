// hlomem/parser/buffer_assignment_builder.hpp: the builder that the buffer-assignment grammar
// (parser/buffer_assignment_grammar.hpp) hands each finished line to. It makes the model
// (dump/buffer_assignment.hpp): allocations and their value lines, the values in id order, each
// value's Used-values block (positions, uses, the defining instruction), the live ranges; and,
// for the threaded read (parser/threaded_read.hpp), moves a part's line numbers and takes in what
// the builder of a later part read.
#ifndef HLOMEM_PARSER_BUFFER_ASSIGNMENT_BUILDER_HPP
#define HLOMEM_PARSER_BUFFER_ASSIGNMENT_BUILDER_HPP

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/detail/huge_pages.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/parser/allocation_header.hpp>
#include <hlomem/parser/buffer_assignment_grammar.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/dump_common.hpp>
#include <hlomem/parser/intern_shape.hpp>
#include <hlomem/parser/live_range.hpp>
#include <hlomem/parser/value_id_index.hpp>

namespace hlomem::parser::dump {

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
            hlomem::detail::advise_huge_pages(vector.data(), vector.capacity() * sizeof(vector[0]));
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
        bool cross_color = false;
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
            v.cross_color = r.cross_color;
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

    /// A key that repeats a value (its block, a cross-color line) must name the value of its id's
    /// value line: `name` at `index`. Compared in place: a tuple element's key (`<7 tuple.3{1} @0>`)
    /// would otherwise allocate an index only to compare it.
    void require_same_value(typename P::string_type const& name, basic_shape_index<P> const& index, value_key const& k) {
        bool const same_index = std::equal(index.begin(), index.end(), k.index.begin(), k.index.end());
        if (std::string_view(name) != k.name || !same_index) {
            throw failure(k.where, "value " + std::to_string(k.id) + " is " + std::string(std::string_view(name)) +
                                       to_string(index) + " on its value line but " + std::string(k.name) +
                                       to_string(base::to_index(k.index)) + " here");
        }
    }

    /// ` reused by buffers of a different color:` after an allocation's value lines. The lines that
    /// follow are counted from the text (line_of): they are rare.
    void cross_color_head() { previous_line = 0; }

    /// `  value: <12 fusion.3 @0> (color=0)` under it: a value listed above, in this allocation.
    void cross_color(cross_color_line const& l) {
        auto const& k = l.key;
        std::size_t const i = by_id.find(k.id);
        std::size_t const here = ba.allocations.size() - 1;
        if (i == npos || value_lines[i].allocation != here) {
            throw failure(k.where, "value " + std::to_string(k.id) + " is listed as reused by a different color of allocation " +
                                       std::to_string(ba.allocations.back().index) +
                                       " but has no value line in it; XLA lists only the values above");
        }
        auto& r = value_lines[i];
        require_same_value(r.name, r.index, k);
        if (r.cross_color) throw failure(k.where, "value " + std::to_string(k.id) + " is listed twice as reused by a different color");
        if (k.color && *k.color != l.color) {
            throw failure(k.where, "value " + std::to_string(k.id) + " is @" + std::to_string(*k.color) + " but (color=" +
                                       std::to_string(l.color) + ")");
        }
        if (r.color && *r.color != l.color) {
            throw failure(k.where, "value " + std::to_string(k.id) + " has color " + std::to_string(*r.color) +
                                       " on its value line but " + std::to_string(l.color) + " here");
        }
        r.color = l.color;
        r.cross_color = true;
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
            hlomem::detail::advise_huge_pages(ranges.data(), ranges.capacity() * sizeof(ranges[0]));
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
        require_same_value(v.name, v.index, k);
        v.has_block = true;
        v.block_line = this->line_of(k.where);
    }
    // A block's positions and uses are gathered here and copied into the value once their count
    // is known (at ` uses:` and at `from instruction:`): one allocation each, not one per regrowth.
    typename P::template vector_type<basic_hlo_position<P>> pending_positions;
    typename P::template vector_type<basic_hlo_use<P>> pending_uses;

    void position(position_line const& p) {
        pending_positions.push_back(
            basic_hlo_position<P>{base::str(p.name), base::to_index(p.index), p.index_printed, position_name_hash(p.name)});
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

}  // namespace hlomem::parser::dump

#endif  // HLOMEM_PARSER_BUFFER_ASSIGNMENT_BUILDER_HPP
