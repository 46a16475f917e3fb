//===- Analysis.cpp - Capture hazards of a translation unit ---------------===//

#include "capture_lint/Analysis.h"
#include "capture_lint/ApiMatch.h"
#include "capture_lint/AstUtil.h"
#include "capture_lint/FixIts.h"
#include "capture_lint/ShapeTaint.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
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
  case RawHazard::External:
    return std::nullopt;
  case RawHazard::ApiCall: {
    const ApiEntry &E = *H.Entry;
    M.Subject = "'" + H.Api + "'";
    M.Predicate = E.Message;
    M.Fix = E.Fix;
    if (H.ThreadRelaxed) {
      // The thread switched itself to relaxed mode around the call (as
      // PyTorch's graph pool does around its cudaMalloc).
      Behaviour B = E.behaviourIn(CaptureMode::Relaxed);
      if (B == Behaviour::Captured || B == Behaviour::Legal)
        return std::nullopt;
      if (B != Behaviour::Illegal && E.Class == Hazard::Allocation) {
        M.Consequence =
            "the thread is in relaxed capture mode here "
            "(cudaThreadExchangeStreamCaptureMode), so it is allowed: it "
            "runs once, at capture time, and every replay reuses that memory";
        M.Fix = "make sure the memory outlives the graph";
        return std::make_pair(Severity::Remark, M);
      }
    }
    switch (E.behaviourIn(H.ThreadRelaxed ? CaptureMode::Relaxed : R.Mode)) {
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
  case RawHazard::External:
    return "'" + H.Api + "' is called here";
  }
  return "";
}

std::string regionHeadline(const CaptureRegion &R) {
  return R.Headline.empty() ? regionNote(R) : R.Headline;
}

std::optional<HazardText> describeHazard(const RawHazard &H,
                                         const CaptureRegion &Region,
                                         llvm::StringRef Via) {
  auto D = describe(H, Region);
  if (!D)
    return std::nullopt;
  const MessageParts &M = D->second;
  HazardText T;
  T.Level = D->first;
  if (!Via.empty())
    T.Message = "call to '" + Via.str() + "' reaches " + M.Subject +
                ", which " + M.Predicate;
  else
    T.Message = M.Subject + " " + M.Predicate;
  if (!M.Consequence.empty())
    T.Message += ": " + M.Consequence;
  if (!M.Fix.empty())
    T.Message += "; " + M.Fix;
  T.FinalNote = finalNote(H);
  return T;
}

std::optional<Finding> materialize(const RawHazard &H,
                                   const CaptureRegion &Region,
                                   SourceLocation ReportLoc,
                                   llvm::StringRef CalleeAtReport,
                                   const ASTContext &Ctx) {
  auto T = describeHazard(H, Region, CalleeAtReport);
  if (!T)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  Finding F;
  F.Check = H.Check;
  F.Level = T->Level;
  F.Api = H.Entry && H.Kind == RawHazard::ApiCall ? H.Entry->Name : H.Api;
  bool Via = !CalleeAtReport.empty();
  F.Loc = fileLoc(Via ? ReportLoc : H.Loc, SM);
  F.Message = T->Message;
  for (const DiagNote &N : H.Chain)
    F.Notes.push_back({fileLoc(N.Loc, SM), N.Message});
  if (Via)
    F.Notes.push_back({fileLoc(H.Loc, SM), T->FinalNote});
  for (const DiagNote &N : H.Extra)
    F.Notes.push_back({fileLoc(N.Loc, SM), N.Message});
  if (Region.BeginLoc.isValid()) {
    F.RegionBegin = fileLoc(Region.BeginLoc, SM);
    F.Notes.push_back({F.RegionBegin, regionHeadline(Region)});
    for (const DiagNote &N : Region.Origin)
      F.Notes.push_back({fileLoc(N.Loc, SM), N.Message});
    for (SourceLocation End : Region.Ends) {
      SourceLocation L = fileLoc(End, SM);
      if (F.RegionEnd.isInvalid() ||
          SM.isBeforeInTranslationUnit(F.RegionEnd, L))
        F.RegionEnd = L;
    }
  }
  F.Mode = Region.Mode;
  F.Stream = Region.Stream;
  // Only where the stream's name means the same thing: in the function that
  // begins the region with a catalog call, for a stream named by a
  // declaration.
  if (H.Kind == RawHazard::LegacyArg && !Via && Region.Begin && Region.Api &&
      Region.Api->StreamArg >= 0 && !Region.Key.empty())
    F.Fixes = streamFixIts(H.StreamCall, H.StreamIndex, Region.Stream, Ctx);
  return F;
}

