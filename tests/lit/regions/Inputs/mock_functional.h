// A system-header stand-in for <functional> and <algorithm>: std::function
// and std::for_each, enough for the fixtures (no libstdc++ needed).
#pragma once
namespace std {
template <class T> struct remove_reference { typedef T type; };
template <class T> struct remove_reference<T &> { typedef T type; };
template <class T> T &&forward(typename remove_reference<T>::type &t) {
  return static_cast<T &&>(t);
}
template <class Sig> class function;
template <class R, class... A> class function<R(A...)> {
  struct Base {
    virtual ~Base() {}
    virtual R call(A...) = 0;
  };
  template <class F> struct Impl : Base {
    F f;
    Impl(F f) : f(f) {}
    R call(A... a) override { return f(a...); }
  };
  Base *impl = nullptr;

public:
  function() = default;
  template <class F> function(F f) : impl(new Impl<F>(f)) {}
  template <class F> function &operator=(F f) {
    impl = new Impl<F>(f);
    return *this;
  }
  R operator()(A... a) const { return impl->call(a...); }
  explicit operator bool() const { return impl != nullptr; }
};
template <class It, class F> F for_each(It first, It last, F f) {
  for (; first != last; ++first)
    f(*first);
  return f;
}
} // namespace std
