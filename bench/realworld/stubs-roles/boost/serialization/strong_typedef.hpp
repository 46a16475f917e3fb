/* Declaration-only stand-in for boost/serialization/strong_typedef.hpp
   (Boost is not installed here); written for capture-lint's
   roles-across-files measurement. */
#pragma once
#define BOOST_STRONG_TYPEDEF(T, D)                                   \
  struct D {                                                         \
    T t;                                                             \
    explicit D(const T &t_) : t(t_) {}                               \
    D() : t() {}                                                     \
    D &operator=(const T &rhs) { t = rhs; return *this; }            \
    operator const T &() const { return t; }                         \
    operator T &() { return t; }                                     \
    bool operator==(const D &rhs) const { return t == rhs.t; }       \
    bool operator<(const D &rhs) const { return t < rhs.t; }         \
  };
