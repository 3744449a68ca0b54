// A program's heap on transparent huge pages (<hlomem/load/huge_page_heap.hpp>). ctest runs
// each test case in its own process, so the malloc policy set here reaches no other test; run in
// one process, the second test still holds (it compares the advised bytes before and after).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <hlomem/load/huge_page_heap.hpp>

namespace {

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HLOMEM_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define HLOMEM_TEST_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(HLOMEM_TEST_SANITIZED)
/// The mapping of /proc/self/smaps holding `address`: its size and whether its VmFlags carry
/// `hg` (MADV_HUGEPAGE).
struct mapping {
    bool found = false;
    std::uintptr_t begin = 0, end = 0;
    bool huge_page_advised = false;
};

mapping mapping_of(void const* address) {
    auto const a = reinterpret_cast<std::uintptr_t>(address);
    std::ifstream smaps("/proc/self/smaps");
    mapping m;
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t begin = 0, end = 0;
        char dash = 0;
        std::istringstream header(line);
        if (line.find("VmFlags:") == 0) {
            if (inside) {
                m.huge_page_advised = line.find(" hg") != std::string::npos;
                return m;
            }
        } else if ((header >> std::hex >> begin >> dash >> end) && dash == '-') {
            inside = begin <= a && a < end;
            if (inside) m = {true, begin, end, false};
        }
    }
    return m;
}
#endif

#if defined(__linux__)
/// The bytes of every mapping of /proc/self/smaps whose VmFlags carry `hg` (MADV_HUGEPAGE).
std::uintptr_t advised_bytes() {
    std::ifstream smaps("/proc/self/smaps");
    std::uintptr_t total = 0, size = 0;
    std::string line;
    while (std::getline(smaps, line)) {
        std::uintptr_t begin = 0, end = 0;
        char dash = 0;
        std::istringstream header(line);
        if (line.find("VmFlags:") == 0) {
            if (line.find(" hg") != std::string::npos) total += size;
        } else if ((header >> std::hex >> begin >> dash >> end) && dash == '-') {
            size = end - begin;
        }
    }
    return total;
}
#endif

}  // namespace

TEST_CASE("the CLI's heap: a 1 GiB heap advised for huge pages, blocks below 32 MiB served from it",
          "[heap]") {
    bool const advised = hlomem::use_huge_page_heap();
#if defined(__linux__) && defined(__GLIBC__) && !defined(HLOMEM_TEST_SANITIZED)
    std::ifstream overcommit("/proc/sys/vm/overcommit_memory");
    std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
    int mode = 0;
    overcommit >> mode;
    if (mode == 2 || !thp) {
        CHECK_FALSE((mode == 2 && advised));
        return;
    }
    REQUIRE(advised);
    // A block of 16 MiB (under the 32 MiB threshold) lies in the advised heap, which holds at
    // least the reservation less the unaligned head and tail left in small pages (the block may
    // start in that head: its middle is in the advised part).
    void* block = std::malloc(std::size_t(16) << 20);
    REQUIRE(block != nullptr);
    mapping const m = mapping_of(static_cast<char*>(block) + (std::size_t(8) << 20));
    std::free(block);
    REQUIRE(m.found);
    CHECK(m.huge_page_advised);
    CHECK(m.end - m.begin >= hlomem::huge_page_heap_bytes - 2 * hlomem::detail::huge_page_bytes);
    // A second call finds the heap grown already: it advises nothing more.
    CHECK_FALSE(hlomem::use_huge_page_heap());
#else
    // Another C library or a sanitizer's allocator: nothing is advised.
    CHECK_FALSE(advised);
#endif
}

TEST_CASE("the CLI's heap: HLOMEM_HUGE_PAGES=0 leaves it as the C library made it", "[heap]") {
#if defined(__linux__)
    // Whatever the process advised before (the test above, when both run in one process), the
    // call advises nothing more: the advised mappings are the same bytes after it.
    std::uintptr_t const before = advised_bytes();
#endif
    REQUIRE(::setenv("HLOMEM_HUGE_PAGES", "0", 1) == 0);
    CHECK_FALSE(hlomem::use_huge_page_heap());
    ::unsetenv("HLOMEM_HUGE_PAGES");
#if defined(__linux__)
    CHECK(advised_bytes() == before);
#endif
}
