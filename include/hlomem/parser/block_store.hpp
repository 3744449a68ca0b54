// hlomem/parser/block_store.hpp: where the threaded read of a dump (parser/threaded_read.hpp)
// keeps the values that its parts of the Used-values blocks read: one vector a worker thread,
// reserved once and advised for huge pages.
#ifndef HLOMEM_PARSER_BLOCK_STORE_HPP
#define HLOMEM_PARSER_BLOCK_STORE_HPP

#include <cstddef>
#include <iterator>
#include <new>
#include <stdexcept>
#include <vector>

#include <hlomem/detail/huge_pages.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/parser/buffer_assignment_builder.hpp>

namespace hlomem::parser::dump {

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
            if (reserved >= buffer_assignment_builder<P>::mapped_block_bytes) hlomem::detail::advise_huge_pages(values.data(), reserved);
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

}  // namespace hlomem::parser::dump

#endif  // HLOMEM_PARSER_BLOCK_STORE_HPP
