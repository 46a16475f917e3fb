//===- Analysis.cpp - Capture hazards of a translation unit ---------------===//
//
// CaptureAnalyzer: finds each function's regions (RegionFinder, with roles
// from RoleAnalyzer), the bodies that run under a wrapper's capture or are
// declared to, asks HazardScanner what each statement inside does, and
// turns the hazards into findings (HazardText.cpp), deduplicated.
//
//===----------------------------------------------------------------------===//

#include "capture_lint/Analysis.h"
#include "CallTargets.h"
#include "HazardScanner.h"
#include "RoleAnalyzer.h"
#include "TuConstants.h"
#include "rules/Rules.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <tuple>

using namespace clang;

namespace capture_lint {

llvm::StringRef checkName(CheckKind K) {
  static const char *const Names[] = {
#define CAPTURE_CHECK_NAME_1(Name) Name,
#define CAPTURE_CHECK_NAME_0(Name)
#define CAPTURE_CHECK(Kind, Name, Cpp, Python, Owns, Severity, Summary, Why,   \
                      Fix, Finds)                                              \
  CAPTURE_CHECK_NAME_##Cpp(Name)
#include "Checks.def"
#undef CAPTURE_CHECK
  };
  unsigned I = static_cast<unsigned>(K);
  return I < NumCheckKinds ? Names[I] : "";
}