//===----------------------------------------------------------------------===//
// The analyzer
//===----------------------------------------------------------------------===//

struct CaptureAnalyzer::Impl : RoleOracle {
  ASTContext &Ctx;
  const Catalog &Cat;
  AnalysisOptions Opts;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Analyzed;
  llvm::DenseMap<const FunctionDecl *, std::vector<RawHazard>> Summaries;
  llvm::SmallPtrSet<const FunctionDecl *, 16> InProgress;
  std::set<std::tuple<int, unsigned, std::string, std::string>> Reported;
  std::vector<Finding> *Findings = nullptr;

  // Roles (FunctionRoles.h), memoized by canonical declaration.
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionRole>> Roles;
  llvm::SmallPtrSet<const FunctionDecl *, 8> RolesInProgress;
  llvm::DenseMap<const FunctionDecl *, bool> MayHaveRole;
  /// Regions never ended where they begin, reported by finish() unless the
  /// TU closes them elsewhere.
  struct Unended {
    CaptureRegion Region;
    const FunctionDecl *Fn;
  };
  std::vector<Unended> UnendedRegions;
  /// Openers whose regions some caller closes; groups with a closer.
  llvm::SmallPtrSet<const FunctionDecl *, 8> PairedOpeners;
  std::set<std::string> ClosedGroups;
  std::vector<ExternalUse> External;

  Impl(ASTContext &Ctx, const Catalog &Cat, AnalysisOptions Opts)
      : Ctx(Ctx), Cat(Cat), Opts(std::move(Opts)) {}

  /// Per-function context for scanning statements.
  struct Scope {
    const FunctionDecl *Fn;
    const ShapeTaint &Taint;
    const llvm::DenseSet<const CallExpr *> &ConfigCalls;
    unsigned Depth; // 0: the function that begins the region
  };

  const FunctionRole *roleOf(const FunctionDecl *FD) override;
  FunctionRole computeRole(const FunctionDecl *FD);
  void roleFromBody(const FunctionDecl *Def, FunctionRole &Role);
  bool mayHaveRole(const FunctionDecl *FD);
  const ApiEntry *declaredEntry(FunctionNote::Role Kind);
  /// Whether the TU calls one of C.AnyOf with \p Call's argument C.Index.
  bool calledInUnit(const CallExpr *Call, const ArgCondition &C);
  std::map<std::string, std::set<std::string>> UnitCallKeys; // lazily

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

