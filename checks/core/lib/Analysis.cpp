//===- Analysis.cpp - Capture hazards of a translation unit ---------------===//

#include "capture_lint/Analysis.h"
#include "capture_lint/ApiMatch.h"
#include "capture_lint/AstUtil.h"
#include "capture_lint/FixIts.h"
#include "capture_lint/ShapeTaint.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <tuple>

using namespace clang;

namespace capture_lint {

llvm::StringRef checkName(CheckKind K) {
  switch (K) {
  case CheckKind::SyncCall:
    return "capture-sync-call";
  case CheckKind::HostRead:
    return "capture-host-read";
  case CheckKind::Allocation:
    return "capture-allocation";
  case CheckKind::ShapeBranch:
    return "capture-shape-branch";
  case CheckKind::LegacyStream:
    return "capture-legacy-stream";
  case CheckKind::UnendedRegion:
    return "capture-unended-region";
  }
  return "";
}

std::optional<CheckKind> checkKindOf(llvm::StringRef Name) {
  for (unsigned I = 0; I < NumCheckKinds; ++I)
    if (checkName(static_cast<CheckKind>(I)) == Name)
      return static_cast<CheckKind>(I);
  return std::nullopt;
}

llvm::StringRef severityName(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Remark:
    return "remark";
  }
  return "warning";
}

static std::optional<CheckKind> checkOfHazard(Hazard H) {
  switch (H) {
  case Hazard::Sync:
    return CheckKind::SyncCall;
  case Hazard::HostRead:
    return CheckKind::HostRead;
  case Hazard::Allocation:
    return CheckKind::Allocation;
  case Hazard::LegacyStream:
    return CheckKind::LegacyStream;
  case Hazard::ShapeQuery:
  case Hazard::None:
    return std::nullopt;
  }
  return std::nullopt;
}

/// How a function is named in notes.
static std::string displayName(const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      return "lambda";
  return catalogName(FD);
}

static SourceLocation callLoc(const Expr *Call) {
  if (isa<CXXMemberCallExpr>(Call))
    return Call->getExprLoc();
  return Call->getBeginLoc();
}

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

static std::string modePhrase(CaptureMode M) {
  switch (M) {
  case CaptureMode::Global:
    return "in a global-mode capture";
  case CaptureMode::ThreadLocal:
    return "in a thread_local-mode capture";
  case CaptureMode::Relaxed:
    return "in a relaxed-mode capture";
  case CaptureMode::Unknown:
    return "in a capture whose mode is not a constant (checked as global)";
  }
  return "";
}

static std::string streamPhrase(const CaptureRegion &R) {
  bool Graph = R.Api && R.Api->StreamArg < 0;
  std::string Noun = Graph ? "graph" : "stream";
  return R.Stream.empty() ? "the " + Noun : Noun + " '" + R.Stream + "'";
}

static std::string implicitError(const CaptureRegion &R) {
  if (R.Api && llvm::StringRef(R.Api->Group).starts_with("hip"))
    return "hipErrorStreamCaptureImplicit";
  return "cudaErrorStreamCaptureImplicit (906)";
}

static std::string regionNote(const CaptureRegion &R) {
  bool Graph = R.Api && R.Api->StreamArg < 0;
  std::string Msg = (Graph ? "capture into " : "capture of ") +
                    streamPhrase(R) + " begins here, mode ";
  Msg += R.Mode == CaptureMode::Unknown
             ? "unknown (not a constant; checked as global)"
             : modeName(R.Mode).str();
  if (R.Ends.empty())
    Msg += "; it is not ended in this function";
  return Msg;
}

namespace {
/// A message in three parts, so it reads well both directly ("'cudaMalloc'
/// allocates ...") and through a call ("call to 'f' reaches 'cudaMalloc',
/// which allocates ...").
struct MessageParts {
  std::string Subject;
  std::string Predicate;
  std::string Consequence;
  std::string Fix;
};
} // namespace

