//===- CaptureTracker.cpp - The capture state machine
//----------------------===//

#include "capture_probe/CaptureTracker.h"
#include <algorithm>

namespace capture_probe {

// cudaErrorStreamCaptureInvalidated, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
// and hipErrorStreamCaptureInvalidated share the number.
static constexpr int InvalidatedCode = 901;

CallRecord CaptureTracker::classify(const Event &E, const CaptureRecord &C,
                                    CaptureMode ThreadMode) const {
  CallRecord R;
  R.Seq = E.Seq;
  R.Thread = E.Thread;
  R.Api = E.Api;
  R.Result = E.Result;
  R.ResultName = E.ResultName;
  R.Stream = E.Stream;
  R.Frames = E.Frames;
  R.OtherThread = E.Thread != C.Thread;
  CaptureMode Effective = ThreadMode;
  R.EffectiveMode = modeName(Effective);
  if (E.Kind != EventKind::Call)
    return R; // begin, end, mode switches: recorded, not classified

  bool Ok = E.Result == 0;
  bool MadeNodes = E.NodesCreated && *E.NodesCreated > 0;
  bool MadeNone = E.NodesCreated && *E.NodesCreated == 0;
  if (!Ok)
    R.Classes.insert(E.Result == InvalidatedCode ? classes::Invalidated
                                                 : classes::Error);
  const ApiInfo *Info = Catalog.lookup(E.Api);
  if (Info) {
    R.Hazard = Info->Hazard;
    R.Expected = Info->behaviour(Effective);
  }
  bool Query = isQuery(E.Api);
  if (Query)
    R.Classes.insert(classes::Query);
  else if (Info && Info->Hazard == "sync")
    R.Classes.insert(classes::Sync);
  if (Info && Info->Hazard == "allocation" && !MadeNodes &&
      !(R.Expected == "captured" && !E.NodesCreated))
    R.Classes.insert(classes::Allocation);
  bool Work = issuesStreamWork(E.Api);
  if (Ok && Work && MadeNone)
    R.Classes.insert(classes::UncapturedWork);
  bool Hazardous = R.Classes.count(classes::Sync) ||
                   R.Classes.count(classes::Query) ||
                   R.Classes.count(classes::Allocation) ||
                   (Info && Info->Hazard == "host-read");
  if (Ok && Hazardous && !MadeNodes)
    R.Classes.insert(classes::Eager);
  return R;
}

void CaptureTracker::consume(const Event &E) {
  auto ThreadMode = [&](uint64_t Thread, CaptureMode Fallback) {
    auto It = ThreadModes.find(Thread);
    return It == ThreadModes.end() ? Fallback : It->second;
  };

  if (E.Kind == EventKind::ExchangeMode && E.Result == 0)
    ThreadModes[E.Thread] = E.Mode;

  if (E.Kind == EventKind::BeginCapture) {
    CaptureRecord C;
    C.Id = NextId++;
    C.Stream = E.Stream.value_or(0);
    C.Thread = E.Thread;
    C.Mode = modeName(E.Mode);
    C.NonBlocking = E.NonBlocking;
    C.ToGraph = E.ToGraph;
    C.Begin = classify(E, C, E.Mode);
    if (E.Result != 0) {
      C.Begin.Classes.insert(classes::Error);
      C.Begin.FirstError = true;
      C.FirstErrorSeq = E.Seq;
      C.Classes = {classes::Error, classes::CaptureFailed};
      Done.push_back(std::move(C));
      return;
    }
    Active.push_back(std::move(C));
    return;
  }

  if (E.Kind == EventKind::EndCapture) {
    auto It = std::find_if(
        Active.rbegin(), Active.rend(), [&](const CaptureRecord &C) {
          return E.Stream ? C.Stream == *E.Stream : C.Thread == E.Thread;
        });
    if (It != Active.rend()) {
      CaptureRecord C = std::move(*It);
      Active.erase(std::next(It).base());
      CallRecord End = classify(E, C, parseMode(C.Mode).value());
      if (E.Result != 0) {
        End.Classes.insert(E.Result == InvalidatedCode ? classes::Invalidated
                                                       : classes::Error);
        if (E.Result != InvalidatedCode && !C.FirstErrorSeq) {
          End.FirstError = true;
          C.FirstErrorSeq = E.Seq;
        }
      }
      C.Succeeded = E.Result == 0 && E.GraphReturned;
      C.GraphNodes = E.GraphNodes;
      C.End = std::move(End);
      if (!C.Succeeded)
        C.Classes.insert(classes::CaptureFailed);
      for (const std::string &K : C.End->Classes)
        C.Classes.insert(K);
      Done.push_back(std::move(C));
      return;
    }
    // Ending a stream that is not capturing: an ordinary (failing) call.
  }

  // A call: it belongs to the captures of its own thread, or, from another
  // thread, to the global-mode captures it can invalidate.
  std::vector<CaptureRecord *> Targets;
  for (CaptureRecord &C : Active)
    if (C.Thread == E.Thread)
      Targets.push_back(&C);
  if (Targets.empty())
    for (CaptureRecord &C : Active)
      if (C.Mode == "global")
        Targets.push_back(&C);
  for (CaptureRecord *C : Targets) {
    CaptureMode Own = C->Thread == E.Thread ? parseMode(C->Mode).value()
                                            : CaptureMode::Global;
    CallRecord R = classify(E, *C, ThreadMode(E.Thread, Own));
    if (R.Classes.count(classes::Error) && !C->FirstErrorSeq) {
      R.FirstError = true;
      C->FirstErrorSeq = R.Seq;
    }
    for (const std::string &K : R.Classes)
      C->Classes.insert(K);
    C->Calls.push_back(std::move(R));
  }
}

std::vector<CaptureRecord> CaptureTracker::finish() {
  for (CaptureRecord &C : Active) {
    C.Classes.insert(classes::CaptureFailed);
    Done.push_back(std::move(C));
  }
  Active.clear();
  std::sort(Done.begin(), Done.end(),
            [](const CaptureRecord &A, const CaptureRecord &B) {
              return A.Id < B.Id;
            });
  std::vector<CaptureRecord> Out;
  Out.swap(Done);
  return Out;
}

std::vector<CaptureRecord> trackCaptures(const std::vector<Event> &Events,
                                         const ApiCatalog &Catalog) {
  std::vector<Event> Sorted = Events;
  std::stable_sort(
      Sorted.begin(), Sorted.end(),
      [](const Event &A, const Event &B) { return A.Seq < B.Seq; });
  CaptureTracker T(Catalog);
  for (const Event &E : Sorted)
    T.consume(E);
  return T.finish();
}

} // namespace capture_probe
