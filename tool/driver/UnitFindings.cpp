//===- UnitFindings.cpp - One TU's findings as the report has them --------===//

#include "UnitFindings.h"
#include "Paths.h"

#include "clang/Tooling/Core/Replacement.h"

using namespace clang;

namespace capture_lint {

std::pair<std::string, unsigned> UnitFindings::place(SourceLocation Loc) const {
  SourceLocation File = SM.getFileLoc(Loc);
  llvm::StringRef Name = SM.getFilename(File);
  if (Name.empty())
    return {"", 0};
  return {absolutePath(Name, Directory), SM.getFileOffset(File)};
}

std::optional<ReportFinding> UnitFindings::convert(const ClangFinding &F) {
  llvm::StringRef Check = checkName(F.Check);
  if (F.Loc.isInvalid() || SM.isInSystemHeader(SM.getFileLoc(F.Loc)) ||
      Comments.silenced(F.Loc, Check))
    return std::nullopt;
  ReportFinding R;
  R.Check = Check.str();
  R.Level = F.Level;
  auto [Path, Offset] = place(F.Loc);
  R.Loc = Sources.locate(Path, Offset);
  R.Via = F.Via;
  auto [HazardPath, HazardOffset] = place(F.HazardLoc);
  R.HazardLoc = Sources.locate(HazardPath, HazardOffset);
  R.Message = F.Message;
  R.Api = F.Api;
  if (F.RegionBegin.isValid()) {
    SourceLocation Begin = SM.getFileLoc(F.RegionBegin);
    R.HasRegion = true;
    R.RegionFile = place(Begin).first;
    R.RegionBeginLine = SM.getExpansionLineNumber(Begin);
  }
  if (F.RegionEnd.isValid())
    R.RegionEndLine = SM.getExpansionLineNumber(F.RegionEnd);
  R.Mode = std::string(modeName(F.Mode));
  R.Stream = F.Stream;
  for (const DiagNote &N : F.Notes) {
    auto [NotePath, NoteOffset] = place(N.Loc);
    R.Notes.push_back({Sources.locate(NotePath, NoteOffset), N.Message});
  }
  for (const FixItHint &Fix : F.Fixes) {
    // As clang renders fixes: only those whose ends are in files.
    if (!Fix.RemoveRange.getBegin().isFileID() ||
        !Fix.RemoveRange.getEnd().isFileID())
      continue;
    tooling::Replacement Rep(SM, Fix.RemoveRange, Fix.CodeToInsert, LO);
    R.Fixes.push_back({absolutePath(Rep.getFilePath(), Directory),
                       Rep.getOffset(), Rep.getLength(),
                       Rep.getReplacementText().str()});
  }
  return R;
}

std::vector<ReportError> UnitFindings::suppressionProblems() const {
  std::vector<ReportError> Out;
  Comments.forEachProblem([&](FileID File, const Suppressions::Problem &P) {
    ReportError E;
    if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File))
      E.Loc.File = absolutePath(Entry->getName(), Directory);
    E.Loc.Line = P.Line;
    E.Loc.Column = 1;
    E.Message = P.Message;
    Out.push_back(std::move(E));
  });
  return Out;
}

} // namespace capture_lint
