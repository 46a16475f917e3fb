//===- NativeBindings.h - C++ functions Python calls by name ----*- C++ -*-===//
//
// A translation unit can bind its functions to names Python code calls:
// PyTorch operators (`TORCH_LIBRARY(ns, m) { m.def("op", &fn); }`,
// `TORCH_LIBRARY_IMPL(ns, CUDA, m) { m.impl("op", &fn); }`), called as
// `torch.ops.ns.op(...)`, and pybind11 module functions
// (`PYBIND11_MODULE(ext, m) { m.def("op", &fn); }`), called as
// `ext.op(...)`, and `extern "C"` functions, called through ctypes or cffi
// (`lib = ctypes.CDLL(path); lib.op(...)`). Each binding is a key both
// languages compute alike (nativeBindingKey) and the function it runs, so the
// whole-program phase can follow a Python capture region into C++
// (tool/driver/NativeJoin.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_NATIVEBINDINGS_H
#define CAPTURE_LINT_NATIVEBINDINGS_H

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace capture_lint {

struct NativeBinding {
  /// "torch.ops.NS.OP" for an operator, "MODULE.NAME" for a pybind11
  /// module function, "extern-c:NAME" for an `extern "C"` function.
  std::string Key;
  const clang::FunctionDecl *Function = nullptr; // its definition
  clang::SourceLocation Loc;                     // the m.def / m.impl call
  /// What binds it, for the note: "TORCH_LIBRARY_IMPL(myext, CUDA)".
  std::string How;
  /// TORCH_LIBRARY_IMPL's dispatch key ("CUDA", "CPU"); "" otherwise.
  std::string DispatchKey;
};

/// Whether PyTorch may run a kernel registered for \p DispatchKey on CUDA
/// tensors, as in a capture: no key (TORCH_LIBRARY's m.def, pybind11),
/// a CUDA key, a composite or the Autograd alias; not another device's.
bool runsOnCudaTensors(llvm::StringRef DispatchKey);

/// The bindings of user code in \p Ctx whose function has a body here.
std::vector<NativeBinding> findNativeBindings(clang::ASTContext &Ctx);

} // namespace capture_lint

#endif // CAPTURE_LINT_NATIVEBINDINGS_H
