//===- PyAnalysis.cpp - capture-lint for PyTorch Python code --------------===//
//
// The driver: loads the files (parsing only those that can open a region,
// plus the modules their regions call into), finds the regions, and turns
// each region's hazards into findings with the C++ checks' wording:
// "'x.item()' copies a device value to the host ...: in a global-mode
// capture it fails with ... and invalidates the capture; <fix>", or through
// a call, "call to 'Block.forward' reaches 'x.item()', which ...".
//
//===----------------------------------------------------------------------===//

#include "capture_lint/python/PyAnalysis.h"
#include "capture_lint/NameList.h"

#include "PyFiles.h"
#include "PyWalker.h"
#include "rules/Rules.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace capture_lint::python {

bool isPythonFile(llvm::StringRef Path) {
  return Path.ends_with(".py") || Path.ends_with(".pyi");
}

namespace {

/// A cheap test before parsing: can this file open a region at all?
bool mayOpenRegion(llvm::StringRef Text,
                   const std::vector<std::string> &Names) {
  if (Text.contains("graph") || Text.contains("capture"))
    return true;
  for (const std::string &N : Names)
    if (Text.contains(N))
      return true;
  return false;
}

/// "'self.max_symbols is None' is true" / "... is false".
std::string pathPhrase(const PyPathCondition &P) {
  return "'" + P.Text + "' is " + (P.Holds ? "true" : "false");
}

/// What \p H does in \p R, in the words of its check's rule.
Described ruleVerdict(const PyHazard &H, const PyRegion &R) {
  switch (H.Kind) {
  case PyHazard::ApiCall:
    return rules::describeCatalogCall(H, R);
  case PyHazard::Unjoined:
    return rules::describeUnjoinedStream(H, R);
  case PyHazard::FrozenArg:
    return rules::describeFrozenArgument(H);
  case PyHazard::Branch:
    return rules::describeShapeBranch(H);
  case PyHazard::Unended:
    return rules::describeUnendedOnError(H, R);
  case PyHazard::UnevenCollective:
    return rules::describeUnevenCollective(H);
  case PyHazard::Rebound:
    return rules::describeReboundInput(H);
  case PyHazard::Dropped:
    return rules::describeDroppedInput(H);
  case PyHazard::HostUpdate:
    return rules::describeHostSideEffect(H);
  case PyHazard::Native:
    break; // followed into C++ by the whole-program phase
  }
  return std::nullopt;
}

/// The finding's text: a branch on a value the analysis cannot see on the
/// way to the hazard makes it a remark (the capture may never take it).
std::optional<FindingText> describeHazard(const PyHazard &H,
                                          const PyRegion &R) {
  Reach Through;
  if (!H.Chain.empty())
    Through.Via = H.Chain.front().Callee;
  if (H.Path)
    Through.OnlyWhen = pathPhrase(*H.Path);
  return describe(ruleVerdict(H, R), Through);
}

SourcePlace locate(const PySite &Site) {
  SourcePlace L;
  L.File = Site.Src->path();
  L.Offset = Site.Offset;
  L.Line = Site.Src->line(Site.Offset);
  L.Column = Site.Src->column(Site.Offset);
  L.LineText = Site.Src->lineText(L.Line).str();
  return L;
}

/// The line of the first syntax error: the innermost node holding it,
/// found by descending into the first child with an error (a node missing
/// at the end of the file, `x = (1,`, is the root's own error: the last
/// line).
unsigned firstErrorLine(const PySource &Src) {
  TSNode N = Src.root();
  for (bool Deeper = true; Deeper;) {
    Deeper = false;
    for (uint32_t I = 0; I < ts_node_child_count(N); ++I) {
      TSNode C = ts_node_child(N, I);
      if (ts_node_has_error(C) || ts_node_is_missing(C)) {
        N = C;
        Deeper = true;
        break;
      }
    }
  }
  if (ts_node_eq(N, Src.root())) {
    size_t Size = Src.text().size();
    return Src.line(Size ? unsigned(Size - 1) : 0);
  }
  return Src.line(begin(N));
}

/// Silenced by a comment (Suppressions.h: NOLINT, NOLINTNEXTLINE,
/// NOLINTBEGIN/END, noqa).
bool suppressed(const PySite &Site, const std::string &Check) {
  return Site.Src->suppressions().suppressed(Site.Src->line(Site.Offset),
                                             Check);
}

/// A finding and what identifies it: the site reported, the check and the
/// hazard as quoted (one hazard reached along several call paths, or
/// hazards that read alike, are one finding).
struct Materialized {
  capture_lint::Finding Finding;
  std::tuple<std::string, unsigned, std::string, std::string> Key;
};

/// One finding per hazard, in order of first appearance: the one reached
/// without a path condition when there is one (a warning over a remark).
std::vector<Finding> strongestPerHazard(std::vector<Materialized> All) {
  std::map<decltype(Materialized::Key), size_t> Index;
  std::vector<Finding> Out;
  for (Materialized &M : All) {
    auto [It, New] = Index.insert({M.Key, Out.size()});
    if (New)
      Out.push_back(std::move(M.Finding));
    else if (Out[It->second].Level == Severity::Remark &&
             M.Finding.Level != Severity::Remark)
      Out[It->second] = std::move(M.Finding);
  }
  return Out;
}

/// A call into C++ that \p R reaches, for the whole-program phase.
PyNativeCall nativeCall(const PyHazard &H, const PyRegion &R) {
  PyNativeCall C;
  C.Key = H.Detail;
  C.Callee = H.Subject;
  C.At = locate(H.Site);
  for (const PyStep &Step : H.Chain)
    C.Steps.push_back({locate(Step.Site), Step.Callee});
  C.RegionBegin = locate(R.Begin);
  C.RegionEnd =
      locate({R.Begin.Src,
              std::min<unsigned>(R.EndOffset, R.Begin.Src->text().size())});
  C.Headline = R.Headline;
  C.Mode = std::string(modeName(R.Mode));
  C.Stream = R.Stream;
  return C;
}

void materialize(const PyRegion &R, const PyOptions &Opts,
                 std::vector<Materialized> &Out,
                 std::vector<PyNativeCall> &Native) {
  for (const PyHazard &H : R.Hazards) {
    if (H.Kind == PyHazard::Native) {
      Native.push_back(nativeCall(H, R));
      continue;
    }
    if (Opts.CheckEnabled && !Opts.CheckEnabled(H.Check))
      continue;
    auto D = describeHazard(H, R);
    if (!D)
      continue;
    PySite At = H.Chain.empty() ? H.Site : H.Chain.front().Site;
    if (suppressed(At, H.Check))
      continue;
    Finding F;
    F.Check = H.Check;
    F.Level = D->Level;
    F.Message = D->Message;
    F.Api = H.Entry ? H.Entry->Name : "";
    F.Loc = locate(At);
    F.Via = H.Chain.empty() ? "" : H.Chain.front().Callee;
    F.HazardLoc = locate(H.Site);
    for (size_t I = 1; I < H.Chain.size(); ++I)
      F.Notes.push_back({locate(H.Chain[I].Site),
                         "call to '" + H.Chain[I].Callee + "' here"});
    if (H.Path)
      F.Notes.push_back(
          {locate(H.Path->Site),
           "the path to it is taken only when " + pathPhrase(*H.Path)});
    if (!H.Chain.empty() || H.Kind == PyHazard::Unjoined)
      F.Notes.push_back({locate(H.Site), D->HereNote});
    for (const auto &[Site, Text] : H.Extra)
      F.Notes.push_back({locate(Site), Text});
    F.Notes.push_back({locate(R.Begin), R.Headline});
    F.HasRegion = true;
    F.RegionFile = R.Begin.Src->path();
    F.RegionBeginLine = R.Begin.Src->line(R.Begin.Offset);
    F.RegionEndLine = R.Begin.Src->line(
        std::min<unsigned>(R.EndOffset, R.Begin.Src->text().size()));
    F.Mode = std::string(modeName(R.Mode));
    F.Stream = R.Stream;
    auto Key = std::make_tuple(F.Loc.File, F.Loc.Offset, F.Check, H.Subject);
    Out.push_back({std::move(F), std::move(Key)});
  }
}

/// The files analysed: each read (or taken from the editor's buffers),
/// counted, and parsed when it can open a region (the others are loaded
/// only if a region's code imports them).
struct Inputs {
  std::vector<PyModule *> Modules;
  bool DefaultDeviceSet = false;
};

Inputs loadInputs(const std::vector<std::string> &Files,
                  const std::vector<std::string> &Markers,
                  const PyOptions &Opts, PyProgram &Prog, PyResult &Result) {
  Inputs In;
  for (const std::string &File : Files) {
    std::string Owned;
    if (auto O = Opts.Overrides.find(File); O != Opts.Overrides.end()) {
      Owned = O->second;
      normalizeLineEndings(Owned);
    } else {
      auto Text = readPythonSource(File);
      if (!Text) {
        Result.Errors.push_back(
            {File, "not analysed: " + llvm::toString(Text.takeError())});
        continue;
      }
      Owned = std::move(*Text);
    }
    ++Result.FilesAnalyzed;
    Result.FilesRead.push_back(File);
    llvm::StringRef Text = Owned;
    Result.Lines += Text.count('\n');
    if (Text.contains('\0')) {
      Result.Errors.push_back({File, "not a Python source file (it holds NUL "
                                     "bytes)"});
      continue;
    }
    In.DefaultDeviceSet = In.DefaultDeviceSet || setsDefaultDevice(Text);
    if (!mayOpenRegion(Text, Markers)) {
      Prog.addRootsOf(File); // loaded if a region's code imports it
      continue;
    }
    PyModule *M = Prog.addFile(File, Text.str(), true);
    if (M->Src->hasErrors())
      Result.Warnings.push_back(
          File + ":" + std::to_string(firstErrorLine(*M->Src)) +
          ": does not parse completely; the parts that do are analysed");
    In.Modules.push_back(M);
  }
  return In;
}

/// Every function of \p M, methods and functions nested in functions
/// included (a callback's `def capture(): with torch.cuda.graph(g): ...`),
/// in the order of the source.
std::vector<PyFunction *> functionsOf(PyContext &Ctx, PyModule &M) {
  std::vector<PyFunction *> Fns;
  for (auto &[Name, F] : M.Functions)
    Fns.push_back(F);
  for (auto &[Name, C] : M.Classes)
    for (auto &[MName, F] : C->Methods)
      Fns.push_back(F);
  for (size_t I = 0; I < Fns.size(); ++I)
    for (TSNode Inner : Fns[I]->NestedDefs)
      Fns.push_back(Ctx.Prog.localFunction(
          &M, Fns[I]->Owner, Inner,
          Fns[I]->Display + "." + M.Src->text(field(Inner, "name")).str(),
          Fns[I]));
  std::sort(Fns.begin(), Fns.end(), [](PyFunction *A, PyFunction *B) {
    return begin(A->Node) < begin(B->Node);
  });
  return Fns;
}

/// The regions \p M opens, at its top level and in its functions.
std::vector<PyRegion> regionsOf(PyContext &Ctx, PyModule &M,
                                const std::vector<std::string> &Markers) {
  std::vector<PyRegion> Regions = findModuleRegions(Ctx, M);
  for (PyFunction *F : functionsOf(Ctx, M)) {
    std::string Captured = capturedReason(Ctx, *F);
    if (Captured.empty()) {
      llvm::StringRef Body = M.Src->text(F->Node);
      if (!Body.contains("graph") && !Body.contains("capture") &&
          !std::any_of(
              Markers.begin(), Markers.end(),
              [&](const std::string &N) { return Body.contains(N); }) &&
          !callsCapturingHelper(Ctx, *F))
        continue;
    }
    for (PyRegion &R : findRegions(Ctx, F, Captured))
      Regions.push_back(std::move(R));
  }
  return Regions;
}

/// One line saying where the analysis stopped (the first three calls), so
/// that a silent region is not taken for a clean one.
std::string unseenWarning(const std::vector<PyUnseenCall> &Calls) {
  std::string W =
      std::to_string(Calls.size()) + " call" + (Calls.size() == 1 ? "" : "s") +
      " in capture regions or the functions they reach go" +
      (Calls.size() == 1 ? "es" : "") +
      " to callables the analysis cannot see, so what " +
      (Calls.size() == 1 ? "it does" : "they do") + " was not checked: ";
  std::vector<std::string> Named;
  for (const PyUnseenCall &C : Calls)
    Named.push_back("'" + C.Callee + "' (" +
                    llvm::sys::path::filename(C.Site.Src->path()).str() + ":" +
                    std::to_string(C.Site.Src->line(C.Site.Offset)) + ")");
  return W + firstFew(Named) +
         "; annotate the parameter with its class (`def run(model: "
         "Decoder)`), analyse the files that build it, or mark what "
         "it runs `# capture-lint: captured` (docs/python.md)";
}

} // namespace

