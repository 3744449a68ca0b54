// hlomem/detail/box.hpp: an optional value on the heap with value semantics.
// Used where the model is recursive (a layout's physical shape `P(shape)` is a shape, whose
// layout may in turn hold one): copying a box copies its value, comparing compares values.
#ifndef HLOMEM_DETAIL_BOX_HPP
#define HLOMEM_DETAIL_BOX_HPP

#include <memory>
#include <utility>

namespace hlomem::detail {

template <class T>
class box {
public:
    box() noexcept = default;
    box(T value) : p_(std::make_unique<T>(std::move(value))) {}
    box(box const& other) : p_(other.p_ ? std::make_unique<T>(*other.p_) : nullptr) {}
    box(box&& other) noexcept = default;
    box& operator=(box const& other) {
        if (this != &other) p_ = other.p_ ? std::make_unique<T>(*other.p_) : nullptr;
        return *this;
    }
    box& operator=(box&& other) noexcept = default;
    ~box() = default;

    explicit operator bool() const noexcept { return p_ != nullptr; }
    bool has_value() const noexcept { return p_ != nullptr; }
    T& operator*() const noexcept { return *p_; }
    T* operator->() const noexcept { return p_.get(); }
    T* get() const noexcept { return p_.get(); }
    T& emplace() {
        p_ = std::make_unique<T>();
        return *p_;
    }
    void reset() noexcept { p_.reset(); }

    friend bool operator==(box const& a, box const& b) {
        return a.p_ == nullptr ? b.p_ == nullptr : (b.p_ != nullptr && *a.p_ == *b.p_);
    }
    friend bool operator!=(box const& a, box const& b) { return !(a == b); }

private:
    std::unique_ptr<T> p_;
};

}  // namespace hlomem::detail

#endif  // HLOMEM_DETAIL_BOX_HPP
