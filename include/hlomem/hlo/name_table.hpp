// hlomem/hlo/name_table.hpp: the names of one scope (a module's computations, a computation's
// instructions) mapped to their indices, for the module builder (<hlomem/hlo/module_builder.hpp>).
//
// XLA's HloParser keeps such a scope per computation (`tensorflow::gtl::FlatMap` of names to
// instructions): `%add.3` must be defined once in its computation, and operands name it. This
// table is open-addressing over views of the names (the caller keeps them alive) and is cleared
// in O(1) between computations, so a module of 100,000 instructions in 5,000 computations does
// not pay 5,000 reallocations.
//
//   name_table t;
//   t.insert("add.3", 7);     // npos: new
//   t.insert("add.3", 9);     // 7: already there
//   t.find("add.3");          // 7
#ifndef HLOMEM_HLO_NAME_TABLE_HPP
#define HLOMEM_HLO_NAME_TABLE_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/detail/scan.hpp>

namespace hlomem {

class name_table {
public:
    static constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();

    /// Forgets every name (the slots are reused).
    void clear() noexcept {
        ++generation_;
        size_ = 0;
    }
    std::size_t size() const noexcept { return size_; }

    /// The index stored for `name`, or npos.
    std::uint32_t find(std::string_view name) const noexcept {
        if (slots_.empty()) return npos;
        std::size_t const mask = slots_.size() - 1;
        for (std::size_t i = hash(name) & mask;; i = (i + 1) & mask) {
            slot const& s = slots_[i];
            if (s.generation != generation_) return npos;
            if (s.key == name) return s.value;
        }
    }

    /// Stores `value` for `name` and returns npos, or returns the index already stored.
    std::uint32_t insert(std::string_view name, std::uint32_t value) {
        if ((size_ + 1) * 2 > slots_.size()) grow();
        std::size_t const mask = slots_.size() - 1;
        for (std::size_t i = hash(name) & mask;; i = (i + 1) & mask) {
            slot& s = slots_[i];
            if (s.generation != generation_) {
                s = slot{name, value, generation_};
                ++size_;
                return npos;
            }
            if (s.key == name) return s.value;
        }
    }

private:
    struct slot {
        std::string_view key;
        std::uint32_t value = 0;
        std::uint32_t generation = 0;
    };

    static std::size_t hash(std::string_view s) noexcept { return ::hlomem::detail::hash_text(s.data(), s.size()); }

    void grow() {
        std::vector<slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 64 : old.size() * 2, slot{});
        std::uint32_t const live = generation_;
        generation_ = 1;
        size_ = 0;
        for (slot const& s : old) {
            if (s.generation == live) insert(s.key, s.value);
        }
    }

    std::vector<slot> slots_;
    std::uint32_t generation_ = 1;
    std::size_t size_ = 0;
};

}  // namespace hlomem

#endif  // HLOMEM_HLO_NAME_TABLE_HPP
