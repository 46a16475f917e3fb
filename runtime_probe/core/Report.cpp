//===- Report.cpp - The probe report as JSON and as text ------------------===//

#include "capture_probe/Report.h"
#include "capture_lint/BoundedFile.h"
#include "capture_probe/InductorSources.h"
#include "capture_probe/JsonIntegers.h"
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace capture_probe {

using nlohmann::json;

static constexpr const char *Format = "capture-probe-report";
static constexpr int Version = 1;

const std::set<std::string> &knownClasses() {
  static const std::set<std::string> K = {
      classes::Error,          classes::Allocation,
      classes::Sync,           classes::Query,
      classes::Eager,          classes::UncapturedWork,
      classes::Invalidated,    classes::CaptureFailed,
      classes::Divergence,     classes::NeverLaunched,
      classes::CaptureChurn,   classes::InstantiatePerLaunch,
      classes::SilentFallback, classes::FreedWhileHeld};
  return K;
}

std::set<std::string> ProbeReport::allClasses() const {
  std::set<std::string> S;
  for (const CaptureRecord &C : Captures)
    S.insert(C.Classes.begin(), C.Classes.end());
  if (!Divergences.empty())
    S.insert(classes::Divergence);
  return S;
}

static json frameJson(const SourceFrame &F) {
  json J = {{"function", F.Function}, {"module", F.Module}, {"raw", F.Raw}};
  if (!F.File.empty()) {
    J["file"] = F.File;
    J["line"] = F.Line;
  }
  return J;
}

static SourceFrame frameFrom(const json &J) {
  SourceFrame F;
  F.Function = J.value("function", "");
  F.Module = J.value("module", "");
  F.Raw = J.value("raw", "");
  F.File = J.value("file", "");
  F.Line = J.value("line", 0u);
  return F;
}

static json framesJson(const std::vector<SourceFrame> &Frames) {
  json Out = json::array();
  for (const SourceFrame &F : Frames)
    Out.push_back(frameJson(F));
  return Out;
}

namespace {
/// Each distinct native call stack once (the report's "stacks": its raw
/// frames and the frames they resolve to); calls name theirs by
/// "stack_ref". A capture-heavy program makes the same few stacks
/// thousands of times.
class StackTable {
public:
  size_t ref(const CallRecord &C) {
    json Row = {{"frames", C.Frames}, {"stack", framesJson(C.Stack)}};
    auto [It, New] = Index.try_emplace(Row.dump(), Rows.size());
    if (New)
      Rows.push_back(std::move(Row));
    return It->second;
  }
  json Rows = json::array();

private:
  std::unordered_map<std::string, size_t> Index;
};

/// The rows of a report's "stacks", for calls that name one.
struct StackRow {
  std::vector<std::string> Frames;
  std::vector<SourceFrame> Stack;
};

/// A "stack_ref" that names no row of "stacks".
struct BadStackRef : std::runtime_error {
  using std::runtime_error::runtime_error;
};
} // namespace

static json callJson(const CallRecord &C, StackTable &Stacks) {
  json J = {{"seq", C.Seq},         {"thread", C.Thread},
            {"api", C.Api},         {"result", C.Result},
            {"classes", C.Classes}, {"effective_mode", C.EffectiveMode}};
  if (C.Repeats > 1) {
    J["repeats"] = C.Repeats;
    J["last_seq"] = C.LastSeq;
  }
  if (!C.ResultName.empty())
    J["result_name"] = C.ResultName;
  if (C.Stream)
    J["stream"] = *C.Stream;
  if (!C.Hazard.empty())
    J["hazard"] = C.Hazard;
  if (!C.Node.empty())
    J["node"] = C.Node;
  if (!C.Expected.empty())
    J["expected"] = C.Expected;
  if (C.FirstError)
    J["first_error"] = true;
  if (C.OtherThread)
    J["other_thread"] = true;
  if (C.ReportsEarlierError)
    J["reports_earlier_error"] = true;
  if (C.PoolGrowth)
    J["pool_growth"] = true;
  if (C.CudaEvent)
    J["event"] = *C.CudaEvent;
  if (C.Site)
    J["site"] = frameJson(*C.Site);
  if (!C.Frames.empty() || !C.Stack.empty())
    J["stack_ref"] = Stacks.ref(C);
  if (!C.PyFrames.empty()) {
    J["python_stack"] = framesJson(C.PyStack);
    J["py_frames"] = C.PyFrames;
  }
  return J;
}

static CallRecord callFrom(const json &J, const std::vector<StackRow> &Rows) {
  CallRecord C;
  C.Seq = J.at("seq").get<uint64_t>();
  C.Repeats = J.value("repeats", uint64_t(1));
  C.LastSeq = J.value("last_seq", uint64_t(0));
  C.Thread = J.value("thread", uint64_t(0));
  C.Api = J.at("api").get<std::string>();
  C.Result = J.at("result").get<int>();
  C.ResultName = J.value("result_name", "");
  if (J.contains("stream"))
    C.Stream = J["stream"].get<uint64_t>();
  C.Classes = J.value("classes", std::set<std::string>());
  C.Hazard = J.value("hazard", "");
  C.Node = J.value("node", "");
  C.Expected = J.value("expected", "");
  C.EffectiveMode = J.value("effective_mode", "");
  C.FirstError = J.value("first_error", false);
  C.OtherThread = J.value("other_thread", false);
  C.ReportsEarlierError = J.value("reports_earlier_error", false);
  C.PoolGrowth = J.value("pool_growth", false);
  if (J.contains("event"))
    C.CudaEvent = J["event"].get<uint64_t>();
  if (J.contains("python_stack"))
    for (const json &F : J["python_stack"])
      C.PyStack.push_back(frameFrom(F));
  C.PyFrames = J.value("py_frames", std::vector<std::string>());
  if (J.contains("site"))
    C.Site = frameFrom(J["site"]);
  // A stack in the table, or (reports before it) written in the call.
  if (J.contains("stack_ref")) {
    uint64_t Ref = J["stack_ref"].get<uint64_t>();
    if (Ref >= Rows.size())
      throw BadStackRef("'stack_ref' " + std::to_string(Ref) +
                        " names no row of 'stacks' (" +
                        std::to_string(Rows.size()) + " rows)");
    C.Frames = Rows[Ref].Frames;
    C.Stack = Rows[Ref].Stack;
    return C;
  }
  if (J.contains("stack"))
    for (const json &F : J["stack"])
      C.Stack.push_back(frameFrom(F));
  C.Frames = J.value("frames", std::vector<std::string>());
  return C;
}

/// Whether a report leaves \p K out: a call with no class and no flag, and
/// no native stack that says how far the capture went (a native program's
/// first capture at a call chain keeps those; a Python program's calls
/// carry the interpreter's frames only): a compiled model's capture makes
/// thousands of such calls.
static bool omitted(const CallRecord &K) {
  bool Evidence = !K.Stack.empty() && K.PyFrames.empty();
  return K.Classes.empty() && K.Result == 0 && !Evidence && !K.PoolGrowth &&
         !K.OtherThread && !K.CudaEvent && !K.FirstError &&
         !K.ReportsEarlierError && K.Hazard.empty();
}

static json captureJson(const CaptureRecord &C, StackTable &Stacks) {
  auto Call = [&](const CallRecord &K) { return callJson(K, Stacks); };
  json Calls = json::array();
  uint64_t Omitted = C.CleanCallsOmitted;
  for (const CallRecord &K : C.Calls)
    if (omitted(K))
      Omitted += K.Repeats;
    else
      Calls.push_back(Call(K));
  json J = {{"id", C.Id},
            {"stream", C.Stream},
            {"thread", C.Thread},
            {"mode", C.Mode},
            {"to_graph", C.ToGraph},
            {"begin", Call(C.Begin)},
            {"end", C.End ? Call(*C.End) : json(nullptr)},
            {"ended", C.End.has_value()},
            {"succeeded", C.Succeeded},
            {"graph_nodes", C.GraphNodes},
            {"classes", C.Classes},
            {"calls", Calls}};
  if (C.NonBlocking)
    J["stream_kind"] = *C.NonBlocking ? "non-blocking" : "blocking";
  if (C.FirstErrorSeq)
    J["first_error_seq"] = *C.FirstErrorSeq;
  J["repeats"] = C.Repeats;
  if (C.Repeats > 1)
    J["last_id"] = C.LastId;
  if (C.CallsFrom)
    J["calls_from"] = C.CallsFrom;
  if (Omitted)
    J["clean_calls_omitted"] = Omitted;
  if (!C.Collectives.empty())
    J["collectives"] = C.Collectives;
  J["instantiations"] = C.Instantiations;
  if (C.Updates)
    J["updates"] = C.Updates;
  J["launches"] = C.Launches;
  json Unjoined = json::array();
  for (const CallRecord &K : C.Unjoined)
    Unjoined.push_back(Call(K));
  if (!C.Unjoined.empty())
    J["unjoined_streams"] = Unjoined;
  if (C.Fallback)
    J["fallback"] = Call(*C.Fallback);
  if (C.StaleFree)
    J["stale_free"] = Call(*C.StaleFree);
  if (C.StaleLaunch)
    J["stale_launch"] = Call(*C.StaleLaunch);
  return J;
}

json toJson(const ProbeReport &R) {
  StackTable Stacks;
  json Captures = json::array();
  for (const CaptureRecord &C : R.Captures)
    Captures.push_back(captureJson(C, Stacks));
  json Divergences = json::array();
  for (const Divergence &D : R.Divergences)
    Divergences.push_back({{"capture", D.Capture},
                           {"replay", D.Replay},
                           {"output", D.Output},
                           {"first_byte", D.FirstByte},
                           {"bytes", D.Bytes},
                           {"differing_bytes", D.DifferingBytes}});
  json J = {{"format", Format},          {"version", Version},
            {"backend", R.Backend},      {"program", R.Program},
            {"captures", Captures},      {"divergences", Divergences},
            {"classes", R.allClasses()}, {"stacks", Stacks.Rows}};
  if (R.Graphs.Known)
    J["graph_coverage"] = {{"graph_launches", R.Graphs.GraphLaunches},
                           {"kernels_in_graphs", R.Graphs.GraphKernels},
                           {"kernels_outside_graphs", R.Graphs.EagerKernels}};
  J["exit_status"] = R.ExitStatus ? json(*R.ExitStatus) : json(nullptr);
  if (!R.Note.empty())
    J["note"] = R.Note;
  if (!R.ProbeVersion.empty())
    J["probe_version"] = R.ProbeVersion;
  return J;
}

static std::vector<StackRow> stackRowsFrom(const json &J) {
  std::vector<StackRow> Rows;
  for (const json &SJ : J.value("stacks", json::array())) {
    StackRow Row;
    Row.Frames = SJ.value("frames", std::vector<std::string>());
    for (const json &F : SJ.value("stack", json::array()))
      Row.Stack.push_back(frameFrom(F));
    Rows.push_back(std::move(Row));
  }
  return Rows;
}

static CaptureRecord captureFrom(const json &CJ,
                                 const std::vector<StackRow> &Rows) {
  auto Call = [&](const json &K) { return callFrom(K, Rows); };
  CaptureRecord C;
  C.Id = CJ.at("id").get<unsigned>();
  C.Stream = CJ.value("stream", uint64_t(0));
  C.Thread = CJ.value("thread", uint64_t(0));
  C.Mode = CJ.value("mode", "global");
  C.ToGraph = CJ.value("to_graph", false);
  if (CJ.contains("stream_kind"))
    C.NonBlocking = CJ["stream_kind"] == "non-blocking";
  C.Begin = Call(CJ.at("begin"));
  if (CJ.contains("end") && !CJ["end"].is_null())
    C.End = Call(CJ["end"]);
  C.Succeeded = CJ.value("succeeded", false);
  C.GraphNodes = CJ.value("graph_nodes", std::map<std::string, int>());
  C.Classes = CJ.value("classes", std::set<std::string>());
  if (CJ.contains("first_error_seq"))
    C.FirstErrorSeq = CJ["first_error_seq"].get<uint64_t>();
  for (const json &K : CJ.value("calls", json::array()))
    C.Calls.push_back(Call(K));
  C.Repeats = CJ.value("repeats", 1u);
  C.LastId = CJ.value("last_id", C.Id);
  C.CallsFrom = CJ.value("calls_from", 0u);
  C.CleanCallsOmitted = CJ.value("clean_calls_omitted", uint64_t(0));
  C.Collectives = CJ.value("collectives", std::vector<std::string>());
  C.Instantiations = CJ.value("instantiations", 0u);
  C.Updates = CJ.value("updates", 0u);
  C.Launches = CJ.value("launches", uint64_t(0));
  for (const json &K : CJ.value("unjoined_streams", json::array()))
    C.Unjoined.push_back(Call(K));
  if (CJ.contains("fallback"))
    C.Fallback = Call(CJ["fallback"]);
  if (CJ.contains("stale_free"))
    C.StaleFree = Call(CJ["stale_free"]);
  if (CJ.contains("stale_launch"))
    C.StaleLaunch = Call(CJ["stale_launch"]);
  return C;
}

bool fromJson(const json &J, ProbeReport &R, std::string &Error) {
  Error = checkReportShape(J);
  if (!Error.empty())
    return false;
  std::string Where;
  if (!integersOnly(J, Where)) {
    Error = "'" + Where + "' is not an integer";
    return false;
  }
  try {
    R = ProbeReport();
    R.Backend = J.value("backend", "");
    R.Program = J.value("program", std::vector<std::string>());
    if (J.contains("exit_status") && !J["exit_status"].is_null())
      R.ExitStatus = J["exit_status"].get<int>();
    R.Note = J.value("note", "");
    R.ProbeVersion = J.value("probe_version", "");
    std::vector<StackRow> Rows = stackRowsFrom(J);
    for (const json &CJ : J.at("captures"))
      R.Captures.push_back(captureFrom(CJ, Rows));
    if (J.contains("graph_coverage")) {
      const json &G = J["graph_coverage"];
      R.Graphs.Known = true;
      R.Graphs.GraphLaunches = G.value("graph_launches", uint64_t(0));
      R.Graphs.GraphKernels = G.value("kernels_in_graphs", uint64_t(0));
      R.Graphs.EagerKernels = G.value("kernels_outside_graphs", uint64_t(0));
    }
    for (const json &DJ : J.value("divergences", json::array())) {
      Divergence D;
      D.Capture = DJ.value("capture", 0u);
      D.Replay = DJ.value("replay", 0u);
      D.Output = DJ.value("output", "");
      D.FirstByte = DJ.value("first_byte", size_t(0));
      D.Bytes = DJ.value("bytes", size_t(0));
      D.DifferingBytes = DJ.value("differing_bytes", size_t(0));
      R.Divergences.push_back(D);
    }
  } catch (const json::exception &Ex) { // checkReportShape missed a field
    Error = std::string("malformed report: ") + Ex.what();
    return false;
  } catch (const BadStackRef &Ex) {
    Error = std::string("malformed report: ") + Ex.what();
    return false;
  }
  return true;
}

bool readReport(const std::string &Path, ProbeReport &R, std::string &Error) {
  constexpr uint64_t MaxReportBytes = 512u << 20; // real runs: a few MB
  std::string Text;
  if (!capture_lint::readBoundedFile(Path, MaxReportBytes, Text, Error))
    return false;
  json J = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded()) {
    Error = "'" + Path + "' is not valid JSON";
    return false;
  }
  if (!fromJson(J, R, Error)) {
    Error = "'" + Path + "': " + Error;
    return false;
  }
  return true;
}

