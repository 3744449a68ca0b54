// tour_support.hpp: what the program check_docs makes of README.md's tour (check_docs.cpp, tour)
// calls: check() for each value comment, finish() at the end.
#ifndef HLOMEM_TESTS_DOCS_TOUR_SUPPORT_HPP
#define HLOMEM_TESTS_DOCS_TOUR_SUPPORT_HPP

#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace hlomem_tour {

inline int checks = 0;
inline int failures = 0;

/// a == e, for integers of different signedness too (a size_t against the README's 10).
template <class A, class E>
bool equal(A const& a, E const& e) {
    if constexpr (std::is_integral_v<A> && std::is_integral_v<E> && !std::is_same_v<A, bool> && !std::is_same_v<E, bool>) {
        if constexpr (std::is_signed_v<A> == std::is_signed_v<E>) {
            return a == e;
        } else if constexpr (std::is_signed_v<A>) {
            return a >= 0 && static_cast<std::make_unsigned_t<A>>(a) == e;
        } else {
            return e >= 0 && a == static_cast<std::make_unsigned_t<E>>(e);
        }
    } else {
        return a == e;
    }
}

template <class T, class = void>
struct streamable : std::false_type {};
template <class T>
struct streamable<T, std::void_t<decltype(std::declval<std::ostream&>() << std::declval<T const&>())>> : std::true_type {};
template <class T, class = void>
struct has_to_string : std::false_type {};
template <class T>
struct has_to_string<T, std::void_t<decltype(to_string(std::declval<T const&>()))>> : std::true_type {};

/// The value as a failed check shows it.
template <class T>
std::string shown(T const& v) {
    std::ostringstream out;
    if constexpr (std::is_same_v<T, bool>) {
        out << (v ? "true" : "false");
    } else if constexpr (std::is_enum_v<T> && has_to_string<T>::value) {
        out << to_string(v);
    } else if constexpr (std::is_enum_v<T>) {
        out << static_cast<long long>(v);
    } else if constexpr (streamable<T>::value) {
        out << v;
    } else {
        out << "(a value that does not print)";
    }
    return out.str();
}

/// The README's line `line` states that `expression` is `stated`.
template <class A, class E>
void check(int line, char const* expression, char const* stated, A const& actual, E const& expected) {
    ++checks;
    if (equal(actual, expected)) return;
    ++failures;
    std::cerr << "README.md:" << line << ": " << expression << " is " << shown(actual) << "; the README says " << stated
              << "\n";
}

inline int finish(char const* file, int stated) {
    if (checks != stated) {
        std::cerr << file << ": " << stated << " values stated, " << checks << " checked\n";
        return 1;
    }
    std::cout << file << ": " << checks - failures << " of " << checks << " stated values hold\n";
    return failures ? 1 : 0;
}

}  // namespace hlomem_tour

#endif  // HLOMEM_TESTS_DOCS_TOUR_SUPPORT_HPP