static std::optional<std::pair<Severity, MessageParts>>
describe(const RawHazard &H, const CaptureRegion &R) {
  MessageParts M;
  Severity Level = Severity::Warning;
  switch (H.Kind) {
  case RawHazard::ApiCall: {
    const ApiEntry &E = *H.Entry;
    M.Subject = "'" + H.Api + "'";
    M.Predicate = E.Message;
    M.Fix = E.Fix;
    switch (E.behaviourIn(R.Mode)) {
    case Behaviour::Illegal:
      Level = Severity::Error;
      M.Consequence = modePhrase(R.Mode) + " it fails" +
                      (E.Error.empty() ? "" : " with " + E.Error) +
                      " and invalidates the capture";
      break;
    case Behaviour::Eager:
      Level = Severity::Warning;
      M.Consequence = modePhrase(R.Mode) +
                      " it runs once, at capture time, and is not recorded "
                      "in the graph, so replays skip it";
      break;
    case Behaviour::Note:
      Level = Severity::Remark;
      break;
    case Behaviour::Captured:
    case Behaviour::Legal:
      return std::nullopt;
    }
    break;
  }
  case RawHazard::LegacyArg:
    Level = Severity::Error;
    M.Subject = H.KernelLaunch ? H.Api : "'" + H.Api + "'";
    M.Predicate = "runs on the legacy default stream (" + H.Detail +
                  ") while " + streamPhrase(R) + " is capturing";
    M.Consequence = "with a blocking capture stream it fails with " +
                    implicitError(R) +
                    " and invalidates the capture; with a non-blocking one "
                    "it runs now and is missing from the graph";
    M.Fix = "pass the capturing stream" +
            (R.Stream.empty() || (R.Api && R.Api->StreamArg < 0)
                 ? std::string()
                 : " '" + R.Stream + "'") +
            " explicitly";
    break;
  case RawHazard::PendingRead:
    Level = Severity::Warning;
    M.Subject = "host read of '" + H.Detail + "'";
    M.Predicate = "sees memory that the captured '" + H.Api +
                  "' writes only when the graph is replayed";
    M.Consequence = "during capture the copy has not run, and replays do not "
                    "re-run this host code";
    M.Fix = "keep the value on the device, or read it after the graph launch "
            "and a synchronize";
    break;
  case RawHazard::Branch:
    Level = Severity::Warning;
    M.Subject = "'" + H.Detail + "' condition";
    M.Predicate = "depends on " + H.Api +
                  (H.Origin == "device" ? " (a value read back from the device)"
                                        : " (a tensor shape)");
    M.Consequence = "the capture records only the path taken now, and every "
                    "replay repeats it whatever the " +
                    std::string(H.Origin == "device" ? "value" : "shape");
    M.Fix = "capture one graph per shape bucket (pad inputs to fixed shapes), "
            "or decide on the device (a device-side predicate, or a "
            "conditional graph node)";
    break;
  }
  return std::make_pair(Level, M);
}

static std::string finalNote(const RawHazard &H) {
  switch (H.Kind) {
  case RawHazard::ApiCall:
    return "'" + H.Api + "' is called here";
  case RawHazard::LegacyArg:
    return (H.KernelLaunch ? H.Api : "'" + H.Api + "'") + " is issued here";
  case RawHazard::PendingRead:
    return "'" + H.Detail + "' is read here";
  case RawHazard::Branch:
    return "the branch is here";
  }
  return "";
}

