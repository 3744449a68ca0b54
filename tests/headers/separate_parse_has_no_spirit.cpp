// With HLOMEM_SEPARATE_COMPILATION, <hlomem/parser.hpp> declares the parsers and includes no
// Spirit: a translation unit that reads dumps then compiles in the time of the model headers.
// The loader above the parsers (<hlomem/load.hpp>) includes none either.
#define HLOMEM_SEPARATE_COMPILATION
#include <hlomem/hlo.hpp>
#include <hlomem/load.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/parser.hpp>
#include <hlomem/placement.hpp>

#if defined(BOOST_SPIRIT_X3_HPP) || defined(BOOST_SPIRIT_X3_CORE_PARSER_HPP)
#error "hlomem/parser.hpp includes Spirit X3 under HLOMEM_SEPARATE_COMPILATION"
#endif

// Every entry point is declared, with its default arguments.
[[maybe_unused]] void every_entry_point_is_declared(std::string_view text) {
    (void)hlomem::try_parse_shape(text);
    (void)hlomem::try_parse_layout(text);
    (void)hlomem::try_parse_shape_index(text);
    (void)hlomem::try_parse_buffer_assignment<hlomem::view_policy>(text);
    (void)hlomem::try_parse_live_range(text);
    (void)hlomem::try_parse_memory_usage_report(text);
    (void)hlomem::try_parse_hlo_modules(text);
    (void)hlomem::try_parse_hlo_module<hlomem::view_policy>(text);
    (void)hlomem::try_parse_oom_reports(text);
    (void)hlomem::detect_dump_kind(text);
}
