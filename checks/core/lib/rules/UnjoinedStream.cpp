//===- UnjoinedStream.cpp - capture-unjoined-stream -----------------------===//
//
// A capture spans several streams only through events: an event recorded on
// a stream of the capture and waited on by another stream forks that stream
// in; the capture can end only when every forked stream's last work is
// joined back the same way (an event recorded on it, waited on by a stream
// of the capture). Otherwise cudaStreamEndCapture fails with
// cudaErrorStreamCaptureUnjoined (904) and no graph, in every mode, naming
// no stream. Work issued in a region on a stream the capture never forked
// in is not captured at all: it runs once, at capture time, and the graph
// silently lacks it (capture-rules.md, measured).
//
// The rule follows, in the order of the region's own statements, the event
// records, the event waits and the work given an explicit stream (kernel
// launches, catalog calls with a stream argument), by stream and event
// identity (streamKey). A stream waited on anywhere in the function is not
// reported as never forked in (a fork the order does not show, as in a
// loop). A stream written as an element or accessor read streamKey cannot
// name (`streams[r]`, `streams.at(i)`, `instance_->stream()`) gets a key
// from its text: the same text names the same stream in one region, so a
// fork from it is followed; different texts may name one stream too, so
// work on such a stream is never called outside the capture, and a wait
// by one on a forked stream's event may be the join. Streams written as
// anything else (a call with side effects) are left alone.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/ApiMatch.h"
#include "capture_lint/AstUtil.h"
#include "capture_lint/RegionFinder.h"

#include "../ExpectedFailure.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <set>

using namespace clang;

namespace capture_lint::rules {
namespace {

/// What one statement does to the streams of a capture.
struct StreamOp {
  enum Kind { Record, Wait, Work } K;
  std::string Stream, Event;    // keys (streamKey)
  std::string StreamText, What; // as written; the work's name
  SourceLocation Loc;           // a file location
};

/// Whether \p MD reads an element or member of its object, not a stream
/// factory: a const method, `operator[]`, a standard container's `at`, or
/// a getter whose body returns a member (`return stream_;`).
bool isAccessor(const CXXMethodDecl *MD) {
  if (MD->isConst() || MD->getOverloadedOperator() == OO_Subscript ||
      (MD->getParent()->isInStdNamespace() && MD->getIdentifier() &&
       MD->getName() == "at"))
    return true;
  const FunctionDecl *Def = nullptr;
  const auto *Body =
      MD->hasBody(Def) ? dyn_cast<CompoundStmt>(Def->getBody()) : nullptr;
  const auto *Ret = Body && Body->size() == 1
                        ? dyn_cast<ReturnStmt>(Body->body_front())
                        : nullptr;
  const auto *Member =
      Ret && Ret->getRetValue()
          ? dyn_cast<MemberExpr>(Ret->getRetValue()->IgnoreParenImpCasts())
          : nullptr;
  return Member && isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts());
}

/// Whether \p E only reads: names, members, elements, constants,
/// arithmetic on them, and calls of accessors (isAccessor).
bool onlyReads(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<DeclRefExpr, IntegerLiteral, CXXThisExpr>(E))
    return true;
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return onlyReads(M->getBase());
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return onlyReads(A->getBase()) && onlyReads(A->getIdx());
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return (B->isAdditiveOp() || B->isMultiplicativeOp()) &&
           onlyReads(B->getLHS()) && onlyReads(B->getRHS());
  const auto *Call = dyn_cast<CallExpr>(E);
  const auto *MD =
      Call ? dyn_cast_or_null<CXXMethodDecl>(directCallee(Call)) : nullptr;
  if (!MD || !isAccessor(MD))
    return false;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call);
      M && !onlyReads(M->getImplicitObjectArgument()))
    return false;
  return llvm::all_of(Call->arguments(),
                      [](const Expr *Arg) { return onlyReads(Arg); });
}

/// streamKey's key for \p E, else a tentative key ("~" and its text) for
/// an expression that only reads; empty when neither.
std::string opKey(const Expr *E, const ASTContext &Ctx) {
  if (std::string Key = streamKey(E); !Key.empty())
    return Key;
  if (!E || E->isValueDependent() || !onlyReads(E))
    return "";
  std::string Text = sourceText(E->IgnoreParenImpCasts(), Ctx);
  llvm::erase_if(Text, [](char C) { return C == ' ' || C == '\n'; });
  return Text.empty() ? "" : "~" + Text;
}