  void report(Finding F);
  void reportHazards(std::vector<RawHazard> &Hazards,
                     const CaptureRegion &Region);
  void analyzeRegions(const FunctionDecl *Def);
  void analyzeBody(const FunctionDecl *Def, const CaptureRegion &Region);
  void analyzeWrapperCalls(const FunctionDecl *Def);
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

static const ParmVarDecl *invokedParam(const CallExpr *Call);

/// A catalog entry's own hazard at \p Loc.
static RawHazard apiHazard(const ApiEntry &E, CheckKind Check,
                           SourceLocation Loc) {
  RawHazard H;
  H.Kind = RawHazard::ApiCall;
  H.Check = Check;
  H.Entry = &E;
  H.Api = E.Display;
  H.Loc = Loc;
  return H;
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
  // A wrapper running its callable: analysed at the wrapper's call sites,
  // where the callable is known.
  if (const ParmVarDecl *P = invokedParam(Call))
    if (const FunctionRole *Own = roleOf(Sc.Fn))
      for (const WrappedParam &W : Own->Wraps)
        if (W.Index == P->getFunctionScopeIndex())
          return;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Cat.findGuard(catalogName(Callee)))
    return;
  const ApiEntry *Declared = nullptr;
  if (const FunctionRole *Role = roleOf(Callee)) {
    // Openers and wrappers are analysed on their own; a function vouched
    // safe is not entered. A closer is: its body up to the end is still in
    // the region.
    if (Role->Safe || Role->Opens || !Role->Wraps.empty() ||
        Role->TrueWhenCapturing)
      return;
    Declared = Role->Declared;
  }
  if (const ApiEntry *E =
          Declared ? Declared : Cat.findApi(catalogName(Callee))) {
    if (!Declared && E->hasArgConditions() && !matchApi(Call, Cat))
      return; // a catalog API, but not in the harmful form
    if (!Declared && E->UnlessCalled && calledInUnit(Call, *E->UnlessCalled))
      return; // set up elsewhere in this TU (a handle's workspace)
    if (auto Check = checkOfHazard(E->Class)) {
      RawHazard H = apiHazard(*E, *Check, callLoc(Call));
      if (*Check == CheckKind::SyncCall && copiesDeviceToHost(Call, *E, Ctx))
        H.Check = CheckKind::HostRead;
      if (Declared)
        H.Api = catalogName(Callee);
      const char *DeclaredVerb = E->Class == Hazard::Sync ? "synchronize"
                                 : E->Class == Hazard::Allocation ? "allocate"
                                                                  : "read back";
      if (Declared)
        H.Extra.push_back({Callee->getLocation(),
                           "'" + H.Api + "' is declared to " + DeclaredVerb +
                               " here (" + roleOf(Callee)->DeclaredBy + ")"});
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
  const FunctionDecl *Def = nullptr;
  if (Opts.RecordExternalCalls && !Callee->hasBody(Def) &&
      !Ctx.getSourceManager().isInSystemHeader(
          Ctx.getSourceManager().getExpansionLoc(Callee->getLocation()))) {
    llvm::SmallString<128> Usr;
    if (!index::generateUSRForDecl(Callee->getCanonicalDecl(), Usr)) {
      RawHazard H;
      H.Kind = RawHazard::External;
      H.Api = displayName(Callee);
      H.Detail = std::string(Usr);
      H.Origin = displayName(Sc.Fn);
      H.Loc = callLoc(Call);
      Out.push_back(std::move(H));
    }
    return;
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
  if (const FunctionRole *Role = roleOf(Def))
    if (Role->Safe)
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
  size_t First = Out.size();
  if (IsTerminator) {
    scanBranch(S, Sc, Out);
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    scanCall(Call, Sc, Out);
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    const FunctionRole *Role = roleOf(Ctor);
    const ApiEntry *E = Ctor ? Cat.findApi(catalogName(Ctor)) : nullptr;
    if (E) {
      // A catalog constructor (thrust::device_vector's allocates).
      if (auto Check = checkOfHazard(E->Class))
        Out.push_back(apiHazard(*E, *Check, Construct->getBeginLoc()));
    } else if (Ctor && !Ctor->isTrivial() && !(Role && Role->Opens)) {
      descend(Ctor, Construct->getBeginLoc(), Sc, Out);
    }
  } else {
    scanPendingRead(S, St, Out);
  }
  if (St.ThreadRelaxed)
    for (size_t I = First; I < Out.size(); ++I)
      Out[I].ThreadRelaxed = true;
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
  RegionFinder RF(FD, Body, Ctx, Cat, /*CalleeMode=*/true, this);
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

bool CaptureAnalyzer::Impl::calledInUnit(const CallExpr *Call,
                                         const ArgCondition &C) {
  std::string Names;
  for (const std::string &N : C.AnyOf)
    Names += N + ";";
  Names += std::to_string(C.Index);
  auto It = UnitCallKeys.find(Names);
  if (It == UnitCallKeys.end()) {
    std::set<std::string> Keys;
    llvm::SmallVector<const Stmt *, 64> Work;
    const SourceManager &SM = Ctx.getSourceManager();
    // Every function body of user code: namespaces and classes included.
    llvm::SmallVector<const DeclContext *, 16> Contexts = {
        Ctx.getTranslationUnitDecl()};
    while (!Contexts.empty()) {
      const DeclContext *DC = Contexts.pop_back_val();
      for (const Decl *D : DC->decls()) {
        if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
          continue;
        if (isa<NamespaceDecl, CXXRecordDecl, LinkageSpecDecl>(D))
          Contexts.push_back(cast<DeclContext>(D));
        if (const FunctionDecl *FD = D->getAsFunction())
          Work.push_back(FD->getBody());
      }
    }
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *Other = dyn_cast<CallExpr>(S))
        if (const FunctionDecl *FD = Other->getDirectCallee()) {
          std::string Name = catalogName(FD);
          for (const std::string &N : C.AnyOf)
            if (N == Name && C.Index < Other->getNumArgs())
              Keys.insert(streamKey(Other->getArg(C.Index)));
        }
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
    }
    It = UnitCallKeys.emplace(Names, std::move(Keys)).first;
  }
  if (It->second.empty())
    return false;
  std::string Key =
      C.Index < Call->getNumArgs() ? streamKey(Call->getArg(C.Index)) : "";
  // Unknown keys on either side: assume it is the same handle.
  return Key.empty() || It->second.count(Key) || It->second.count("");
}

//===----------------------------------------------------------------------===//
// Roles of user functions
//===----------------------------------------------------------------------===//

/// True when \p FD (or a redeclaration) carries an annotation or a catalog
/// "functions" entry.
static bool hasDeclaredRole(const FunctionDecl *FD, const Catalog &Cat) {
  for (const FunctionDecl *R : FD->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation().starts_with(annotation::Prefix))
        return true;
  return Cat.findFunction(catalogName(FD)) != nullptr;
}

bool CaptureAnalyzer::Impl::mayHaveRole(const FunctionDecl *FD) {
  if (!FD)
    return false;
  FD = FD->getCanonicalDecl();
  auto It = MayHaveRole.find(FD);
  if (It != MayHaveRole.end())
    return It->second;
  MayHaveRole[FD] = false; // cycles: no role through recursion alone
  bool Result = hasDeclaredRole(FD, Cat);
  const FunctionDecl *Def = nullptr;
  if (!Result && FD->hasBody(Def) && Def &&
      !Ctx.getSourceManager().isInSystemHeader(Def->getLocation())) {
    llvm::SmallVector<const Stmt *, 32> Work = {Def->getBody()};
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *I : Ctor->inits())
        Work.push_back(I->getInit());
    while (!Work.empty() && !Result) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      const FunctionDecl *Callee = nullptr;
      if (const auto *Call = dyn_cast<CallExpr>(S))
        Callee = Call->getDirectCallee();
      else if (const auto *C = dyn_cast<CXXConstructExpr>(S))
        Callee = C->getConstructor();
      if (Callee) {
        std::string Name = catalogName(Callee);
        if (Cat.findRegionApi(Name) || Cat.findGuard(Name) ||
            mayHaveRole(Callee))
          Result = true;
        if (const auto *C = dyn_cast<CXXConstructExpr>(S))
          if (const CXXRecordDecl *RD = C->getConstructor()->getParent())
            if (RD->getDestructor() && mayHaveRole(RD->getDestructor()))
              Result = true;
      }
      for (const Stmt *C : S->children())
        Work.push_back(C);
    }
  }
  MayHaveRole[FD] = Result;
  return Result;
}

