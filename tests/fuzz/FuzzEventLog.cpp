//===- FuzzEventLog.cpp - The runtime probe's event log reader ------------===//
//
// The input is a JSON-lines event log as the injected probe writes it. It
// reads or is rejected naming the line; events that read are tracked into
// captures and written back as lines that read again.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "capture_probe/ApiCatalog.h"
#include "capture_probe/CaptureTracker.h"
#include "capture_probe/EventLog.h"

using namespace capture_probe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const ApiCatalog Catalog = ApiCatalog::builtin();
  std::string Path =
      capture_lint::fuzz::writeScratch("events.jsonl", Data, Size);
  std::vector<Event> Events;
  std::string Error;
  if (!readEventLog(Path, Events, Error)) {
    capture_lint::fuzz::require(!Error.empty());
    return 0;
  }
  trackCaptures(Events, Catalog);
  std::string Lines;
  for (const Event &E : Events)
    Lines += eventToJsonLine(E) + "\n";
  std::string Again = capture_lint::fuzz::writeScratch(
      "again.jsonl", reinterpret_cast<const uint8_t *>(Lines.data()),
      Lines.size());
  std::vector<Event> Reread;
  capture_lint::fuzz::require(readEventLog(Again, Reread, Error) &&
                              Reread.size() == Events.size());
  return 0;
}