std::optional<Finding> materialize(const RawHazard &H,
                                   const CaptureRegion &Region,
                                   SourceLocation ReportLoc,
                                   llvm::StringRef CalleeAtReport,
                                   const ASTContext &Ctx) {
  auto D = describe(H, Region);
  if (!D)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  const MessageParts &M = D->second;
  Finding F;
  F.Check = H.Check;
  F.Level = D->first;
  F.Api = H.Entry && H.Kind == RawHazard::ApiCall ? H.Entry->Name : H.Api;
  bool Via = !CalleeAtReport.empty();
  F.Loc = fileLoc(Via ? ReportLoc : H.Loc, SM);
  if (Via)
    F.Message = "call to '" + CalleeAtReport.str() + "' reaches " + M.Subject +
                ", which " + M.Predicate;
  else
    F.Message = M.Subject + " " + M.Predicate;
  if (!M.Consequence.empty())
    F.Message += ": " + M.Consequence;
  if (!M.Fix.empty())
    F.Message += "; " + M.Fix;
  for (const DiagNote &N : H.Chain)
    F.Notes.push_back({fileLoc(N.Loc, SM), N.Message});
  if (Via)
    F.Notes.push_back({fileLoc(H.Loc, SM), finalNote(H)});
  for (const DiagNote &N : H.Extra)
    F.Notes.push_back({fileLoc(N.Loc, SM), N.Message});
  if (Region.Begin) {
    F.RegionBegin = fileLoc(Region.Begin->getBeginLoc(), SM);
    F.Notes.push_back({F.RegionBegin, regionNote(Region)});
    for (const CallExpr *End : Region.Ends) {
      SourceLocation L = fileLoc(End->getBeginLoc(), SM);
      if (F.RegionEnd.isInvalid() ||
          SM.isBeforeInTranslationUnit(F.RegionEnd, L))
        F.RegionEnd = L;
    }
  }
  F.Mode = Region.Mode;
  F.Stream = Region.Stream;
  // Only where the stream's name means the same thing: in the function that
  // begins the region, for a stream named by a declaration.
  if (H.Kind == RawHazard::LegacyArg && !Via && Region.Api &&
      Region.Api->StreamArg >= 0 && !Region.Key.empty())
    F.Fixes = streamFixIts(H.StreamCall, H.StreamIndex, Region.Stream, Ctx);
  return F;
}

//===----------------------------------------------------------------------===//
// The analyzer
//===----------------------------------------------------------------------===//

struct CaptureAnalyzer::Impl {
  ASTContext &Ctx;
  const Catalog &Cat;
  AnalysisOptions Opts;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Analyzed;
  llvm::DenseMap<const FunctionDecl *, std::vector<RawHazard>> Summaries;
  llvm::SmallPtrSet<const FunctionDecl *, 16> InProgress;
  std::set<std::tuple<int, unsigned, std::string, std::string>> Reported;

  Impl(ASTContext &Ctx, const Catalog &Cat, AnalysisOptions Opts)
      : Ctx(Ctx), Cat(Cat), Opts(std::move(Opts)) {}

  /// Per-function context for scanning statements.
  struct Scope {
    const FunctionDecl *Fn;
    const ShapeTaint &Taint;
    const llvm::DenseSet<const CallExpr *> &ConfigCalls;
    unsigned Depth; // 0: the function that begins the region
  };

  void scan(const Stmt *S, const FlowState &St, bool IsTerminator,
            const Scope &Sc, std::vector<RawHazard> &Out);
  void scanBranch(const Stmt *S, const Scope &Sc, std::vector<RawHazard> &Out);
  void scanCall(const CallExpr *Call, const Scope &Sc,
                std::vector<RawHazard> &Out);
  void scanPendingRead(const Stmt *S, const FlowState &St,
                       std::vector<RawHazard> &Out);
  void descend(const FunctionDecl *Callee, SourceLocation At, const Scope &Sc,
               std::vector<RawHazard> &Out);
  const std::vector<RawHazard> &summary(const FunctionDecl *FD, unsigned Depth);
};

static llvm::DenseSet<const CallExpr *> kernelConfigCalls(const Stmt *Body) {
  llvm::DenseSet<const CallExpr *> Out;
  llvm::SmallVector<const Stmt *, 32> Work = {Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(S))
      Out.insert(K->getConfig());
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Out;
}

