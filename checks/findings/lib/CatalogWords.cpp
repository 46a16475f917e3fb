//===- CatalogWords.cpp - What a catalog entry does, in words -------------===//

#include "capture_lint/CatalogWords.h"

namespace capture_lint {

/// An allocation-class entry that gives memory back (cudaFree,
/// cudaFreeHost, hipHostUnregister, a handle's destroy).
static bool releasesMemory(const ApiEntry &E) {
  const std::string &N = E.Name;
  auto Has = [&](const char *Part) { return N.find(Part) != N.npos; };
  return Has("free") || Has("Free") || Has("FREE") || Has("Destroy") ||
         Has("Unregister") || Has("destroy");
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
  size_t Split = Error.find("; ");
  std::string_view Fails = Error.substr(0, Split);
  std::string Out = Fails.empty() ? "" : " with " + std::string(Fails);
  Out += " and invalidates the capture";
  if (Split != std::string_view::npos && Split + 2 < Error.size())
    Out += "; " + std::string(Error.substr(Split + 2));
  return Out;
}

} // namespace capture_lint
