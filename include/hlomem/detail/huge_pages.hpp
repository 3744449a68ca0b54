// hlomem/detail/huge_pages.hpp: asks the kernel to back a large block with huge pages.
//
// A model of 10^6 values fills some 700 MiB of fresh memory during one parse. In 4 KiB pages
// that is 180,000 minor page faults, each a trip into the kernel to clear and charge one page:
// about a seventh of the parse. Linux's transparent huge pages serve such a block 2 MiB at a
// time, but where they are enabled in `madvise` mode (/sys/kernel/mm/transparent_hugepage/enabled,
// a common default) only for ranges that asked with madvise(MADV_HUGEPAGE). advise_huge_pages
// asks it for the 2 MiB-aligned interior of a block; the head and tail stay in small pages.
//
// Only for blocks the C library maps on their own (glibc maps every block of 32 MiB or more):
// advice on a part of the heap would outlive the block. It is advice: a kernel without THP, a
// failure of madvise, or any system but Linux leaves the block as it was.
#ifndef HLOMEM_DETAIL_HUGE_PAGES_HPP
#define HLOMEM_DETAIL_HUGE_PAGES_HPP

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hlomem::detail {

/// The size of a transparent huge page on x86-64 and on arm64 with 4 KiB base pages.
inline constexpr std::size_t huge_page_bytes = std::size_t(2) << 20;

/// Advises [begin, begin + bytes) rounded inwards to huge pages as MADV_HUGEPAGE; true when the
/// kernel took the advice (false for a block smaller than one aligned huge page, elsewhere than
/// Linux, or where madvise failed: nothing changes then).
inline bool advise_huge_pages(void const* begin, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    auto const first = reinterpret_cast<std::uintptr_t>(begin);
    if (bytes > UINTPTR_MAX - first) return false;
    std::uintptr_t const from = (first + huge_page_bytes - 1) & ~std::uintptr_t(huge_page_bytes - 1);
    std::uintptr_t const to = (first + bytes) & ~std::uintptr_t(huge_page_bytes - 1);
    if (to <= from) return false;
    return ::madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE) == 0;
#else
    (void)begin;
    (void)bytes;
    return false;
#endif
}

}  // namespace hlomem::detail

#endif
