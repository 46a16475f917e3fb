//===- Summary.cpp - What a translation unit tells the whole program ------===//

#include "capture_lint/Summary.h"
#include "capture_lint/AstUtil.h"
#include "capture_lint/NativeBindings.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace clang;
using nlohmann::json;

namespace capture_lint {

namespace {

const char *kindName(RawHazard::Form K) {
  switch (K) {
  case RawHazard::ApiCall:
    return "api-call";
  case RawHazard::LegacyArg:
    return "legacy-arg";
  case RawHazard::PendingRead:
    return "pending-read";
  case RawHazard::Branch:
    return "branch";
  case RawHazard::External:
    return "external";
  case RawHazard::Overrides:
    return "overrides";
  case RawHazard::OtherStream:
    return "other-stream";
  case RawHazard::FrozenArg:
    return "frozen-arg";
  }
  return "";
}

std::optional<RawHazard::Form> parseKind(llvm::StringRef S) {
  for (auto K :
       {RawHazard::ApiCall, RawHazard::LegacyArg, RawHazard::PendingRead,
        RawHazard::Branch, RawHazard::External, RawHazard::Overrides,
        RawHazard::OtherStream, RawHazard::FrozenArg})
    if (S == kindName(K))
      return K;
  return std::nullopt;
}

class Locator {
public:
  Locator(const SourceManager &SM, llvm::StringRef Directory)
      : SM(SM), Directory(Directory) {}

  SummaryLoc operator()(SourceLocation L) {
    SummaryLoc Out;
    L = fileLoc(L, SM);
    if (L.isInvalid())
      return Out;
    FileID F = SM.getFileID(L);
    auto Entry = SM.getFileEntryRefForID(F);
    if (!Entry)
      return Out;
    auto It = Paths.find(F);
    if (It == Paths.end()) {
      llvm::SmallString<256> P(Entry->getName());
      if (!llvm::sys::path::is_absolute(P)) {
        llvm::SmallString<256> Full(Directory);
        llvm::sys::path::append(Full, P);
        P = Full;
      }
      llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
      It = Paths.try_emplace(F, std::string(P)).first;
    }
    Out.File = It->second;
    Out.Offset = SM.getFileOffset(L);
    return Out;
  }

  std::vector<SummaryNote> notes(const std::vector<DiagNote> &Notes) {
    std::vector<SummaryNote> Out;
    for (const DiagNote &N : Notes)
      Out.push_back({(*this)(N.Loc), N.Message});
    return Out;
  }

private:
  const SourceManager &SM;
  std::string Directory;
  llvm::DenseMap<FileID, std::string> Paths;
};

SummaryHazard summarize(const RawHazard &H, Locator &Loc) {
  SummaryHazard S;
  S.Kind = kindName(H.Kind);
  S.Check = checkName(H.Check).str();
  S.Entry = H.Entry ? H.Entry->Name : "";
  S.Api = H.Api;
  S.Detail = H.Detail;
  S.Origin = H.Origin;
  S.KernelLaunch = H.KernelLaunch;
  S.StatusQuery = H.StatusQuery;
  S.ThreadRelaxed = H.ThreadRelaxed;
  S.Loc = Loc(H.Loc);
  if (H.CallSite.isValid())
    S.CallSite = Loc(H.CallSite);
  S.Chain = Loc.notes(H.Chain);
  S.Extra = Loc.notes(H.Extra);
  S.Through = H.Through;
  S.Followed = H.Followed;
  S.ConstantArgs = H.ConstantArgs;
  S.PassedParams = H.PassedParams;
  return S;
}

class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(const SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBodies() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext())
      Functions.push_back(FD);
    return true;
  }

  std::vector<const FunctionDecl *> Functions;

private:
  const SourceManager &SM;
};

SummaryCapture summarize(const OpenedCapture &C, Locator &Loc) {
  SummaryCapture S;
  S.BeginApi = C.Api ? C.Api->Name : "";
  S.Mode = std::string(modeName(C.Mode));
  S.Stream = C.Stream;
  S.BeginLoc = Loc(C.BeginLoc);
  S.Chain = Loc.notes(C.Chain);
  return S;
}

