//===- PyConditions.cpp - What a Python value may be, and catalog lookups -===//

#include "PyConditions.h"
#include "PyProgram.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cctype>

namespace capture_lint::python {

std::vector<PyFunction *> callsRun(PyProgram &Prog, const PyValue &V) {
  std::vector<PyFunction *> Out = V.Functions;
  for (PyClass *C : V.Classes) { // an instance: its forward or __call__
    PyFunction *F = Prog.method(C, "forward");
    if (!F)
      F = Prog.method(C, "__call__");
    if (F)
      Out.push_back(F);
  }
  return Out;
}

void PyValue::merge(const PyValue &O) {
  Kinds |= O.Kinds;
  if (ShapeRead.empty())
    ShapeRead = O.ShapeRead;
  if (Opaque.empty())
    Opaque = O.Opaque;
  if (Frozen.empty())
    Frozen = O.Frozen;
  // Each once: values merge again at every join of paths.
  for (PyClass *C : O.Classes)
    if (std::find(Classes.begin(), Classes.end(), C) == Classes.end())
      Classes.push_back(C);
  for (PyFunction *F : O.Functions)
    if (std::find(Functions.begin(), Functions.end(), F) == Functions.end())
      Functions.push_back(F);
  Container |= O.Container;
  Fresh |= O.Fresh; // may be made here: not taken for outside state
  Library |= O.Library;
  NativeLibrary |= O.NativeLibrary;
  if (Param < 0)
    Param = O.Param;
  if (!ContextSrc) {
    ContextCall = O.ContextCall;
    ContextSrc = O.ContextSrc;
  }
}

/// "torch.Tensor.to(cpu)" -> {"torch.Tensor", "to"}; {"", ""} when the
/// name is a module-level function.
static std::pair<std::string, std::string> methodOf(llvm::StringRef Name) {
  Name = Name.split('(').first;
  auto [Owner, Method] = Name.rsplit('.');
  if (Method.empty())
    return {"", ""};
  llvm::StringRef Class = Owner.rsplit('.').second;
  if (Class.empty())
    Class = Owner;
  if (Class.empty() || !std::isupper(static_cast<unsigned char>(Class[0])))
    return {"", ""};
  return {Owner.str(), Method.str()};
}

static bool isPythonName(llvm::StringRef Name) {
  return !Name.contains("::") && Name.contains('.');
}

PyCatalog::PyCatalog(const Catalog &CatIn) : Cat(CatIn) {
  for (const auto &E : Cat.apis()) {
    std::vector<std::string> Names{E->Name};
    Names.insert(Names.end(), E->Variants.begin(), E->Variants.end());
    for (const std::string &N : Names) {
      if (!isPythonName(N))
        continue;
      auto [Class, Method] = methodOf(N);
      if (Method.empty())
        Functions[llvm::StringRef(N).split('(').first.str()].push_back(E.get());
      else
        Methods[Method].push_back({Class, E.get()});
    }
  }
  for (const auto &R : Cat.regions()) {
    std::vector<std::string> Names{R->Name};
    Names.insert(Names.end(), R->Variants.begin(), R->Variants.end());
    for (const std::string &N : Names) {
      if (!isPythonName(N))
        continue;
      Regions[N] = R.get();
      auto [Class, Method] = methodOf(N);
      if (!Method.empty())
        RegionMethods[Method] = R.get();
    }
  }
}

std::vector<const ApiEntry *>
PyCatalog::function(const std::string &Dotted) const {
  auto It = Functions.find(Dotted);
  return It == Functions.end() ? std::vector<const ApiEntry *>{} : It->second;
}

std::vector<std::pair<std::string, const ApiEntry *>>
PyCatalog::method(const std::string &Name) const {
  auto It = Methods.find(Name);
  return It == Methods.end()
             ? std::vector<std::pair<std::string, const ApiEntry *>>{}
             : It->second;
}

const RegionApi *PyCatalog::region(const std::string &Dotted) const {
  auto It = Regions.find(Dotted);
  return It == Regions.end() ? nullptr : It->second;
}

const RegionApi *PyCatalog::regionMethod(const std::string &Name) const {
  auto It = RegionMethods.find(Name);
  return It == RegionMethods.end() ? nullptr : It->second;
}

bool PyCatalog::isGuard(const std::string &Dotted) const {
  if (Cat.findGuard(Dotted))
    return true;
  const FunctionNote *N = Cat.findFunction(Dotted);
  return N && N->Kind == FunctionNote::CapturePredicate;
}

const FunctionNote *PyCatalog::note(const std::string &Dotted) const {
  return Cat.findFunction(Dotted);
}

/// Method names too generic to assume a receiver of unknown kind is the
/// catalog's class.
static bool genericMethod(llvm::StringRef M) {
  return M == "query" || M == "to" || M == "cuda" || M == "elapsed_time" ||
         M == "seed" || M == "manual_seed" || M == "get_state" ||
         M == "set_state" || M == "initial_seed";
}

static bool hasKind(const PyValue &V, llvm::StringRef Kind, bool Keyword) {
  if (Kind == "tensor") // one that may be on the device
    return V.deviceTensor();
  if (Kind == "cpu-tensor")
    return V.hostTensor();
  if (Kind == "host-data")
    return V.Kinds & VHostData;
  if (Kind == "cuda-device")
    // A device keyword whose value is not known is taken as the device: in a
    // capture region it is one.
    return (V.Kinds & VCudaDevice) ||
           (Keyword && !(V.Kinds & (VCpuDevice | VNotTensor)) &&
            !(V.Kinds & VString));
  if (Kind == "cpu-device")
    return V.Kinds & VCpuDevice;
  if (Kind == "stream")
    return V.Kinds & VStream;
  if (Kind == "event")
    return V.Kinds & VEvent;
  if (Kind == "bool-mask")
    return V.Kinds & VBoolMask;
  if (Kind == "persistent") // an object from outside the caller
    return !V.Fresh;
  return false;
}

bool hasKind(const PyValue &V, llvm::StringRef Kind) {
  return hasKind(V, Kind, /*Keyword=*/false);
}

bool unknownParameter(const PyValue &V) { return V.Param >= 0 && !V.known(); }

/// Whether \p V has \p Kind; when it is an unknown parameter and \p Needs
/// is given, true with the need recorded.
static bool hasOrNeeds(const PyValue &V, llvm::StringRef Kind,
                       std::vector<PyParamNeed> *Needs) {
  if (hasKind(V, Kind, false))
    return true;
  if (!Needs || !unknownParameter(V))
    return false;
  Needs->push_back({static_cast<unsigned>(V.Param), Kind.str()});
  return true;
}

bool conditionsHoldIf(const ApiEntry &E, const PyCallFacts &Call,
                      std::vector<PyParamNeed> *Needs) {
  for (const std::string &C : E.PythonWhen) {
    llvm::StringRef Cond = C;
    if (Cond == "unjoined")
      continue;
    auto [What, Rest] = Cond.split(':');
    if (What == "receiver") {
      if (!Call.Receiver)
        return false;
      const PyValue &R = *Call.Receiver;
      bool Unknown = !R.known() && !genericMethod(Call.Method);
      if (Rest == "tensor" && R.hostTensor())
        return false;
      if (Rest != "cpu-tensor" && Unknown)
        continue;
      if (!hasOrNeeds(R, Rest, Needs))
        return false;
      continue;
    }
    if (What == "args") { // before argN
      unsigned Count = 0;
      Rest.getAsInteger(10, Count);
      if (Call.Args.size() != Count || !Call.Keywords.empty())
        return false;
      continue;
    }
    if (What.consume_front("arg")) {
      unsigned Index = 0;
      What.getAsInteger(10, Index);
      bool Any = false;
      for (size_t I = Index; I < Call.Args.size() && !Any; ++I)
        Any = hasKind(Call.Args[I], Rest, false);
      if (!Any && !(Index < Call.Args.size() &&
                    hasOrNeeds(Call.Args[Index], Rest, Needs)))
        return false;
      continue;
    }
    if (What == "no-keyword") {
      if (Call.Keywords.count(Rest.str()))
        return false;
      continue;
    }
    if (What == "keyword") {
      auto [Name, Kind] = Rest.split(':');
      auto It = Call.Keywords.find(Name.str());
      if (It == Call.Keywords.end() || !hasKind(It->second, Kind, true))
        return false;
      continue;
    }
    return false;
  }
  return true;
}

bool conditionsHold(const ApiEntry &E, const PyCallFacts &Call) {
  return conditionsHoldIf(E, Call, nullptr);
}

/// Whether some `Call(` in \p Text is given anything but the host or meta
/// device ("cpu", "meta": what model code uses to build weights lazily,
/// which leaves the factories on the host).
static bool setsOtherThanHost(llvm::StringRef Text, llvm::StringRef Call) {
  for (size_t At = Text.find(Call); At != llvm::StringRef::npos;
       At = Text.find(Call, At + Call.size())) {
    llvm::StringRef Arg = Text.substr(At + Call.size()).ltrim();
    bool Host = false;
    for (const char *Literal : {"\"cpu\"", "'cpu'", "\"meta\"", "'meta'"})
      Host |= Arg.starts_with(Literal);
    if (!Host)
      return true;
  }
  return false;
}

bool setsDefaultDevice(llvm::StringRef Text) {
  return setsOtherThanHost(Text, "set_default_device(") ||
         Text.contains("set_default_tensor_type") ||
         setsOtherThanHost(Text, "with torch.device(");
}

bool PyCatalog::returnsTensor(llvm::StringRef Dotted) const {
  if (Cat.listed(NameList::NonTensorFunctions, Dotted))
    return false;
  llvm::StringRef Name = Dotted;
  if (Name.consume_front("torch.nn.functional."))
    return !Name.contains('.');
  if (!Name.consume_front("torch."))
    return false;
  if (Name.contains('.'))
    return false; // torch.cuda.*, torch.distributed.*, ...
  // Predicates and queries of global state (torch.is_grad_enabled,
  // torch.are_deterministic_algorithms_enabled) return Python values.
  for (const char *Query : {"_", "is_", "are_", "has_", "get_", "set_", "use_"})
    if (Name.starts_with(Query))
      return false;
  return true;
}

} // namespace capture_lint::python