std::optional<CheckKind> checkKindOf(llvm::StringRef Name) {
  for (unsigned I = 0; I < NumCheckKinds; ++I)
    if (checkName(static_cast<CheckKind>(I)) == Name)
      return static_cast<CheckKind>(I);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The analyzer
//===----------------------------------------------------------------------===//

struct CaptureAnalyzer::Impl {
  ASTContext &Ctx;
  const Catalog &Cat;
  AnalysisOptions Opts;
  RoleAnalyzer Roles;
  TuConstants Constants;
  HazardScanner Scanner;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Analyzed;
  std::set<std::tuple<int, unsigned, unsigned, std::string, std::string>>
      Reported;
  std::vector<ClangFinding> *Findings = nullptr;
  /// Regions never ended where they begin, reported by finish() unless the
  /// TU closes them elsewhere.
  struct Unended {
    CaptureRegion Region;
    const FunctionDecl *Fn;
  };
  std::vector<Unended> UnendedRegions;
  /// Openers whose regions some caller closes.
  llvm::SmallPtrSet<const FunctionDecl *, 8> PairedOpeners;
  std::vector<ExternalUse> External;

  Impl(ASTContext &Ctx, const Catalog &Cat, AnalysisOptions O)
      : Ctx(Ctx), Cat(Cat), Opts(std::move(O)),
        Roles(Ctx, Cat, Opts.Imports.get()), Constants(Ctx),
        Scanner(Ctx, Cat, Opts, Roles, Constants) {}

  void report(ClangFinding F);
  void reportHazards(std::vector<RawHazard> &Hazards,
                     const CaptureRegion &Region);
  void analyzeRegions(const FunctionDecl *Def, const RegionFinder &RF,
                      const ParamBindings *Bound);
  void analyzeBody(const FunctionDecl *Def, const CaptureRegion &Region,
                   const ParamBindings *Bound = nullptr);
  void analyzeWrapperCalls(const FunctionDecl *Def, const RegionFinder &RF,
                           const ParamBindings *Bound);
  ParamBindings
  wrappedBindings(const CallExpr *Call, const FunctionDecl *Wrapper,
                  const WrappedParam &W, const FunctionDecl *&Callable,
                  const FunctionDecl *Def, const ParamBindings *Bound);
  void reportUnended(const Unended &U);
};

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

void CaptureAnalyzer::Impl::report(ClangFinding F) {
  // Each offending call is its own finding, even when two are reached
  // through the same call in the region; the instantiations of a template
  // reaching the same offending call from one call site are one finding.
  auto Key = std::make_tuple(static_cast<int>(F.Check), F.Loc.getRawEncoding(),
                             F.HazardLoc.getRawEncoding(), F.Api,
                             F.HazardLoc.isValid() ? std::string() : F.Message);
  if (Reported.insert(Key).second)
    Findings->push_back(std::move(F));
}

void CaptureAnalyzer::Impl::reportHazards(std::vector<RawHazard> &Hazards,
                                          const CaptureRegion &Region) {
  for (RawHazard &H : Hazards) {
    if (H.Kind == RawHazard::External || H.Kind == RawHazard::Overrides) {
      External.push_back({Region, H});
      continue;
    }
    std::string Via = H.CallSite.isValid() ? H.Through.front() : "";
    if (auto F = materialize(H, Region, H.CallSite, Via, Ctx))
      report(std::move(*F));
  }
}

void CaptureAnalyzer::Impl::analyzeRegions(const FunctionDecl *Def,
                                           const RegionFinder &RF,
                                           const ParamBindings *Bound) {
  const FunctionRole *Own = Roles.roleOf(Def);
  // A closer has no region of its own, but a capture ends in it: the rules
  // about ends read it too.
  if (!RF.valid() || (RF.regions().empty() && !(Own && Own->Closes)))
    return;
  Scanner.scanStatements(
      Def, RF, 0, [](const FlowState &St) { return St.inRegion(); },
      [&](const FlowState &St, std::vector<RawHazard> &Hazards) {
        reportHazards(Hazards, RF.regions()[St.Active.find_first()]);
      },
      Bound);
  for (rules::FunctionRule Rule : rules::FunctionRules)
    for (ClangFinding &F : Rule({Def, RF, Cat, Ctx, Own}))
      report(std::move(F));
  for (const CaptureRegion &R : RF.regions()) {
    if (R.Ends.empty()) {
      if (R.Begin && R.Reached && !(Own && Own->PausesAndResumes))
        UnendedRegions.push_back({R, Def});
      continue;
    }
    // An opener whose region this function closes is used as intended.
    if (const auto *Call = dyn_cast_or_null<CallExpr>(R.BeginStmt);
        Call && !R.Begin)
      if (const FunctionDecl *Callee = directCallee(Call))
        PairedOpeners.insert(Callee->getCanonicalDecl());
  }
}

void CaptureAnalyzer::Impl::analyzeBody(const FunctionDecl *Def,
                                        const CaptureRegion &Region,
                                        const ParamBindings *Bound) {
  RegionFinder RF(Def, Def->getBody(), Ctx, Cat, /*CalleeMode=*/true, &Roles,
                  &Region, Bound);
  Scanner.scanStatements(
      Def, RF, 0, runsInInheritedRegion,
      [&](const FlowState &, std::vector<RawHazard> &Hazards) {
        reportHazards(Hazards, RF.regions()[0]);
      },
      Bound);
}

/// The constant arguments the callable that \p Call passes to \p Wrapper
/// (as its parameter \p W) receives where the wrapper runs it:
/// `fun(p, n, debug_synchronous)` with `constexpr bool debug_synchronous =
/// false` in the wrapper, or a constant \p Def passes to the wrapper. The
/// wrapper of a generic lambda calls its instantiation: \p Callable becomes
/// that.
ParamBindings CaptureAnalyzer::Impl::wrappedBindings(
    const CallExpr *Call, const FunctionDecl *Wrapper, const WrappedParam &W,
    const FunctionDecl *&Callable, const FunctionDecl *Def,
    const ParamBindings *Bound) {
  const FunctionDecl *WrapperDef = nullptr;
  if (!W.Invoke || !Wrapper->hasBody(WrapperDef) || !WrapperDef)
    return {};
  if (const auto *Op = dyn_cast_or_null<CXXMethodDecl>(directCallee(W.Invoke)))
    if (const auto *Own = dyn_cast<CXXMethodDecl>(Callable);
        Own && Op->getParent() == Own->getParent() && Op->hasBody())
      Callable = Op;
  ParamBindings Outer = Scanner.argumentBindings(Call, WrapperDef, Def, Bound);
  return Scanner.argumentBindings(W.Invoke, Callable, WrapperDef,
                                  Outer.empty() ? nullptr : &Outer);
}

void CaptureAnalyzer::Impl::analyzeWrapperCalls(const FunctionDecl *Def,
                                                const RegionFinder &RF,
                                                const ParamBindings *Bound) {
  // A wrapper call no path reaches (`if (!use_graph) return;` when every
  // caller passes false) runs nothing under capture.
  llvm::SmallPtrSet<const Stmt *, 16> Unreached = RF.unreachedStatements();
  llvm::SmallVector<const Stmt *, 32> Work = {Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S) || Unreached.count(S))
      continue; // a lambda's body is analysed as its own function
    for (const Stmt *C : S->children())
      Work.push_back(C);
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      continue;
    const FunctionDecl *Wrapper = directCallee(Call);
    const FunctionRole *Role = Roles.roleOf(Wrapper);
    if (!Role || Role->Wraps.empty())
      continue;
    // Member calls count the object as argument 0 of the call expression
    // only for operator calls; parameters index the call's arguments.
    unsigned Shift = argumentOffset(Call, Wrapper);
    for (const WrappedParam &W : Role->Wraps) {
      if (W.Index + Shift >= Call->getNumArgs())
        continue;
      const FunctionDecl *Fn = callableOf(Call->getArg(W.Index + Shift));
      const FunctionDecl *FnDef = nullptr;
      if (!Fn || !Fn->hasBody(FnDef) || !FnDef)
        continue;
      CaptureRegion R;
      R.Api = W.Capture.Api;
      R.Mode = W.Capture.Mode;
      R.Stream = W.Capture.Stream;
      R.ViaRole = true;
      R.BeginLoc = callLoc(Call);
      bool Graph = R.Api && R.Api->keyedByObject();
      R.Headline =
          "'" + displayName(FnDef) + "' runs under a capture" +
          (R.Stream.empty()
               ? std::string()
               : std::string(Graph ? " into graph '" : " of stream '") +
                     R.Stream + "'") +
          ": it is passed to '" + catalogName(Wrapper) + "' here, mode " +
          (R.Api ? std::string(modeName(R.Mode))
                 : "unknown (checked as global)");
      if (W.InvokeLoc != W.Capture.BeginLoc || !R.Api)
        R.Origin.push_back(
            {W.InvokeLoc, "'" + catalogName(Wrapper) + "' runs it here"});
      for (const DiagNote &N : W.Capture.Chain)
        R.Origin.push_back(N);
      if (R.Api)
        R.Origin.push_back({W.Capture.BeginLoc, "the capture begins here"});
      ParamBindings FnBound =
          wrappedBindings(Call, Wrapper, W, FnDef, Def, Bound);
      analyzeBody(FnDef, R, FnBound.empty() ? nullptr : &FnBound);
    }
  }
}

