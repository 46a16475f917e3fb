//===- Injection.cpp - The CUDA_INJECTION64_PATH entry point --------------===//
//
// The CUDA driver loads this library into any CUDA program whose
// environment names it in CUDA_INJECTION64_PATH and calls
// InitializeInjection once the driver initialises. Events go to the JSON-lines
// file named by CAPTURE_PROBE_LOG ("%p" becomes the process id), which
// `capture-probe run` sets and reads back.
//
//===----------------------------------------------------------------------===//

#include "CuptiBackend.h"
#include <cstdio>

extern "C" __attribute__((visibility("default"))) int
InitializeInjection(void) {
  capture_probe::EventSink *Sink = capture_probe::processEventLog();
  if (!Sink)
    return 0;
  std::string Error;
  if (!capture_probe::startCupti(Sink, Error)) {
    std::fprintf(stderr, "capture-probe: CUPTI: %s\n", Error.c_str());
    return 0;
  }
  return 1;
}
