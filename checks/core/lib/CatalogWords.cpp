//===- CatalogWords.cpp - What a catalog entry does, in words -------------===//

#include "capture_lint/CatalogWords.h"

namespace capture_lint {

/// An allocation-class entry that gives memory back (cudaFree,
/// cudaFreeHost, hipHostUnregister, a handle's destroy).
static bool releasesMemory(const ApiEntry &E) {
  llvm::StringRef N = E.Name;
  return N.contains_insensitive("free") || N.contains("Destroy") ||
         N.contains("Unregister") || N.contains("destroy");
}

/// The severity and consequence of an eagerly run call.
static std::pair<Severity, std::string>
eagerly(const ApiEntry &E, CaptureMode Mode, MessageParts &M) {
  if (E.Class != Hazard::Allocation)
    return {Severity::Warning, modePhrase(Mode) +
                                   " it runs once, at capture time, and is not "
                                   "recorded in the graph, so replays skip it"};
  if (releasesMemory(E) || Mode != CaptureMode::Relaxed)
    return {Severity::Warning, modePhrase(Mode) +
                                   " it runs once, at capture time: the memory "
                                   "is released now, while the graph may still "
                                   "use it on every replay"};
  // Relaxed mode lets it run once; the graph keeps using that memory,
  // which is how persistent pools grow under capture.
  M.Fix = "make sure the memory outlives the graph";
  return {Severity::Remark, modePhrase(Mode) +
                                " it is allowed: it runs once, at capture "
                                "time, and every replay reuses that memory"};
}

Described describeCatalogEntry(const ApiEntry &E, Behaviour B, CaptureMode Mode,
                               MessageParts M, std::string_view Stream) {
  M.Predicate = E.Message;
  M.Fix = withStream(E.Fix, Stream);
  Severity Level = Severity::Remark;
  switch (B) {
  case Behaviour::Illegal:
    Level = Severity::Error;
    M.Consequence = modePhrase(Mode) + " it fails" + failurePhrase(E.Error);
    break;
  case Behaviour::Eager:
    std::tie(Level, M.Consequence) = eagerly(E, Mode, M);
    break;
  case Behaviour::Note:
    break;
  case Behaviour::Captured:
  case Behaviour::Legal:
    return std::nullopt;
  }
  return std::make_pair(Level, std::move(M));
}

std::string failurePhrase(std::string_view Error) {
  auto [Fails, Otherwise] = llvm::StringRef(Error).split("; ");
  std::string Out = Fails.empty() ? "" : " with " + Fails.str();
  Out += " and invalidates the capture";
  if (!Otherwise.empty())
    Out += "; " + Otherwise.str();
  return Out;
}

} // namespace capture_lint
