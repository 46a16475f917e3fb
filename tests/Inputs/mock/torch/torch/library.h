// Mock torch/library.h: the operator registration macros in the shape
// PyTorch's expand to (a static torch::detail::TorchLibraryInit naming the
// init function, the namespace and, for _IMPL, the dispatch key), the
// Library methods templated as PyTorch's are, and TORCH_FN.
#pragma once
#include <optional>

namespace c10 {
enum class DispatchKey { CPU, CUDA, Meta, AutogradCUDA, CompositeImplicitAutograd };
namespace impl {
constexpr bool dispatch_key_allowlist_check(DispatchKey) { return true; }
} // namespace impl
template <class FuncType, FuncType *func_ptr> struct CompileTimeFunctionPointer {};
} // namespace c10

#define TORCH_FN(func)                                                         \
  (::c10::CompileTimeFunctionPointer<decltype(func), func>())

namespace torch {
class Library {
public:
  enum Kind { DEF, IMPL, FRAGMENT };
  template <typename Schema> Library &def(Schema &&schema) & { return *this; }
  template <typename Schema, typename Func>
  Library &def(Schema &&schema, Func &&f) & { return *this; }
  template <typename Name, typename Func>
  Library &impl(Name &&name, Func &&f) & { return *this; }
};
namespace detail {
class TorchLibraryInit {
public:
  using InitFn = void(Library &);
  TorchLibraryInit(Library::Kind kind, InitFn *fn, const char *ns,
                   std::optional<c10::DispatchKey> k, const char *file,
                   unsigned line);
};
} // namespace detail
} // namespace torch

#define C10_CONCATENATE_IMPL(s1, s2) s1##s2
#define C10_CONCATENATE(s1, s2) C10_CONCATENATE_IMPL(s1, s2)
#define C10_UID __COUNTER__

#define TORCH_LIBRARY(ns, m)                                                   \
  static void TORCH_LIBRARY_init_##ns(torch::Library &);                       \
  static const torch::detail::TorchLibraryInit TORCH_LIBRARY_static_init_##ns( \
      torch::Library::DEF, &TORCH_LIBRARY_init_##ns, #ns, std::nullopt,        \
      __FILE__, __LINE__);                                                     \
  void TORCH_LIBRARY_init_##ns(torch::Library &m)

#define TORCH_LIBRARY_IMPL(ns, k, m) _TORCH_LIBRARY_IMPL(ns, k, m, C10_UID)
#define _TORCH_LIBRARY_IMPL(ns, k, m, uid)                                     \
  static void C10_CONCATENATE(TORCH_LIBRARY_IMPL_init_##ns##_##k##_,           \
                              uid)(torch::Library &);                          \
  static const torch::detail::TorchLibraryInit C10_CONCATENATE(                \
      TORCH_LIBRARY_IMPL_static_init_##ns##_##k##_, uid)(                      \
      torch::Library::IMPL,                                                    \
      (c10::impl::dispatch_key_allowlist_check(c10::DispatchKey::k)            \
           ? &C10_CONCATENATE(TORCH_LIBRARY_IMPL_init_##ns##_##k##_, uid)      \
           : [](torch::Library &) -> void {}),                                 \
      #ns, std::make_optional(c10::DispatchKey::k), __FILE__, __LINE__);       \
  void C10_CONCATENATE(TORCH_LIBRARY_IMPL_init_##ns##_##k##_,                  \
                       uid)(torch::Library & m)