bool tentative(const std::string &Key) { return !Key.empty() && Key[0] == '~'; }

bool named(const FunctionDecl *FD, std::initializer_list<const char *> Names) {
  if (!FD || !FD->getIdentifier())
    return false;
  for (const char *N : Names)
    if (FD->getName() == N)
      return true;
  return false;
}

std::optional<StreamOp> eventOp(const CallExpr *Call, const FunctionDecl *FD,
                                const ASTContext &Ctx) {
  bool Record = named(FD, {"cudaEventRecord", "cudaEventRecordWithFlags",
                           "hipEventRecord", "hipEventRecordWithFlags",
                           "cuEventRecord", "cuEventRecordWithFlags"});
  bool Wait = named(
      FD, {"cudaStreamWaitEvent", "hipStreamWaitEvent", "cuStreamWaitEvent"});
  if ((!Record && !Wait) || Call->getNumArgs() < 2)
    return std::nullopt;
  // cudaEventRecord(event, stream); cudaStreamWaitEvent(stream, event).
  const Expr *S = Call->getArg(Record ? 1 : 0),
             *E = Call->getArg(Record ? 0 : 1);
  StreamOp Op{Record ? StreamOp::Record : StreamOp::Wait,
              opKey(S, Ctx),
              opKey(E, Ctx),
              sourceText(S, Ctx),
              FD->getName().str(),
              Call->getBeginLoc()};
  if (Op.Stream.empty() || Op.Event.empty())
    return std::nullopt;
  return Op;
}

/// Work given an explicit stream: a kernel launch, or a catalog call with
/// a stream argument whose hazard is none (captured work).
std::optional<StreamOp> workOp(const Stmt *S, const Catalog &Cat,
                               const ASTContext &Ctx) {
  const CallExpr *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return std::nullopt;
  std::string What;
  const CallExpr *Carrier = Call;
  // A launch's configuration (cudaConfigureCall, __cudaPushCall...) is its
  // own statement too: the launch speaks for it.
  if (const FunctionDecl *FD = directCallee(Call);
      FD && FD->getIdentifier() &&
      (FD->getName().contains("ConfigureCall") ||
       FD->getName().contains("PushCallConfiguration")))
    return std::nullopt;
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(Call)) {
    Carrier = K->getConfig();
    const FunctionDecl *Kernel = directCallee(K);
    What = Kernel ? "kernel launch '" + Kernel->getNameAsString() + "'"
                  : "kernel launch";
  }
  const ApiEntry *E = Carrier ? matchApi(Carrier, Cat) : nullptr;
  if (!E || !E->Stream || E->Stream->Index >= Carrier->getNumArgs() ||
      (Carrier == Call && E->Class != Hazard::None))
    return std::nullopt;
  const Expr *Stream = Carrier->getArg(E->Stream->Index);
  if (isa<CXXDefaultArgExpr>(Stream))
    return std::nullopt; // the legacy stream: capture-legacy-stream's
  if (What.empty())
    What = "'" + E->Display + "'";
  StreamOp Op{StreamOp::Work, opKey(Stream, Ctx), "", sourceText(Stream, Ctx),
              What,           Call->getBeginLoc()};
  if (Op.Stream.empty())
    return std::nullopt;
  return Op;
}

/// The stream operations of region \p I's own statements, in source order.
std::vector<StreamOp> regionOps(const RegionFinder &RF, unsigned I,
                                const Catalog &Cat, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<StreamOp> Ops;
  RF.forEachStatement([&](const Stmt *S, const FlowState &State, bool Term) {
    if (Term || !State.inRegion() || !State.Active.test(I))
      return;
    std::optional<StreamOp> Op;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Op = eventOp(Call, directCallee(Call), Ctx);
    if (!Op)
      Op = workOp(S, Cat, Ctx);
    if (Op) {
      Op->Loc = fileLoc(Op->Loc, SM);
      Ops.push_back(std::move(*Op));
    }
  });
  llvm::stable_sort(Ops, [&](const StreamOp &A, const StreamOp &B) {
    return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
  });
  return Ops;
}

/// Calls \p Visit for each call in \p Body (walkStatements) until it
/// returns true; true when it did.
bool anyCall(const Stmt *Body,
             llvm::function_ref<bool(const CallExpr *)> Visit) {
  bool Found = false;
  walkStatements(Body, [&](const Stmt *S) {
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && !Found)
      Found = Visit(Call);
    return !Found;
  });
  return Found;
}

