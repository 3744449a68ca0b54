// Fuzz target: shapes, layouts and shape indices (parser/shape.hpp).
// For every input: no crash; an error names a position in the input; a shape that parses prints
// as text that parses back to an equal shape printing the same, with the same sizes.
#include <hlomem/dump.hpp>
#include <hlomem/hlo.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/parser/shape.hpp>
#include <hlomem/placement.hpp>

#include "fuzz_check.hpp"

using hlomem_fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text = hlomem_fuzz::as_text(data, size);

    auto shape = hlomem::try_parse_shape<hlomem::view_policy>(text, "<fuzz>");
    if (!shape) {
        hlomem_fuzz::check_error(shape.error(), text, "<fuzz>");
    } else {
        std::string const printed = hlomem::to_string(*shape);
        auto again = hlomem::try_parse_shape(printed, "<printed>");
        if (!again) hlomem_fuzz::fail("a printed shape parses", printed + "\n" + again.error().to_string());
        check(hlomem::to_string(*again) == printed, "print(parse(print(x))) == print(x)", printed);
        check(hlomem::shape_equal()(*again, hlomem::parse_shape(printed)), "the round trip keeps the shape", printed);
        // Sizes are defined for every shape the parser accepts except those with an unbounded
        // dimension `?`, for which they throw shape_error (documented in shape_size.hpp).
        try {
            check(hlomem::xla_size_function{}(*shape) == hlomem::xla_size_function{}(*again), "the round trip keeps the size", printed);
            check(hlomem::tpu_size_function{}(*shape) == hlomem::tpu_size_function{}(*again), "the round trip keeps the TPU size", printed);
            check(hlomem::xla_size_function{}(*shape) >= 0, "sizes are not negative", printed);
            if (shape->is_array()) {
                check(hlomem::array_size(*shape) == hlomem::array_size(*again), "the round trip keeps the padded size", printed);
                check(hlomem::unpadded_byte_size(*shape) <= hlomem::array_size(*shape) ||
                          (shape->has_layout() && shape->layout().element_size_in_bits != 0),
                      "padding is not negative", printed);
            }
        } catch (hlomem::shape_error const&) {
            check(shape->is_dynamic(), "only a dynamic shape has no size", printed);
        }
    }

    auto layout = hlomem::try_parse_layout(text, "<fuzz>");
    if (!layout) {
        hlomem_fuzz::check_error(layout.error(), text, "<fuzz>");
    } else {
        std::string const printed = hlomem::to_string(*layout);
        auto again = hlomem::try_parse_layout(printed, "<printed>");
        if (!again) hlomem_fuzz::fail("a printed layout parses", printed + "\n" + again.error().to_string());
        check(hlomem::to_string(*again) == printed, "a layout round-trips", printed);
    }

    auto index = hlomem::try_parse_shape_index(text, "<fuzz>");
    if (!index) {
        hlomem_fuzz::check_error(index.error(), text, "<fuzz>");
    } else {
        std::string const printed = hlomem::to_string(*index);
        auto again = hlomem::try_parse_shape_index(printed);
        check(again && hlomem::to_string(*again) == printed, "a shape index round-trips", printed);
    }
    return 0;
}