CaptureAnalyzer::CaptureAnalyzer(ASTContext &Ctx, const Catalog &Cat,
                                 AnalysisOptions Opts)
    : P(std::make_unique<Impl>(Ctx, Cat, std::move(Opts))) {
  P->Findings = &Findings;
}

CaptureAnalyzer::~CaptureAnalyzer() = default;

ASTContext &CaptureAnalyzer::context() const { return P->Ctx; }

const FunctionRole *CaptureAnalyzer::roleOf(const FunctionDecl *FD) {
  return P->Roles.roleOf(FD);
}

const std::vector<ExternalUse> &CaptureAnalyzer::externalUses() const {
  return P->External;
}

std::vector<RawHazard>
CaptureAnalyzer::calleeHazards(const FunctionDecl *FD,
                               const ParamBindings &Bound) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return {};
  if (const FunctionRole *Role = P->Roles.roleOf(Def))
    if (Role->Safe || Role->Opens || !Role->Wraps.empty())
      return {};
  return P->Scanner.summary(Def, 1, Bound);
}

/// Whether a template \p FD belongs to (its own, or an enclosing class's or
/// function's) has an instantiation in this TU. Header-only libraries keep
/// their capture code in templates that a header never instantiates; those
/// bodies are analysed as written (calls that do not depend on template
/// parameters resolve there).
static bool instantiatedSomewhere(const FunctionDecl *FD) {
  if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate())
    if (!FT->specializations().empty())
      return true;
  if (FD->getTemplateInstantiationPattern())
    return true;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *RD = dyn_cast<CXXRecordDecl>(DC))
      if (const ClassTemplateDecl *CT = RD->getDescribedClassTemplate())
        if (!CT->specializations().empty())
          return true;
    if (isa<ClassTemplatePartialSpecializationDecl>(DC))
      return true; // analysed through the specialisations that use it
    if (const auto *Outer = dyn_cast<FunctionDecl>(DC))
      if (const FunctionTemplateDecl *FT =
              Outer->getDescribedFunctionTemplate())
        if (!FT->specializations().empty())
          return true;
  }
  return false;
}

void CaptureAnalyzer::analyzeFunction(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || !P->Analyzed.insert(Def).second)
    return;
  if (Def->isDependentContext() && instantiatedSomewhere(Def))
    return; // a template (or a member of one): through its instantiations
  const FunctionRole *Role = P->Roles.roleOf(Def);
  if (Role && Role->Captured) {
    CaptureRegion R;
    R.BeginLoc = Def->getLocation();
    R.ViaRole = true;
    R.Headline = "'" + displayName(Def) +
                 "' is declared to run under capture (" + Role->DeclaredBy +
                 "); checked as a global-mode capture";
    P->analyzeBody(Def, R);
  }
  if (!P->Roles.mayHaveRole(Def))
    return; // no begin, opener, closer or wrapper call in reach
  // Parameters every caller fixes (TuConstants.h) decide branches here.
  ParamBindings Bound = P->Constants.callerBindings(Def);
  const ParamBindings *BoundOrNull = Bound.empty() ? nullptr : &Bound;
  RegionFinder RF(Def, Def->getBody(), P->Ctx, P->Cat, /*CalleeMode=*/false,
                  &P->Roles, nullptr, BoundOrNull);
  P->analyzeRegions(Def, RF, BoundOrNull);
  P->analyzeWrapperCalls(Def, RF, BoundOrNull);
}

void CaptureAnalyzer::Impl::reportUnended(const Unended &U) {
  const CaptureRegion &R = U.Region;
  // Ended elsewhere: the function is an opener some caller pairs with a
  // closer, or this TU has a closer for the group.
  if (PairedOpeners.count(U.Fn->getCanonicalDecl()) ||
      (R.Api && Roles.hasCloserFor(R.Api->Group)))
    return;
  ClangFinding F;
  F.Check = CheckKind::UnendedRegion;
  F.Level = Severity::Warning;
  F.Loc = fileLoc(R.Begin->getBeginLoc(), Ctx.getSourceManager());
  F.Api = catalogName(directCallee(R.Begin));
  F.Message = rules::unendedRegionMessage(R, displayName(U.Fn),
                                          rules::endCallName(*R.Api, Cat));
  F.RegionBegin = F.Loc;
  F.Mode = R.Mode;
  F.Stream = R.Stream;
  report(std::move(F));
}

void CaptureAnalyzer::finish() {
  for (const Impl::Unended &U : P->UnendedRegions)
    P->reportUnended(U);
  P->UnendedRegions.clear();
}

} // namespace capture_lint
