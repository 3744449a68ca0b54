// hlomem/core/version.hpp: the library version.
#ifndef HLOMEM_CORE_VERSION_HPP
#define HLOMEM_CORE_VERSION_HPP

#define HLOMEM_VERSION_MAJOR 0
#define HLOMEM_VERSION_MINOR 1
#define HLOMEM_VERSION_PATCH 0
#define HLOMEM_VERSION_STRING "0.1.0"

#endif  // HLOMEM_CORE_VERSION_HPP
