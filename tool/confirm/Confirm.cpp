//===- Confirm.cpp - Runtime verdicts from a capture-probe report ---------===//
//
// capture-lint --confirm REPORT: each finding is matched against what the
// probe saw when the program ran.
//   confirmed      a call the probe flagged (it failed, ran outside the
//                  graph, allocated, synchronised) sits at the finding's
//                  location or one of its notes' (the note chain ends at the
//                  offending call); or the region's replays diverged from its
//                  eager runs, for host-read and shape-branch findings
//   not-confirmed  a capture of the finding's region ended and nothing went
//                  wrong at those locations
//   not-reached    no capture began at the finding's region, or every one
//                  stopped (the program died while capturing) before it
// Every flagged call that no finding covers is listed as missed statically.
// Files match by their trailing path components, so a report recorded on
// another machine (the GPU box) confirms a checkout here.
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "capture_probe/Report.h"
#include "capture_probe/Strings.h"
#include <set>

namespace capture_lint {
namespace {

using capture_probe::CallRecord;
using capture_probe::CaptureRecord;
using capture_probe::ProbeReport;

std::vector<std::string> components(const std::string &Path) {
  std::vector<std::string> Out;
  for (std::string &C : capture_probe::split(Path, '/'))
    if (!C.empty() && C != ".")
      Out.push_back(std::move(C));
  return Out;
}

/// The same file if the last two path components agree (or all of the
/// shorter path's, if it has fewer).
bool sameFile(const std::string &A, const std::string &B) {
  if (A.empty() || B.empty())
    return false;
  auto CA = components(A), CB = components(B);
  size_t Need = std::min<size_t>(2, std::min(CA.size(), CB.size()));
  size_t Same = 0;
  while (Same < CA.size() && Same < CB.size() &&
         CA[CA.size() - 1 - Same] == CB[CB.size() - 1 - Same])
    ++Same;
  return Same >= Need && Need > 0;
}

bool at(const CallRecord &C, const std::string &File, unsigned Line) {
  return C.Site && C.Site->Line == Line && sameFile(C.Site->File, File);
}

/// A call the probe has something to say about.
bool flagged(const CallRecord &C) {
  static const std::set<std::string> Hazards = {
      capture_probe::classes::Allocation, capture_probe::classes::Sync,
      capture_probe::classes::Query, capture_probe::classes::Eager,
      capture_probe::classes::UncapturedWork};
  if (C.FirstError)
    return true;
  if (C.Result == 901)
    return false; // failed only because an earlier call invalidated the capture
  for (const std::string &K : C.Classes)
    if (Hazards.count(K))
      return true;
  return false;
}

std::string joined(const std::set<std::string> &S) {
  std::string Out;
  for (const std::string &X : S)
    Out += (Out.empty() ? "" : ", ") + X;
  return Out;
}

std::string shortPath(const std::string &P) {
  auto C = components(P);
  if (C.size() <= 2)
    return P;
  return C[C.size() - 2] + "/" + C.back();
}

/// "failed with X (900)", "ran outside the graph", ...
std::string whatHappened(const CallRecord &C) {
  std::string S = "'" + C.Api + "'";
  if (C.Result != 0 && C.Result != 901)
    return S + " failed with " +
           (C.ResultName.empty() ? "error" : C.ResultName) + " (" +
           std::to_string(C.Result) + ")" +
           (C.FirstError ? ", the capture's first error" : "");
  if (C.Classes.count(capture_probe::classes::UncapturedWork))
    return S + " ran outside the graph (its work was not captured)";
  if (C.Classes.count(capture_probe::classes::Eager))
    return S + " ran eagerly at capture time, not in the graph";
  return S + " was flagged";
}

/// Of two flagged calls at a finding's lines, the one that says more: the
/// capture's first error, then a failing call, then the earlier one (a
/// `.item()` line pins host memory, which runs eagerly, before the copy
/// and synchronize that fail).
bool strongerEvidence(const CallRecord &A, const CallRecord &B) {
  if (A.FirstError != B.FirstError)
    return A.FirstError;
  bool FailsA = A.Result != 0 && A.Result != 901;
  bool FailsB = B.Result != 0 && B.Result != 901;
  return FailsA && !FailsB;
}

struct Target {
  std::string File;
  unsigned Line;
};

/// Whether the capture ran on past the way to the finding: a call whose
/// stack passes through target K (a call made there) from a frame in the
/// called function below target K+1's line. The function that holds the
/// next step ran beyond it without taking it (a branch not taken, an early
/// return). Returns that frame and sets \p Step to the target passed.
const capture_probe::SourceFrame *
passedBy(const std::vector<const CaptureRecord *> &Regions,
         const std::vector<Target> &Targets, Target &Step) {
  for (const CaptureRecord *C : Regions)
    for (const CallRecord &K : C->Calls)
      for (size_t J = 0; J + 1 < K.Stack.size(); ++J)
        for (size_t T = 0; T + 1 < Targets.size(); ++T) {
          const capture_probe::SourceFrame &Outer = K.Stack[J + 1],
                                           &Inner = K.Stack[J];
          if (Outer.Line == Targets[T].Line &&
              sameFile(Outer.File, Targets[T].File) &&
              sameFile(Inner.File, Targets[T + 1].File) &&
              Inner.Line > Targets[T + 1].Line) {
            Step = Targets[T + 1];
            return &Inner;
          }
        }
  return nullptr;
}

std::vector<Target> targetsOf(const ReportFinding &F) {
  std::vector<Target> T = {{F.Loc.File, F.Loc.Line}};
  for (const FindingNote &N : F.Notes)
    T.push_back({N.Loc.File, N.Loc.Line});
  return T;
}

} // namespace

/// A program built without host line info (nvcc -lineinfo alone gives line
/// numbers to device code only): no call can match a finding; say so once.
static void warnIfNoLines(const ProbeReport &P, const std::string &Path,
                          Report &R) {
  bool HasLines = false;
  for (const CaptureRecord &C : P.Captures)
    HasLines |= C.Begin.Site && C.Begin.Site->Line > 0;
  if (!P.Captures.empty() && !HasLines)
    R.Warnings.push_back(
        Path + ": the probe's call sites have no line numbers (the program's "
               "host code was built without line info; nvcc -lineinfo covers "
               "device code only): rebuild with -g to confirm findings");
}

/// Why a finding the probe did not see fail was not confirmed: the capture
/// went fine, never began, ran past it, or stopped before it.
static ReportVerdict
unconfirmed(const ReportFinding &F,
            const std::vector<const CaptureRecord *> &Regions) {
  ReportVerdict V;
  if (Regions.empty()) {
    V.Status = "not-reached";
    V.Reason = F.HasRegion ? "no capture began at " + shortPath(F.RegionFile) +
                                 ":" + std::to_string(F.RegionBeginLine) +
                                 " while the probe ran"
                           : "the finding has no capture region to match";
    return V;
  }
  bool Ended = false;
  for (const CaptureRecord *C : Regions)
    Ended |= C->End.has_value();
  if (Ended) {
    V.Status = "not-confirmed";
    V.Reason = "the region ran under capture and nothing went wrong there";
    return V;
  }
  V.Status = "not-reached";
  Target Step;
  if (const capture_probe::SourceFrame *Past =
          passedBy(Regions, targetsOf(F), Step)) {
    V.Reason = "'" + Past->Function +
               "' ran during the capture and went on past " +
               shortPath(Step.File) + ":" + std::to_string(Step.Line) +
               " (to line " + std::to_string(Past->Line) +
               ") without reaching it: a branch not taken or an early "
               "return skipped it";
    return V;
  }
  V.Reason = "the capture stopped before it (the program exited or "
             "crashed while capturing";
  for (const CaptureRecord *C : Regions)
    for (const CallRecord &K : C->Calls)
      if (K.FirstError && K.Site) {
        V.Reason += ", after " + whatHappened(K) + " at " +
                    shortPath(K.Site->File) + ":" +
                    std::to_string(K.Site->Line);
        break;
      }
  V.Reason += ")";
  return V;
}

/// The probe's verdict on one finding; the calls that confirm it go into
/// \p Covered.
static ReportVerdict judge(const ReportFinding &F, const ProbeReport &P,
                           std::set<const CallRecord *> &Covered) {
  ReportVerdict V;
  std::vector<const CaptureRecord *> Regions;
  for (const CaptureRecord &C : P.Captures)
    if (F.HasRegion && at(C.Begin, F.RegionFile, F.RegionBeginLine))
      Regions.push_back(&C);

  const CallRecord *Evidence = nullptr, *AfterInvalidation = nullptr;
  for (const CaptureRecord &C : P.Captures)
    for (const CallRecord &K : C.Calls)
      for (const Target &T : targetsOf(F)) {
        if (!at(K, T.File, T.Line))
          continue;
        if (flagged(K)) {
          Covered.insert(&K);
          if (!Evidence || strongerEvidence(K, *Evidence))
            Evidence = &K;
        } else if (K.Result == 901 && !AfterInvalidation) {
          AfterInvalidation = &K;
        }
      }
  if (Evidence) {
    V.Status = "confirmed";
    V.EvidenceApi = Evidence->Api;
    V.EvidenceClasses = joined(Evidence->Classes);
    V.EvidenceFile = Evidence->Site->File;
    V.EvidenceLine = Evidence->Site->Line;
    V.Reason = whatHappened(*Evidence) + " at " + shortPath(V.EvidenceFile) +
               ":" + std::to_string(V.EvidenceLine);
    return V;
  }
  bool DataFinding =
      F.Check == "capture-host-read" || F.Check == "capture-shape-branch";
  const capture_probe::Divergence *Diverged = nullptr;
  for (const CaptureRecord *C : Regions)
    for (const capture_probe::Divergence &D : P.Divergences)
      if (D.Capture == C->Id && !Diverged)
        Diverged = &D;
  if (DataFinding && Diverged) {
    V.Status = "confirmed";
    V.Reason = "replay " + std::to_string(Diverged->Replay) +
               " of the region wrote '" + Diverged->Output +
               "' differently from its eager run";
    return V;
  }
  if (AfterInvalidation) {
    V.Status = "not-confirmed";
    V.Reason = "'" + AfterInvalidation->Api +
               "' ran only after an earlier call had invalidated the "
               "capture (it returned 901), so the probe cannot tell what it "
               "would have done; fix the first error and probe again";
    return V;
  }
  return unconfirmed(F, Regions);
}

/// What the probe saw fail or run eagerly that no finding covers, once per
/// call site and API.
static void addMissed(const ProbeReport &P,
                      const std::set<const CallRecord *> &Covered, Report &R) {
  std::set<std::string> Seen;
  for (const CaptureRecord &C : P.Captures)
    for (const CallRecord &K : C.Calls) {
      if (!flagged(K) || Covered.count(&K) || !K.Site || K.Site->File.empty())
        continue;
      std::string Key =
          K.Site->File + ":" + std::to_string(K.Site->Line) + ":" + K.Api;
      if (!Seen.insert(Key).second)
        continue;
      ReportMissed M;
      M.Loc.File = K.Site->File;
      M.Loc.Line = K.Site->Line;
      M.Api = K.Api;
      M.Classes = joined(K.Classes);
      std::string Region = C.Begin.Site && C.Begin.Site->Line
                               ? " begun at " + shortPath(C.Begin.Site->File) +
                                     ":" + std::to_string(C.Begin.Site->Line)
                               : "";
      M.Message = "missed statically: during the capture" + Region + ", " +
                  whatHappened(K) + " (seen by the runtime probe)";
      R.Missed.push_back(M);
    }
}

std::string confirmWithProbe(Report &R, const std::string &Path) {
  ProbeReport P;
  std::string Error;
  if (!capture_probe::readReport(Path, P, Error))
    return Error;
  R.Confirmed = true;
  warnIfNoLines(P, Path, R);
  std::set<const CallRecord *> Covered;
  for (ReportFinding &F : R.Findings) {
    F.HasVerdict = true;
    F.Verdict = judge(F, P, Covered);
  }
  addMissed(P, Covered, R);
  return "";
}

} // namespace capture_lint
