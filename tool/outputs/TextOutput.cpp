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

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

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
  void diagnostic(const SourcePlace &L, llvm::StringRef Severity,
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

  void snippet(const SourcePlace &L) {
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

/// Findings reached through the same call in the same region: one call
/// site in the region that leads to several hazards.
static bool sameCallSite(const ReportFinding &A, const ReportFinding &B) {
  return A.Loc.File == B.Loc.File && A.Loc.Line == B.Loc.Line &&
         A.Loc.Column == B.Loc.Column && A.RegionFile == B.RegionFile &&
         A.RegionBeginLine == B.RegionBeginLine && !A.Via.empty() &&
         A.Via == B.Via;
}

/// Errors first, then warnings, then remarks.
static int severityRank(Severity S) { return static_cast<int>(S); }

static void writeFinding(TextWriter &W, const ReportFinding &F) {
  W.diagnostic(F.Loc, severityName(F.Level), F.Message + " [" + F.Check + "]");
  for (const FindingNote &N : F.Notes)
    W.diagnostic(N.Loc, "note", N.Message);
  if (F.HasVerdict) {
    SourcePlace At = F.Loc;
    At.LineText.clear(); // the verdict's note has no snippet
    W.diagnostic(At, "note",
                 "runtime probe: " + F.Verdict.Status + ": " +
                     F.Verdict.Reason);
  }
}

/// Of \p F's first \p Own notes, the one at the offending call (the
/// chain's last: "'cudaMalloc' is called here"); \p Own if none.
static size_t hazardNote(const ReportFinding &F, size_t Own) {
  for (size_t I = Own; I-- > 0;) {
    const SourcePlace &L = F.Notes[I].Loc;
    if (L.File == F.HazardLoc.File && L.Line == F.HazardLoc.Line &&
        L.Column == F.HazardLoc.Column)
      return I;
  }
  return Own;
}

/// How many notes every finding of \p Group ends with (the same notes at
/// the same places): where the region begins.
static size_t sharedNotes(const std::vector<const ReportFinding *> &Group) {
  auto Same = [](const FindingNote &X, const FindingNote &Y) {
    return X.Message == Y.Message && X.Loc.File == Y.Loc.File &&
           X.Loc.Line == Y.Loc.Line && X.Loc.Column == Y.Loc.Column;
  };
  const auto &A = Group.front()->Notes;
  size_t Shared = A.size();
  for (const ReportFinding *F : Group) {
    const auto &B = F->Notes;
    size_t Common = 0;
    while (Common < A.size() && Common < B.size() &&
           Same(A[A.size() - 1 - Common], B[B.size() - 1 - Common]))
      ++Common;
    Shared = std::min(Shared, Common);
  }
  return Shared;
}

/// "call to 'f' reaches 5 capture hazards: 4 errors, 1 warning [checks]".
static std::string
callSiteHeadline(const std::vector<const ReportFinding *> &Group) {
  unsigned Counts[3] = {0, 0, 0};
  std::vector<std::string> Checks;
  for (const ReportFinding *F : Group) {
    ++Counts[severityRank(F->Level)];
    if (llvm::find(Checks, F->Check) == Checks.end())
      Checks.push_back(F->Check);
  }
  llvm::sort(Checks);
  std::string Head = "call to '" + Group.front()->Via + "' reaches " +
                     std::to_string(Group.size()) + " capture hazards:";
  const char *Names[3] = {"error", "warning", "remark"};
  bool First = true;
  for (int I = 0; I < 3; ++I)
    if (Counts[I]) {
      Head += std::string(First ? " " : ", ") + std::to_string(Counts[I]) +
              " " + Names[I] + (Counts[I] == 1 ? "" : "s");
      First = false;
    }
  return Head + " [" + llvm::join(Checks, ",") + "]";
}

/// Several hazards reached through one call in the region, as one
/// diagnostic at the call: its strongest severity, how many of each, the
/// region's notes once, then each hazard (strongest first) as a note at
/// the offending call with the calls that lead to it.
static void writeCallSite(TextWriter &W,
                          std::vector<const ReportFinding *> Group) {
  std::stable_sort(Group.begin(), Group.end(),
                   [](const ReportFinding *A, const ReportFinding *B) {
                     return severityRank(A->Level) < severityRank(B->Level);
                   });
  size_t Shared = sharedNotes(Group);
  W.diagnostic(Group.front()->Loc, severityName(Group.front()->Level),
               callSiteHeadline(Group));
  const auto &Notes = Group.front()->Notes;
  for (size_t I = Notes.size() - Shared; I < Notes.size(); ++I)
    W.diagnostic(Notes[I].Loc, "note", Notes[I].Message);
  unsigned K = 0;
  for (const ReportFinding *F : Group) {
    // The hazard, in its words, at the offending call, in place of the
    // note there ("'cudaMalloc' (kv_cache.cu:17), which ...").
    size_t Own = F->Notes.size() - Shared;
    llvm::StringRef What = F->Message;
    What.consume_front("call to '" + F->Via + "' reaches ");
    size_t At = hazardNote(*F, Own);
    W.diagnostic(At < Own ? F->Notes[At].Loc : F->Loc, "note",
                 "(" + std::to_string(++K) + "/" +
                     std::to_string(Group.size()) + ", " +
                     std::string(severityName(F->Level)) + ") " + What.str() +
                     " [" + F->Check + "]");
    for (size_t I = 0; I < Own; ++I)
      if (I != At)
        W.diagnostic(F->Notes[I].Loc, "note", F->Notes[I].Message);
  }
}

void writeText(const Report &R, llvm::raw_ostream &OS, bool Color) {
  TextWriter W(OS, Color);
  for (const ReportError &E : R.Errors)
    W.diagnostic(E.Loc, "error", E.Message);
  for (size_t I = 0; I < R.Findings.size();) {
    std::vector<const ReportFinding *> Group = {&R.Findings[I]};
    size_t J = I + 1;
    for (; J < R.Findings.size(); ++J)
      if (sameCallSite(R.Findings[I], R.Findings[J]) &&
          !R.Findings[I].HasVerdict && !R.Findings[J].HasVerdict)
        Group.push_back(&R.Findings[J]);
      else
        break;
    if (Group.size() == 1)
      writeFinding(W, R.Findings[I]);
    else
      writeCallSite(W, std::move(Group));
    I = J;
  }
  for (const ReportMissed &M : R.Missed) {
    SourcePlace At = M.Loc;
    At.LineText.clear();
    W.diagnostic(At, "warning", M.Message + " [capture-probe-missed]");
  }
}

} // namespace capture_lint
