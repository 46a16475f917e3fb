//===- Report.h - What the probe saw, capture by capture --------*- C++ -*-===//
//
// The probe's report: every capture with its begin and end call sites,
// mode, stream and thread; every API call made while it was active, with its
// result and what it means (classes); its first error; its graph's nodes by
// type; whether it succeeded. The harness adds divergences between eager
// runs and replays. Written and read as JSON ("capture-probe-report",
// version 1); capture-lint --confirm reads it.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_REPORT_H
#define CAPTURE_PROBE_REPORT_H

#include "capture_probe/Event.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace capture_probe {

/// One frame of a call site, symbolized when the program had line info.
struct SourceFrame {
  std::string Function, File, Module;
  unsigned Line = 0;
  std::string Raw; // module+0xoffset
};

/// What a call during a capture means. Classes are stable strings: they are
/// what `capture-probe run --fail-on` and capture-lint --confirm match.
///   error            the call failed (first-error marks the first of them)
///   allocation       it allocated or freed memory outside a graph node
///   sync             it waited for device work
///   query            it asked whether work had finished
///   eager            it succeeded but ran at capture time, not in the graph
///   uncaptured-work  it put work on a stream that is not capturing
///   invalidated      it failed because an earlier call invalidated the capture
namespace classes {
inline constexpr const char *Error = "error";
inline constexpr const char *Allocation = "allocation";
inline constexpr const char *Sync = "sync";
inline constexpr const char *Query = "query";
inline constexpr const char *Eager = "eager";
inline constexpr const char *UncapturedWork = "uncaptured-work";
inline constexpr const char *Invalidated = "invalidated";
/// A capture-level class: the capture failed or never ended.
inline constexpr const char *CaptureFailed = "capture-failed";
/// A harness-level class: replays differed from eager runs.
inline constexpr const char *Divergence = "divergence";
// Graph lifecycle classes (capture level, from a whole run):
/// captured (and maybe instantiated) but never launched: the work ran
/// eagerly or not at all
inline constexpr const char *NeverLaunched = "never-launched";
/// the same capture site captured again and again, each graph launched at
/// most once on average: capturing costs more than it saves
inline constexpr const char *CaptureChurn = "capture-churn";
/// one capture's graph instantiated again and again, about once per launch
inline constexpr const char *InstantiatePerLaunch = "instantiate-per-launch";
/// the capture failed and the same work then ran eagerly on that thread
inline constexpr const char *SilentFallback = "silent-fallback";
/// memory a live instantiated graph of this capture uses was freed (cudaFree
/// and friends, or PyTorch's caching allocator taking back a tensor's
/// storage), and the graph was launched again: it read or wrote freed (or
/// reused) memory. StaleFree's Node names the node that uses the memory.
inline constexpr const char *FreedWhileHeld = "freed-while-held";
} // namespace classes
const std::set<std::string> &knownClasses();
/// The lifecycle classes: what `--fail-on lifecycle` names.
const std::set<std::string> &lifecycleClasses();

struct CallRecord {
  uint64_t Seq = 0;
  /// The same call made again in the capture (same API, result, classes,
  /// call sites, stream and event): kept once, with how many times and the
  /// last one's sequence number (a capture of 200,000 launches from one
  /// loop is one record).
  uint64_t Repeats = 1;
  uint64_t LastSeq = 0;
  uint64_t Thread = 0;
  std::string Api;
  int Result = 0;
  std::string ResultName;
  std::optional<uint64_t> Stream;
  std::set<std::string> Classes;
  std::string Hazard; // from the catalog, "" if unknown
  /// For the free of memory a graph uses: the node that uses it ("kernel
  /// node 2 of 5 (name), argument 1").
  std::string Node;
  std::string Expected; // catalog behaviour in the effective mode
  std::string EffectiveMode;
  bool FirstError = false;
  bool OtherThread = false; // made by a thread other than the capture's
  /// cudaGetLastError / cudaPeekAtLastError returning an earlier call's
  /// error: not an error of its own.
  bool ReportsEarlierError = false;
  /// An allocation by the framework's caching allocator growing the graph's
  /// private memory pool (relaxed mode, switched to by the allocator): legal,
  /// not the user's allocation.
  bool PoolGrowth = false;
  /// Stream-ordering calls: the event recorded or waited for.
  std::optional<uint64_t> CudaEvent;
  uint64_t Kernel = 0;
  std::vector<std::string> PyFrames; // raw "file:line:function"
  /// Python programs: the innermost user Python frames, innermost first.
  std::vector<SourceFrame> PyStack;
  std::vector<std::string> Frames; // raw
  std::optional<SourceFrame> Site; // first frame in user code
  std::vector<SourceFrame> Stack;  // user frames, innermost first
};