/// The part of \p R a caller in another TU needs: what the body does to
/// captures. Declared roles are left out (annotations on a declaration and
/// the configuration reach every TU themselves).
std::optional<SummaryRole> summarizeRole(const FunctionRole &R, Locator &Loc) {
  if (!R.DeclaredBy.empty() || !(R.Opens || R.Closes || !R.Wraps.empty() ||
                                 R.TrueWhenCapturing || R.PausesAndResumes))
    return std::nullopt;
  SummaryRole S;
  if (R.Opens)
    S.Opens = summarize(*R.Opens, Loc);
  S.Closes = R.Closes ? R.Closes->Name : "";
  S.LaunchesGraph = R.LaunchesGraph;
  for (const WrappedParam &W : R.Wraps)
    S.Wraps.push_back({W.Index, summarize(W.Capture, Loc), Loc(W.InvokeLoc)});
  S.TrueWhenCapturing = R.TrueWhenCapturing;
  S.PausesAndResumes = R.PausesAndResumes;
  return S;
}

/// The USRs of the user functions \p Functions call (constructors, and the
/// destructors of what they construct, included) that have no body in this
/// TU and that other TUs may define.
std::vector<std::string>
bodilessCallees(const std::vector<const FunctionDecl *> &Functions,
                const SourceManager &SM) {
  llvm::SmallPtrSet<const FunctionDecl *, 32> Seen;
  std::vector<std::string> Out;
  auto Add = [&](const FunctionDecl *FD) {
    if (!FD || !Seen.insert(FD->getCanonicalDecl()).second || FD->isDefined() ||
        !FD->isExternallyVisible() || FD->getBuiltinID() ||
        SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      return;
    if (std::string Usr = usrOf(FD); !Usr.empty())
      Out.push_back(std::move(Usr));
  };
  for (const FunctionDecl *Fn : Functions)
    walkStatements(Fn->getBody(), [&](const Stmt *S) {
      if (const auto *Call = dyn_cast<CallExpr>(S)) {
        Add(directCallee(Call));
      } else if (const auto *C = dyn_cast<CXXConstructExpr>(S)) {
        Add(C->getConstructor());
        Add(C->getConstructor()->getParent()->getDestructor());
      }
      return true;
    });
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

json locJson(const SummaryLoc &L) {
  return L.valid() ? json{L.File, L.Offset} : json();
}
SummaryLoc locFrom(const json &J) {
  SummaryLoc L;
  if (J.is_array() && J.size() == 2) {
    L.File = J.at(0).get<std::string>();
    L.Offset = J.at(1).get<unsigned>();
  }
  return L;
}
json notesJson(const std::vector<SummaryNote> &Notes) {
  json A = json::array();
  for (const SummaryNote &N : Notes)
    A.push_back({{"at", locJson(N.Loc)}, {"message", N.Message}});
  return A;
}
std::vector<SummaryNote> notesFrom(const json &J) {
  std::vector<SummaryNote> Out;
  for (const json &N : J)
    Out.push_back({locFrom(N.at("at")), N.at("message").get<std::string>()});
  return Out;
}
json hazardJson(const SummaryHazard &H) {
  json J = {{"kind", H.Kind},
            {"check", H.Check},
            {"entry", H.Entry},
            {"api", H.Api},
            {"detail", H.Detail},
            {"origin", H.Origin},
            {"kernel_launch", H.KernelLaunch},
            {"status_query", H.StatusQuery},
            {"thread_relaxed", H.ThreadRelaxed},
            {"at", locJson(H.Loc)},
            {"call_site", locJson(H.CallSite)},
            {"chain", notesJson(H.Chain)},
            {"extra", notesJson(H.Extra)},
            {"through", H.Through}};
  if (!H.Followed.empty())
    J["followed"] = H.Followed;
  if (!H.ConstantArgs.empty())
    J["constant_args"] = H.ConstantArgs;
  if (!H.PassedParams.empty())
    J["passed_params"] = H.PassedParams;
  if (!H.When.empty()) {
    json When = json::array();
    for (const ParamCondition &C : H.When)
      When.push_back({{"param", C.Param}, {"unreached", C.Unreached}});
    J["when"] = std::move(When);
  }
  return J;
}
SummaryHazard hazardFrom(const json &J) {
  SummaryHazard H;
  H.Kind = J.at("kind").get<std::string>();
  H.Check = J.at("check").get<std::string>();
  H.Entry = J.at("entry").get<std::string>();
  H.Api = J.at("api").get<std::string>();
  H.Detail = J.at("detail").get<std::string>();
  H.Origin = J.at("origin").get<std::string>();
  H.KernelLaunch = J.at("kernel_launch").get<bool>();
  H.StatusQuery = J.value("status_query", false);
  H.ThreadRelaxed = J.at("thread_relaxed").get<bool>();
  H.Loc = locFrom(J.at("at"));
  H.CallSite = locFrom(J.at("call_site"));
  H.Chain = notesFrom(J.at("chain"));
  H.Extra = notesFrom(J.at("extra"));
  H.Through = J.at("through").get<std::vector<std::string>>();
  H.Followed = J.value("followed", std::vector<std::string>());
  if (J.contains("constant_args"))
    H.ConstantArgs =
        J.at("constant_args").get<std::vector<std::pair<unsigned, int64_t>>>();
  if (J.contains("passed_params"))
    H.PassedParams =
        J.at("passed_params").get<std::vector<std::pair<unsigned, unsigned>>>();
  if (J.contains("when"))
    for (const json &C : J.at("when"))
      H.When.push_back({C.at("param").get<unsigned>(),
                        C.at("unreached").get<std::vector<int64_t>>()});
  return H;
}
json captureJson(const SummaryCapture &C) {
  return {{"begin_api", C.BeginApi},
          {"mode", C.Mode},
          {"stream", C.Stream},
          {"at", locJson(C.BeginLoc)},
          {"chain", notesJson(C.Chain)}};
}
SummaryCapture captureFrom(const json &J) {
  SummaryCapture C;
  C.BeginApi = J.at("begin_api").get<std::string>();
  C.Mode = J.at("mode").get<std::string>();
  C.Stream = J.at("stream").get<std::string>();
  C.BeginLoc = locFrom(J.at("at"));
  C.Chain = notesFrom(J.at("chain"));
  return C;
}

} // namespace

/// Whether another translation unit can call \p FD without seeing its body,
/// so that only this TU's summary can say what it does: an externally
/// visible function that is neither inline nor an implicit template
/// instantiation (those are defined in every TU that uses them). Summing up
/// only these keeps header-only libraries (MatX, CUTLASS) from costing a
/// callee analysis of every function they define.
static bool calledWithoutBodyElsewhere(const FunctionDecl *FD) {
  if (!FD->isExternallyVisible() || FD->isInlined())
    return false;
  return FD->getTemplateSpecializationKind() != TSK_ImplicitInstantiation;
}

/// The USRs of every method \p FD overrides, up the hierarchy.
static std::vector<std::string> overriddenUsrs(const FunctionDecl *FD) {
  std::vector<std::string> Out;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    for (const CXXMethodDecl *Base : allOverridden(MD))
      if (std::string Usr = usrOf(Base); !Usr.empty())
        Out.push_back(std::move(Usr)); // one method each: distinct USRs
  return Out;
}

/// An override only virtual calls reach from other files: one defined in
/// this file (a class a `.cu` defines and registers with a factory), inline
/// or not.
static bool overrideOnlyHere(const FunctionDecl *FD, const SourceManager &SM) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return MD && MD->size_overridden_methods() > 0 &&
         SM.isInMainFile(SM.getExpansionLoc(MD->getLocation()));
}

