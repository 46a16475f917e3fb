//===- GithubOutput.cpp - GitHub Actions workflow-command annotations -----===//
//
// `--format=github` prints one workflow command per finding, which GitHub
// shows as an annotation on the pull request's diff without code scanning:
//
//   ::error file=src/decoder.cu,line=12,col=3,title=capture-allocation::...
//
// The message carries the note chain (region begin down to the offending
// call) on its following lines. Paths are relative to the working directory
// (the checkout root in a workflow), as annotations need.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace capture_lint {

/// Escapes the data of a workflow command (after the `::`) and, for a
/// property value (file=..., title=...), also ':' and ','.
static std::string escape(llvm::StringRef S, bool Property) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '%':
      Out += "%25";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    case ':':
      Out += Property ? "%3A" : ":";
      break;
    case ',':
      Out += Property ? "%2C" : ",";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}
static std::string escapeData(llvm::StringRef S) { return escape(S, false); }
static std::string escapeProperty(llvm::StringRef S) { return escape(S, true); }

/// \p File relative to the working directory when it lies below it.
static std::string relativeToWorkingDir(llvm::StringRef File) {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return File.str();
  llvm::StringRef Prefix(Cwd);
  if (File.starts_with(Prefix) && File.size() > Prefix.size() &&
      llvm::sys::path::is_separator(File[Prefix.size()]))
    return File.substr(Prefix.size() + 1).str();
  return File.str();
}

static llvm::StringRef commandOf(Severity Level) {
  switch (Level) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Remark:
    break;
  }
  return "notice";
}

static void writeCommand(llvm::StringRef Command, const SourcePlace &L,
                         llvm::StringRef Title, llvm::StringRef Message,
                         llvm::raw_ostream &OS) {
  OS << "::" << Command;
  if (!L.File.empty()) {
    OS << " file=" << escapeProperty(relativeToWorkingDir(L.File));
    if (L.Line) {
      OS << ",line=" << L.Line;
      if (L.Column)
        OS << ",col=" << L.Column;
    }
    OS << ",";
  } else {
    OS << " ";
  }
  OS << "title=" << escapeProperty(Title) << "::" << escapeData(Message)
     << "\n";
}

static std::string where(const SourcePlace &L) {
  std::string Out = relativeToWorkingDir(L.File);
  if (L.Line)
    Out += ":" + std::to_string(L.Line);
  return Out;
}

void writeGithub(const Report &R, llvm::raw_ostream &OS) {
  for (const ReportError &E : R.Errors)
    writeCommand("error", E.Loc, "capture-lint", E.Message, OS);
  for (const ReportFinding &F : R.Findings) {
    std::string Message = F.Message;
    for (const FindingNote &N : F.Notes)
      Message += "\n" + where(N.Loc) + ": " + N.Message;
    if (F.HasVerdict)
      Message +=
          "\nruntime probe: " + F.Verdict.Status + ": " + F.Verdict.Reason;
    writeCommand(commandOf(F.Level), F.Loc, F.Check, Message, OS);
  }
  for (const ReportMissed &M : R.Missed)
    writeCommand("warning", M.Loc, "capture-probe-missed", M.Message, OS);
}

} // namespace capture_lint
