// Stands in for a higher layer's header in the layer check's violation test (tests/layers).
#ifndef HLOMEM_MEMORY_PEAK_HPP
#define HLOMEM_MEMORY_PEAK_HPP
#endif
