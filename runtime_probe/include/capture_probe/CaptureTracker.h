//===- CaptureTracker.h - Events in, captures out ---------------*- C++ -*-===//
//
// The backend-neutral core: replays a sequence of events through the capture
// state machine (per stream: begun, ended; per thread: the mode set by
// cudaThreadExchangeStreamCaptureMode) and builds the report's captures.
// A call belongs to the captures begun on its own thread; a call from a
// thread with none belongs to the active global-mode captures (the only
// ones another thread's unsafe call can invalidate). Each call is classified
// with the API catalog.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CAPTURETRACKER_H
#define CAPTURE_PROBE_CAPTURETRACKER_H

#include "capture_probe/ApiCatalog.h"
#include "capture_probe/Report.h"

#include <unordered_map>

namespace capture_probe {

class CaptureTracker {
public:
  explicit CaptureTracker(const ApiCatalog &Catalog) : Catalog(Catalog) {}

  void consume(const Event &E);
  /// Closes the run: captures still active never ended.
  std::vector<CaptureRecord> finish();
  /// Graph launches and kernels counted over the run (after finish()).
  const Coverage &coverage() const { return Cover; }

private:
  struct Exec; // an executable graph (below)
  CallRecord classify(const Event &E, const CaptureRecord &C,
                      CaptureMode ThreadMode) const;
  void addHazardClasses(const Event &E, const ApiEntry *Info,
                        CallRecord &R) const;
  /// The mode \p Thread last switched to; \p Fallback if it never did.
  CaptureMode threadMode(uint64_t Thread, CaptureMode Fallback) const;
  void beginCapture(const Event &E);
  bool endActiveCapture(const Event &E);
  void endCapture(const Event &E, CaptureRecord C);
  std::vector<CaptureRecord *> capturesOf(const Event &E);
  void addCall(const Event &E, const std::vector<CaptureRecord *> &Targets);
  void keepCall(CaptureRecord &C, CallRecord R);
  void followStreams(CaptureRecord &C, const CallRecord &R, size_t Index);
  void consumeLifecycle(const Event &E);
  void creditLaunches(Exec &X, uint64_t Total);
  void instantiated(const Event &E);
  void updated(const Event &E);
  void countedLaunches(const Event &E);
  void freedWhileHeld(const Event &E);
  void launchedStale(const Event &E);
  void matchFallback(const Event &E);
  bool completesEagerRun(const Event &E, const CaptureRecord &C);
  CaptureRecord *done(unsigned Id);
  void keepCallsOnce(CaptureRecord &C);
  const std::vector<CallRecord> &callsOf(const CaptureRecord &C);

  /// An executable graph: the capture whose graph it runs, its kernels, the
  /// launches already credited.
  struct Exec {
    unsigned Capture = 0;
    uint64_t Kernels = 0, Credited = 0;
    bool Launched = false;
    std::optional<CallRecord> Freed; // memory it uses, freed while it lived
  };

  const ApiCatalog &Catalog;
  std::vector<CaptureRecord> Done;
  std::map<unsigned, size_t> DoneIndex; // capture id -> its index in Done
  std::vector<CaptureRecord> Active;    // in begin order
  std::map<uint64_t, CaptureMode> ThreadModes;
  std::map<uint64_t, unsigned> GraphCapture; // graph handle -> capture id
  std::map<uint64_t, Exec> Execs;
  std::map<uint64_t, unsigned> FailedOnThread; // thread -> failed capture
  // Per failed capture: the distinct kernels it launched that have run
  // eagerly on its thread since (matchFallback).
  std::map<unsigned, std::set<uint64_t>> EagerAfterFailure;
  // Per active capture id: streams forked in (stream -> index of the forking
  // call), events recorded on its streams (event -> stream).
  std::map<unsigned, std::map<uint64_t, size_t>> Forked;
  std::map<unsigned, std::map<uint64_t, uint64_t>> Recorded;
  // Per active capture id: each distinct call's key -> its record's index.
  std::map<unsigned, std::unordered_map<std::string, size_t>> CallSlots;
  // Captures with the same calls keep them once (memory per capture, not
  // per call): their calls' key -> group, group -> its lowest capture id.
  std::map<std::string, unsigned> CallsGroups;
  std::vector<unsigned> GroupHolder; // index: group - 1
  Coverage Cover;
  unsigned NextId = 1;
};

/// Convenience: all of \p Events through a tracker.
std::vector<CaptureRecord> trackCaptures(const std::vector<Event> &Events,
                                         const ApiCatalog &Catalog,
                                         Coverage *Cover = nullptr);

} // namespace capture_probe

#endif // CAPTURE_PROBE_CAPTURETRACKER_H