static std::string where(const CallRecord &C) {
  if (!C.Site)
    return C.Frames.empty() ? "(no call site)" : C.Frames.front();
  const SourceFrame &F = *C.Site;
  std::string S = F.File.empty() ? F.Module
                  : F.Line       ? F.File + ":" + std::to_string(F.Line)
                                 : F.File + " (no line: the host code has no "
                                            "line info; build with -g)";
  if (!F.Function.empty() && F.Function != "??")
    S += " in " + F.Function;
  // A line of Inductor's generated code, mapped back to the user's.
  if (F.Module == InductorModule)
    S += " (Inductor's " + F.Raw.substr(0, F.Raw.rfind(':')) + ")";
  return S;
}

static std::string join(const std::set<std::string> &S) {
  std::string Out;
  for (const std::string &X : S)
    Out += (Out.empty() ? "" : ", ") + X;
  return Out;
}

static std::string streamName(uint64_t S) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)S);
  return Buf;
}

/// A free of memory a live graph uses, and the graph's launch after it.
static void summarizeStale(std::ostream &OS, const CallRecord &Free,
                           const CallRecord &Launch) {
  bool Caching = Free.Api == "caching-allocator free";
  OS << "  [freed-while-held] "
     << (Caching ? "PyTorch's caching allocator took back a tensor's memory"
                 : Free.Api + " freed memory")
     << " that the instantiated graph uses";
  if (!Free.Node.empty())
    OS << " (" << Free.Node << ")";
  OS << ", at " << where(Free) << "; the graph was launched after it at "
     << where(Launch)
     << ": it reads or writes freed (or reused) memory; keep the "
     << (Caching ? "tensor" : "buffer")
     << " alive while the graph is, or update the graph\n";
}