TuSummary summarizeTranslationUnit(ASTContext &Ctx, const Catalog &Cat,
                                   AnalysisOptions Opts,
                                   llvm::StringRef Directory) {
  Opts.RecordExternalCalls = true;
  CaptureAnalyzer Analyzer(Ctx, Cat, Opts);
  return summarizeTranslationUnit(Analyzer, Directory);
}

/// The bindings of the TU into \p Out; the functions they bind (added to
/// \p Functions when the walk did not meet them: a lambda's operator()).
static std::set<const FunctionDecl *>
summarizeBindings(ASTContext &Ctx, Locator &Loc,
                  std::vector<const FunctionDecl *> &Functions,
                  TuSummary &Out) {
  std::set<const FunctionDecl *> Bound;
  for (const NativeBinding &B : findNativeBindings(Ctx)) {
    std::string Name = isLambdaCallOperator(B.Function)
                           ? "" // the lambda written at the binding
                           : catalogName(B.Function);
    Out.Bindings.push_back(
        {B.Key, usrOf(B.Function), Name, Loc(B.Loc), B.How, B.DispatchKey});
    const FunctionDecl *Def = B.Function->getDefinition();
    if (Def && Bound.insert(Def).second && !llvm::is_contained(Functions, Def))
      Functions.push_back(Def);
  }
  return Bound;
}

