//===- Lifecycle.cpp - Graph lifecycle findings and identical captures ----===//

#include "capture_probe/Lifecycle.h"

#include <algorithm>
#include <map>

namespace capture_probe {

const std::set<std::string> &lifecycleClasses() {
  static const std::set<std::string> K = {
      classes::NeverLaunched, classes::CaptureChurn,
      classes::InstantiatePerLaunch, classes::SilentFallback};
  return K;
}

/// Where a capture began: its raw native frames and its Python frames.
static std::string siteKey(const CaptureRecord &C) {
  std::string Key;
  for (const std::string &F : C.Begin.Frames)
    Key += F + ";";
  Key += "|";
  for (const std::string &F : C.Begin.PyFrames)
    Key += F + ";";
  return Key;
}

void analyzeLifecycle(std::vector<CaptureRecord> &Captures,
                      const Coverage &Cover) {
  if (!Cover.Known)
    return; // a backend that does not follow the lifecycle (HIP)
  struct Site {
    std::vector<CaptureRecord *> Captures;
    unsigned Instantiations = 0, Updates = 0;
    uint64_t Launches = 0;
  };
  std::map<std::string, Site> Sites;
  for (CaptureRecord &C : Captures) {
    if (!C.Succeeded)
      continue;
    Site &S = Sites[siteKey(C)];
    S.Captures.push_back(&C);
    S.Instantiations += C.Instantiations;
    S.Updates += C.Updates;
    S.Launches += C.Launches;
  }
  for (auto &KV : Sites) {
    Site &S = KV.second;
    size_t N = S.Captures.size();
    for (CaptureRecord *C : S.Captures) {
      // A capture into an existing graph (a conditional node's body, say)
      // runs when the graph holding it does: not followed. An empty graph
      // does nothing (PyTorch captures one to keep a memory pool alive).
      bool Empty = true;
      for (const auto &KV : C->GraphNodes)
        Empty &= KV.second == 0;
      if (S.Launches == 0 && !C->ToGraph && !Empty)
        C->Classes.insert(classes::NeverLaunched);
      // Re-capturing and updating an executable graph with the new graph
      // (cudaGraphExecUpdate) is the recommended way to change a graph, so
      // a site whose captures are applied by updates is no churn.
      if (N >= ChurnCaptures && S.Launches > 0 && S.Launches <= N &&
          S.Updates == 0)
        C->Classes.insert(classes::CaptureChurn);
      if (C->Instantiations >= ChurnCaptures &&
          C->Launches <= C->Instantiations)
        C->Classes.insert(classes::InstantiatePerLaunch);
    }
  }
}

std::string callKey(const CallRecord &R, bool WithStack) {
  std::string K = R.Api + "," + std::to_string(R.Result) + "," + R.ResultName +
                  "," + R.Hazard + "," + R.Expected + "," + R.EffectiveMode +
                  "," + std::to_string(R.Kernel) + (R.FirstError ? "F" : "") +
                  (R.OtherThread ? "O" : "") +
                  (R.ReportsEarlierError ? "E" : "") +
                  (R.PoolGrowth ? "P" : "") + (R.Stream ? "s" : "") +
                  (R.CudaEvent ? "e" : "") + ",";
  for (const std::string &X : R.Classes)
    K += X + " ";
  if (!WithStack)
    return K + ";";
  for (const std::string &F : R.Frames)
    K += F + " ";
  for (const std::string &F : R.PyFrames)
    K += F + " ";
  return K + ";";
}

std::string callsKey(const std::vector<CallRecord> &Calls) {
  std::vector<std::pair<std::string, uint64_t>> Parts;
  for (const CallRecord &R : Calls) {
    bool Clean = R.Classes.empty() && R.Result == 0;
    std::string K = callKey(R, !Clean);
    auto It = std::find_if(Parts.begin(), Parts.end(),
                           [&](const auto &P) { return P.first == K; });
    if (Clean && It != Parts.end())
      It->second += R.Repeats;
    else
      Parts.push_back({std::move(K), R.Repeats});
  }
  std::string Out;
  for (const auto &[K, N] : Parts)
    Out += K + std::to_string(N);
  return Out;
}

/// What makes two captures the same, ids and handles left out.
static std::string signature(const CaptureRecord &C) {
  std::string S = C.Mode + "|" + (C.Succeeded ? "ok" : "failed") + "|";
  S += callKey(C.Begin);
  if (C.End)
    S += callKey(*C.End);
  if (C.CallsGroup) // the tracker compared the calls already
    S += "calls#" + std::to_string(C.CallsGroup) + ";";
  else
    S += callsKey(C.Calls);
  for (const auto &KV : C.GraphNodes)
    S += KV.first + "=" + std::to_string(KV.second) + ",";
  for (const std::string &X : C.Classes)
    S += X + ",";
  for (const std::string &X : C.Collectives)
    S += X + ",";
  S += C.NonBlocking ? (*C.NonBlocking ? "nb" : "b") : "?";
  S += std::to_string(C.Unjoined.size()) + (C.Fallback ? "f" : "");
  return S;
}

void aggregateIdentical(std::vector<CaptureRecord> &Captures) {
  std::map<std::string, size_t> Seen; // signature -> index in Out
  std::vector<CaptureRecord> Out;
  for (CaptureRecord &C : Captures) {
    std::string Sig = signature(C);
    auto It = Seen.find(Sig);
    if (It == Seen.end()) {
      Seen[Sig] = Out.size();
      Out.push_back(std::move(C));
      continue;
    }
    CaptureRecord &First = Out[It->second];
    First.Repeats += C.Repeats;
    First.LastId = C.LastId;
    First.Instantiations += C.Instantiations;
    First.Updates += C.Updates;
    First.Launches += C.Launches;
  }
  // A group's lowest capture keeps its calls and is first in its own fold;
  // a capture of the group that stayed apart lists the holder's calls.
  std::map<unsigned, size_t> Holders; // calls group -> index in Out
  for (size_t I = 0; I < Out.size(); ++I)
    if (Out[I].CallsGroup && !Out[I].CallsShared)
      Holders.emplace(Out[I].CallsGroup, I);
  for (CaptureRecord &C : Out) {
    auto H = C.CallsShared ? Holders.find(C.CallsGroup) : Holders.end();
    if (H == Holders.end())
      continue;
    C.Calls = Out[H->second].Calls;
    C.CallsFrom = Out[H->second].Id;
    C.CallsShared = false;
  }
  Captures.swap(Out);
}

} // namespace capture_probe
