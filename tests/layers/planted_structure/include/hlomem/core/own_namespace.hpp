// A header whose own helpers are in a namespace of their own name, not `detail`: the structure
// check (tests/layers/check_structure.cmake) must refuse it.
namespace hlomem {
namespace own_namespace_detail {
inline int helper() { return 1; }
}  // namespace own_namespace_detail
}  // namespace hlomem
