// dump_edits.hpp: editing a buffer-assignment dump's text, for the memory/ tests that mutate real
// dumps (one definition for the test files a unity build may compile in one unit).
#ifndef HLOMEM_TESTS_MEMORY_DUMP_EDITS_HPP
#define HLOMEM_TESTS_MEMORY_DUMP_EDITS_HPP

#include <hlomem/dump/buffer_assignment.hpp>

#include <catch2/catch.hpp>

#include <string>

namespace {

/// Replaces the first occurrence of `from` (which must exist) in `text`.
void replace_once(std::string& text, std::string const& from, std::string const& to) {
    auto const at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
}

/// The value line of `v` as the dump prints it (without the leading ` value: `).
std::string value_line_key(hlomem::logical_value const& v) {
    std::string key = "<" + std::to_string(v.id) + " " + v.name;
    if (v.index_printed) key += hlomem::to_string(v.index);
    return key;
}

}  // namespace

#endif  // HLOMEM_TESTS_MEMORY_DUMP_EDITS_HPP
