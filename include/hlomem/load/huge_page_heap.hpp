// hlomem/load/huge_page_heap.hpp: a program's heap on transparent huge pages, for a program that
// reads large inputs (the hlomem tool calls use_huge_page_heap first in main).
//
// A command reads its input once and builds models a few times the input's size, in many
// vectors that grow by doubling. In 4 KiB pages every first touch of that memory is a trip into
// the kernel: on a 52 MB HLO module `hlomem liveness` took 28,300 minor page faults, and the
// kernel's share of the profile (page faults, page clearing, memory-cgroup charging) was a fifth
// of the command, work the parser's in-process benchmark never pays because it reuses memory.
//
// Where Linux gives transparent huge pages only to memory that asked for them (`madvise` mode in
// /sys/kernel/mm/transparent_hugepage/enabled, a common default), the C library's heap never
// asks: glibc does so only when started with GLIBC_TUNABLES=glibc.malloc.hugetlb=1. So before a
// command runs, the tool grows the heap once by a large reservation, advises it MADV_HUGEPAGE,
// and tells malloc (mallopt(3)) to serve blocks below 32 MiB from that heap and to keep it rather
// than trim it. The reservation is address space, not memory: a page becomes resident when it is
// first touched, 2 MiB at a time. Blocks of 32 MiB or more are mapped on their own, as before;
// the dump reader advises its own (detail::advise_huge_pages).
//
// This is process-wide malloc policy, so it is the executable's choice: nothing in the library
// calls it, and a program opts in by calling it once, before anything fills the heap.
// It is advice: with another C library, a sanitizer's allocator (whose heap is not the brk heap),
// strict overcommit (vm.overcommit_memory = 2, where the reservation would be charged in full),
// a refused growth or HLOMEM_HUGE_PAGES=0 in the environment, nothing is advised and malloc
// behaves as it did.
#ifndef HLOMEM_LOAD_HUGE_PAGE_HEAP_HPP
#define HLOMEM_LOAD_HUGE_PAGE_HEAP_HPP

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>

#include <hlomem/detail/huge_pages.hpp>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

namespace hlomem {

/// Address space the heap takes at once and advises for huge pages. The 52 MB inputs of
/// BENCHMARKS.md's command table peak at 120-170 MB resident; the 10^6-value dump at ~0.8 GB,
/// of which its largest blocks are mapped on their own.
inline constexpr std::size_t huge_page_heap_bytes = std::size_t(1) << 30;

/// Blocks at least this large are mapped on their own (mallopt M_MMAP_THRESHOLD; glibc's own
/// upper bound for its sliding threshold).
inline constexpr int huge_page_heap_mmap_threshold = 32 << 20;

/// Grows the heap by huge_page_heap_bytes and advises it MADV_HUGEPAGE; true when it did.
/// Call once, first thing in main, before the heap holds much.
inline bool use_huge_page_heap() {
#if defined(__linux__) && defined(__GLIBC__)
    // HLOMEM_HUGE_PAGES=0 leaves the heap as the C library made it: on a virtual machine whose
    // host takes back the guest's free memory (virtio-balloon free page reporting), the first
    // touch of a 2 MiB page now and then waits on the host, and a user may prefer the steadier
    // small pages.
    if (char const* setting = std::getenv("HLOMEM_HUGE_PAGES"); setting && std::string_view(setting) == "0") {
        return false;
    }
    // Strict overcommit charges address space as if it were memory: 1 GiB reserved there could
    // make another process's allocation fail. Skip it.
    if (std::FILE* f = std::fopen("/proc/sys/vm/overcommit_memory", "r")) {
        int const mode = std::fgetc(f);
        std::fclose(f);
        if (mode == '2') return false;
    }
    constexpr std::size_t probe_bytes = std::size_t(1) << 20;
    // Blocks below 32 MiB from the heap, and the heap never trimmed (a trimmed and regrown heap
    // would be a new, unadvised mapping; a command's process is short-lived).
    if (mallopt(M_MMAP_THRESHOLD, huge_page_heap_mmap_threshold) == 0) return false;
    mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
    // M_TOP_PAD: the next growth of the heap takes this much beyond the block that asked for it.
    mallopt(M_TOP_PAD, int(huge_page_heap_bytes));
    auto* const before = static_cast<char*>(sbrk(0));
    // Called through a volatile pointer: a compiler may otherwise drop a malloc whose block is
    // only freed, and with it the growth this is for.
    void* (*volatile const allocate)(std::size_t) = std::malloc;
    void* const probe = allocate(probe_bytes);
    auto* const after = static_cast<char*>(sbrk(0));
    // Back to glibc's default pad (128 KiB) for any growth beyond the reservation.
    mallopt(M_TOP_PAD, 128 << 10);
    bool advised = false;
    // The heap grew where it was, by at least the reservation: advise what it grew by. (A refused
    // growth leaves sbrk(0) where it was, and malloc maps the probe elsewhere.)
    if (before != reinterpret_cast<char*>(-1) && after > before &&
        std::size_t(after - before) >= huge_page_heap_bytes)
        advised = hlomem::detail::advise_huge_pages(before, std::size_t(after - before));
    std::free(probe);
    return advised;
#else
    return false;
#endif
}

}  // namespace hlomem

#endif
