//===- ImportedRole.cpp - A role recorded in another TU, made usable ------===//

#include "ImportedRole.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace capture_lint {

/// \p L as a location of this TU, loading its file into \p SM when no
/// include brought it in; invalid when the file is gone or shorter.
static SourceLocation locationOf(const SummaryLoc &L, SourceManager &SM) {
  if (!L.valid())
    return {};
  auto File = SM.getFileManager().getOptionalFileRef(L.File);
  if (!File)
    return {};
  FileID FID = SM.getOrCreateFileID(*File, SrcMgr::C_User);
  if (FID.isInvalid())
    return {};
  auto Buffer = SM.getBufferOrNone(FID);
  if (!Buffer || L.Offset > Buffer->getBufferSize())
    return {};
  return SM.getComposedLoc(FID, L.Offset);
}

static OpenedCapture captureOf(const SummaryCapture &S, const FunctionDecl *FD,
                               const Catalog &Cat, SourceManager &SM) {
  OpenedCapture C;
  C.Api = Cat.findRegionApi(S.BeginApi);
  C.Mode = parseMode(S.Mode).value_or(CaptureMode::Unknown);
  C.Stream = S.Stream;
  C.BeginLoc = locationOf(S.BeginLoc, SM);
  if (C.BeginLoc.isInvalid())
    C.BeginLoc = FD->getLocation();
  for (const SummaryNote &N : S.Chain)
    if (SourceLocation At = locationOf(N.Loc, SM); At.isValid())
      C.Chain.push_back({At, N.Message});
  return C;
}

FunctionRole roleFromSummary(const SummaryRole &S, const FunctionDecl *FD,
                             const Catalog &Cat, SourceManager &SM) {
  FunctionRole Role;
  if (S.Opens && Cat.findRegionApi(S.Opens->BeginApi))
    Role.Opens = captureOf(*S.Opens, FD, Cat, SM);
  if (const RegionApi *End = Cat.findRegionApi(S.Closes);
      End && End->Kind == RegionApi::End)
    Role.Closes = End;
  for (const SummaryWrap &W : S.Wraps) {
    if (!Cat.findRegionApi(W.Capture.BeginApi))
      continue;
    WrappedParam P;
    P.Index = W.Index;
    P.Capture = captureOf(W.Capture, FD, Cat, SM);
    P.InvokeLoc = locationOf(W.InvokeLoc, SM);
    if (P.InvokeLoc.isInvalid())
      P.InvokeLoc = P.Capture.BeginLoc;
    Role.Wraps.push_back(std::move(P));
  }
  Role.TrueWhenCapturing = S.TrueWhenCapturing;
  Role.PausesAndResumes = S.PausesAndResumes;
  Role.LaunchesGraph = Role.Closes && S.LaunchesGraph;
  return Role;
}

} // namespace capture_lint
