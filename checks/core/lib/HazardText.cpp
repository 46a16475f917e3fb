//===- HazardText.cpp - What a hazard does under capture, in words -------===//
//
// Turns a raw hazard and the region it is in into a finding's text: the
// severity for the region's mode, the message (what happens under capture
// and the fix, composed from the catalog entry's fields) and the notes that
// chain from the call in the region down to the hazard and back to where the
// capture begins.
//
//===----------------------------------------------------------------------===//

#include "HazardText.h"

#include "capture_lint/Analysis.h"
#include "capture_lint/AstUtil.h"
#include "capture_lint/FixIts.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace capture_lint {

static std::string modePhrase(CaptureMode M) {
  switch (M) {
  case CaptureMode::Global:
    return "in a global-mode capture";
  case CaptureMode::ThreadLocal:
    return "in a thread_local-mode capture";
  case CaptureMode::Relaxed:
    return "in a relaxed-mode capture";
  case CaptureMode::Unknown:
    return "in a capture whose mode is not a constant (checked as global)";
  }
  return "";
}

std::string streamPhrase(const CaptureRegion &R) {
  bool Graph = R.Api && R.Api->keyedByObject();
  std::string Noun = Graph ? "graph" : "stream";
  return R.Stream.empty() ? "the " + Noun : Noun + " '" + R.Stream + "'";
}

static bool isHipRegion(const CaptureRegion &R) {
  return R.Api && llvm::StringRef(R.Api->Group).starts_with("hip");
}

static std::string implicitError(const CaptureRegion &R) {
  if (isHipRegion(R))
    return "hipErrorStreamCaptureImplicit";
  return "cudaErrorStreamCaptureImplicit (906)";
}

static std::string regionNote(const CaptureRegion &R) {
  bool Graph = R.Api && R.Api->keyedByObject();
  std::string Msg = (Graph ? "capture into " : "capture of ") +
                    streamPhrase(R) + " begins here, mode ";
  Msg += R.Mode == CaptureMode::Unknown
             ? "unknown (not a constant; checked as global)"
             : modeName(R.Mode).str();
  if (R.Ends.empty())
    Msg += "; it is not ended in this function";
  return Msg;
}

namespace {
/// A message in three parts, so it reads well both directly ("'cudaMalloc'
/// allocates ...") and through a call ("call to 'f' reaches 'cudaMalloc',
/// which allocates ...").
struct MessageParts {
  std::string Subject;
  std::string Predicate;
  std::string Consequence;
  std::string Fix;
};
} // namespace

/// An allocation-class entry that gives memory back (cudaFree,
/// cudaFreeHost, hipHostUnregister, a handle's destroy).
static bool releasesMemory(const ApiEntry &E) {
  llvm::StringRef N = E.Name;
  return N.contains_insensitive("free") || N.contains("Destroy") ||
         N.contains("Unregister") || N.contains("destroy");
}

std::string failurePhrase(llvm::StringRef Error) {
  auto [Fails, Otherwise] = Error.split("; ");
  std::string Out = Fails.empty() ? "" : " with " + Fails.str();
  Out += " and invalidates the capture";
  if (!Otherwise.empty())
    Out += "; " + Otherwise.str();
  return Out;
}

using Described = std::optional<std::pair<Severity, MessageParts>>;

