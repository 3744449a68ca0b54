// hlomem/core/result.hpp: `result<T, E>`, a value or the error that stopped its making: the one
// non-throwing return type of hlomem. `parse_result<T>` (core/error.hpp) is `result<T,
// parse_error_info>`, `load_result<T>` (load/input.hpp) is `result<T, load_error>`; both behave
// alike:
//
//   auto r = hlomem::try_parse_shape("f32[8,128]{1,0}");
//   if (!r) std::cerr << r.error() << '\n';   // has_value(), operator bool: false on an error
//   else use(*r);                             // *r, r->, r.value(): the value
//
// Reaching for the value of an error throws the exception of that error, never
// std::bad_variant_access: `throw_error(e)`, found by argument-dependent lookup beside E, throws
// parse_error for a parse_error_info and load_exception for a load_error. error() is only
// valid on an error.
#ifndef HLOMEM_CORE_RESULT_HPP
#define HLOMEM_CORE_RESULT_HPP

#include <utility>
#include <variant>

namespace hlomem {

/// A T, or the E that says why there is none.
template <class T, class E>
class result {
public:
    using value_type = T;
    using error_type = E;

    result(T value) : data_(std::in_place_index<0>, std::move(value)) {}
    result(E error) : data_(std::in_place_index<1>, std::move(error)) {}

    bool has_value() const noexcept { return data_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    /// The value; on an error, throws the error's exception (`throw_error(error())`).
    T& value() & {
        throw_if_error();
        return *std::get_if<0>(&data_);
    }
    T const& value() const& {
        throw_if_error();
        return *std::get_if<0>(&data_);
    }
    T&& value() && {
        throw_if_error();
        return std::move(*std::get_if<0>(&data_));
    }
    T& operator*() & { return value(); }
    T const& operator*() const& { return value(); }
    T&& operator*() && { return std::move(*this).value(); }
    T* operator->() { return &value(); }
    T const* operator->() const { return &value(); }

    /// The error; only valid when !has_value().
    E const& error() const { return std::get<1>(data_); }

private:
    void throw_if_error() const {
        if (!has_value()) throw_error(std::get<1>(data_));
    }
    std::variant<T, E> data_;
};

}  // namespace hlomem

#endif  // HLOMEM_CORE_RESULT_HPP