void CaptureAnalyzer::Impl::scanBranch(const Stmt *S, const Scope &Sc,
                                       std::vector<RawHazard> &Out) {
  const Expr *Cond = nullptr;
  const char *Kind = nullptr;
  if (const auto *If = dyn_cast<IfStmt>(S))
    Cond = If->getCond(), Kind = "if";
  else if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    Cond = Sw->getCond(), Kind = "switch";
  else if (const auto *For = dyn_cast<ForStmt>(S))
    Cond = For->getCond(), Kind = "for";
  else if (const auto *While = dyn_cast<WhileStmt>(S))
    Cond = While->getCond(), Kind = "while";
  else if (const auto *Do = dyn_cast<DoStmt>(S))
    Cond = Do->getCond(), Kind = "do-while";
  else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    Cond = CO->getCond(), Kind = "?:";
  else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
    Cond = Range->getRangeInit(), Kind = "range-for";
  if (!Cond)
    return;
  auto Src = Sc.Taint.dependency(Cond);
  if (!Src)
    return;
  RawHazard H;
  H.Kind = RawHazard::Branch;
  H.Check = CheckKind::ShapeBranch;
  H.Api = Src->What;
  H.Detail = Kind;
  H.Origin = Src->DeviceValue ? "device" : "shape";
  H.Loc = S->getBeginLoc();
  if (Src->VarLoc.isValid())
    H.Extra.push_back({Src->VarLoc, Src->What + " gets its value from " +
                                        Src->VarOrigin + " here"});
  Out.push_back(std::move(H));
}

void CaptureAnalyzer::Impl::scanCall(const CallExpr *Call, const Scope &Sc,
                                     std::vector<RawHazard> &Out) {
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(Call)) {
    const CallExpr *Config = K->getConfig();
    const ApiEntry *E = matchApi(Config, Cat);
    if (!E || !E->Stream || E->Stream->Index >= Config->getNumArgs())
      return;
    if (auto Spelling =
            legacyStreamSpelling(Config->getArg(E->Stream->Index), Ctx)) {
      RawHazard H;
      H.Kind = RawHazard::LegacyArg;
      H.Check = CheckKind::LegacyStream;
      H.Entry = E;
      const FunctionDecl *Kernel = K->getDirectCallee();
      H.Api = Kernel ? "kernel launch '" + Kernel->getNameAsString() + "'"
                     : "kernel launch";
      H.Detail = *Spelling;
      H.Loc = K->getBeginLoc();
      H.StreamCall = Config;
      H.StreamIndex = E->Stream->Index;
      H.KernelLaunch = true;
      Out.push_back(std::move(H));
    }
    return; // the kernel body is device code
  }
  if (Sc.ConfigCalls.count(Call))
    return;
  if (RegionFinder::regionApiOf(Call, Cat))
    return;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Cat.findGuard(catalogName(Callee)))
    return;
  if (const ApiEntry *E = Cat.findApi(catalogName(Callee))) {
    if (E->WhenArg && !matchApi(Call, Cat))
      return; // a catalog API, but not in the harmful form
    if (auto Check = checkOfHazard(E->Class)) {
      RawHazard H;
      H.Kind = RawHazard::ApiCall;
      H.Check = *Check;
      if (*Check == CheckKind::SyncCall && copiesDeviceToHost(Call, *E, Ctx))
        H.Check = CheckKind::HostRead;
      H.Entry = E;
      H.Api = E->Display;
      H.Loc = callLoc(Call);
      Out.push_back(std::move(H));
    }
    if (E->Stream && E->Stream->Index < Call->getNumArgs() &&
        E->Stream->Index < Callee->getNumParams()) {
      // Overloads may put other arguments at that index
      // (cudaMallocAsync(ptr, size, pool, stream)): check the parameter type.
      std::string ParamType =
          Callee->getParamDecl(E->Stream->Index)->getType().getAsString();
      bool IsStream = llvm::StringRef(ParamType).contains_insensitive("stream");
      const Expr *Arg = Call->getArg(E->Stream->Index);
      bool Defaulted = isa<CXXDefaultArgExpr>(Arg);
      if (IsStream && (!Defaulted || E->Stream->DefaultIsLegacy))
        if (auto Spelling = legacyStreamSpelling(Arg, Ctx)) {
          RawHazard H;
          H.Kind = RawHazard::LegacyArg;
          H.Check = CheckKind::LegacyStream;
          H.Entry = E;
          H.Api = E->Display;
          H.Detail = *Spelling;
          H.Loc = callLoc(Call);
          H.StreamCall = Call;
          H.StreamIndex = E->Stream->Index;
          Out.push_back(std::move(H));
        }
    }
    return; // the catalog describes it: do not look inside
  }
  descend(Callee, callLoc(Call), Sc, Out);
}

