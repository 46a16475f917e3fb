//===- PyConditions.h - What a Python value may be, and catalog lookups -*-===//
//
// Python has no static types, so the analysis tracks a few facts about each
// value ("a tensor", "a CPU tensor", "host data", "a CUDA device", "a
// stream", "derived from a tensor shape", "instances of these classes") from
// how it was made: torch factory calls, tensor methods, literals,
// constructors, annotations. A fact that is not known is left unknown, and
// the catalog's python_when conditions decide what unknown means (see
// docs/python.md). This file also indexes the catalog's Python entries by
// dotted name and by method name.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_PYCONDITIONS_H
#define CAPTURE_LINT_PYTHON_PYCONDITIONS_H

#include "PySource.h"
#include "capture_lint/Catalog.h"

#include <map>
#include <string>
#include <vector>

namespace capture_lint::python {

struct PyClass;
struct PyFunction;
class PyProgram;

enum ValueKind : unsigned {
  VTensor = 1u << 0,     // a tensor, possibly on the device
  VCpuTensor = 1u << 1,  // a tensor known to be on the host
  VHostData = 1u << 2,   // a Python list, tuple or number
  VCudaDevice = 1u << 3, // "cuda", "cuda:0", torch.device("cuda")
  VCpuDevice = 1u << 4,  // "cpu"
  VStream = 1u << 5,
  VEvent = 1u << 6,
  VBoolMask = 1u << 7, // a comparison of tensors (mask indexing)
  VString = 1u << 8,
  VNotTensor = 1u << 9, // known not to be a tensor (bool, shape, None, ...)
  /// Annotated with a type that is no tensor (`name: str`, `k: int`,
  /// `pg: ProcessGroup`): its methods are that type's, not a tensor's.
  VTypedNotTensor = 1u << 10,
};

struct PyValue {
  unsigned Kinds = 0;
  /// Derived from a tensor shape: the expression that read it.
  std::string ShapeRead;
  /// Derived from a value the analysis cannot see (a parameter, an
  /// attribute, a global, what an unknown call returns): the expression
  /// that read it. A branch on it may go either way under capture.
  std::string Opaque;
  /// Derived from host state the region updated (`self.step += 1`): the
  /// state as written, for capture-frozen-host-value.
  std::string Frozen;
  /// The result of the capture-status guard (True while capturing);
  /// Negated after `not`.
  bool Guard = false, GuardNegated = false;
  std::vector<PyClass *> Classes;      // instances of these classes
  std::vector<PyFunction *> Functions; // callables
  bool Container = false; // a ModuleList/Sequential/list of Classes
  /// Instances this function made (a constructor call here), not state
  /// from outside it: what their methods update dies with them.
  bool Fresh = false;
  /// Made by calling a library callable (`nn.Linear(4, 4)`): calling it runs
  /// library code, which the catalog covers, not program code left unseen.
  bool Library = false;
  /// A foreign library (`ctypes.CDLL(path)`, cffi's `ffi.dlopen(path)`):
  /// its attributes are the C functions it exports.
  bool NativeLibrary = false;
  /// The function's own parameter at this position (self counted), as
  /// passed in: a call of it runs whatever each caller passes.
  int Param = -1;
  /// A capture context (`torch.cuda.graph(g)`) made by this call of
  /// ContextSrc, held in a variable until a `with` enters it.
  TSNode ContextCall{};
  const PySource *ContextSrc = nullptr;

  bool known() const {
    return Kinds || !Classes.empty() || !Functions.empty() || Guard;
  }
  bool tensor() const { return Kinds & (VTensor | VCpuTensor | VBoolMask); }
  /// A tensor known to be on the host: reading it on the host copies
  /// nothing back from the device.
  bool hostTensor() const { return (Kinds & VCpuTensor) && !(Kinds & VTensor); }
  /// A tensor that may be on the device.
  bool deviceTensor() const { return tensor() && !hostTensor(); }
  void merge(const PyValue &O);
};

/// What calling \p V runs: its functions, and the forward (or __call__) of
/// the instances of classes it may hold.
std::vector<PyFunction *> callsRun(PyProgram &Prog, const PyValue &V);

/// The catalog's Python entries.
class PyCatalog {
public:
  explicit PyCatalog(const Catalog &Cat);

  /// Entries of a module-level function or builtin ("torch.cuda.synchronize",
  /// "builtins.int").
  std::vector<const ApiEntry *> function(const std::string &Dotted) const;
  /// Entries of a method name ("item"), with the class each belongs to.
  std::vector<std::pair<std::string, const ApiEntry *>>
  method(const std::string &Name) const;
  const RegionApi *region(const std::string &Dotted) const;
  /// A region begin/end entry named as a method ("capture_begin").
  const RegionApi *regionMethod(const std::string &Name) const;
  bool isGuard(const std::string &Dotted) const;
  /// Function notes (wrapper, captured, safe, ...) by dotted name.
  const FunctionNote *note(const std::string &Dotted) const;