/// \p FD's summary (and its role) into \p Out.
static void summarizeFunction(CaptureAnalyzer &Analyzer, const FunctionDecl *FD,
                              const std::string &Usr, Locator &Loc,
                              TuSummary &Out) {
  // Listed also without hazards: the second phase then knows the body
  // was seen, and says which calls it could not follow.
  if (const FunctionRole *R = Analyzer.roleOf(FD))
    if (auto Role = summarizeRole(*R, Loc)) {
      Role->Usr = Usr;
      Role->Name = catalogName(FD);
      Out.Roles.push_back(std::move(*Role));
    }
  std::vector<RawHazard> Hazards = Analyzer.calleeHazards(FD);
  std::vector<std::vector<ParamCondition>> When =
      hazardConditions(Analyzer, FD, Hazards);
  SummaryFunction F;
  F.Usr = Usr;
  F.Name = catalogName(FD);
  F.Overrides = overriddenUsrs(FD);
  for (size_t I = 0; I < Hazards.size(); ++I) {
    F.Hazards.push_back(summarize(Hazards[I], Loc));
    F.Hazards.back().When = std::move(When[I]);
  }
  Out.Functions.push_back(std::move(F));
}

/// A region's call into another TU, with the region's description.
static SummaryUse summarizeUse(const ExternalUse &U, Locator &Loc) {
  SummaryUse S;
  const CaptureRegion &R = U.Region;
  S.Region.BeginApi = R.Api ? R.Api->Name : "";
  S.Region.Mode = std::string(modeName(R.Mode));
  S.Region.Stream = R.Stream;
  S.Region.Headline = regionHeadline(R);
  S.Region.BeginLoc = Loc(R.BeginLoc);
  S.Region.Origin = Loc.notes(R.Origin);
  for (SourceLocation End : R.Ends) {
    SummaryLoc L = Loc(End);
    if (!S.Region.End.valid() || L.Offset > S.Region.End.Offset)
      S.Region.End = L;
  }
  S.Call = summarize(U.Call, Loc);
  return S;
}

TuSummary summarizeTranslationUnit(CaptureAnalyzer &Analyzer,
                                   llvm::StringRef Directory) {
  const SourceManager &SM = Analyzer.context().getSourceManager();
  ASTContext &Ctx = Analyzer.context();
  FunctionCollector Collector(SM);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  Locator Loc(SM, Directory);
  TuSummary Out;
  std::set<const FunctionDecl *> Bound =
      summarizeBindings(Ctx, Loc, Collector.Functions, Out);
  for (const FunctionDecl *FD : Collector.Functions) {
    Analyzer.analyzeFunction(FD);
    if (!calledWithoutBodyElsewhere(FD) && !overrideOnlyHere(FD, SM) &&
        !Bound.count(FD))
      continue;
    if (std::string Usr = usrOf(FD); !Usr.empty())
      summarizeFunction(Analyzer, FD, Usr, Loc, Out);
  }
  for (const ExternalUse &U : Analyzer.externalUses())
    Out.Uses.push_back(summarizeUse(U, Loc));
  Out.Bodiless = bodilessCallees(Collector.Functions, SM);
  return Out;
}

json toJson(const TuSummary &S) {
  json Functions = json::array();
  for (const SummaryFunction &F : S.Functions) {
    json Hazards = json::array();
    for (const SummaryHazard &H : F.Hazards)
      Hazards.push_back(hazardJson(H));
    json Fn = {
        {"usr", F.Usr}, {"name", F.Name}, {"hazards", std::move(Hazards)}};
    if (!F.Overrides.empty())
      Fn["overrides"] = F.Overrides;
    Functions.push_back(std::move(Fn));
  }
  json Uses = json::array();
  for (const SummaryUse &U : S.Uses) {
    const SummaryRegion &R = U.Region;
    Uses.push_back({{"region",
                     {{"begin_api", R.BeginApi},
                      {"mode", R.Mode},
                      {"stream", R.Stream},
                      {"headline", R.Headline},
                      {"at", locJson(R.BeginLoc)},
                      {"origin", notesJson(R.Origin)},
                      {"end", locJson(R.End)}}},
                    {"call", hazardJson(U.Call)}});
  }
  json Roles = json::array();
  for (const SummaryRole &R : S.Roles)
    Roles.push_back(toJson(R));
  json Bindings = json::array();
  for (const SummaryBinding &B : S.Bindings)
    Bindings.push_back({{"key", B.Key},
                        {"usr", B.Usr},
                        {"name", B.Name},
                        {"at", locJson(B.Loc)},
                        {"how", B.How},
                        {"dispatch_key", B.DispatchKey}});
  return {{"functions", std::move(Functions)},
          {"uses", std::move(Uses)},
          {"roles", std::move(Roles)},
          {"bodiless", S.Bodiless},
          {"bindings", std::move(Bindings)}};
}

