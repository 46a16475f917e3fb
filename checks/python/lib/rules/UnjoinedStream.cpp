//===- UnjoinedStream.cpp - capture-unjoined-stream: a fork never joined --===//
//
// `with torch.cuda.stream(s):` inside a capture forks s into it; unless the
// capturing stream waits for s again before the capture ends, capture_end
// fails (cudaErrorStreamCaptureUnjoined). The walker notes the forks and the
// joins (`torch.cuda.current_stream().wait_stream(s)`, an event waited
// on); this rule words the forks left unjoined, with the catalog's entry
// for torch.cuda.stream. A function that returns with a fork of its own
// unjoined leaves it to its callers: the hazard reaches a region through
// the call, unless the region joins the same stream after it.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/CatalogWords.h"

namespace capture_lint::python::rules {

std::optional<PyHazard> unjoinedStream(const ApiEntry *StreamEntry,
                                       const std::string &Stream, PySite Fork) {
  if (!StreamEntry)
    return std::nullopt;
  PyHazard H;
  H.Kind = PyHazard::Unjoined;
  H.Entry = StreamEntry;
  H.Check = "capture-unjoined-stream";
  H.Subject = "'torch.cuda.stream(" + Stream + ")'";
  H.Detail = Stream;
  H.Site = Fork;
  return H;
}

Described describeUnjoinedStream(const PyHazard &H, const PyRegion &R) {
  MessageParts M;
  M.Subject = H.Subject;
  M.HereNote = "'" + H.Detail + "' is forked into the capture here";
  return describeCatalogEntry(*H.Entry, H.Entry->behaviourIn(R.Mode), R.Mode,
                              std::move(M), H.Detail);
}

} // namespace capture_lint::python::rules