void CaptureAnalyzer::Impl::descend(const FunctionDecl *Callee,
                                    SourceLocation At, const Scope &Sc,
                                    std::vector<RawHazard> &Out) {
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def)
    return;
  if (Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return;
  if (Sc.Depth + 1 > Opts.MaxCallDepth)
    return;
  const std::vector<RawHazard> &Inner = summary(Def, Sc.Depth + 1);
  std::string CalleeName = displayName(Def);
  for (const RawHazard &I : Inner) {
    RawHazard H = I;
    if (Sc.Depth == 0)
      H.CallSite = At; // reported at the call inside the region
    else
      H.Chain.insert(H.Chain.begin(),
                     DiagNote{At, "'" + displayName(Sc.Fn) + "' calls '" +
                                      CalleeName + "' here"});
    H.Through.insert(H.Through.begin(), CalleeName);
    Out.push_back(std::move(H));
  }
}

void CaptureAnalyzer::Impl::scanPendingRead(const Stmt *S, const FlowState &St,
                                            std::vector<RawHazard> &Out) {
  if (St.PendingHostCopies.empty())
    return;
  const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
  if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
    return;
  const Expr *Sub = Cast->getSubExpr()->IgnoreParens();
  const ValueDecl *V = baseDeclOf(Sub);
  if (!V || !St.PendingHostCopies.count(V))
    return;
  // Reading the pointer itself (to pass it on) is not reading the data.
  if (namesDecl(Sub, V) &&
      (V->getType()->isPointerType() || V->getType()->isArrayType()))
    return;
  const CallExpr *Copy = nullptr;
  for (const auto &P : St.PendingCopyCalls)
    if (P.first == V)
      Copy = P.second;
  RawHazard H;
  H.Kind = RawHazard::PendingRead;
  H.Check = CheckKind::HostRead;
  const ApiEntry *E = Copy ? matchApi(Copy, Cat) : nullptr;
  H.Entry = E;
  H.Api = E ? E->Display : "copy";
  H.Detail = V->getNameAsString();
  H.Loc = Sub->getBeginLoc();
  if (Copy)
    H.Extra.push_back({callLoc(Copy), "the copy into '" + H.Detail +
                                          "' is captured here; it runs only "
                                          "when the graph is replayed"});
  Out.push_back(std::move(H));
}

void CaptureAnalyzer::Impl::scan(const Stmt *S, const FlowState &St,
                                 bool IsTerminator, const Scope &Sc,
                                 std::vector<RawHazard> &Out) {
  if (IsTerminator) {
    scanBranch(S, Sc, Out);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    scanCall(Call, Sc, Out);
    return;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (Ctor && !Ctor->isTrivial())
      descend(Ctor, Construct->getBeginLoc(), Sc, Out);
    return;
  }
  scanPendingRead(S, St, Out);
}

