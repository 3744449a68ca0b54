// A core header that reaches up into memory/: the layer check must reject it (tests/layers).
#ifndef HLOMEM_CORE_BAD_HPP
#define HLOMEM_CORE_BAD_HPP
#include <hlomem/memory/peak.hpp>
#endif