  // What torch's functions and methods return, from the catalog's name
  // lists (torch_python.json; a project's catalog may add to them).
  /// Whether a dotted torch name returns a tensor ("torch.zeros",
  /// "torch.nn.functional.relu"): not one of non_tensor_functions.
  bool returnsTensor(llvm::StringRef Dotted) const;
  /// Factories that create on the default device when no device= is given
  /// (torch.arange, torch.zeros, torch.rand, ...): the CPU, unless the
  /// program changes the default (setsDefaultDevice).
  bool defaultDeviceFactory(llvm::StringRef Dotted) const {
    return Cat.listed(NameList::DefaultDeviceFactories, Dotted);
  }
  /// torch functions that return a tensor on the host whatever the default
  /// device (torch.from_numpy, torch.get_rng_state).
  bool hostTensorFunction(llvm::StringRef Dotted) const {
    return Cat.listed(NameList::HostTensorFunctions, Dotted);
  }
  /// Methods of library objects that return a tensor on the host
  /// (a generator's get_state).
  bool hostTensorMethod(llvm::StringRef Method) const {
    return Cat.listed(NameList::HostTensorMethods, Method);
  }
  /// Functions and methods that load a native library (ctypes.CDLL, cffi's
  /// ffi.dlopen): calls of its functions go into C++.
  bool nativeLibraryLoader(llvm::StringRef Dotted) const {
    return Cat.listed(NameList::NativeLibraryLoaders, Dotted);
  }
  bool nativeLibraryLoaderMethod(llvm::StringRef Method) const {
    return Cat.listed(NameList::NativeLibraryLoaderMethods, Method);
  }
  /// Tensor methods whose result is not a tensor (item, size, tolist, ...).
  bool methodReturnsNonTensor(llvm::StringRef Method) const {
    return Cat.listed(NameList::NonTensorMethods, Method);
  }
  /// Methods that only tensors have in practice (sum, view, softmax, ...).
  bool tensorOnlyMethod(llvm::StringRef Method) const {
    return Cat.listed(NameList::TensorOnlyMethods, Method);
  }
  /// Collectives every rank of a group must make together
  /// (torch.distributed.all_reduce, ...).
  bool collective(llvm::StringRef Dotted) const {
    return Cat.listed(NameList::Collectives, Dotted);
  }
  /// nn.Module methods that return the module (to, cuda, eval, ...).
  bool returnsSelf(llvm::StringRef Method) const {
    return Cat.listed(NameList::SelfReturningMethods, Method);
  }

  const Catalog &catalog() const { return Cat; }

private:
  const Catalog &Cat;
  std::map<std::string, std::vector<const ApiEntry *>> Functions;
  std::map<std::string, std::vector<std::pair<std::string, const ApiEntry *>>>
      Methods;
  std::map<std::string, const RegionApi *> Regions, RegionMethods;
};

/// The arguments of one call, as far as they are known.
struct PyCallFacts {
  const PyValue *Receiver = nullptr; // for method calls
  std::string Method;                // the method name, for method calls
  std::vector<PyValue> Args;         // positional
  std::map<std::string, PyValue> Keywords;
};

/// Whether every python_when condition of \p E holds for \p Call. The
/// "unjoined" condition is left to the caller (it is about the region).
bool conditionsHold(const ApiEntry &E, const PyCallFacts &Call);

/// A kind one of the walked function's parameters must have for a hazard to
/// be one: the hazard is then its callers', where they pass such a value
/// (`def stage(ids): return ids.cuda()` stages host memory when a caller
/// passes a CPU tensor).
struct PyParamNeed {
  unsigned Index = 0; // the parameter's position (self counted)
  std::string Kind;   // a python_when kind: "cpu-tensor", "bool-mask", ...
};

/// conditionsHold, except that with \p Needs a condition on a parameter the
/// walk knows nothing about holds, with what the parameter must be added to
/// \p Needs.
bool conditionsHoldIf(const ApiEntry &E, const PyCallFacts &Call,
                      std::vector<PyParamNeed> *Needs);

/// Whether \p V has a python_when kind ("tensor", "cpu-tensor", "bool-mask").
bool hasKind(const PyValue &V, llvm::StringRef Kind);

/// Whether \p V is one of the function's parameters, as passed in, with
/// nothing known about it.
bool unknownParameter(const PyValue &V);

/// Whether a file's text changes the default device of factories
/// (torch.set_default_device, set_default_tensor_type, `with
/// torch.device(...)`) to something other than "cpu" or "meta".
bool setsDefaultDevice(llvm::StringRef Text);

} // namespace capture_lint::python

#endif // CAPTURE_LINT_PYTHON_PYCONDITIONS_H
