// hlomem/core/size_function.hpp: the size functions — which one gives the bytes a buffer of a shape
// takes, the bytes under it, and which one a set of shapes was written with.
//
//   hlomem::bytes_under(s, hlomem::size_function_kind::tpu)   // `(f32[8], s32[])`: 32
//   hlomem::bytes_under(s, hlomem::size_function_kind::xla)   // the same tuple: 16
//   hlomem::size_function_of(ba.shapes)                        // tpu when a layout is tiled
//
// The three functions (core/shape_size.hpp holds their arithmetic):
//   xla       XLA's generic ShapeUtil::ByteSizeOf: ArraySize with the layout's tiles, tuples as
//             tables of 8-byte pointers (GPU, CPU);
//   tpu       what TPU dumps show: ArraySize, tuple tables of roundup(4n, 32) bytes;
//   unpadded  no tiling padding (what XProf and TPU out-of-memory reports call unpadded), tuples
//             as tables of 8-byte pointers.
// Sizes printed the TPU way (`570.00M`) go with tpu, the others print the XLA way (`570.00MiB`);
// see core/printed_size.hpp.
#ifndef HLOMEM_CORE_SIZE_FUNCTION_HPP
#define HLOMEM_CORE_SIZE_FUNCTION_HPP

#include <cstdint>
#include <optional>
#include <string_view>

#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_size.hpp>

namespace hlomem {

/// Which size function gives the bytes a buffer of a shape takes.
enum class size_function_kind : std::uint8_t {
    xla,       ///< XLA's generic one: ArraySize, tuples at 8 bytes per element (GPU, CPU)
    tpu,       ///< what TPU dumps show: ArraySize, tuple tables of roundup(4n, 32) bytes
    unpadded,  ///< no tiling padding; tuples at 8 bytes per element
};

/// `xla`, `tpu`, `unpadded`: the names `--size-function` and the JSON key `size_function` use.
constexpr std::string_view to_string(size_function_kind k) noexcept {
    switch (k) {
        case size_function_kind::xla: return "xla";
        case size_function_kind::tpu: return "tpu";
        case size_function_kind::unpadded: return "unpadded";
    }
    return "xla";
}

/// The size function an assignment is checked or drawn under, by the name `--size-function` and
/// Python's `size_function=` take: `xla` or `tpu` (a buffer's allocated bytes); nullopt for any other
/// name (`unpadded` sizes no allocation).
constexpr std::optional<size_function_kind> size_function_named(std::string_view name) noexcept {
    if (name == "xla") return size_function_kind::xla;
    if (name == "tpu") return size_function_kind::tpu;
    return std::nullopt;
}

/// The bytes one buffer of `s` takes under `kind`; throws shape_error when it has none (an
/// unbounded dynamic dimension, a size past int64).
template <class P>
std::int64_t bytes_under(basic_shape<P> const& s, size_function_kind kind) {
    switch (kind) {
        case size_function_kind::tpu: return tpu_size_function{}(s);
        case size_function_kind::unpadded: return unpadded_byte_size(s);
        case size_function_kind::xla: break;
    }
    return xla_size_function{}(s);
}

/// The size function shapes were written with: tpu when any layout among them, tuple elements
/// included, is tiled (`{1,0:T(8,128)}`: TPU dumps and modules), else xla (GPU and CPU ones).
/// `shapes` is any range of shapes: a dump's or a module's shape table.
template <class Range>
size_function_kind size_function_of(Range const& shapes) {
    auto tiled = [](auto const& self, auto const& s) -> bool {
        if (s.has_layout() && !s.layout().tiles.empty()) return true;
        for (auto const& e : s.tuple_shapes()) {
            if (self(self, e)) return true;
        }
        return false;
    };
    for (auto const& s : shapes) {
        if (tiled(tiled, s)) return size_function_kind::tpu;
    }
    return size_function_kind::xla;
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_SIZE_FUNCTION_HPP