const ApiEntry *CaptureAnalyzer::Impl::declaredEntry(FunctionNote::Role Kind) {
  return declaredApiEntry(Kind == FunctionNote::Synchronizes ? "synchronizes"
                          : Kind == FunctionNote::Allocates  ? "allocates"
                          : Kind == FunctionNote::ReadsBack  ? "reads-back"
                                                             : "");
}

static std::unique_ptr<ApiEntry> makeDeclaredEntry(const char *Name, Hazard H,
                                                   Behaviour Relaxed,
                                                   const char *Message,
                                                   const char *Fix) {
  auto E = std::make_unique<ApiEntry>();
  E->Name = Name;
  E->Display = Name;
  E->Class = H;
  E->Modes = {Behaviour::Illegal, Behaviour::Illegal, Relaxed};
  E->Message = Message;
  E->Fix = Fix;
  E->Source = "capture_lint annotation or .capture-lint.json 'functions'";
  return E;
}

const ApiEntry *declaredApiEntry(llvm::StringRef Name) {
  static const std::unique_ptr<ApiEntry> Entries[] = {
      makeDeclaredEntry("synchronizes", Hazard::Sync, Behaviour::Illegal,
                        "synchronizes",
                        "call it before the capture begins or after it ends"),
      makeDeclaredEntry("allocates", Hazard::Allocation, Behaviour::Eager,
                        "allocates device memory",
                        "allocate before the capture begins, or use "
                        "cudaMallocAsync on the capturing stream"),
      makeDeclaredEntry("reads-back", Hazard::HostRead, Behaviour::Illegal,
                        "reads a device value back to the host",
                        "keep the value on the device (a device-side "
                        "predicate or a conditional node)"),
  };
  for (const auto &E : Entries)
    if (E->Name == Name)
      return E.get();
  return nullptr;
}

