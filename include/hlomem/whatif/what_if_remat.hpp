// hlomem/whatif/what_if_remat.hpp: the rematerialization of basic_what_if (whatif/what_if.hpp):
// HloRematerialization's clone of a value for its later reads, its operands kept live or
// recomputed in turn, and the values the clone defines.
#ifndef HLOMEM_WHATIF_WHAT_IF_REMAT_HPP
#define HLOMEM_WHATIF_WHAT_IF_REMAT_HPP

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

// HloRematerialization's clone of value k (RematerializeInstruction), for the reads from
// `s.next_use` on, which move() found and checked: the clone, its operands kept live or
// recomputed in turn (remat_operands), and the bitcasts or get-tuple-element it is read through.
template <class P>
std::string basic_what_if<P>::remat_value(move_split const& s, std::size_t chain_bound, what_if_outcome& out) {
    auto const& m = *m_;
    auto const& df = live_->dataflow();
    std::size_t const k = s.value;
    auto const& v = df.values()[k];
    std::string const name(std::string_view(m.instruction(edit_instruction(k)).name));
    instruction_id const through = s.through, reader = s.reader;
    std::size_t const def = s.def, last_kept = s.last_kept, next_use = s.next_use;
    logical_time const next_time = s.next_time;
    std::string const reader_name(std::string_view(m.instruction(reader).name));
    // HloRematerialization re-creates the bitcasts (and get-tuple-element) the later reads go
    // through behind the clone (RematerializeInstruction clones the candidate's forwarding users
    // with it), so those readers read what they read before: the chain from the value to `through`.
    std::vector<instruction_id> forwarders;
    for (instruction_id f = through; f != v.instruction; f = m.operands(f)[0]) forwarders.insert(forwarders.begin(), f);
    if (fusion_element(k)) {
        for (auto const& part : m.shape_of(v.instruction).tuple_shapes()) {
            if (part.is_tuple()) return name + "'s fusion has a nested tuple; its clone's values are not modelled";
        }
    }
    // The operands must be live when the clone runs (RematerializeInstruction keeps them), unless
    // recomputed in turn right before it (remat_operands).
    std::vector<operand_read> reads;
    std::vector<std::size_t> chain;
    std::size_t chain_left = chain_bound;
    if (std::string reason = remat_operands(v.instruction, npos, next_use, chain_left, reads, chain); !reason.empty()) return reason;
    // Operands before their readers: in a scheduled computation, the text order.
    std::sort(chain.begin(), chain.end(), [&](std::size_t x, std::size_t y) { return df.values()[x].instruction < df.values()[y].instruction; });
    if (axis_.inserted_at(next_time) + chain.size() + 1 + forwarders.size() >= detail::what_if_axis::per_time) {
        if (chain.empty() && forwarders.empty()) return "3 instructions are already inserted before " + reader_name;
        return "no room for the clone and the " + std::to_string(chain.size() + forwarders.size()) + " instructions " +
               (chain.empty() ? "it is read through" : "recomputed or read through with it") +
               ": 3 instructions at most are inserted before " + reader_name;
    }
    std::vector<std::size_t> chain_slots;
    for (std::size_t j = 0; j < chain.size(); ++j) chain_slots.push_back(hold(next_time));
    std::size_t const slot = hold(next_time);
    std::vector<std::size_t> forwarding_slots;
    for (std::size_t j = 0; j < forwarders.size(); ++j) forwarding_slots.push_back(hold(next_time));
    auto slot_of = [&](std::size_t reader_value) {
        if (reader_value == npos) return slot;
        return chain_slots[static_cast<std::size_t>(std::find(chain.begin(), chain.end(), reader_value) - chain.begin())];
    };
    out.bytes_recomputed = remat_values(k, slot, forwarding_slots.empty() ? npos : forwarding_slots[0], s.last_use);
    set_range(k, def, last_kept);
    set_segments(buffer_of_[k], {{def, last_kept}});
    // Each operand recomputed: a value of its clone's, read until the last clone reading it.
    for (std::size_t j = 0; j < chain.size(); ++j) {
        std::size_t last = chain_slots[j];
        for (auto const& r : reads) {
            if (r.value == chain[j]) last = std::max(last, slot_of(r.reader));
        }
        std::size_t const c = add_value(values_[chain[j]].xla_bytes, values_[chain[j]].color, buffer_bytes(chain[j]));
        set_range(c, chain_slots[j], last);
        set_segments(buffer_of_[c], {{chain_slots[j], last}});
        out.bytes_recomputed += buffer_bytes(chain[j]);
        out.inserted.push_back({inserted_role::clone, df.values()[chain[j]].instruction, reader, chain_slots[j]});
    }
    for (auto const& r : reads) {
        if (std::find(chain.begin(), chain.end(), r.value) != chain.end()) continue;
        std::size_t const w = r.value, at = slot_of(r.reader);
        extra_uses_[w].push_back(at);
        log_.push_back({log_entry::extra_use, w, 0, 0, {}});
        if (values_[w].last >= at) continue;
        set_range(w, values_[w].first, at);
        auto segments = buffers_[buffer_of_[w]].segments;
        segments.back().second = at;
        set_segments(buffer_of_[w], std::move(segments));
    }
    edited_[k] = true;
    log_.push_back({log_entry::flag, k, 0, 0, {}});
    out.instructions_recomputed = 1 + static_cast<std::int64_t>(chain.size());
    out.inserted.push_back({inserted_role::clone, v.instruction, reader, slot});
    for (std::size_t j = 0; j < forwarders.size(); ++j) out.inserted.push_back({inserted_role::clone, forwarders[j], reader, forwarding_slots[j]});
    return {};
}

