// Mock pybind11/pybind11.h: PYBIND11_MODULE in the shape pybind11's
// expands to (a `pybind11_init_<name>(pybind11::module_ &)` called from
// PyInit_<name>), and module_::def.
#pragma once

namespace pybind11 {
class module_ {
public:
  template <typename Func, typename... Extra>
  module_ &def(const char *name, Func &&f, const Extra &...extra) {
    return *this;
  }
  static module_ create_extension_module(const char *name, const char *doc,
                                         void *def);
};
struct arg {
  explicit arg(const char *name) {}
};
} // namespace pybind11

#define PYBIND11_MODULE(name, variable)                                        \
  static void pybind11_init_##name(::pybind11::module_ &);                     \
  extern "C" void *PyInit_##name() {                                           \
    auto m = ::pybind11::module_::create_extension_module(#name, nullptr,      \
                                                          nullptr);           \
    pybind11_init_##name(m);                                                   \
    return nullptr;                                                            \
  }                                                                            \
  void pybind11_init_##name(::pybind11::module_ &(variable))
