// A planted header of a layer with logic and no test file: `check_docs tests` must report it.
#ifndef HLOMEM_PLANTED_UNTESTED_HPP
#define HLOMEM_PLANTED_UNTESTED_HPP
inline int planted_twice(int x) { return 2 * x; }
#endif