// The values a remat's clone reads (instruction i's operands, reader npos) or an operand's clone
// reads (reader: that operand's value). Each stays live until its reader's clone runs
// (RematerializeInstruction keeps a clone's operands), unless it would otherwise end before
// `next_use` and `chain_left` allows: then it is recomputed in turn, its own operands read the
// same way (HloRematerialization's blocks of instructions, RematerializeBestBlock, bounded by
// max_block_size). An operand that cannot be recomputed is kept live instead.
template <class P>
std::string basic_what_if<P>::remat_operands(instruction_id i, std::size_t reader, std::size_t next_use, std::size_t& chain_left,
                                             std::vector<operand_read>& reads, std::vector<std::size_t>& chain) const {
    auto const& m = *m_;
    auto const& df = live_->dataflow();
    for (instruction_id o : m.operands(i)) {
        auto const set = df.value_set(o, 0);
        std::string const operand = "operand " + std::string(std::string_view(m.instruction(o).name));
        if (set.size() != 1) return operand + " may hold several values";
        std::size_t const w = df.value_index(set[0]);
        if (values_[w].first == npos) return operand + " has no live range";
        reads.push_back({w, reader});
        bool const ends_before = values_[w].last < next_use;
        if (!ends_before || std::find(chain.begin(), chain.end(), w) != chain.end()) continue;
        if (chain_left > 0 && recomputable_operand(w, o)) {
            std::size_t const reads_before = reads.size(), chain_before = chain.size(), left_before = chain_left;
            --chain_left;
            chain.push_back(w);
            if (remat_operands(o, w, next_use, chain_left, reads, chain).empty()) continue;
            reads.resize(reads_before);
            chain.resize(chain_before);
            chain_left = left_before;
        }
        if (edited_[w]) return operand + " was moved by an earlier edit";
        if (live_->alias_analysis().buffers()[live_->alias_analysis().buffer_of(w)].size() != 1) {
            return operand + " shares its HloBuffer with an in-place update; keeping it live would take a copy";
        }
    }
    return {};
}

// An operand recomputed in turn: an array defined by its own instruction, one HloRematerialization
// may re-run (CanBeRematerialized), in a buffer of its own, untouched by an earlier edit.
template <class P>
bool basic_what_if<P>::recomputable_operand(std::size_t w, instruction_id o) const {
    auto const& df = live_->dataflow();
    auto const& v = df.values()[w];
    return v.instruction == o && v.node == 0 && !v.live_out && !edited_[w] && !m_->shape_of(o).is_tuple() &&
           detail::rematerializable(m_->instruction(o).opcode) &&
           live_->alias_analysis().buffers()[live_->alias_analysis().buffer_of(w)].size() == 1;
}

// The values the clone defines, on the axis; returns the bytes it writes. An array: one value, read
// until `last_use`. A multi-output fusion (the clone of one element's fusion): every element and
// the index table, as XLA's dataflow defines them; the get-tuple-element clone at
// `forwarding_slot` reads the table, the element edited lives until `last_use`, the others are
// read by nothing and live at the clone alone (HloLiveRange: a value without uses ends where it
// starts).
template <class P>
std::int64_t basic_what_if<P>::remat_values(std::size_t k, std::size_t slot, std::size_t forwarding_slot, std::size_t last_use) {
    auto add = [&](std::int64_t xla, std::int64_t color, std::int64_t hw, std::size_t last) {
        std::size_t const c = add_value(xla, color, hw);
        set_range(c, slot, last);
        set_segments(buffer_of_[c], {{slot, last}});
    };
    if (!fusion_element(k)) {
        add(values_[k].xla_bytes, values_[k].color, buffer_bytes(k), last_use);
        return buffer_bytes(k);
    }
    auto const& df = live_->dataflow();
    auto const& v = df.values()[k];
    auto const& whole = m_->shape_of(v.instruction);
    std::int64_t const edited = df.index_of(v)[0];
    // Each value of the tuple weighs its whole shape in XLA's peak moment (compute_xla_peak).
    std::int64_t const xla_bytes = byte_size_of(whole, 8);
    add(xla_bytes, 0, value_size_of(whole, sizes_).value_or(0), forwarding_slot);
    std::int64_t written = 0;
    for (std::size_t j = 0; j < whole.tuple_shapes_size(); ++j) {
        auto const& part = whole.tuple_shapes()[j];
        std::int64_t const bytes = value_size_of(part, sizes_).value_or(0);
        written += bytes;
        add(xla_bytes, part.has_layout() ? part.layout().memory_space : 0, bytes,
            static_cast<std::int64_t>(j) == edited ? last_use : slot);
    }
    return written;
}

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_WHAT_IF_REMAT_HPP
