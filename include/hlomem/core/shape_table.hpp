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
#include <unordered_map>
#include <utility>
#include <vector>

#include <hlomem/core/shape.hpp>

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
    // The map's keys point into keys_, whose strings do not move with the table, so moving is
    // safe; copying would leave the copy's keys pointing at the original.
    basic_shape_table(basic_shape_table&&) noexcept = default;
    basic_shape_table& operator=(basic_shape_table&&) noexcept = default;
    basic_shape_table(basic_shape_table const& other) { *this = other; }
    basic_shape_table& operator=(basic_shape_table const& other) {
        if (this == &other) return *this;
        shapes_ = other.shapes_;
        keys_.clear();
        by_text_.clear();
        for (auto const& [text, id] : other.by_text_) remember(text, id);
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
        auto it = by_text_.find(text);
        if (it == by_text_.end()) return std::nullopt;
        return it->second;
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
            shape_id const theirs = other.by_text_.find(text)->second;
            ids[theirs] = insert(text, other.shapes_[theirs]);
        }
        return ids;
    }

private:
    void remember(std::string_view text, shape_id id) {
        if (by_text_.count(text)) return;
        keys_.emplace_back(text);
        by_text_.emplace(std::string_view(keys_.back()), id);
    }

    std::vector<shape_type> shapes_;
    std::deque<std::string> keys_;  // stable storage for the map's keys
    std::unordered_map<std::string_view, shape_id> by_text_;
};

using shape_table = basic_shape_table<>;

}  // namespace hlomem

#endif  // HLOMEM_CORE_SHAPE_TABLE_HPP