/// How capture \p C ended: begin failed, never ended, the graph it made and
/// what became of it, or the end's error.
static void summarizeOutcome(std::ostream &OS, const CaptureRecord &C) {
  if (C.Begin.Result != 0)
    OS << "begin failed with " << C.Begin.ResultName << " (" << C.Begin.Result
       << ")\n";
  else if (!C.End)
    OS << "never ended (the program exited or crashed while capturing)\n";
  else if (C.Succeeded) {
    int Nodes = 0;
    std::string Types;
    for (const auto &KV : C.GraphNodes) {
      Nodes += KV.second;
      Types += (Types.empty() ? "" : ", ") + KV.first + " " +
               std::to_string(KV.second);
    }
    OS << "captured " << Nodes << " node" << (Nodes == 1 ? "" : "s");
    if (!Types.empty())
      OS << " (" << Types << ")";
    OS << "; instantiated " << C.Instantiations;
    if (C.Updates)
      OS << ", updated into an executable graph " << C.Updates;
    OS << ", launched " << C.Launches << "\n";
  } else
    OS << "failed: end returned " << C.End->ResultName << " (" << C.End->Result
       << ")\n";
}

/// Capture \p C's first line: its id, mode, stream, thread, where it began,
/// and its outcome.
static void summarizeHeadline(std::ostream &OS, const CaptureRecord &C) {
  OS << "capture " << C.Id;
  if (C.Repeats > 1)
    OS << " (and " << C.Repeats - 1 << " identical, up to capture " << C.LastId
       << ")";
  OS << " (" << C.Mode << " mode";
  if (C.NonBlocking)
    OS << ", " << (*C.NonBlocking ? "non-blocking" : "blocking") << " stream";
  OS << ", thread " << C.Thread << ") begun at " << where(C.Begin) << ": ";
  summarizeOutcome(OS, C);
}