TuSummary tuSummaryFromJson(const json &J) {
  TuSummary S;
  for (const json &F : J.at("functions")) {
    SummaryFunction Fn;
    Fn.Usr = F.at("usr").get<std::string>();
    Fn.Name = F.at("name").get<std::string>();
    for (const json &H : F.at("hazards"))
      Fn.Hazards.push_back(hazardFrom(H));
    Fn.Overrides = F.value("overrides", std::vector<std::string>());
    S.Functions.push_back(std::move(Fn));
  }
  for (const json &U : J.at("uses")) {
    SummaryUse Use;
    const json &R = U.at("region");
    Use.Region.BeginApi = R.at("begin_api").get<std::string>();
    Use.Region.Mode = R.at("mode").get<std::string>();
    Use.Region.Stream = R.at("stream").get<std::string>();
    Use.Region.Headline = R.at("headline").get<std::string>();
    Use.Region.BeginLoc = locFrom(R.at("at"));
    Use.Region.Origin = notesFrom(R.at("origin"));
    Use.Region.End = locFrom(R.at("end"));
    Use.Call = hazardFrom(U.at("call"));
    S.Uses.push_back(std::move(Use));
  }
  for (const json &R : J.at("roles"))
    S.Roles.push_back(summaryRoleFromJson(R));
  S.Bodiless = J.at("bodiless").get<std::vector<std::string>>();
  for (const json &B : J.at("bindings"))
    S.Bindings.push_back({B.at("key").get<std::string>(),
                          B.at("usr").get<std::string>(),
                          B.at("name").get<std::string>(), locFrom(B.at("at")),
                          B.at("how").get<std::string>(),
                          B.at("dispatch_key").get<std::string>()});
  return S;
}

json toJson(const SummaryRole &R) {
  json Wraps = json::array();
  for (const SummaryWrap &W : R.Wraps)
    Wraps.push_back({{"index", W.Index},
                     {"capture", captureJson(W.Capture)},
                     {"invoked_at", locJson(W.InvokeLoc)}});
  json J = {{"usr", R.Usr},
            {"name", R.Name},
            {"closes", R.Closes},
            {"launches_graph", R.LaunchesGraph},
            {"wraps", std::move(Wraps)},
            {"pauses_and_resumes", R.PausesAndResumes}};
  J["opens"] = R.Opens ? captureJson(*R.Opens) : json();
  J["true_when_capturing"] =
      R.TrueWhenCapturing ? json(*R.TrueWhenCapturing) : json();
  return J;
}

SummaryRole summaryRoleFromJson(const json &J) {
  SummaryRole R;
  R.Usr = J.at("usr").get<std::string>();
  R.Name = J.at("name").get<std::string>();
  if (!J.at("opens").is_null())
    R.Opens = captureFrom(J.at("opens"));
  R.Closes = J.at("closes").get<std::string>();
  R.LaunchesGraph = J.at("launches_graph").get<bool>();
  for (const json &W : J.at("wraps"))
    R.Wraps.push_back({W.at("index").get<unsigned>(),
                       captureFrom(W.at("capture")),
                       locFrom(W.at("invoked_at"))});
  if (!J.at("true_when_capturing").is_null())
    R.TrueWhenCapturing = J.at("true_when_capturing").get<bool>();
  R.PausesAndResumes = J.at("pauses_and_resumes").get<bool>();
  return R;
}

bool toRawHazard(const SummaryHazard &S, const Catalog &Cat, RawHazard &Out) {
  auto Kind = parseKind(S.Kind);
  auto Check = checkKindOf(S.Check);
  if (!Kind || !Check)
    return false;
  Out = RawHazard();
  Out.Kind = *Kind;
  Out.Check = *Check;
  if (!S.Entry.empty()) {
    Out.Entry = Cat.findApi(S.Entry);
    if (!Out.Entry)
      Out.Entry = declaredApiEntry(S.Entry);
    if (!Out.Entry)
      return false;
  } else if (*Kind == RawHazard::ApiCall) {
    return false;
  }
  Out.Api = S.Api;
  Out.Detail = S.Detail;
  Out.Origin = S.Origin;
  Out.KernelLaunch = S.KernelLaunch;
  Out.StatusQuery = S.StatusQuery;
  Out.ThreadRelaxed = S.ThreadRelaxed;
  Out.Through = S.Through;
  Out.Followed = S.Followed;
  return true;
}

CaptureRegion toCaptureRegion(const SummaryRegion &S, const Catalog &Cat) {
  CaptureRegion R;
  R.Api = S.BeginApi.empty() ? nullptr : Cat.findRegionApi(S.BeginApi);
  R.Mode = parseMode(S.Mode).value_or(CaptureMode::Unknown);
  R.Stream = S.Stream;
  R.Headline = S.Headline;
  return R;
}

} // namespace capture_lint
