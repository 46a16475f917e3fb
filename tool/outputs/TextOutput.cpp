//===- TextOutput.cpp - clang-style text output ---------------------------===//
//
//   file:line:col: error: message [capture-allocation]
//      12 |   CUDA_CHECK(cudaMalloc(&p, n));
//         |              ^
//   file:line:col: note: capture of stream 's' begins here, mode global
//
// With colours (a terminal, or --use-color), as clang prints them. Files
// under the working directory are named relative to it, as clang names the
// files it was given; others keep their absolute path.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"

namespace capture_lint {

namespace {

/// Writes clang-style diagnostics to a stream, coloured or not.
class TextWriter {
public:
  TextWriter(llvm::raw_ostream &OS, bool Color) : OS(OS) {
    OS.enable_colors(Color);
    llvm::SmallString<256> Cwd;
    if (!llvm::sys::fs::current_path(Cwd) && Cwd != "/")
      WorkingDir = (Cwd + "/").str();
  }

  /// LOCATION: SEVERITY: MESSAGE, then the source line and a caret.
  void diagnostic(const ReportLocation &L, llvm::StringRef Severity,
                  llvm::StringRef Message) {
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
    OS << shownPath(L.File);
    if (L.Line)
      OS << ":" << L.Line << ":" << (L.Column ? L.Column : 1);
    OS << ": ";
    OS.changeColor(severityColor(Severity), /*Bold=*/true);
    OS << Severity << ":";
    OS.resetColor();
    if (Severity != "note")
      OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
    OS << " " << Message;
    OS.resetColor();
    OS << "\n";
    snippet(L);
  }

private:
  llvm::StringRef shownPath(llvm::StringRef File) const {
    if (!WorkingDir.empty() && File.starts_with(WorkingDir) &&
        File.size() > WorkingDir.size())
      return File.drop_front(WorkingDir.size());
    return File;
  }

  static llvm::raw_ostream::Colors severityColor(llvm::StringRef Severity) {
    if (Severity == "error")
      return llvm::raw_ostream::RED;
    if (Severity == "warning")
      return llvm::raw_ostream::MAGENTA;
    if (Severity == "remark")
      return llvm::raw_ostream::BLUE;
    return llvm::raw_ostream::BLACK; // note
  }

  void snippet(const ReportLocation &L) {
    if (L.Line == 0 || L.LineText.empty())
      return;
    OS << llvm::format("%5u | ", L.Line) << L.LineText << "\n";
    OS << "      | ";
    // Keep tabs so the caret lines up under the same column.
    for (unsigned I = 1; I < L.Column && I - 1 < L.LineText.size(); ++I)
      OS << (L.LineText[I - 1] == '\t' ? '\t' : ' ');
    OS.changeColor(llvm::raw_ostream::GREEN, /*Bold=*/true);
    OS << "^";
    OS.resetColor();
    OS << "\n";
  }

  llvm::raw_ostream &OS;
  std::string WorkingDir; // with a trailing '/'; empty at the root
};

} // namespace

void writeText(const Report &R, llvm::raw_ostream &OS, bool Color) {
  TextWriter W(OS, Color);
  for (const ReportError &E : R.Errors)
    W.diagnostic(E.Loc, "error", E.Message);
  for (const ReportFinding &F : R.Findings) {
    W.diagnostic(F.Loc, F.Severity, F.Message + " [" + F.Check + "]");
    for (const ReportNote &N : F.Notes)
      W.diagnostic(N.Loc, "note", N.Message);
    if (F.HasVerdict) {
      ReportLocation At = F.Loc;
      At.LineText.clear(); // the verdict's note has no snippet
      W.diagnostic(At, "note",
                   "runtime probe: " + F.Verdict.Status + ": " +
                       F.Verdict.Reason);
    }
  }
  for (const ReportMissed &M : R.Missed) {
    ReportLocation At = M.Loc;
    At.LineText.clear();
    W.diagnostic(At, "warning", M.Message + " [capture-probe-missed]");
  }
}

} // namespace capture_lint
