// hlomem/core/shape_table.hpp: a table of distinct shapes, looked up by their text.
//
// Dumps repeat the same shapes over and over (seed 000 has 135 value lines but 37 distinct array
// shapes; a 2.6 MB HLO module has about 500). Models that hold many shapes keep them once in a
// shape_table and refer to them by `shape_id`, and the parsers look a shape's text up before
// parsing it, so each distinct text is parsed once.
#ifndef HLOMEM_CORE_SHAPE_TABLE_HPP
#define HLOMEM_CORE_SHAPE_TABLE_HPP

#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/shape.hpp>
#include <hlomem/detail/scan.hpp>

namespace hlomem {

/// Index of a shape in a shape_table.
using shape_id = std::uint32_t;

/// No shape (e.g. an allocation header that printed `<unknown shape>`).
inline constexpr shape_id no_shape = std::numeric_limits<shape_id>::max();

template <class P = default_policy>
class basic_shape_table {
public:
    using shape_type = basic_shape<P>;

    basic_shape_table() = default;
    // The table's texts point into keys_, whose strings do not move with the table, so moving is
    // safe; copying would leave the copy's texts pointing at the original.
    basic_shape_table(basic_shape_table&&) noexcept = default;
    basic_shape_table& operator=(basic_shape_table&&) noexcept = default;
    basic_shape_table(basic_shape_table const& other) { *this = other; }
    basic_shape_table& operator=(basic_shape_table const& other) {
        if (this == &other) return *this;
        shapes_ = other.shapes_;
        keys_.clear();
        slots_.clear();
        count_ = 0;
        for (auto const& text : other.keys_) remember(text, *other.find(text));
        return *this;
    }

    std::size_t size() const noexcept { return shapes_.size(); }
    bool empty() const noexcept { return shapes_.empty(); }
    shape_type const& operator[](shape_id id) const { return shapes_[id]; }
    shape_type const& at(shape_id id) const { return shapes_.at(id); }
    auto begin() const { return shapes_.begin(); }
    auto end() const { return shapes_.end(); }

    /// The id of a shape read from exactly this text before, if any.
    std::optional<shape_id> find(std::string_view text) const {
        if (slot const* s = lookup(text, detail::hash_text(text.data(), text.size()))) return s->id;
        return std::nullopt;
    }

    /// Adds `shape`, read from `text`. If an equal shape is already in the table (read from other
    /// text, e.g. with different blanks), its id is reused.
    shape_id insert(std::string_view text, shape_type shape) {
        if (auto found = find(text)) return *found;
        shape_id id = no_shape;
        std::string const canonical = to_string(shape);
        if (auto same = find(canonical)) {
            id = *same;
        } else {
            id = static_cast<shape_id>(shapes_.size());
            shapes_.push_back(std::move(shape));
            remember(canonical, id);
        }
        remember(text, id);
        return id;
    }

    /// Adds `shape`, read from `text` that is exactly its canonical text (`to_string(shape) ==
    /// text`, as for `f32[8,128]{1,0}`): what insert does, without printing the shape to find
    /// out. The parsers read most shapes in this form, and printing each new one cost them 5%.
    shape_id insert_canonical(std::string_view text, shape_type shape) {
        if (auto found = find(text)) return *found;
        auto const id = static_cast<shape_id>(shapes_.size());
        shapes_.push_back(std::move(shape));
        remember(text, id);
        return id;
    }

    /// Adds a shape by value (its canonical text is the key).
    shape_id insert(shape_type shape) {
        std::string const canonical = to_string(shape);
        return insert(canonical, std::move(shape));
    }

    /// Adds the shapes of `other` as if the texts `other` read had been read here, in the order
    /// `other` read them; returns, for each id of `other`, the id of its shape here. Tables filled
    /// from consecutive parts of one text and merged in text order equal the table filled from the
    /// whole text (a large dump is read in parts on several threads).
    std::vector<shape_id> merge(basic_shape_table const& other) {
        std::vector<shape_id> ids(other.size(), no_shape);
        for (auto const& text : other.keys_) {
            shape_id const theirs = *other.find(text);
            ids[theirs] = insert(text, other.shapes_[theirs]);
        }
        return ids;
    }

private:
    // The texts are looked up in an open-addressing table (linear probing, at most half full)
    // that keeps each text's hash: a parse looks up every shape it reads, and a std::unordered_map
    // cost a division and a node to follow per lookup.
    struct slot {
        std::size_t hash = 0;
        std::string_view text;
        shape_id id = no_shape;  // no_shape: an empty slot
    };

    slot const* lookup(std::string_view text, std::size_t hash) const {
        if (slots_.empty()) return nullptr;
        std::size_t const mask = slots_.size() - 1;
        for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
            slot const& s = slots_[i];
            if (s.id == no_shape) return nullptr;
            if (s.hash == hash && s.text == text) return &s;
        }
    }

    void place(slot const& entry) {
        std::size_t const mask = slots_.size() - 1;
        std::size_t i = entry.hash & mask;
        while (slots_[i].id != no_shape) i = (i + 1) & mask;
        slots_[i] = entry;
        ++count_;
    }

    void remember(std::string_view text, shape_id id) {
        std::size_t const hash = detail::hash_text(text.data(), text.size());
        if (lookup(text, hash)) return;
        if ((count_ + 1) * 2 > slots_.size()) {
            std::vector<slot> old = std::move(slots_);
            slots_.assign(old.empty() ? 64 : old.size() * 2, slot{});
            count_ = 0;
            for (slot const& s : old) {
                if (s.id != no_shape) place(s);
            }
        }
        keys_.emplace_back(text);
        place(slot{hash, std::string_view(keys_.back()), id});
    }

    std::vector<shape_type> shapes_;
    std::deque<std::string> keys_;  // stable storage for the table's texts, in the order first seen
    std::vector<slot> slots_;
    std::size_t count_ = 0;
};

using shape_table = basic_shape_table<>;

}  // namespace hlomem

#endif  // HLOMEM_CORE_SHAPE_TABLE_HPP
