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

SourcePlace UnitFindings::located(SourceLocation Loc) {
  auto [Path, Offset] = place(Loc);
  SourcePlace P = Sources.locate(Path, Offset);
  if (P.Line || Path.empty())
    return P;
  FileID File = SM.getFileID(SM.getFileLoc(Loc));
  bool Invalid = false;
  llvm::StringRef Text = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset > Text.size())
    return P;
  P.Line = SM.getLineNumber(File, Offset);
  P.Column = SM.getColumnNumber(File, Offset);
  size_t Start = Offset - (P.Column - 1);
  P.LineText = Text.slice(Start, Text.find('\n', Start)).rtrim("\r").str();
  return P;
}

std::optional<ReportFinding> UnitFindings::convert(const ClangFinding &F) {
  llvm::StringRef Check = checkName(F.Check);
  if (F.Loc.isInvalid() || SM.isInSystemHeader(SM.getFileLoc(F.Loc)) ||
      Comments.silenced(F.Loc, Check))
    return std::nullopt;
  ReportFinding R;
  R.Check = Check.str();
  R.Level = F.Level;
  R.Loc = located(F.Loc);
  R.Via = F.Via;
  R.HazardLoc = located(F.HazardLoc);
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
  for (const DiagNote &N : F.Notes)
    R.Notes.push_back({located(N.Loc), N.Message});
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
