//===- TextOutput.cpp - clang-style text output ---------------------------===//
//
//   file:line:col: error: message [capture-allocation]
//      12 |   CUDA_CHECK(cudaMalloc(&p, n));
//         |              ^
//   file:line:col: note: capture of stream 's' begins here, mode global
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "llvm/Support/Format.h"

namespace capture_lint {

static void writeSnippet(const ReportLocation &L, llvm::raw_ostream &OS) {
  if (L.Line == 0 || L.LineText.empty())
    return;
  OS << llvm::format("%5u | ", L.Line) << L.LineText << "\n";
  OS << "      | ";
  // Keep tabs so the caret lines up under the same column.
  for (unsigned I = 1; I < L.Column && I - 1 < L.LineText.size(); ++I)
    OS << (L.LineText[I - 1] == '\t' ? '\t' : ' ');
  OS << "^\n";
}

static void writeLocation(const ReportLocation &L, llvm::raw_ostream &OS) {
  OS << L.File;
  if (L.Line)
    OS << ":" << L.Line << ":" << (L.Column ? L.Column : 1);
  OS << ": ";
}

void writeText(const Report &R, llvm::raw_ostream &OS) {
  for (const ReportError &E : R.Errors) {
    writeLocation(E.Loc, OS);
    OS << "error: " << E.Message << "\n";
    writeSnippet(E.Loc, OS);
  }
  for (const ReportFinding &F : R.Findings) {
    writeLocation(F.Loc, OS);
    OS << F.Severity << ": " << F.Message << " [" << F.Check << "]\n";
    writeSnippet(F.Loc, OS);
    for (const ReportNote &N : F.Notes) {
      writeLocation(N.Loc, OS);
      OS << "note: " << N.Message << "\n";
      writeSnippet(N.Loc, OS);
    }
    if (F.HasVerdict) {
      writeLocation(F.Loc, OS);
      OS << "note: runtime probe: " << F.Verdict.Status << ": "
         << F.Verdict.Reason << "\n";
    }
  }
  for (const ReportMissed &M : R.Missed) {
    writeLocation(M.Loc, OS);
    OS << "warning: " << M.Message << " [capture-probe-missed]\n";
  }
}

} // namespace capture_lint
