// hlomem/parser/value_id_index.hpp: the table from a logical value's id to its place in the model,
// which the buffer-assignment builder (parser/buffer_assignment_builder.hpp) fills as it reads
// value lines and Used-values blocks, and which puts the values in id order at the end.
#ifndef HLOMEM_PARSER_VALUE_ID_INDEX_HPP
#define HLOMEM_PARSER_VALUE_ID_INDEX_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include <hlomem/dump/live_range.hpp>

namespace hlomem::parser::dump {

/// Value id -> index in ba.values. XLA numbers values 0..n-1, so ids index a flat table; an id
/// far beyond the ids seen so far (more than eight times their count, plus some slack) goes to a
/// map, so that a dump naming value 10^15 costs one map entry, not a table of 10^15. A dump lists
/// only the values that have buffers, some one in five or six of the ids (seed 000: 135 values,
/// ids up to 706), so the table must allow gaps of that kind or large dumps end in the map. The
/// values of one allocation come in id order, and the temp allocation lists values from the
/// whole program before most others are seen: so the table may also reach one slot per 32 bytes
/// of the text (a value line alone is longer), at most a quarter of the text's size in memory.
class value_id_index {
public:
    /// `text_bytes`: the size of the dump being read, which bounds how many values it can hold.
    /// `first_id`: the least id expected, where the flat table starts (ids below it go to the
    /// map). A part of the Used-values blocks read on its own thread names a short run of ids far
    /// from 0 (the blocks come in id order): from 0, each part's table would span every id before
    /// its own, pages filled for nothing.
    explicit value_id_index(std::size_t text_bytes = 0, std::int64_t first_id = 0)
        : flat_limit_(text_bytes / 32), first_id_(std::max<std::int64_t>(0, first_id)) {}

    /// The index stored for `id`, inserting `index` when there is none; true when inserted.
    std::pair<std::size_t, bool> emplace(std::int64_t id, std::size_t index) {
        if (!sparse_.empty()) {  // an id once sent to the map stays there
            auto it = sparse_.find(id);
            if (it != sparse_.end()) return {it->second, false};
        }
        if (std::size_t* slot = dense_slot(id, true)) {
            if (*slot != npos) return {*slot, false};
            *slot = index;
            ++count_;
            return {index, true};
        }
        sparse_.emplace(id, index);
        ++count_;
        return {index, true};
    }
    std::size_t find(std::int64_t id) {
        if (!sparse_.empty()) {
            auto it = sparse_.find(id);
            if (it != sparse_.end()) return it->second;
        }
        std::size_t* slot = dense_slot(id, false);
        return slot ? *slot : npos;
    }
    /// Replaces every stored index i by `new_index[i]` (each stored index must be below its size).
    void renumber(std::vector<std::size_t> const& new_index) {
        for (std::size_t& index : dense_) {
            if (index != npos) index = new_index[index];
        }
        for (auto& entry : sparse_) entry.second = new_index[entry.second];
    }
    /// The stored indices in increasing order of id: linear when every id is in the flat table.
    std::vector<std::size_t> in_id_order() const {
        std::vector<std::size_t> out;
        out.reserve(count_);
        if (sparse_.empty()) {
            for (std::size_t index : dense_) {
                if (index != npos) out.push_back(index);
            }
            return out;
        }
        std::vector<std::pair<std::int64_t, std::size_t>> all(sparse_.begin(), sparse_.end());
        for (std::size_t slot = 0; slot < dense_.size(); ++slot) {
            if (dense_[slot] != npos) all.emplace_back(first_id_ + static_cast<std::int64_t>(slot), dense_[slot]);
        }
        std::sort(all.begin(), all.end());
        for (auto const& entry : all) out.push_back(entry.second);
        return out;
    }

private:
    std::size_t* dense_slot(std::int64_t id, bool grow) {
        if (id < first_id_) return nullptr;
        auto const u = static_cast<std::uint64_t>(id - first_id_);
        if (u < dense_.size()) return &dense_[u];
        std::uint64_t const cap = std::max<std::uint64_t>(8 * count_, flat_limit_) + 4096;
        if (!grow || u >= cap) return nullptr;
        dense_.resize(std::min(cap, std::max<std::uint64_t>(u + 1, 2 * dense_.size())), npos);
        return &dense_[u];
    }
    std::vector<std::size_t> dense_;
    std::unordered_map<std::int64_t, std::size_t> sparse_;
    std::size_t count_ = 0;
    std::size_t flat_limit_ = 0;
    std::int64_t first_id_ = 0;
};

}  // namespace hlomem::parser::dump

#endif  // HLOMEM_PARSER_VALUE_ID_INDEX_HPP
