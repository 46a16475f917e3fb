//===- HazardText.cpp - What a hazard does under capture, in words -------===//
//
// Turns a raw hazard and the region it is in into a finding's text: the
// severity for the region's mode, the message (what happens under capture
// and the fix, composed from the catalog entry's fields) and the notes that
// chain from the call in the region down to the hazard and back to where the
// capture begins.
//
//===----------------------------------------------------------------------===//

#include "capture_lint/Analysis.h"
#include "capture_lint/AstUtil.h"
#include "rules/Rules.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace capture_lint {

using rules::streamPhrase;

static std::string regionNote(const CaptureRegion &R) {
  bool Graph = R.Api && R.Api->keyedByObject();
  std::string Msg = (Graph ? "capture into " : "capture of ") +
                    streamPhrase(R) + " begins here, mode ";
  Msg += modeWords(R.Mode);
  if (R.Ends.empty())
    Msg += "; it is not ended in this function";
  return Msg;
}

/// What \p H does in region \p R, in the words of its check's rule.
static Described ruleVerdict(const RawHazard &H, const CaptureRegion &R) {
  switch (H.Kind) {
  case RawHazard::External:
  case RawHazard::Overrides:
    return std::nullopt; // the whole-program phase follows them
  case RawHazard::ApiCall:
    return rules::describeCatalogCall(H, R);
  case RawHazard::OtherStream:
    return rules::describeOtherStreamAllocation(H, R);
  case RawHazard::LegacyArg:
    return rules::describeLegacyStream(H, R);
  case RawHazard::PendingRead:
    return rules::describePendingHostRead(H);
  case RawHazard::FrozenArg:
    return rules::describeFrozenArgument(H);
  case RawHazard::Branch:
    return rules::describeShapeBranch(H);
  }
  return std::nullopt;
}

std::string regionHeadline(const CaptureRegion &R) {
  return R.Headline.empty() ? regionNote(R) : R.Headline;
}

std::optional<FindingText> describeHazard(const RawHazard &H,
                                          const CaptureRegion &Region,
                                          llvm::StringRef Via,
                                          llvm::StringRef Where) {
  Reach R;
  R.Via = Via.str();
  R.Where = Where.str();
  return describe(ruleVerdict(H, Region), R);
}

std::optional<ClangFinding> materialize(const RawHazard &H,
                                        const CaptureRegion &Region,
                                        SourceLocation ReportLoc,
                                        llvm::StringRef CalleeAtReport,
                                        const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto T = describeHazard(
      H, Region, CalleeAtReport,
      CalleeAtReport.empty() ? "" : shortLocation(fileLoc(H.Loc, SM), SM));
  if (!T)
    return std::nullopt;
  ClangFinding F;
  F.Check = H.Check;
  F.Level = T->Level;
  F.Api = H.Entry && H.Kind == RawHazard::ApiCall ? H.Entry->Name : H.Api;
  bool Via = !CalleeAtReport.empty();
  F.Loc = fileLoc(Via ? ReportLoc : H.Loc, SM);
  F.HazardLoc = fileLoc(H.Loc, SM);
  F.Via = CalleeAtReport.str();
  F.Message = T->Message;
  for (const DiagNote &N : H.Chain)
    F.Notes.push_back({fileLoc(N.Loc, SM), N.Message});
  if (Via)
    F.Notes.push_back({fileLoc(H.Loc, SM), T->HereNote});
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
  if (H.Kind == RawHazard::LegacyArg)
    rules::addLegacyStreamFixes(H, Region, Via, F, Ctx);
  return F;
}

std::string shortLocation(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(Loc);
  if (P.isInvalid())
    return "";
  return llvm::sys::path::filename(P.getFilename()).str() + ":" +
         std::to_string(P.getLine());
}

} // namespace capture_lint
