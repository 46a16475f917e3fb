//===- CaptureTracker.cpp - The capture state machine ---------------------===//

#include "capture_probe/CaptureTracker.h"
#include "capture_probe/ApiCatalog.h"
#include "capture_probe/Lifecycle.h"
#include <algorithm>

namespace capture_probe {

using capture_lint::behaviourName;
using capture_lint::Hazard;
using capture_lint::hazardName;

// cudaErrorStreamCaptureInvalidated, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
// and hipErrorStreamCaptureInvalidated share the number.
static constexpr int InvalidatedCode = 901;
// The stream-capture errors (cudaErrorStreamCaptureUnsupported, 900, to
// cudaErrorStreamCaptureWrongThread, 908), the same numbers in the driver
// API and in HIP.
static constexpr int FirstCaptureCode = 900, LastCaptureCode = 908;

/// The caching allocator of PyTorch (c10) grows a graph's private pool with
/// cudaMalloc after switching the thread to relaxed mode: the first frame
/// past the CUDA runtime is in libc10_cuda.
static bool madeByFrameworkAllocator(const std::vector<std::string> &Frames) {
  for (const std::string &F : Frames) {
    if (F.find("libcudart") != std::string::npos ||
        F.find("libcuda.so") != std::string::npos)
      continue;
    return F.find("libc10_cuda") != std::string::npos ||
           F.find("libc10_hip") != std::string::npos;
  }
  return false;
}

/// \p E as a call record of capture \p C, made in \p ThreadMode: what was
/// called, by which thread, with what result, where; no classes yet.
static CallRecord recordOf(const Event &E, const CaptureRecord &C,
                           CaptureMode ThreadMode) {
  CallRecord R;
  R.Seq = E.Seq;
  R.Thread = E.Thread;
  R.Api = E.Api;
  R.Result = E.Result;
  R.ResultName = E.ResultName;
  R.Stream = E.Stream;
  R.CudaEvent = E.CudaEvent;
  R.Kernel = E.Kernel;
  R.Frames = E.Frames;
  R.PyFrames = E.PyFrames;
  if (E.Repeats > 1) { // identical calls the backend folded (EventFolding.h)
    R.Repeats = E.Repeats;
    R.LastSeq = E.LastSeq;
  }
  R.OtherThread = E.Thread != C.Thread;
  R.EffectiveMode = modeName(ThreadMode);
  return R;
}

/// The failure class of failed call \p E (\p Info: its catalog entry, if
/// any). A failure is the capture's when it is a capture error (900-908:
/// the call was illegal under capture, or the capture is broken) or a call
/// the catalog knows fails; a call the catalog does not know that returns
/// an error (PyTorch asking cuMemRetainAllocationHandle about memory that
/// is no virtual-memory allocation) answers a question, and the capture
/// goes on.
static void addFailureClass(const Event &E, const ApiEntry *Info,
                            CallRecord &R) {
  bool CaptureError =
      E.Result >= FirstCaptureCode && E.Result <= LastCaptureCode;
  if (E.Result != 0 && (CaptureError || Info))
    R.Classes.insert(E.Result == InvalidatedCode ? classes::Invalidated
                                                 : classes::Error);
}

/// Whether successful allocation \p E, made in relaxed mode inside capture
/// \p C of another mode, is the framework's caching allocator growing the
/// graph's private pool (legal).
static bool growsFrameworkPool(const Event &E, const CaptureRecord &C,
                               const ApiEntry *Info, CaptureMode Effective) {
  return E.Result == 0 && Info && Info->Class == Hazard::Allocation &&
         Effective == CaptureMode::Relaxed &&
         parseMode(C.Mode) != CaptureMode::Relaxed &&
         madeByFrameworkAllocator(E.Frames);
}

/// The hazard classes of call \p E (\p Info: its catalog entry, if any):
/// query, sync, allocation, uncaptured work, and eager for a hazardous call
/// that succeeded without making nodes.
void CaptureTracker::addHazardClasses(const Event &E, const ApiEntry *Info,
                                      CallRecord &R) const {
  bool Ok = E.Result == 0;
  bool MadeNodes = E.NodesCreated && *E.NodesCreated > 0;
  bool MadeNone = E.NodesCreated && *E.NodesCreated == 0;
  bool Query = Catalog.isQuery(E.Api);
  if (Query)
    R.Classes.insert(classes::Query);
  else if (Info && Info->Class == Hazard::Sync)
    R.Classes.insert(classes::Sync);
  if (Info && Info->Class == Hazard::Allocation && !MadeNodes &&
      !(R.Expected == "captured" && !E.NodesCreated))
    R.Classes.insert(classes::Allocation);
  bool Work = Catalog.issuesStreamWork(E.Api);
  if (Ok && Work && MadeNone)
    R.Classes.insert(classes::UncapturedWork);
  bool Hazardous = R.Classes.count(classes::Sync) ||
                   R.Classes.count(classes::Query) ||
                   R.Classes.count(classes::Allocation) ||
                   (Info && Info->Class == Hazard::HostRead);
  if (Ok && Hazardous && !MadeNodes)
    R.Classes.insert(classes::Eager);
}

CallRecord CaptureTracker::classify(const Event &E, const CaptureRecord &C,
                                    CaptureMode ThreadMode) const {
  CallRecord R = recordOf(E, C, ThreadMode);
  if (E.Kind != EventKind::Call)
    return R; // begin, end, mode switches: recorded, not classified
  if (E.Result != 0 && Catalog.readsLastError(E.Api)) {
    // The sticky error of an earlier call (900 after the first error), not
    // a failure of its own.
    R.ReportsEarlierError = true;
    return R;
  }
  const ApiEntry *Info = Catalog.lookup(E.Api);
  addFailureClass(E, Info, R);
  if (Info) {
    R.Hazard = hazardName(Info->Class);
    R.Expected = behaviourName(Info->behaviourIn(ThreadMode));
  }
  if (growsFrameworkPool(E, C, Info, ThreadMode)) {
    R.PoolGrowth = true;
    return R;
  }
  addHazardClasses(E, Info, R);
  return R;
}

CaptureRecord *CaptureTracker::done(unsigned Id) {
  auto It = DoneIndex.find(Id);
  return It == DoneIndex.end() ? nullptr : &Done[It->second];
}

/// What two captures' calls must share for one list to stand for both.
static std::string callsKey(const CaptureRecord &C) {
  return C.Mode + (C.Succeeded ? "|ok|" : "|failed|") + callsKey(C.Calls);
}

/// A long run captures the same code thousands of times: a capture whose
/// calls match an earlier one's joins its group, and only the group's
/// lowest capture id keeps the calls, so memory grows per capture, not per
/// call (aggregateIdentical folds the group back together).
void CaptureTracker::keepCallsOnce(CaptureRecord &C) {
  auto [It, New] = CallsGroups.emplace(callsKey(C), GroupHolder.size() + 1);
  C.CallsGroup = It->second;
  if (New) {
    GroupHolder.push_back(C.Id);
    return;
  }
  unsigned &Holder = GroupHolder[C.CallsGroup - 1];
  CaptureRecord *H = done(Holder);
  if (H && C.Id < Holder) { // ended after a capture begun later
    std::vector<CallRecord>().swap(H->Calls);
    H->CallsShared = true;
    Holder = C.Id;
    return;
  }
  std::vector<CallRecord>().swap(C.Calls);
  C.CallsShared = true;
}

const std::vector<CallRecord> &CaptureTracker::callsOf(const CaptureRecord &C) {
  if (!C.CallsShared)
    return C.Calls;
  const CaptureRecord *H = done(GroupHolder[C.CallsGroup - 1]);
  return H ? H->Calls : C.Calls;
}

/// A call of a capture: a repeat of one it kept (same call, stream and
/// event) is counted there, so a capture's memory grows with the distinct
/// calls it makes, not with how often a loop makes them.
void CaptureTracker::keepCall(CaptureRecord &C, CallRecord R) {
  std::string Key = callKey(R) + "|" + std::to_string(R.Stream.value_or(0)) +
                    "|" + std::to_string(R.CudaEvent.value_or(0));
  auto [It, New] = CallSlots[C.Id].try_emplace(Key, C.Calls.size());
  followStreams(C, R, It->second);
  if (New) {
    C.Calls.push_back(std::move(R));
    return;
  }
  CallRecord &Kept = C.Calls[It->second];
  Kept.Repeats += R.Repeats;
  Kept.LastSeq = R.Repeats > 1 ? R.LastSeq : R.Seq;
}

/// Streams joining and leaving a capture: an event recorded on one of its
/// streams and waited on by another stream forks that stream in; an event
/// recorded on a forked stream and waited on by another of its streams
/// joins it back.
void CaptureTracker::followStreams(CaptureRecord &C, const CallRecord &R,
                                   size_t Index) {
  if (!R.CudaEvent || !R.Stream || R.Result != 0)
    return;
  auto &Forks = Forked[C.Id];
  auto &Events = Recorded[C.Id];
  uint64_t S = *R.Stream, Ev = *R.CudaEvent;
  bool InCapture = S == C.Stream || Forks.count(S);
  std::string B = baseApiName(R.Api);
  bool Record = B.find("EventRecord") != std::string::npos;
  if (Record) {
    if (InCapture)
      Events[Ev] = S;
    return;
  }
  auto It = Events.find(Ev); // a wait
  if (It == Events.end() || It->second == S)
    return;
  if (!InCapture)
    Forks[S] = Index; // the record the call is kept in
  else if (It->second != C.Stream && Forks.count(It->second))
    Forks[It->second] = SIZE_MAX; // joined back
}

void CaptureTracker::endCapture(const Event &E, CaptureRecord C) {
  CallRecord End = classify(E, C, parseMode(C.Mode).value());
  if (E.Result != 0) {
    End.Classes.insert(E.Result == InvalidatedCode ? classes::Invalidated
                                                   : classes::Error);
    if (E.Result != InvalidatedCode && !C.FirstErrorSeq) {
      End.FirstError = true;
      C.FirstErrorSeq = E.Seq;
    }
  }
  // A capture begun with cudaStreamBeginCaptureToGraph may end with a null
  // graph pointer: its graph is the one it was begun with.
  C.Succeeded = E.Result == 0 && (E.GraphReturned || C.ToGraph);
  C.GraphNodes = E.GraphNodes;
  C.Collectives = E.Collectives;
  C.End = std::move(End);
  if (!C.Succeeded) {
    C.Classes.insert(classes::CaptureFailed);
    FailedOnThread[E.Thread] = C.Id;
    for (const auto &KV : Forked[C.Id])
      if (KV.second != SIZE_MAX && KV.second < C.Calls.size())
        C.Unjoined.push_back(C.Calls[KV.second]);
  } else if (E.Graph) {
    C.Graph = E.Graph;
    GraphCapture[E.Graph] = C.Id;
  }
  Forked.erase(C.Id);
  Recorded.erase(C.Id);
  CallSlots.erase(C.Id);
  for (const std::string &K : C.End->Classes)
    C.Classes.insert(K);
  keepCallsOnce(C);
  DoneIndex[C.Id] = Done.size();
  Done.push_back(std::move(C));
}

/// Credits executable graph \p X with its launches up to \p Total (those
/// not credited yet), in the coverage and in its capture.
void CaptureTracker::creditLaunches(Exec &X, uint64_t Total) {
  uint64_t New = Total > X.Credited ? Total - X.Credited : 0;
  X.Credited = std::max(Total, X.Credited);
  Cover.GraphLaunches += New;
  Cover.GraphKernels += New * X.Kernels;
  if (CaptureRecord *C = X.Capture ? done(X.Capture) : nullptr)
    C->Launches += New;
}

/// Instantiate: a new executable graph, counted against the capture whose
/// graph it runs.
void CaptureTracker::instantiated(const Event &E) {
  Exec X;
  X.Kernels = E.Count;
  auto G = GraphCapture.find(E.Graph);
  if (G != GraphCapture.end()) {
    X.Capture = G->second;
    if (CaptureRecord *C = done(X.Capture))
      ++C->Instantiations;
  }
  Execs[E.Exec] = X;
}

/// ExecUpdate: an executable graph now runs another capture's graph.
void CaptureTracker::updated(const Event &E) {
  auto X = Execs.find(E.Exec);
  auto G = GraphCapture.find(E.Graph);
  if (X == Execs.end() || E.Result != 0)
    return;
  creditLaunches(X->second, E.Count); // launches so far were of the old graph
  X->second.Capture = G == GraphCapture.end() ? 0 : G->second;
  if (CaptureRecord *C = X->second.Capture ? done(X->second.Capture) : nullptr)
    ++C->Updates; // updated into an executable graph: used, not made
}

/// Launches: an executable graph's launch count, at its end.
void CaptureTracker::countedLaunches(const Event &E) {
  auto X = Execs.find(E.Exec);
  if (X == Execs.end())
    return;
  creditLaunches(X->second, E.Count);
  X->second.Launched = false; // accounted for
  Execs.erase(X);
}

/// FreedWhileHeld: memory an executable graph uses was freed; kept until
/// the graph's next launch.
void CaptureTracker::freedWhileHeld(const Event &E) {
  auto X = Execs.find(E.Exec);
  if (X == Execs.end() || X->second.Freed)
    return;
  CaptureRecord Dummy;
  CallRecord Free = classify(E, Dummy, CaptureMode::Global);
  Free.Node = E.Node; // the node that uses the block
  X->second.Freed = std::move(Free);
}

/// StaleLaunch: a launch after such a free, the finding of its capture.
void CaptureTracker::launchedStale(const Event &E) {
  auto X = Execs.find(E.Exec);
  if (X == Execs.end() || !X->second.Freed)
    return;
  CaptureRecord *C = X->second.Capture ? done(X->second.Capture) : nullptr;
  if (!C || C->StaleFree)
    return;
  C->StaleFree = X->second.Freed;
  C->StaleLaunch = classify(E, *C, CaptureMode::Global);
  C->Classes.insert(classes::FreedWhileHeld);
}

void CaptureTracker::consumeLifecycle(const Event &E) {
  Cover.Known = true;
  switch (E.Kind) {
  case EventKind::Instantiate:
    return instantiated(E);
  case EventKind::FirstLaunch:
    Execs[E.Exec].Launched = true;
    return;
  case EventKind::ExecUpdate:
    return updated(E);
  case EventKind::Launches:
    return countedLaunches(E);
  case EventKind::Totals:
    Cover.EagerKernels += E.Count;
    return;
  case EventKind::FreedWhileHeld:
    return freedWhileHeld(E);
  case EventKind::StaleLaunch:
    return launchedStale(E);
  default:
    return;
  }
}

/// Whether kernel \p E made after capture \p C failed completes an eager
/// run of C's kernels: every distinct kernel C launched (two at least, so
/// that one common kernel, a fill, says nothing) has now run eagerly on its
/// thread, from whatever lines.
bool CaptureTracker::completesEagerRun(const Event &E, const CaptureRecord &C) {
  std::set<uint64_t> Captured;
  for (const CallRecord &K : callsOf(C))
    if (K.Kernel)
      Captured.insert(K.Kernel);
  if (Captured.size() < 2 || !Captured.count(E.Kernel))
    return false;
  std::set<uint64_t> &Seen = EagerAfterFailure[C.Id];
  Seen.insert(E.Kernel);
  return Seen.size() == Captured.size();
}

/// A work call made after the thread's capture failed, at the same place
/// as a call made during that capture, or the last of the capture's kernels
/// to run again eagerly: the work ran eagerly instead.
void CaptureTracker::matchFallback(const Event &E) {
  auto F = FailedOnThread.find(E.Thread);
  if (F == FailedOnThread.end())
    return;
  CaptureRecord *C = done(F->second);
  if (!C || C->Fallback)
    return;
  auto FirstOwnFrame = [](const std::vector<std::string> &Frames) {
    for (const std::string &Fr : Frames)
      if (Fr.find("libcudart") == std::string::npos)
        return Fr;
    return std::string();
  };
  std::string Here = FirstOwnFrame(E.Frames);
  if (Here.empty() && !E.Kernel)
    return;
  // In a Python program the native launch site is shared by every call of
  // an operator: the user's Python line must match too.
  auto PyLine = [](const std::vector<std::string> &Py) {
    return Py.empty() ? std::string() : Py.front();
  };
  bool Same = E.Kernel && completesEagerRun(E, *C);
  for (const CallRecord &K : callsOf(*C))
    Same |= K.Api == E.Api && PyLine(K.PyFrames) == PyLine(E.PyFrames) &&
            (E.Kernel ? K.Kernel == E.Kernel : FirstOwnFrame(K.Frames) == Here);
  if (!Same)
    return;
  CallRecord R = classify(E, *C, CaptureMode::Global);
  R.Classes.clear();
  C->Fallback = std::move(R);
  C->Classes.insert(classes::SilentFallback);
}

/// The events of the graph lifecycle, whatever is capturing.
static bool isLifecycle(EventKind K) {
  switch (K) {
  case EventKind::Instantiate:
  case EventKind::FirstLaunch:
  case EventKind::ExecUpdate:
  case EventKind::Launches:
  case EventKind::Totals:
  case EventKind::FreedWhileHeld:
  case EventKind::StaleLaunch:
    return true;
  default:
    return false;
  }
}

CaptureMode CaptureTracker::threadMode(uint64_t Thread,
                                       CaptureMode Fallback) const {
  auto It = ThreadModes.find(Thread);
  return It == ThreadModes.end() ? Fallback : It->second;
}

/// BeginCapture: a new active capture, or, when the begin failed, a failed
/// one.
void CaptureTracker::beginCapture(const Event &E) {
  CaptureRecord C;
  C.Id = NextId++;
  C.LastId = C.Id;
  C.Stream = E.Stream.value_or(0);
  C.Thread = E.Thread;
  C.Mode = modeName(E.Mode);
  C.NonBlocking = E.NonBlocking;
  C.ToGraph = E.ToGraph;
  C.Begin = classify(E, C, E.Mode);
  FailedOnThread.erase(E.Thread);
  if (E.Result != 0) {
    C.Begin.Classes.insert(classes::Error);
    C.Begin.FirstError = true;
    C.FirstErrorSeq = E.Seq;
    C.Classes = {classes::Error, classes::CaptureFailed};
    FailedOnThread[E.Thread] = C.Id;
    DoneIndex[C.Id] = Done.size();
    Done.push_back(std::move(C));
    return;
  }
  Active.push_back(std::move(C));
}

/// EndCapture: ends the latest active capture of its stream (or, without
/// one, of its thread); false when none is active.
bool CaptureTracker::endActiveCapture(const Event &E) {
  auto It =
      std::find_if(Active.rbegin(), Active.rend(), [&](const CaptureRecord &C) {
        return E.Stream ? C.Stream == *E.Stream : C.Thread == E.Thread;
      });
  if (It == Active.rend())
    return false;
  CaptureRecord C = std::move(*It);
  Active.erase(std::next(It).base());
  endCapture(E, std::move(C));
  return true;
}

/// The active captures call \p E belongs to: those of its own thread, or,
/// from another thread, the global-mode captures it can invalidate. Only a
/// thread in global mode (the default) is bound by other threads' global
/// captures; one that switched itself to thread-local or relaxed mode
/// (cudaThreadExchangeStreamCaptureMode, as PyTorch's NCCL watchdog does
/// around its event queries) ignores them.
std::vector<CaptureRecord *> CaptureTracker::capturesOf(const Event &E) {
  std::vector<CaptureRecord *> Targets;
  for (CaptureRecord &C : Active)
    if (C.Thread == E.Thread)
      Targets.push_back(&C);
  if (Targets.empty() &&
      threadMode(E.Thread, CaptureMode::Global) == CaptureMode::Global)
    for (CaptureRecord &C : Active)
      if (C.Mode == "global")
        Targets.push_back(&C);
  return Targets;
}

/// Call \p E, classified and kept in each capture of \p Targets.
void CaptureTracker::addCall(const Event &E,
                             const std::vector<CaptureRecord *> &Targets) {
  for (CaptureRecord *C : Targets) {
    CaptureMode Own = C->Thread == E.Thread ? parseMode(C->Mode).value()
                                            : CaptureMode::Global;
    CallRecord R = classify(E, *C, threadMode(E.Thread, Own));
    if (R.Classes.count(classes::Error) && !C->FirstErrorSeq) {
      R.FirstError = true;
      C->FirstErrorSeq = R.Seq;
    }
    for (const std::string &K : R.Classes)
      C->Classes.insert(K);
    keepCall(*C, std::move(R));
  }
}

void CaptureTracker::consume(const Event &E) {
  if (isLifecycle(E.Kind)) {
    consumeLifecycle(E);
    return;
  }
  if (E.Kind == EventKind::ExchangeMode && E.Result == 0)
    ThreadModes[E.Thread] = E.Mode;
  if (E.Kind == EventKind::BeginCapture) {
    beginCapture(E);
    return;
  }
  // Ending a stream that is not capturing is an ordinary (failing) call.
  if (E.Kind == EventKind::EndCapture && endActiveCapture(E))
    return;
  std::vector<CaptureRecord *> Targets = capturesOf(E);
  if (Targets.empty()) {
    if (E.Kind == EventKind::Call)
      matchFallback(E);
    return;
  }
  addCall(E, Targets);
}

std::vector<CaptureRecord> CaptureTracker::finish() {
  for (CaptureRecord &C : Active) {
    C.Classes.insert(classes::CaptureFailed);
    DoneIndex[C.Id] = Done.size();
    Done.push_back(std::move(C));
  }
  Active.clear();
  // Executable graphs whose count never came (the program died): launched
  // at least once.
  for (auto &KV : Execs)
    if (KV.second.Launched && KV.second.Credited == 0) {
      ++Cover.GraphLaunches;
      Cover.GraphKernels += KV.second.Kernels;
      if (CaptureRecord *C =
              KV.second.Capture ? done(KV.second.Capture) : nullptr)
        ++C->Launches;
    }
  Execs.clear();
  std::sort(Done.begin(), Done.end(),
            [](const CaptureRecord &A, const CaptureRecord &B) {
              return A.Id < B.Id;
            });
  std::vector<CaptureRecord> Out;
  Out.swap(Done);
  DoneIndex.clear();
  return Out;
}

std::vector<CaptureRecord> trackCaptures(const std::vector<Event> &Events,
                                         const ApiCatalog &Catalog,
                                         Coverage *Cover) {
  std::vector<Event> Sorted = Events;
  std::stable_sort(
      Sorted.begin(), Sorted.end(),
      [](const Event &A, const Event &B) { return A.Seq < B.Seq; });
  CaptureTracker T(Catalog);
  for (const Event &E : Sorted)
    T.consume(E);
  std::vector<CaptureRecord> Out = T.finish();
  if (Cover)
    *Cover = T.coverage();
  return Out;
}

} // namespace capture_probe