/// A call of a capture that has classes (or reports an earlier error): one
/// line.
static void summarizeCall(std::ostream &OS, const CallRecord &K) {
  if (K.ReportsEarlierError) {
    OS << "  " << K.Api << " -> " << K.ResultName << " (" << K.Result
       << ") [reports the earlier error] at " << where(K) << "\n";
    return;
  }
  if (K.Classes.empty())
    return;
  OS << "  " << K.Api;
  if (K.Result != 0)
    OS << " -> " << (K.ResultName.empty() ? "error" : K.ResultName) << " ("
       << K.Result << ")";
  OS << " [" << join(K.Classes) << (K.FirstError ? ", first error" : "")
     << "] at " << where(K);
  if (K.Repeats > 1)
    OS << " (" << K.Repeats << " times)";
  if (K.OtherThread)
    OS << " (from thread " << K.Thread << ", not the capturing thread)";
  OS << "\n";
}

/// Capture \p C's calls worth a line, then the caching allocator's pool
/// growth counted in one.
static void summarizeCalls(std::ostream &OS, const CaptureRecord &C) {
  unsigned Pool = 0;
  for (const CallRecord &K : C.Calls) {
    Pool += K.PoolGrowth ? K.Repeats : 0;
    summarizeCall(OS, K);
  }
  if (Pool)
    OS << "  (" << Pool << " allocation" << (Pool == 1 ? "" : "s")
       << " by the framework's caching allocator growing the graph's memory "
          "pool: legal)\n";
}

