//===- CatalogCall.cpp - capture-sync-call, -host-read, -allocation -------===//
//
// The rule the catalog drives: a call to a catalog entry (or to a function
// declared to synchronize, allocate or read back) is a hazard of the check
// that owns the entry's class in the registry, and what it does in the
// region's mode comes from the entry's behaviours: it fails and invalidates
// the capture (an error), runs once at capture time and is missing from the
// graph (a warning), or is allowed with a consequence (a remark).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/ApiMatch.h"
#include "capture_lint/CatalogWords.h"
#include "capture_lint/CheckOwners.h"

namespace capture_lint::rules {

/// The C++ check that owns the catalog hazard class \p H (the registry's
/// Owns column); none for a class only Python reports or that is no
/// hazard of its own (ShapeQuery is a taint source).
std::optional<CheckKind> catalogCallCheck(const ApiEntry &E,
                                          const clang::CallExpr *Call,
                                          const clang::ASTContext &Ctx) {
  std::optional<CheckKind> Check =
      checkKindOf(checkOwning(E.Class, Language::Cpp));
  // A synchronous copy to the host is a read back, not only a sync.
  if (Check == CheckKind::SyncCall && Call && copiesDeviceToHost(Call, E, Ctx))
    return CheckKind::HostRead;
  return Check;
}

RawHazard catalogCall(const ApiEntry &E, CheckKind Check,
                      clang::SourceLocation Loc) {
  RawHazard H;
  H.Kind = RawHazard::ApiCall;
  H.Check = Check;
  H.Entry = &E;
  H.Api = E.Display;
  H.Loc = Loc;
  return H;
}

/// The thread switched itself to relaxed mode around the call (as
/// PyTorch's graph pool does around its cudaMalloc): an allocation is
/// allowed and reported as a remark; nothing when the call is legal there.
static std::optional<Described> inRelaxedThread(const ApiEntry &E,
                                                MessageParts M) {
  Behaviour B = E.behaviourIn(CaptureMode::Relaxed);
  if (B == Behaviour::Captured || B == Behaviour::Legal)
    return Described();
  if (B != Behaviour::Illegal && E.Class == Hazard::Allocation) {
    M.Consequence = "the thread is in relaxed capture mode here "
                    "(cudaThreadExchangeStreamCaptureMode), so it is "
                    "allowed: it runs once, at capture time, and every "
                    "replay reuses that memory";
    M.Fix = "make sure the memory outlives the graph";
    return Described(std::make_pair(Severity::Remark, M));
  }
  return std::nullopt; // described by the region's mode
}

Described describeCatalogCall(const RawHazard &H, const CaptureRegion &R) {
  MessageParts M;
  const ApiEntry &E = *H.Entry;
  M.Subject = "'" + H.Api + "'";
  M.Predicate = E.Message;
  M.HereNote = "'" + H.Api + "' is called here";
  if (H.ThreadRelaxed)
    if (auto D = inRelaxedThread(E, M))
      return *D;
  // A call given another stream than the capturing one (both known).
  // (A region begun through an opener is keyed by the opener's object.)
  bool OtherStream = !H.StreamKey.empty() && !R.ViaRole && !R.Key.empty() &&
                     H.StreamKey != R.Key;
  Behaviour B = E.behaviourIn(H.ThreadRelaxed ? CaptureMode::Relaxed : R.Mode,
                              OtherStream);
  return describeCatalogEntry(E, B, R.Mode, std::move(M),
                              R.Stream.empty() ? "the capturing stream"
                                               : R.Stream);
}

} // namespace capture_lint::rules