/// The streams some cudaStreamWaitEvent in \p Def makes wait; "*" when
/// one of them cannot be named (`side[i]`): any stream may be forked.
std::set<std::string> waitingStreams(const FunctionDecl *Def) {
  std::set<std::string> Out;
  anyCall(Def->getBody(), [&](const CallExpr *Call) {
    if (Call->getNumArgs() > 0 &&
        named(directCallee(Call), {"cudaStreamWaitEvent", "hipStreamWaitEvent",
                                   "cuStreamWaitEvent"})) {
      std::string Key = streamKey(Call->getArg(0));
      Out.insert(Key.empty() ? "*" : Key);
    }
    return false;
  });
  return Out;
}

/// The key of the stream \p R captures: its StreamKey, or for a catalog
/// begin whose stream streamKey cannot name, the argument's tentative key.
std::string captureKey(const CaptureRegion &R, const ASTContext &Ctx) {
  if (!R.StreamKey.empty() || !R.Begin || !R.Api || R.Api->StreamArg < 0 ||
      static_cast<unsigned>(R.Api->StreamArg) >= R.Begin->getNumArgs())
    return R.StreamKey;
  return opKey(R.Begin->getArg(R.Api->StreamArg), Ctx);
}

/// One stream forked into the capture.
struct Fork {
  StreamOp At;         // the wait that forked it
  size_t LastWork = 0; // index of its last work (0: none yet)
  bool Joined = false; // since its last work
};

ClangFinding finding(const CaptureRegion &R, SourceLocation Loc,
                     std::string Message, const ASTContext &Ctx) {
  return regionFinding(CheckKind::UnjoinedStream, R, Loc, std::move(Message),
                       Ctx);
}

/// Whether an end of \p R is a call whose result the code expects to be an
/// error (`EXPECT_EQ(cudaErrorStreamCaptureUnjoined, cudaStreamEndCapture(s,
/// &g))`): a test of the failure, whose fork is left unjoined on purpose.
bool endExpectedToFail(const CaptureRegion &R, const FunctionDecl *Def,
                       const ASTContext &Ctx) {
  std::optional<ParentMap> PM;
  return anyCall(Def->getBody(), [&](const CallExpr *Call) {
    if (!llvm::is_contained(R.Ends, Call->getBeginLoc()))
      return false;
    if (!PM)
      PM.emplace(const_cast<Stmt *>(Def->getBody()));
    return resultExpectedToFail(Call, *PM, Ctx);
  });
}

/// Work on a stream the capture never forked in.
ClangFinding outsideWork(const CaptureRegion &R, const StreamOp &Op,
                         const ASTContext &Ctx) {
  return finding(
      R, Op.Loc,
      Op.What + " is issued on stream '" + Op.StreamText +
          "', which is not part of the capture of " + streamPhrase(R) +
          ": it runs now, once, at capture time, and is missing from the "
          "graph (the capture ends without an error); issue it on the "
          "capturing stream, or fork '" +
          Op.StreamText +
          "' into the capture first (record an event on the capturing "
          "stream and make '" +
          Op.StreamText + "' wait for it)",
      Ctx);
}

/// A fork left unjoined when the capture ends.
ClangFinding unjoinedFork(const CaptureRegion &R, const Fork &F,
                          const ASTContext &Ctx) {
  ClangFinding Found =
      finding(R, F.At.Loc,
              "stream '" + F.At.StreamText +
                  "' is forked into the capture of " + streamPhrase(R) +
                  " here and is not joined back before the capture ends: " +
                  (isHipRegion(R) ? "hipStreamEndCapture fails with "
                                    "hipErrorStreamCaptureUnjoined"
                                  : "cudaStreamEndCapture fails with "
                                    "cudaErrorStreamCaptureUnjoined (904)") +
                  " and gives no graph, in every capture mode, and names no "
                  "stream; after the last work on '" +
                  F.At.StreamText +
                  "', record an event on it and make the capturing stream wait "
                  "for that event before ending the capture",
              Ctx);
  auto Ended =
      llvm::find_if(R.Ends, [](SourceLocation L) { return L.isValid(); });
  if (Ended != R.Ends.end())
    Found.Notes.push_back(
        {fileLoc(*Ended, Ctx.getSourceManager()),
         "the capture ends here, with '" + F.At.StreamText + "' still forked"});
  return Found;
}