const std::vector<RawHazard> &
CaptureAnalyzer::Impl::summary(const FunctionDecl *FD, unsigned Depth) {
  auto It = Summaries.find(FD);
  if (It != Summaries.end())
    return It->second;
  static const std::vector<RawHazard> Empty;
  if (!InProgress.insert(FD).second)
    return Empty; // recursion: the cycle's hazards are found on the way in
  std::vector<RawHazard> Result;
  const Stmt *Body = FD->getBody();
  RegionFinder RF(FD, Body, Ctx, Cat, /*CalleeMode=*/true);
  if (RF.valid()) {
    ShapeTaint Taint(Body, Ctx, Cat, Opts);
    auto Configs = kernelConfigCalls(Body);
    Scope Sc{FD, Taint, Configs, Depth};
    RF.forEachStatement([&](const Stmt *S, const FlowState &St, bool Term) {
      if (St.Reached && !St.Guarded && St.Active.test(0))
        scan(S, St, Term, Sc, Result);
    });
  }
  InProgress.erase(FD);
  return Summaries[FD] = std::move(Result);
}

CaptureAnalyzer::CaptureAnalyzer(ASTContext &Ctx, const Catalog &Cat,
                                 AnalysisOptions Opts)
    : P(std::make_unique<Impl>(Ctx, Cat, std::move(Opts))) {}

CaptureAnalyzer::~CaptureAnalyzer() = default;

void CaptureAnalyzer::analyzeFunction(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || !P->Analyzed.insert(Def).second)
    return;
  if (Def->isDependentContext() &&
      Def->getTemplatedKind() != FunctionDecl::TK_NonTemplate)
    return; // analysed through its instantiations
  const Stmt *Body = Def->getBody();
  ASTContext &Ctx = P->Ctx;
  RegionFinder RF(Def, Body, Ctx, P->Cat, /*CalleeMode=*/false);
  if (!RF.valid() || RF.regions().empty())
    return;
  ShapeTaint Taint(Body, Ctx, P->Cat, P->Opts);
  auto Configs = kernelConfigCalls(Body);
  Impl::Scope Sc{Def, Taint, Configs, 0};
  const SourceManager &SM = Ctx.getSourceManager();

  auto Report = [&](Finding F) {
    auto Key = std::make_tuple(static_cast<int>(F.Check),
                               F.Loc.getRawEncoding(), F.Api, F.Message);
    if (P->Reported.insert(Key).second)
      Findings.push_back(std::move(F));
  };

  RF.forEachStatement([&](const Stmt *S, const FlowState &St, bool Term) {
    if (!St.inRegion())
      return;
    const CaptureRegion &Region = RF.regions()[St.Active.find_first()];
    std::vector<RawHazard> Hazards;
    P->scan(S, St, Term, Sc, Hazards);
    for (RawHazard &H : Hazards) {
      std::string Via = H.CallSite.isValid() ? H.Through.front() : "";
      if (auto F = materialize(H, Region, H.CallSite, Via, Ctx))
        Report(std::move(*F));
    }
  });

  for (const CaptureRegion &R : RF.regions()) {
    if (!R.Begin || !R.Ends.empty())
      continue;
    Finding F;
    F.Check = CheckKind::UnendedRegion;
    F.Level = Severity::Warning;
    F.Loc = fileLoc(R.Begin->getBeginLoc(), SM);
    F.Api = catalogName(R.Begin->getDirectCallee());
    std::string EndName;
    // Name the end call of the begin's own API family when there is one.
    for (const auto &Other : P->Cat.regions())
      if (Other->Kind == RegionApi::End && Other->Group == R.Api->Group &&
          (EndName.empty() || Other->Family == R.Api->Family))
        EndName = Other->Name;
    F.Message = "capture of " + streamPhrase(R) +
                " begun here is never "
                "ended in '" +
                displayName(Def) +
                "': no path from it reaches "
                "a matching '" +
                EndName +
                "', so the stream stays in capture "
                "mode and later work on it is captured or fails; end the "
                "capture on every path, including error returns";
    F.RegionBegin = F.Loc;
    F.Mode = R.Mode;
    F.Stream = R.Stream;
    Report(std::move(F));
  }
}

} // namespace capture_lint