/// The parameter a call invokes: `f()`, `(*fp)()`, `std::forward<F>(f)()`,
/// `std::invoke(f)`; null when the callee is not a parameter.
static const ParmVarDecl *invokedParam(const CallExpr *Call) {
  auto ParamOf = [](const Expr *E) -> const ParmVarDecl * {
    E = E->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_Deref)
        E = U->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Fwd = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *FD = Fwd->getDirectCallee())
        if (FD->isInStdNamespace() && FD->getIdentifier() &&
            (FD->getName() == "forward" || FD->getName() == "move") &&
            Fwd->getNumArgs() == 1)
          E = Fwd->getArg(0)->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<ParmVarDecl>(DRE->getDecl());
    return nullptr;
  };
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
      return ParamOf(Op->getArg(0));
    return nullptr;
  }
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = M->getMethodDecl();
    if (MD && MD->getOverloadedOperator() == OO_Call)
      return ParamOf(M->getImplicitObjectArgument());
    return nullptr;
  }
  if (const FunctionDecl *FD = Call->getDirectCallee())
    if (FD->isInStdNamespace() && FD->getIdentifier() &&
        FD->getName() == "invoke" && Call->getNumArgs() > 0)
      return ParamOf(Call->getArg(0));
  return ParamOf(Call->getCallee());
}

/// How a region of \p RF is described to callers of the function.
static OpenedCapture openedCaptureOf(const CaptureRegion &R,
                                     const FunctionDecl *Fn) {
  OpenedCapture O;
  O.Api = R.Api;
  O.Mode = R.Mode;
  O.Stream = R.Stream;
  if (R.Begin) {
    O.BeginLoc = R.Begin->getBeginLoc();
    return O;
  }
  // Begun by a call to an opener inside: chain through it.
  std::string Callee = "an opener";
  if (const auto *Call = dyn_cast_or_null<CallExpr>(R.BeginStmt))
    Callee = catalogName(Call->getDirectCallee());
  else if (R.Guard)
    Callee = "the constructor of '" + R.Guard->getNameAsString() + "'";
  O.Chain.push_back(
      {R.BeginLoc, "'" + displayName(Fn) + "' calls '" + Callee + "' here"});
  for (size_t I = 0; I + 1 < R.Origin.size(); ++I)
    O.Chain.push_back(R.Origin[I]);
  O.BeginLoc = R.Origin.empty() ? R.BeginLoc : R.Origin.back().Loc;
  return O;
}

void CaptureAnalyzer::Impl::roleFromBody(const FunctionDecl *Def,
                                         FunctionRole &Role) {
  const Stmt *Body = Def->getBody();
  RegionFinder RF(Def, Body, Ctx, Cat, /*CalleeMode=*/true, this);
  if (!RF.valid())
    return;
  const FlowState &Exit = RF.exitState();
  if (Exit.Reached) {
    for (unsigned I = 1; I < RF.regions().size() && !Role.Opens; ++I)
      if (Exit.Active.test(I))
        Role.Opens = openedCaptureOf(RF.regions()[I], Def);
    if (Exit.EndedInherited && RF.inheritedClosedBy())
      Role.Closes = RF.inheritedClosedBy();
  }
  if (Role.Closes)
    ClosedGroups.insert(Role.Closes->Group);
  // Wrappers: a parameter invoked while an own region is active.
  RF.forEachStatement([&](const Stmt *S, const FlowState &St, bool Term) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (Term || !Call || !St.Reached || St.Guarded)
      return;
    const ParmVarDecl *P = invokedParam(Call);
    if (!P || P->getDeclContext() != Def)
      return;
    for (unsigned I = 1; I < RF.regions().size(); ++I) {
      if (!St.Active.test(I))
        continue;
      unsigned Index = P->getFunctionScopeIndex();
      for (const WrappedParam &W : Role.Wraps)
        if (W.Index == Index)
          return;
      Role.Wraps.push_back(
          {Index, openedCaptureOf(RF.regions()[I], Def), callLoc(Call)});
      return;
    }
  });
  // Capture predicates: every return is a guard condition, all one way.
  if (Def->getReturnType()->isBooleanType()) {
    GuardRecognizer G(Cat, Ctx, this);
    G.scan(Body);
    std::optional<bool> Sense;
    bool Consistent = true;
    llvm::SmallVector<const Stmt *, 32> Work = {Body};
    while (!Work.empty() && Consistent) {
      const Stmt *S = Work.pop_back_val();
      if (!S || isa<LambdaExpr>(S))
        continue;
      if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
        auto When = G.notCapturingWhen(Ret->getRetValue());
        if (!When || (Sense && *Sense != *When))
          Consistent = false;
        Sense = When;
      }
      for (const Stmt *C : S->children())
        Work.push_back(C);
    }
    if (Consistent && Sense)
      Role.TrueWhenCapturing = !*Sense;
  }
}