/// The streams of one capture, followed through its operations in order.
struct CaptureStreams {
  std::set<std::string> InCapture;
  /// Each event: the stream it was last recorded on, and when (1-based).
  std::map<std::string, std::pair<std::string, size_t>> RecordedOn;
  std::map<std::string, Fork> Forks;

  /// Operation \p I; false for work on a stream outside the capture.
  bool follow(const StreamOp &Op, size_t I) {
    if (Op.K == StreamOp::Record) {
      RecordedOn[Op.Event] = {Op.Stream, I};
      return true;
    }
    if (Op.K == StreamOp::Work) {
      auto F = Forks.find(Op.Stream);
      if (F == Forks.end())
        return InCapture.count(Op.Stream) != 0 || tentative(Op.Stream);
      F->second.LastWork = I;
      F->second.Joined = false;
      return true;
    }
    auto Rec = RecordedOn.find(Op.Event);
    if (Rec == RecordedOn.end()) {
      // An event named by its text that no record here names the same
      // way (`events[j]` after records of `events[i]`): it may be any of
      // them, so a stream that may be of the capture waiting on it may
      // join every fork.
      if (tentative(Op.Event) &&
          (InCapture.count(Op.Stream) || tentative(Op.Stream)))
        for (auto &[Key, F] : Forks)
          F.Joined = true;
      return true;
    }
    if (!InCapture.count(Rec->second.first))
      return true;
    // A wait, for an event recorded on a stream of the capture: it forks
    // the waiting stream in, or (a stream of the capture waiting) joins
    // the recording one, if the event follows its last work. A waiting
    // stream named by its text may be the capturing one: a join.
    auto F = Forks.find(Rec->second.first);
    bool MayJoin = F != Forks.end() &&
                   (InCapture.count(Op.Stream) || tentative(Op.Stream));
    if (MayJoin) {
      if (Rec->second.second > F->second.LastWork)
        F->second.Joined = true;
    } else if (InCapture.insert(Op.Stream).second) {
      Forks[Op.Stream] = {Op, 0, false};
    }
    return true;
  }
};

/// The findings of region \p R from its operations \p Ops.
void judgeRegion(const CaptureRegion &R, const std::string &CaptureKey,
                 const std::vector<StreamOp> &Ops,
                 const std::set<std::string> &Waiting, const FunctionDecl *Def,
                 const ASTContext &Ctx, std::vector<ClangFinding> &Out) {
  CaptureStreams Streams;
  Streams.InCapture.insert(CaptureKey);
  for (size_t I = 0; I < Ops.size(); ++I)
    if (!Streams.follow(Ops[I], I + 1) && !tentative(CaptureKey) &&
        !Waiting.count(Ops[I].Stream) && !Waiting.count("*"))
      Out.push_back(outsideWork(R, Ops[I], Ctx));
  if (Streams.Forks.empty() || endExpectedToFail(R, Def, Ctx))
    return;
  for (const auto &[Key, F] : Streams.Forks)
    if (!F.Joined)
      Out.push_back(unjoinedFork(R, F, Ctx));
}

} // namespace

std::vector<ClangFinding> unjoinedStreams(const FunctionRuleInput &In) {
  const FunctionDecl *Def = In.Def;
  const RegionFinder &RF = In.RF;
  std::vector<ClangFinding> Out;
  std::optional<std::set<std::string>> Waiting;
  const std::vector<CaptureRegion> &Regions = RF.regions();
  for (unsigned I = 0; I < Regions.size(); ++I) {
    const CaptureRegion &R = Regions[I];
    // Judged where the capture begins and ends in this function, on a
    // stream known here.
    std::string CaptureKey = captureKey(R, In.Ctx);
    if (CaptureKey.empty() || !R.Reached || R.Ends.empty() ||
        R.BeginLoc.isInvalid())
      continue;
    std::vector<StreamOp> Ops = regionOps(RF, I, In.Cat, In.Ctx);
    if (Ops.empty())
      continue;
    if (!Waiting)
      Waiting = waitingStreams(Def);
    judgeRegion(R, CaptureKey, Ops, *Waiting, Def, In.Ctx, Out);
  }
  return Out;
}

} // namespace capture_lint::rules
