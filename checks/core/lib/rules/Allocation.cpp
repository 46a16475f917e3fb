//===- Allocation.cpp - capture-allocation: on a stream not captured ------===//
//
// Besides the catalog's allocation calls (CatalogCall.cpp), a stream-ordered
// allocation that is captured only on a stream taking part in the capture:
// given another stream it fails and invalidates the capture. The scanner
// records the stream argument; the verdict compares it with the region's.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace capture_lint::rules {

RawHazard otherStreamAllocation(const ApiEntry &E, clang::SourceLocation Loc,
                                std::string StreamKey, std::string Spelled) {
  RawHazard H = catalogCall(E, CheckKind::Allocation, Loc);
  H.Kind = RawHazard::OtherStream;
  H.Detail = std::move(StreamKey);
  H.Origin = std::move(Spelled);
  return H;
}

Described describeOtherStreamAllocation(const RawHazard &H,
                                        const CaptureRegion &R) {
  if (R.Key.empty() || R.Key == H.Detail)
    return std::nullopt; // the capturing stream, or cannot tell
  MessageParts M;
  M.Subject = "'" + H.Api + "'";
  M.HereNote = "'" + H.Api + "' is called here";
  M.Predicate =
      "uses stream '" + H.Origin + "', which is not part of the " +
      (R.Stream.empty() ? "capture" : "capture of " + streamPhrase(R));
  M.Consequence = "it fails with cudaErrorStreamCaptureUnsupported (900) "
                  "and invalidates the capture";
  M.Fix = "use the capturing stream, or join '" + H.Origin +
          "' into the capture first (record an event on the capturing "
          "stream and make '" +
          H.Origin + "' wait for it)";
  return std::make_pair(Severity::Error, M);
}

} // namespace capture_lint::rules