FunctionRole CaptureAnalyzer::Impl::computeRole(const FunctionDecl *FD) {
  FunctionRole Role;
  // Declared roles: annotations on any declaration, then the catalog.
  auto Declare = [&](FunctionNote::Role Kind, unsigned Argument,
                     const std::string &By) {
    switch (Kind) {
    case FunctionNote::Captured:
      Role.Captured = true;
      break;
    case FunctionNote::Safe:
      Role.Safe = true;
      break;
    case FunctionNote::CapturePredicate:
      Role.TrueWhenCapturing = true;
      break;
    case FunctionNote::Wrapper: {
      WrappedParam W;
      W.Index = Argument;
      W.Capture.BeginLoc = FD->getLocation();
      W.InvokeLoc = FD->getLocation();
      W.Capture.Chain.push_back(
          {FD->getLocation(),
           "'" + catalogName(FD) + "' is declared to run argument " +
               std::to_string(Argument) + " under a capture (" + By + ")"});
      Role.Wraps.push_back(std::move(W));
      break;
    }
    default:
      Role.Declared = declaredEntry(Kind);
      break;
    }
    Role.DeclaredBy = By;
  };
  for (const FunctionDecl *R : FD->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>()) {
      StringRef Text = A->getAnnotation();
      std::string By = "annotation " + Text.str();
      if (Text == annotation::Captured)
        Declare(FunctionNote::Captured, 0, By);
      else if (Text == annotation::Safe)
        Declare(FunctionNote::Safe, 0, By);
      else if (Text == annotation::Synchronizes)
        Declare(FunctionNote::Synchronizes, 0, By);
      else if (Text == annotation::Allocates)
        Declare(FunctionNote::Allocates, 0, By);
      else if (Text == annotation::ReadsBack)
        Declare(FunctionNote::ReadsBack, 0, By);
      else if (Text == annotation::CapturePredicate)
        Declare(FunctionNote::CapturePredicate, 0, By);
      else if (Text.consume_front(annotation::WrapperPrefix)) {
        unsigned Index = 0;
        if (!Text.trim().getAsInteger(10, Index))
          Declare(FunctionNote::Wrapper, Index, By);
      }
    }
  if (const FunctionNote *N = Cat.findFunction(catalogName(FD)))
    Declare(N->Kind, N->Argument, "'functions' entry in " + N->File);
  if (Role.any())
    return Role;

  const FunctionDecl *Def = nullptr;
  if (FD->hasBody(Def) && Def && mayHaveRole(Def) &&
      !Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    roleFromBody(Def, Role);
  return Role;
}

const FunctionRole *CaptureAnalyzer::Impl::roleOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  FD = FD->getCanonicalDecl();
  auto It = Roles.find(FD);
  if (It != Roles.end())
    return It->second.get();
  if (!mayHaveRole(FD) || !RolesInProgress.insert(FD).second)
    return nullptr;
  FunctionRole Role = computeRole(FD);
  RolesInProgress.erase(FD);
  auto &Slot = Roles[FD];
  if (Role.any())
    Slot = std::make_unique<FunctionRole>(std::move(Role));
  return Slot.get();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

void CaptureAnalyzer::Impl::report(Finding F) {
  auto Key = std::make_tuple(static_cast<int>(F.Check), F.Loc.getRawEncoding(),
                             F.Api, F.Message);
  if (Reported.insert(Key).second)
    Findings->push_back(std::move(F));
}

void CaptureAnalyzer::Impl::reportHazards(std::vector<RawHazard> &Hazards,
                                          const CaptureRegion &Region) {
  for (RawHazard &H : Hazards) {
    if (H.Kind == RawHazard::External) {
      External.push_back({Region, H});
      continue;
    }
    std::string Via = H.CallSite.isValid() ? H.Through.front() : "";
    if (auto F = materialize(H, Region, H.CallSite, Via, Ctx))
      report(std::move(*F));
  }
}

void CaptureAnalyzer::Impl::analyzeRegions(const FunctionDecl *Def) {
  const Stmt *Body = Def->getBody();
  RegionFinder RF(Def, Body, Ctx, Cat, /*CalleeMode=*/false, this);
  if (!RF.valid() || RF.regions().empty())
    return;
  ShapeTaint Taint(Body, Ctx, Cat, Opts);
  auto Configs = kernelConfigCalls(Body);
  Scope Sc{Def, Taint, Configs, 0};
  RF.forEachStatement([&](const Stmt *S, const FlowState &St, bool Term) {
    if (!St.inRegion())
      return;
    const CaptureRegion &Region = RF.regions()[St.Active.find_first()];
    std::vector<RawHazard> Hazards;
    scan(S, St, Term, Sc, Hazards);
    reportHazards(Hazards, Region);
  });
  for (const CaptureRegion &R : RF.regions()) {
    if (R.Ends.empty()) {
      if (R.Begin)
        UnendedRegions.push_back({R, Def});
      continue;
    }
    // An opener whose region this function closes is used as intended.
    if (const auto *Call = dyn_cast_or_null<CallExpr>(R.BeginStmt);
        Call && !R.Begin)
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        PairedOpeners.insert(Callee->getCanonicalDecl());
  }
}

void CaptureAnalyzer::Impl::analyzeBody(const FunctionDecl *Def,
                                        const CaptureRegion &Region) {
  const Stmt *Body = Def->getBody();
  RegionFinder RF(Def, Body, Ctx, Cat, /*CalleeMode=*/true, this, &Region);
  if (!RF.valid())
    return;
  ShapeTaint Taint(Body, Ctx, Cat, Opts);
  auto Configs = kernelConfigCalls(Body);
  Scope Sc{Def, Taint, Configs, 0};
  RF.forEachStatement([&](const Stmt *S, const FlowState &St, bool Term) {
    if (!St.Reached || St.Guarded || !St.Active.test(0))
      return;
    std::vector<RawHazard> Hazards;
    scan(S, St, Term, Sc, Hazards);
    reportHazards(Hazards, RF.regions()[0]);
  });
}

/// The function a callable argument runs: a lambda (also through a local
/// initialised with one, or a std::function built from one), or a named
/// function.
static const FunctionDecl *callableBody(const Expr *Arg) {
  for (unsigned Steps = 0; Arg && Steps < 16; ++Steps) {
    Arg = Arg->IgnoreParenImpCasts();
    if (const auto *L = dyn_cast<LambdaExpr>(Arg))
      return L->getCallOperator();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Arg)) {
      Arg = M->getSubExpr();
      continue;
    }
    if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Arg)) {
      Arg = B->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(Arg)) {
      Arg = C->getNumArgs() > 0 ? C->getArg(0) : nullptr;
      continue;
    }
    if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(Arg)) {
      Arg = F->getSubExpr();
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(Arg)) {
      if (U->getOpcode() != UO_AddrOf)
        return nullptr;
      Arg = U->getSubExpr();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
        return FD;
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->isLocalVarDecl() && VD->getInit() &&
            !VD->getType()->isPointerType()) {
          Arg = VD->getInit();
          continue;
        }
      return nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

