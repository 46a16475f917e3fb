//===- RankCompare.cpp - Captured collectives across ranks ----------------===//

#include "capture_probe/RankCompare.h"
#include <sstream>

namespace capture_probe {

namespace {

/// One capture holding collectives, as one rank saw it.
struct CollectiveCapture {
  const CaptureRecord *Capture;
  unsigned Occurrence; // 1..Repeats
};

std::vector<CollectiveCapture> collectiveCaptures(const ProbeReport &R) {
  std::vector<CollectiveCapture> Out;
  for (const CaptureRecord &C : R.Captures)
    if (!C.Collectives.empty())
      for (unsigned I = 1; I <= C.Repeats; ++I)
        Out.push_back({&C, I});
  return Out;
}

std::string siteOf(const CaptureRecord &C) {
  if (!C.Begin.Site)
    return "(no call site)";
  const SourceFrame &F = *C.Begin.Site;
  return F.File.empty() ? F.Module : F.File + ":" + std::to_string(F.Line);
}

std::string describe(const CollectiveCapture &X) {
  std::string S = "capture " + std::to_string(X.Capture->Id);
  if (X.Capture->Repeats > 1)
    S += " (occurrence " + std::to_string(X.Occurrence) + " of " +
         std::to_string(X.Capture->Repeats) + ")";
  return S + " begun at " + siteOf(*X.Capture);
}

} // namespace

bool compareRanks(const std::vector<ProbeReport> &Ranks,
                  const std::vector<std::string> &Names, std::string &Text) {
  std::ostringstream OS;
  std::vector<std::vector<CollectiveCapture>> Lists;
  for (size_t R = 0; R < Ranks.size(); ++R) {
    Lists.push_back(collectiveCaptures(Ranks[R]));
    size_t Kernels = 0;
    for (const CollectiveCapture &X : Lists.back())
      Kernels += X.Capture->Collectives.size();
    OS << "rank " << R << " (" << Names[R] << "): " << Lists.back().size()
       << " captures with collectives, " << Kernels << " collective kernels\n";
  }
  size_t Longest = 0;
  for (const auto &L : Lists)
    Longest = std::max(Longest, L.size());
  for (size_t I = 0; I < Longest; ++I) {
    const CollectiveCapture *Ref = I < Lists[0].size() ? &Lists[0][I] : nullptr;
    for (size_t R = 1; R < Lists.size(); ++R) {
      const CollectiveCapture *X = I < Lists[R].size() ? &Lists[R][I] : nullptr;
      if (!Ref || !X) {
        size_t Short = Ref ? R : 0;
        const CollectiveCapture *Has = Ref ? Ref : X;
        OS << "divergence: rank " << Short << " captured only " << I
           << " graphs with collectives; rank " << (Ref ? 0 : R) << "'s "
           << describe(*Has) << " has " << Has->Capture->Collectives.size()
           << " more (first " << Has->Capture->Collectives.front()
           << "): its replay waits for a peer that never launches\n";
        Text = OS.str();
        return false;
      }
      const auto &A = Ref->Capture->Collectives, &B = X->Capture->Collectives;
      for (size_t K = 0; K < std::max(A.size(), B.size()); ++K) {
        if (K < A.size() && K < B.size() && A[K] == B[K])
          continue;
        OS << "divergence at the " << I + 1
           << (I == 0   ? "st"
               : I == 1 ? "nd"
               : I == 2 ? "rd"
                        : "th")
           << " graph with collectives, collective " << K + 1 << ":\n"
           << "  rank 0: " << describe(*Ref) << ": "
           << (K < A.size() ? A[K]
                            : "(none: it has " + std::to_string(A.size()) + ")")
           << "\n"
           << "  rank " << R << ": " << describe(*X) << ": "
           << (K < B.size() ? B[K]
                            : "(none: it has " + std::to_string(B.size()) + ")")
           << "\n"
           << "  replaying these graphs hangs or corrupts data: every rank "
              "must capture the same collectives in the same order\n";
        Text = OS.str();
        return false;
      }
    }
  }
  OS << "the ranks captured the same collectives in the same order\n";
  Text = OS.str();
  return true;
}

} // namespace capture_probe