/// What else was found about capture \p C: streams never joined, a silent
/// fallback, a stale free, the lifecycle classes, its collectives.
static void summarizeFindings(std::ostream &OS, const CaptureRecord &C) {
  for (const CallRecord &K : C.Unjoined)
    OS << "  stream " << streamName(K.Stream.value_or(0))
       << " was forked into the capture by " << K.Api << " at " << where(K)
       << " and never joined back (record an event on it and make the "
          "capturing stream wait for it before ending the capture)\n";
  if (C.Fallback)
    OS << "  [silent-fallback] after the capture failed, the same work ran "
          "eagerly: "
       << C.Fallback->Api << " at " << where(*C.Fallback) << "\n";
  if (C.StaleFree && C.StaleLaunch)
    summarizeStale(OS, *C.StaleFree, *C.StaleLaunch);
  if (C.Classes.count(classes::NeverLaunched))
    OS << "  [never-launched] no graph captured here was ever launched: the "
          "work ran only at capture time, or eagerly elsewhere\n";
  if (C.Classes.count(classes::CaptureChurn))
    OS << "  [capture-churn] captured again at every use: graphs from this "
          "site were launched about once each; capture once and replay\n";
  if (C.Classes.count(classes::InstantiatePerLaunch))
    OS << "  [instantiate-per-launch] the graph was instantiated "
       << C.Instantiations << " times for " << C.Launches
       << " launches; keep the executable graph (or cudaGraphExecUpdate it)\n";
  if (!C.Collectives.empty())
    OS << "  collectives: " << C.Collectives.size() << " (first "
       << C.Collectives.front() << ")\n";
}