std::string nativeCallKey(llvm::StringRef Full) {
  llvm::SmallVector<llvm::StringRef, 8> Names;
  Full.split(Names, '.');
  if (Names.size() >= 4 && Names[0] == "torch" && Names[1] == "ops")
    return ("torch.ops." + Names[2] + "." + Names[3]).str();
  if (Names.size() < 2)
    return "";
  return (Names[Names.size() - 2] + "." + Names.back()).str();
}

std::string nativeLibraryKey(llvm::StringRef Name) {
  return ("extern-c:" + Name).str();
}

PyResult analyzePython(const std::vector<std::string> &Files,
                       const Catalog &Cat, const PyOptions &Opts) {
  PyResult Result;
  PyProgram Prog;
  Prog.setOverrides(&Opts.Overrides);
  PyDisk Disk = Opts.Files ? PyDisk(Opts.Files, Opts.ProjectTops) : PyDisk();
  Prog.setDisk(&Disk);
  PyCatalog PyCat(Cat);
  std::vector<std::string> Markers;
  for (const auto &F : Cat.functions())
    Markers.push_back(llvm::StringRef(F->Name).rsplit('.').second.str());
  Inputs In = loadInputs(Files, Markers, Opts, Prog, Result);

  PyContext Ctx{Prog, PyCat};
  Ctx.MaxCallDepth = Opts.MaxCallDepth;
  Ctx.NativeKeys = &Opts.NativeKeys;
  Ctx.DefaultDeviceSet = In.DefaultDeviceSet;
  std::vector<Materialized> All;
  for (PyModule *M : In.Modules)
    for (const PyRegion &R : regionsOf(Ctx, *M, Markers))
      materialize(R, Opts, All, Result.NativeCalls);
  for (PyModule *M : In.Modules)
    for (const Suppressions::Problem &P : M->Src->suppressions().problems())
      Result.Warnings.push_back(M->Src->path() + ":" + std::to_string(P.Line) +
                                ": " + P.Message);
  Result.Findings = strongestPerHazard(std::move(All));
  if (!Ctx.Unseen.empty())
    Result.Warnings.push_back(unseenWarning(Ctx.Unseen));
  for (const std::string &Skipped : Prog.unreadableModules())
    Result.Warnings.push_back(Skipped);
  Result.FilesParsed = Prog.filesParsed();
  for (const auto &M : Prog.modules())
    if (!M->IsInput)
      Result.FilesRead.push_back(M->Src->path());
  return Result;
}

} // namespace capture_lint::python
