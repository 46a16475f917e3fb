//===- ImportedRole.cpp - A role recorded in another TU, made usable ------===//

#include "ImportedRole.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

using namespace clang;

namespace capture_lint {

/// The places \p All knows in \p File, by offset.
static std::map<unsigned, const SourcePlace *>
placesIn(const std::string &File, const RoleImports &All) {
  std::map<unsigned, const SourcePlace *> Out;
  for (const auto &[Usr, Role] : All)
    for (const SourcePlace &P : Role.Places)
      if (P.File == File && P.Line && P.Column)
        Out.emplace(P.Offset, &P);
  return Out;
}

/// A stand-in for \p File, absent here (a sandboxed build action): its
/// known lines (\p Places) at their offsets and line numbers, blanks and
/// line breaks between, so a location's offset in the real file is the
/// same line and column in the stand-in. "" when the places disagree.
static std::string
standInText(const std::map<unsigned, const SourcePlace *> &Places) {
  std::string Text;
  unsigned Line = 1;
  for (const auto &[Offset, P] : Places) {
    if (P->Column - 1 > Offset || P->Column - 1 > P->LineText.size())
      return "";
    unsigned Start = Offset - (P->Column - 1);
    if (P->Line == Line && Start + P->LineText.size() == Text.size())
      continue; // this line is in already
    if (P->Line <= Line && !Text.empty())
      return "";
    unsigned Breaks = P->Line - Line;
    if (Start < Text.size() + Breaks)
      return "";
    // The line before ends at once when there are lines between, which
    // take the blanks; the last break is right before the line.
    unsigned Blanks = Start - Text.size() - Breaks;
    if (Breaks > 1 && !Text.empty()) {
      Text += '\n';
      --Breaks;
    }
    Text.append(Blanks, ' ');
    Text.append(Breaks, '\n');
    Text += P->LineText;
    Line = P->Line;
  }
  return Text.empty() ? "" : Text + "\n";
}

/// The file \p Path as this TU sees it: on disk, else the stand-in the
/// places \p All knows make.
static OptionalFileEntryRef fileFor(const std::string &Path, SourceManager &SM,
                                    const RoleImports *All) {
  FileManager &FM = SM.getFileManager();
  if (auto File = FM.getOptionalFileRef(Path))
    return File;
  if (!All)
    return std::nullopt;
  std::string Text = standInText(placesIn(Path, *All));
  if (Text.empty())
    return std::nullopt;
  FileEntryRef Virtual = FM.getVirtualFileRef(Path, Text.size(), 0);
  SM.overrideFileContents(Virtual,
                          llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  return Virtual;
}

/// \p L as a location of this TU, loading its file into \p SM when no
/// include brought it in (or a stand-in where the file is absent);
/// invalid when the file is gone or shorter.
static SourceLocation locationOf(const SummaryLoc &L, SourceManager &SM,
                                 const RoleImports *All) {
  if (!L.valid())
    return {};
  auto File = fileFor(L.File, SM, All);
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
                               const Catalog &Cat, SourceManager &SM,
                               const RoleImports *All) {
  OpenedCapture C;
  C.Api = Cat.findRegionApi(S.BeginApi);
  C.Mode = parseMode(S.Mode).value_or(CaptureMode::Unknown);
  C.Stream = S.Stream;
  C.BeginLoc = locationOf(S.BeginLoc, SM, All);
  if (C.BeginLoc.isInvalid())
    C.BeginLoc = FD->getLocation();
  for (const SummaryNote &N : S.Chain)
    if (SourceLocation At = locationOf(N.Loc, SM, All); At.isValid())
      C.Chain.push_back({At, N.Message});
  return C;
}

FunctionRole roleFromSummary(const SummaryRole &S, const FunctionDecl *FD,
                             const Catalog &Cat, SourceManager &SM,
                             const RoleImports *All) {
  FunctionRole Role;
  if (S.Opens && Cat.findRegionApi(S.Opens->BeginApi))
    Role.Opens = captureOf(*S.Opens, FD, Cat, SM, All);
  if (const RegionApi *End = Cat.findRegionApi(S.Closes);
      End && End->Kind == RegionApi::End)
    Role.Closes = End;
  for (const SummaryWrap &W : S.Wraps) {
    if (!Cat.findRegionApi(W.Capture.BeginApi))
      continue;
    WrappedParam P;
    P.Index = W.Index;
    P.Capture = captureOf(W.Capture, FD, Cat, SM, All);
    P.InvokeLoc = locationOf(W.InvokeLoc, SM, All);
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
