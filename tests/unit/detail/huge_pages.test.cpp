// Transparent huge pages advised for the aligned interior of a large block (detail/huge_pages.hpp).
#include <hlomem/detail/huge_pages.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif

// detail/huge_pages.hpp: the advice reaches the kernel for the aligned interior of a block, and
// only there (the kernel marks such a range `hg` in /proc/self/smaps).
#if defined(__linux__)
TEST_CASE("advise_huge_pages: the 2 MiB-aligned interior of a mapped block, nothing smaller") {
    using hlomem::detail::huge_page_bytes;
    std::size_t const bytes = 5 * huge_page_bytes + 12345;
    void* const block = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(block != MAP_FAILED);
    auto const first = reinterpret_cast<std::uintptr_t>(block);
    std::uintptr_t const from = (first + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
    std::uintptr_t const to = (first + bytes) / huge_page_bytes * huge_page_bytes;
    REQUIRE(to - from >= 4 * huge_page_bytes);
    // Less than one aligned huge page inside: no advice at all.
    CHECK_FALSE(hlomem::detail::advise_huge_pages(reinterpret_cast<void*>(from + 4096), huge_page_bytes));
    CHECK_FALSE(hlomem::detail::advise_huge_pages(block, 0));
    // A kernel without transparent huge pages refuses MADV_HUGEPAGE; one with them takes it.
    bool const kernel_has_thp = std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good();
    bool const advised = hlomem::detail::advise_huge_pages(block, bytes);
    CHECK(advised == kernel_has_thp);
    if (advised) {
        // madvise splits the mapping at the advised range: [from, to) is its own area, flagged hg.
        std::ifstream smaps("/proc/self/smaps");
        std::string line;
        std::string flags;
        bool inside = false;
        while (std::getline(smaps, line)) {
            // An area's header, `7f3a00000000-7f3a00400000 rw-p 00000000 00:00 0`, against its
            // fields, `AnonHugePages:      0 kB`.
            std::size_t const blank = line.find(' ');
            if (blank != std::string::npos && line.find('-') < blank && line[blank - 1] != ':') {
                std::uintptr_t const begin = std::stoull(line.substr(0, line.find('-')), nullptr, 16);
                std::uintptr_t const end = std::stoull(line.substr(line.find('-') + 1), nullptr, 16);
                inside = begin == from && end == to;
            } else if (inside && line.rfind("VmFlags:", 0) == 0) {
                flags = line;
            }
        }
        CHECK(flags.find(" hg") != std::string::npos);
    }
    ::munmap(block, bytes);
}
#endif
