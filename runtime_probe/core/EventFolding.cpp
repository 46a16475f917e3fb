//===- EventFolding.cpp - A thread's identical captured calls as one event ===//
//
// See EventFolding.h. Not locked: a CallFolder belongs to one thread.
//
//===----------------------------------------------------------------------===//

#include "capture_probe/EventFolding.h"

namespace capture_probe {

CallFolder::~CallFolder() {
  flush();
  Gone = true; // callbacks during the thread's teardown write directly
}

bool CallFolder::foldable(const Event &E) {
  return E.Kind == EventKind::Call && E.Result == 0 && E.NodesCreated &&
         *E.NodesCreated > 0 && E.Frames.empty() && !E.CudaEvent &&
         !E.AfterFailedCapture && E.Repeats == 1;
}

bool CallFolder::sameCall(const Event &A, const Event &B) {
  return A.Thread == B.Thread && A.Kind == B.Kind && A.Result == B.Result &&
         A.Stream == B.Stream && A.NodesCreated == B.NodesCreated &&
         A.Kernel == B.Kernel && A.CudaEvent == B.CudaEvent &&
         A.AfterFailedCapture == B.AfterFailedCapture && A.Api == B.Api &&
         A.ByRuntime == B.ByRuntime && A.Caller == B.Caller &&
         A.ResultName == B.ResultName && A.Node == B.Node &&
         A.Frames == B.Frames && A.PyFrames == B.PyFrames;
}

void CallFolder::add(Event &&E, EventSink *Sink) {
  if (Gone || !Sink) {
    if (Sink)
      Sink->write(E);
    return;
  }
  if (Held && HeldSink == Sink && Held->Repeats < MaxRepeats &&
      sameCall(*Held, E)) {
    ++Held->Repeats;
    Held->LastSeq = E.Seq;
    return;
  }
  flush();
  Held = std::move(E);
  HeldSink = Sink;
}

void CallFolder::flush() {
  if (!Held)
    return;
  // Taken out first: a sink that calls back into the backend finds nothing
  // held.
  Event E = std::move(*Held);
  Held.reset();
  HeldSink->write(E);
}

} // namespace capture_probe