struct CaptureRecord {
  unsigned Id = 0;
  uint64_t Stream = 0, Thread = 0;
  std::string Mode;
  std::optional<bool> NonBlocking;
  bool ToGraph = false;
  CallRecord Begin;
  std::optional<CallRecord> End; // absent: the program never ended it
  bool Succeeded = false;
  std::optional<uint64_t> FirstErrorSeq;
  std::map<std::string, int> GraphNodes;
  std::vector<CallRecord> Calls;
  std::set<std::string>
      Classes; // union of its calls' classes (+ capture-failed, lifecycle)
  /// Identical captures (same sites, calls, results and outcome) are kept
  /// once: how many there were, and the last one's id.
  unsigned Repeats = 1;
  unsigned LastId = 0;
  /// The calls listed are those of capture CallsFrom (identical but for
  /// sequence numbers, threads and handles), not this capture's own: set
  /// when captures with the same calls were kept once while the log was
  /// read and this one stayed apart from the others (0: its own calls).
  unsigned CallsFrom = 0;
  /// Calls the report leaves out: work captured cleanly, with nothing to
  /// say of it (no class, no flag, no stack kept), counted with repeats.
  uint64_t CleanCallsOmitted = 0;
  /// While reading (not in the report): captures with the same calls share
  /// a group, and only its capture with the lowest id keeps them; the
  /// others have CallsShared set and no Calls.
  unsigned CallsGroup = 0;
  bool CallsShared = false;
  /// The graph's collective (NCCL) kernels in node order.
  std::vector<std::string> Collectives;
  /// Lifecycle: instantiations of its graph, updates of an existing
  /// executable graph to it (cudaGraphExecUpdate), and launches of those.
  unsigned Instantiations = 0;
  unsigned Updates = 0;
  uint64_t Launches = 0;
  uint64_t Graph = 0; // handle, for the lifecycle (not in the report)
  /// Streams forked into the capture (waited on one of its events) and not
  /// joined back by the end: the call that forked each.
  std::vector<CallRecord> Unjoined;
  /// Work that ran eagerly on the thread after this capture failed, at the
  /// site of a call made during the capture (the first such call).
  std::optional<CallRecord> Fallback;
  /// The free of memory its instantiated graph used (with the node that
  /// uses it), and the launch after.
  std::optional<CallRecord> StaleFree, StaleLaunch;
};

/// Graph coverage: kernels that ran inside graph launches against kernels
/// launched outside graphs (counted by the probe over the whole run).
struct Coverage {
  bool Known = false;
  uint64_t GraphLaunches = 0, GraphKernels = 0, EagerKernels = 0;
};

struct Divergence {
  unsigned Capture = 0; // CaptureRecord::Id
  unsigned Replay = 0;
  std::string Output;
  size_t FirstByte = 0, Bytes = 0, DifferingBytes = 0;
};

struct ProbeReport {
  std::string Backend; // cuda, hip
  std::vector<std::string> Program;
  std::optional<int> ExitStatus;
  std::string Note; // e.g. "killed by signal 6"
  std::vector<CaptureRecord> Captures;
  std::vector<Divergence> Divergences;
  Coverage Graphs;
  /// The capture-probe release that wrote it ("0.1.0"); "" when unknown.
  std::string ProbeVersion;

  /// Every class seen, at call, capture and harness level.
  std::set<std::string> allClasses() const;
};

nlohmann::json toJson(const ProbeReport &R);
/// "" when every field of \p J that fromJson reads has its type, else the
/// first that does not, by its path ("'captures[0].begin.seq': ...").
std::string checkReportShape(const nlohmann::json &J);
/// Returns false and sets \p Error when \p J is not a version-1 report
/// (checkReportShape's message).
bool fromJson(const nlohmann::json &J, ProbeReport &R, std::string &Error);
/// The one reader of report files, for capture-probe (show, compare) and
/// capture-lint --confirm: bounded (a FIFO or /dev/zero is an error), then
/// fromJson; \p Error names the file.
bool readReport(const std::string &Path, ProbeReport &R, std::string &Error);

/// A human summary: one block per capture, its problems with call sites.
std::string summarize(const ProbeReport &R);

} // namespace capture_probe

#endif // CAPTURE_PROBE_REPORT_H