/// A catalog call: what it does in the region's mode (or in the relaxed
/// mode its thread switched to).
static Described describeApiCall(const RawHazard &H, const CaptureRegion &R) {
  MessageParts M;
  Severity Level = Severity::Warning;
  const ApiEntry &E = *H.Entry;
  M.Subject = "'" + H.Api + "'";
  M.Predicate = E.Message;
  M.Fix = E.Fix;
  if (H.ThreadRelaxed) {
    // The thread switched itself to relaxed mode around the call (as
    // PyTorch's graph pool does around its cudaMalloc).
    Behaviour B = E.behaviourIn(CaptureMode::Relaxed);
    if (B == Behaviour::Captured || B == Behaviour::Legal)
      return std::nullopt;
    if (B != Behaviour::Illegal && E.Class == Hazard::Allocation) {
      M.Consequence =
          "the thread is in relaxed capture mode here "
          "(cudaThreadExchangeStreamCaptureMode), so it is allowed: it "
          "runs once, at capture time, and every replay reuses that memory";
      M.Fix = "make sure the memory outlives the graph";
      return std::make_pair(Severity::Remark, M);
    }
  }
  // A call given another stream than the capturing one (both known).
  // (A region begun through an opener is keyed by the opener's object.)
  bool OtherStream = !H.StreamKey.empty() && !R.ViaRole && !R.Key.empty() &&
                     H.StreamKey != R.Key;
  switch (E.behaviourIn(H.ThreadRelaxed ? CaptureMode::Relaxed : R.Mode,
                        OtherStream)) {
  case Behaviour::Illegal:
    Level = Severity::Error;
    M.Consequence = modePhrase(R.Mode) + " it fails" + failurePhrase(E.Error);
    break;
  case Behaviour::Eager:
    if (E.Class == Hazard::Allocation && !releasesMemory(E) &&
        R.Mode == CaptureMode::Relaxed) {
      // Relaxed mode lets it run once; the graph keeps using that memory,
      // which is how persistent pools grow under capture.
      Level = Severity::Remark;
      M.Consequence = modePhrase(R.Mode) +
                      " it is allowed: it runs once, at capture time, and "
                      "every replay reuses that memory";
      M.Fix = "make sure the memory outlives the graph";
      break;
    }
    Level = Severity::Warning;
    M.Consequence =
        modePhrase(R.Mode) +
        (E.Class == Hazard::Allocation
             ? " it runs once, at capture time: the memory is released "
               "now, while the graph may still use it on every replay"
             : " it runs once, at capture time, and is not recorded in the "
               "graph, so replays skip it");
    break;
  case Behaviour::Note:
    Level = Severity::Remark;
    break;
  case Behaviour::Captured:
  case Behaviour::Legal:
    return std::nullopt;
  }
  return std::make_pair(Level, M);
}

