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

namespace capture_probe {

class CaptureTracker {
public:
  explicit CaptureTracker(const ApiCatalog &Catalog) : Catalog(Catalog) {}

  void consume(const Event &E);
  /// Closes the run: captures still active never ended.
  std::vector<CaptureRecord> finish();

private:
  CallRecord classify(const Event &E, const CaptureRecord &C,
                      CaptureMode ThreadMode) const;

  const ApiCatalog &Catalog;
  std::vector<CaptureRecord> Done;
  std::vector<CaptureRecord> Active; // in begin order
  std::map<uint64_t, CaptureMode> ThreadModes;
  unsigned NextId = 1;
};

/// Convenience: all of \p Events through a tracker.
std::vector<CaptureRecord> trackCaptures(const std::vector<Event> &Events,
                                         const ApiCatalog &Catalog);

} // namespace capture_probe

#endif // CAPTURE_PROBE_CAPTURETRACKER_H
