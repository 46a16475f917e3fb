// A minimal std::unique_ptr and std::make_unique, for fixtures that must not
// depend on the host's standard library.
#pragma once
namespace std {
template <class T> class unique_ptr {
public:
  unique_ptr() = default;
  explicit unique_ptr(T *p) : p_(p) {}
  template <class U> unique_ptr(unique_ptr<U> &&o) : p_(o.release()) {}
  ~unique_ptr() { delete p_; }
  T *operator->() const { return p_; }
  T &operator*() const { return *p_; }
  T *release() {
    T *p = p_;
    p_ = nullptr;
    return p;
  }

private:
  T *p_ = nullptr;
};
template <class T, class... A> unique_ptr<T> make_unique(A &&...a) {
  return unique_ptr<T>(new T(static_cast<A &&>(a)...));
}
} // namespace std