/// Work on a stream the capture does not include.
static Described describeOtherStream(const RawHazard &H,
                                     const CaptureRegion &R) {
  if (R.Key.empty() || R.Key == H.Detail)
    return std::nullopt; // the capturing stream, or cannot tell
  MessageParts M;
  M.Subject = "'" + H.Api + "'";
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

/// Work on (or a status query of) the legacy default stream.
static Described describeLegacyArg(const RawHazard &H, const CaptureRegion &R) {
  MessageParts M;
  M.Subject = H.KernelLaunch ? H.Api : "'" + H.Api + "'";
  if (H.StatusQuery) {
    if (R.Mode != CaptureMode::Global && R.Mode != CaptureMode::Unknown)
      return std::nullopt;
    M.Predicate = "asks about the legacy default stream (" + H.Detail +
                  ") while " + streamPhrase(R) + " is capturing";
    M.Consequence = modePhrase(R.Mode) + " it fails with " + implicitError(R) +
                    " and invalidates the capture, and its answer says "
                    "nothing about the capturing stream";
    M.Fix = "ask about the capturing stream" +
            (R.Stream.empty() ? std::string() : " '" + R.Stream + "'") +
            " instead";
    return std::make_pair(Severity::Error, M);
  }
  M.Predicate = "runs on the legacy default stream (" + H.Detail + ") while " +
                streamPhrase(R) + " is capturing";
  M.Consequence = "with a blocking capture stream it fails with " +
                  implicitError(R) +
                  " and invalidates the capture; with a non-blocking one "
                  "it runs now and is missing from the graph";
  M.Fix = "pass the capturing stream" +
          (R.Stream.empty() || (R.Api && R.Api->StreamArg < 0)
               ? std::string()
               : " '" + R.Stream + "'") +
          " explicitly";
  return std::make_pair(Severity::Error, M);
}

/// The host-side findings: a read of memory a captured copy fills, a host
/// value frozen into the graph, a branch on data or shapes.
static Described describeHostSide(const RawHazard &H) {
  MessageParts M;
  switch (H.Kind) {
  case RawHazard::PendingRead:
    M.Subject = "host read of '" + H.Detail + "'";
    M.Predicate = "sees memory that the captured '" + H.Api +
                  "' writes only when the graph is replayed";
    M.Consequence = "during capture the copy has not run, and replays do not "
                    "re-run this host code";
    M.Fix = "keep the value on the device, or read it after the graph launch "
            "and a synchronize";
    break;
  case RawHazard::FrozenArg:
    M.Subject = "'" + H.Detail + "'";
    M.Predicate =
        "is updated on the host inside the capture and passed " +
        (H.Origin.empty() ? std::string() : "(through '" + H.Origin + "') ") +
        "to " + H.Api;
    M.Consequence = "the graph records the value it has at capture time; "
                    "replays do not run the host update, so every replay "
                    "passes that same value";
    M.Fix = "keep the counter in device memory and update it with a kernel "
            "inside the graph, or set the node's parameters before each "
            "launch (cudaGraphExecKernelNodeSetParams)";
    break;
  case RawHazard::Branch:
    M.Subject = "'" + H.Detail + "' condition";
    M.Predicate = "depends on " + H.Api +
                  (H.Origin == "device" ? " (a value read back from the device)"
                                        : " (a tensor shape)");
    M.Consequence = "the capture records only the path taken now, and every "
                    "replay repeats it whatever the " +
                    std::string(H.Origin == "device" ? "value" : "shape");
    M.Fix = "capture one graph per shape bucket (pad inputs to fixed shapes), "
            "or decide on the device (a device-side predicate, or a "
            "conditional graph node)";
    break;
  default:
    return std::nullopt;
  }
  return std::make_pair(Severity::Warning, M);
}

static Described describe(const RawHazard &H, const CaptureRegion &R) {
  switch (H.Kind) {
  case RawHazard::External:
  case RawHazard::Overrides:
    return std::nullopt;
  case RawHazard::ApiCall:
    return describeApiCall(H, R);
  case RawHazard::OtherStream:
    return describeOtherStream(H, R);
  case RawHazard::LegacyArg:
    return describeLegacyArg(H, R);
  case RawHazard::PendingRead:
  case RawHazard::FrozenArg:
  case RawHazard::Branch:
    return describeHostSide(H);
  }
  return std::nullopt;
}

static std::string finalNote(const RawHazard &H) {
  switch (H.Kind) {
  case RawHazard::ApiCall:
    return "'" + H.Api + "' is called here";
  case RawHazard::LegacyArg:
    return (H.KernelLaunch ? H.Api : "'" + H.Api + "'") + " is issued here";
  case RawHazard::PendingRead:
    return "'" + H.Detail + "' is read here";
  case RawHazard::OtherStream:
    return "'" + H.Api + "' is called here";
  case RawHazard::Branch:
    return "the branch is here";
  case RawHazard::FrozenArg:
    return "'" + H.Detail + "' is passed to " + H.Api + " here";
  case RawHazard::External:
  case RawHazard::Overrides:
    return "'" + H.Api + "' is called here";
  }
  return "";
}

std::string regionHeadline(const CaptureRegion &R) {
  return R.Headline.empty() ? regionNote(R) : R.Headline;
}

std::optional<HazardText> describeHazard(const RawHazard &H,
                                         const CaptureRegion &Region,
                                         llvm::StringRef Via,
                                         llvm::StringRef Where) {
  auto D = describe(H, Region);
  if (!D)
    return std::nullopt;
  const MessageParts &M = D->second;
  HazardText T;
  T.Level = D->first;
  if (!Via.empty())
    T.Message = "call to '" + Via.str() + "' reaches " + M.Subject +
                (Where.empty() ? "" : " (" + Where.str() + ")") + ", which " +
                M.Predicate;
  else
    T.Message = M.Subject + " " + M.Predicate;
  if (!M.Consequence.empty())
    T.Message += ": " + M.Consequence;
  if (!M.Fix.empty())
    T.Message += "; " + M.Fix;
  T.FinalNote = finalNote(H);
  return T;
}

std::optional<Finding> materialize(const RawHazard &H,
                                   const CaptureRegion &Region,
                                   SourceLocation ReportLoc,
                                   llvm::StringRef CalleeAtReport,
                                   const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto T = describeHazard(
      H, Region, CalleeAtReport,
      CalleeAtReport.empty() ? "" : shortLocation(fileLoc(H.Loc, SM), SM));
  if (!T)
    return std::nullopt;
  Finding F;
  F.Check = H.Check;
  F.Level = T->Level;
  F.Api = H.Entry && H.Kind == RawHazard::ApiCall ? H.Entry->Name : H.Api;
  bool Via = !CalleeAtReport.empty();
  F.Loc = fileLoc(Via ? ReportLoc : H.Loc, SM);
  F.HazardLoc = fileLoc(H.Loc, SM);
  F.Message = T->Message;
  for (const DiagNote &N : H.Chain)
    F.Notes.push_back({fileLoc(N.Loc, SM), N.Message});
  if (Via)
    F.Notes.push_back({fileLoc(H.Loc, SM), T->FinalNote});
  for (const DiagNote &N : H.Extra)
    F.Notes.push_back({fileLoc(N.Loc, SM), N.Message});
  if (Region.BeginLoc.isValid()) {
    F.RegionBegin = fileLoc(Region.BeginLoc, SM);
    F.Notes.push_back({F.RegionBegin, regionHeadline(Region)});
    for (const DiagNote &N : Region.Origin)
      F.Notes.push_back({fileLoc(N.Loc, SM), N.Message});
    for (SourceLocation End : Region.Ends) {
      SourceLocation L = fileLoc(End, SM);
      if (F.RegionEnd.isInvalid() ||
          SM.isBeforeInTranslationUnit(F.RegionEnd, L))
        F.RegionEnd = L;
    }
  }
  F.Mode = Region.Mode;
  F.Stream = Region.Stream;
  // Only where the stream's name means the same thing: in the function that
  // begins the region with a catalog call, for a stream named by a
  // declaration.
  if (H.Kind == RawHazard::LegacyArg && !Via && Region.Begin && Region.Api &&
      Region.Api->StreamArg >= 0 && !Region.Key.empty())
    F.Fixes = streamFixIts(H.StreamCall, H.StreamIndex, Region.Stream, Ctx);
  if (H.Kind == RawHazard::LegacyArg && Via)
    if (auto N = calleeStreamNote(
            H.StreamCall, Region.Stream, Region.ThisMember,
            isHipRegion(Region) ? "hipStream_t" : "cudaStream_t", Ctx))
      F.Notes.insert(F.Notes.begin() + (H.Chain.size() + 1),
                     {fileLoc(N->Loc, SM), N->Message});
  return F;
}

std::string shortLocation(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(Loc);
  if (P.isInvalid())
    return "";
  return llvm::sys::path::filename(P.getFilename()).str() + ":" +
         std::to_string(P.getLine());
}

std::string unendedRegionMessage(const CaptureRegion &R,
                                 llvm::StringRef Function,
                                 llvm::StringRef EndName) {
  return "capture of " + streamPhrase(R) + " begun here is never ended in '" +
         Function.str() +
         "', and no function in this translation unit ends it: no "
         "path reaches a matching '" +
         EndName.str() +
         "', so the stream stays in capture mode and later work on it "
         "is captured or fails; end the capture on every path, "
         "including error returns (a function that ends it elsewhere "
         "can be named in .capture-lint.json 'regions')";
}

} // namespace capture_lint