void CaptureAnalyzer::Impl::analyzeWrapperCalls(const FunctionDecl *Def) {
  llvm::SmallVector<const Stmt *, 32> Work = {Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue; // a lambda's body is analysed as its own function
    for (const Stmt *C : S->children())
      Work.push_back(C);
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      continue;
    const FunctionDecl *Wrapper = Call->getDirectCallee();
    const FunctionRole *Role = roleOf(Wrapper);
    if (!Role || Role->Wraps.empty())
      continue;
    // Member calls count the object as argument 0 of the call expression
    // only for operator calls; parameters index the call's arguments.
    unsigned Shift =
        isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Wrapper) ? 1 : 0;
    for (const WrappedParam &W : Role->Wraps) {
      if (W.Index + Shift >= Call->getNumArgs())
        continue;
      const FunctionDecl *Fn = callableBody(Call->getArg(W.Index + Shift));
      const FunctionDecl *FnDef = nullptr;
      if (!Fn || !Fn->hasBody(FnDef) || !FnDef)
        continue;
      CaptureRegion R;
      R.Api = W.Capture.Api;
      R.Mode = W.Capture.Mode;
      R.Stream = W.Capture.Stream;
      R.ViaRole = true;
      R.BeginLoc = callLoc(Call);
      bool Graph = R.Api && R.Api->StreamArg < 0;
      R.Headline =
          "'" + displayName(FnDef) + "' runs under a capture" +
          (R.Stream.empty()
               ? std::string()
               : std::string(Graph ? " into graph '" : " of stream '") +
                     R.Stream + "'") +
          ": it is passed to '" + catalogName(Wrapper) + "' here, mode " +
          (R.Api ? modeName(R.Mode).str() : "unknown (checked as global)");
      if (W.InvokeLoc != W.Capture.BeginLoc || !R.Api)
        R.Origin.push_back(
            {W.InvokeLoc, "'" + catalogName(Wrapper) + "' runs it here"});
      for (const DiagNote &N : W.Capture.Chain)
        R.Origin.push_back(N);
      if (R.Api)
        R.Origin.push_back({W.Capture.BeginLoc, "the capture begins here"});
      analyzeBody(FnDef, R);
    }
  }
}

