// hlomem/core.hpp: the core model: element types, layouts, shapes, their text, equality and validation,
// sizes, size functions and padding. No Boost.
#ifndef HLOMEM_CORE_HPP
#define HLOMEM_CORE_HPP

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/error.hpp>
#include <hlomem/core/human_bytes.hpp>
#include <hlomem/core/layout.hpp>
#include <hlomem/core/memory_space.hpp>
#include <hlomem/core/padding.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/policy_cast.hpp>
#include <hlomem/core/primitive_type.hpp>
#include <hlomem/core/result.hpp>
#include <hlomem/core/printed_size.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_equal.hpp>
#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/shape_table.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/core/shape_validate.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/core/static_shape.hpp>
#include <hlomem/core/tiling.hpp>
#include <hlomem/core/version.hpp>

#endif  // HLOMEM_CORE_HPP
