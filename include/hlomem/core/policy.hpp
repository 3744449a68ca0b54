// hlomem/core/policy.hpp: the policies that the runtime model types (`basic_shape<Policy>`, ...) take.
//
// A policy bundles three choices:
//   int_type        the integer used for extents, minor_to_major entries and tile sizes;
//   vector_type<T>  the sequence container the model stores lists in;
//   string_type     owned strings (std::string) or views into the caller's input
//                   (std::string_view, valid only as long as that input lives).
// Arithmetic on sizes is always done in std::int64_t whatever int_type is, so a narrow
// int_type only narrows storage; the parser rejects extents that do not fit it.
#ifndef HLOMEM_CORE_POLICY_HPP
#define HLOMEM_CORE_POLICY_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace hlomem {

/// Owns everything: std::int64_t, std::vector, std::string. The model outlives the input text.
struct default_policy {
    using int_type = std::int64_t;
    template <class T>
    using vector_type = std::vector<T>;
    using string_type = std::string;
};

/// Keeps names as views into the parsed input: no allocation per name, but the input buffer
/// must outlive the model.
struct view_policy {
    using int_type = std::int64_t;
    template <class T>
    using vector_type = std::vector<T>;
    using string_type = std::string_view;
};

/// HLOMEM_FOR_EACH_POLICY(X, EXTERN): `X(EXTERN, default_policy) X(EXTERN, view_policy)`, the
/// two policies for which the separately compiled libraries instantiate their templates
/// (hlomem::parsers: parser/api.hpp; hlomem::compiled: output/instantiate.hpp). A header lists its
/// instantiations in a macro X(EXTERN, P); the library expands it with EXTERN empty, every other
/// translation unit of such a program with `extern`.
#define HLOMEM_FOR_EACH_POLICY(X, EXTERN) X(EXTERN, default_policy) X(EXTERN, view_policy)

/// HLOMEM_FOR_EACH_INSTANTIATED_POLICY(X): `X(, P)` for each policy a library's translation unit
/// compiles (parser/instantiate.hpp, output/instantiate.hpp): view_policy alone under
/// HLOMEM_INSTANTIATE_VIEW_POLICY, default_policy alone under HLOMEM_INSTANTIATE_DEFAULT_POLICY
/// (defined on the command line, or before the first hlomem header), both otherwise. A program
/// that reads with one policy, as the tool reads everything with view_policy, links the library of
/// that policy alone (CMake: hlomem_add_compiled_library's POLICY) and compiles half the templates;
/// a template of the other policy that it used would be an undefined reference, not a silent copy.
#if defined(HLOMEM_INSTANTIATE_VIEW_POLICY) && defined(HLOMEM_INSTANTIATE_DEFAULT_POLICY)
#error "hlomem: define at most one of HLOMEM_INSTANTIATE_VIEW_POLICY and HLOMEM_INSTANTIATE_DEFAULT_POLICY (neither: both)"
#elif defined(HLOMEM_INSTANTIATE_VIEW_POLICY)
#define HLOMEM_FOR_EACH_INSTANTIATED_POLICY(X) X(, view_policy)
#elif defined(HLOMEM_INSTANTIATE_DEFAULT_POLICY)
#define HLOMEM_FOR_EACH_INSTANTIATED_POLICY(X) X(, default_policy)
#else
#define HLOMEM_FOR_EACH_INSTANTIATED_POLICY(X) X(, default_policy) X(, view_policy)
#endif

namespace detail {
template <class P>
constexpr bool check_policy() {
    static_assert(std::is_integral_v<typename P::int_type> && std::is_signed_v<typename P::int_type>,
                  "hlomem: Policy::int_type must be a signed integer type");
    static_assert(sizeof(typename P::int_type) >= 4, "hlomem: Policy::int_type must be at least 32 bits");
    return true;
}
}  // namespace detail

}  // namespace hlomem

#endif  // HLOMEM_CORE_POLICY_HPP
