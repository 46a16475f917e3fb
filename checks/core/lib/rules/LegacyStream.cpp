//===- LegacyStream.cpp - capture-legacy-stream ---------------------------===//
//
// Work on the legacy default stream (0, nullptr, cudaStreamLegacy, a
// defaulted stream argument, a <<<...>>> launch without a stream) while a
// stream is capturing: with a blocking capture stream it fails and
// invalidates the capture, with a non-blocking one it runs now and is
// missing from the graph. A capture-status query of the legacy stream fails
// the same way in a global-mode capture. Its fixes are in
// LegacyStreamFixIts.cpp.
//
//===----------------------------------------------------------------------===//

#include "LegacyStreamFixIts.h"
#include "Rules.h"

#include "capture_lint/ApiMatch.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace capture_lint::rules {

/// The hazard of work named \p Api on the legacy stream, spelled
/// \p Spelling, at \p Loc.
static RawHazard legacyArg(std::string Api, std::string Spelling,
                           SourceLocation Loc) {
  RawHazard H;
  H.Kind = RawHazard::LegacyArg;
  H.Check = CheckKind::LegacyStream;
  H.Api = std::move(Api);
  H.Detail = std::move(Spelling);
  H.Loc = Loc;
  return H;
}

std::optional<RawHazard> legacyStreamLaunch(const CUDAKernelCallExpr *K,
                                            const Catalog &Cat,
                                            ASTContext &Ctx) {
  const CallExpr *Config = K->getConfig();
  const ApiEntry *E = matchApi(Config, Cat);
  if (!E || !E->Stream || E->Stream->Index >= Config->getNumArgs())
    return std::nullopt;
  auto Spelling = legacyStreamSpelling(Config->getArg(E->Stream->Index), Ctx);
  if (!Spelling)
    return std::nullopt;
  const FunctionDecl *Kernel = directCallee(K);
  RawHazard H =
      legacyArg(Kernel ? "kernel launch '" + Kernel->getNameAsString() + "'"
                       : "kernel launch",
                *Spelling, K->getBeginLoc());
  H.Entry = E;
  H.StreamCall = Config;
  H.StreamIndex = E->Stream->Index;
  H.KernelLaunch = true;
  return H;
}

std::optional<RawHazard> legacyStreamArgument(const CallExpr *Call,
                                              const ApiEntry &E,
                                              const Expr *Stream,
                                              ASTContext &Ctx) {
  auto Spelling = legacyStreamSpelling(Stream, Ctx);
  if (!Spelling)
    return std::nullopt;
  RawHazard H = legacyArg(E.Display, *Spelling, callLoc(Call));
  H.Entry = &E;
  H.StreamCall = Call;
  H.StreamIndex = E.Stream->Index;
  return H;
}

std::optional<RawHazard> legacyStreamQuery(const CallExpr *Call,
                                           ASTContext &Ctx) {
  const FunctionDecl *Callee = directCallee(Call);
  // The first stream parameter (not the status it writes).
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams();
       ++I) {
    std::string Type = Callee->getParamDecl(I)->getType().getAsString();
    if (!llvm::StringRef(Type).contains_insensitive("stream") ||
        llvm::StringRef(Type).contains_insensitive("status"))
      continue;
    const Expr *Arg = Call->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      return std::nullopt;
    auto Spelling = legacyStreamSpelling(Arg, Ctx);
    if (!Spelling)
      return std::nullopt;
    RawHazard H = legacyArg(catalogName(Callee), *Spelling, callLoc(Call));
    H.StatusQuery = true;
    return H;
  }
  return std::nullopt;
}

Described describeLegacyStream(const RawHazard &H, const CaptureRegion &R) {
  MessageParts M;
  M.Subject = H.KernelLaunch ? H.Api : "'" + H.Api + "'";
  M.HereNote = M.Subject + " is issued here";
  if (H.StatusQuery) {
    if (R.Mode != CaptureMode::Global && R.Mode != CaptureMode::Unknown)
      return std::nullopt;
    M.Predicate = "asks about the legacy default stream (" + H.Detail +
                  ") while " + streamPhrase(R) + " is capturing";
    M.Consequence = modePhrase(R.Mode) + " it fails with " + implicitError(R) +
                    " and invalidates the capture, and its answer says "
                    "nothing about the capturing stream";
    M.Fix = "ask about the capturing stream" +
            (R.Stream.empty() ? std::string() : " '" + R.Stream + "'") +
            " instead";
    return std::make_pair(Severity::Error, M);
  }
  M.Predicate = "runs on the legacy default stream (" + H.Detail + ") while " +
                streamPhrase(R) + " is capturing";
  M.Consequence = "with a blocking capture stream it fails with " +
                  implicitError(R) +
                  " and invalidates the capture; with a non-blocking one "
                  "it runs now and is missing from the graph";
  M.Fix = "pass the capturing stream" +
          (R.Stream.empty() || (R.Api && R.Api->StreamArg < 0)
               ? std::string()
               : " '" + R.Stream + "'") +
          " explicitly";
  return std::make_pair(Severity::Error, M);
}

void addLegacyStreamFixes(const RawHazard &H, const CaptureRegion &R,
                          bool ReachedThroughCall, ClangFinding &F,
                          const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // Only where the stream's name means the same thing: in the function that
  // begins the region with a catalog call, for a stream named by a
  // declaration.
  if (!ReachedThroughCall && R.Begin && R.Api && R.Api->StreamArg >= 0 &&
      !R.Key.empty())
    F.Fixes = streamFixIts(H.StreamCall, H.StreamIndex, R.Stream, Ctx);
  if (ReachedThroughCall)
    if (auto N = calleeStreamNote(
            H.StreamCall, R.Stream, R.ThisMember,
            isHipRegion(R) ? "hipStream_t" : "cudaStream_t", Ctx))
      F.Notes.insert(F.Notes.begin() + (H.Chain.size() + 1),
                     {fileLoc(N->Loc, SM), N->Message});
}

} // namespace capture_lint::rules