CaptureAnalyzer::CaptureAnalyzer(ASTContext &Ctx, const Catalog &Cat,
                                 AnalysisOptions Opts)
    : P(std::make_unique<Impl>(Ctx, Cat, std::move(Opts))) {
  P->Findings = &Findings;
}

CaptureAnalyzer::~CaptureAnalyzer() = default;

const FunctionRole *CaptureAnalyzer::roleOf(const FunctionDecl *FD) {
  return P->roleOf(FD);
}

const std::vector<ExternalUse> &CaptureAnalyzer::externalUses() const {
  return P->External;
}

std::vector<RawHazard> CaptureAnalyzer::calleeHazards(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return {};
  if (const FunctionRole *Role = P->roleOf(Def))
    if (Role->Safe || Role->Opens || !Role->Wraps.empty())
      return {};
  return P->summary(Def, 1);
}

void CaptureAnalyzer::analyzeFunction(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || !P->Analyzed.insert(Def).second)
    return;
  if (Def->isDependentContext())
    return; // a template (or a member of one): through its instantiations
  const FunctionRole *Role = P->roleOf(Def);
  if (Role && Role->Captured) {
    CaptureRegion R;
    R.BeginLoc = Def->getLocation();
    R.ViaRole = true;
    R.Headline = "'" + displayName(Def) +
                 "' is declared to run under capture (" + Role->DeclaredBy +
                 "); checked as a global-mode capture";
    P->analyzeBody(Def, R);
  }
  if (!P->mayHaveRole(Def))
    return; // no begin, opener, closer or wrapper call in reach
  P->analyzeRegions(Def);
  P->analyzeWrapperCalls(Def);
}

void CaptureAnalyzer::finish() {
  const SourceManager &SM = P->Ctx.getSourceManager();
  for (const Impl::Unended &U : P->UnendedRegions) {
    const CaptureRegion &R = U.Region;
    // Ended elsewhere: the function is an opener some caller pairs with a
    // closer, or this TU has a closer for the group.
    if (P->PairedOpeners.count(U.Fn->getCanonicalDecl()) ||
        (R.Api && P->ClosedGroups.count(R.Api->Group)))
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
                " begun here is never ended in '" + displayName(U.Fn) +
                "', and no function in this translation unit ends it: no "
                "path reaches a matching '" +
                EndName +
                "', so the stream stays in capture mode and later work on it "
                "is captured or fails; end the capture on every path, "
                "including error returns (a function that ends it elsewhere "
                "can be named in .capture-lint.json 'regions')";
    F.RegionBegin = F.Loc;
    F.Mode = R.Mode;
    F.Stream = R.Stream;
    P->report(std::move(F));
  }
  P->UnendedRegions.clear();
}

} // namespace capture_lint