static void summarizeCapture(std::ostream &OS, const CaptureRecord &C) {
  summarizeHeadline(OS, C);
  summarizeCalls(OS, C);
  summarizeFindings(OS, C);
}

std::string summarize(const ProbeReport &R) {
  std::ostringstream OS;
  for (const CaptureRecord &C : R.Captures)
    summarizeCapture(OS, C);
  for (const Divergence &D : R.Divergences)
    OS << "divergence: replay " << D.Replay << " of capture " << D.Capture
       << " wrote '" << D.Output << "' differently from the eager run ("
       << D.DifferingBytes << " of " << D.Bytes << " bytes, first at byte "
       << D.FirstByte << ")\n";
  if (R.Captures.empty())
    OS << "no capture was observed\n";
  if (R.Graphs.Known) {
    uint64_t All = R.Graphs.GraphKernels + R.Graphs.EagerKernels;
    OS << "graph coverage: " << R.Graphs.GraphKernels << " of " << All
       << " kernels ran inside " << R.Graphs.GraphLaunches << " graph launches";
    if (All) {
      char Pct[16];
      std::snprintf(Pct, sizeof Pct, "%.1f",
                    100.0 * double(R.Graphs.GraphKernels) / double(All));
      OS << " (" << Pct << "%)";
    }
    OS << "\n";
  }
  return OS.str();
}

} // namespace capture_probe
