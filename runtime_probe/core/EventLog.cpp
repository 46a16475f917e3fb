//===- EventLog.cpp - JSON-lines event logs -------------------------------===//

#include "capture_probe/EventLog.h"
#include "capture_lint/BoundedFile.h"
#include "capture_probe/JsonIntegers.h"
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <pthread.h>
#include <string_view>
#include <sys/mman.h>
#include <unistd.h>

namespace capture_probe {

using nlohmann::json;

static const char *kindName(EventKind K) {
  switch (K) {
  case EventKind::Call:
    return "call";
  case EventKind::BeginCapture:
    return "begin";
  case EventKind::EndCapture:
    return "end";
  case EventKind::ExchangeMode:
    return "exchange-mode";
  case EventKind::Instantiate:
    return "instantiate";
  case EventKind::FirstLaunch:
    return "first-launch";
  case EventKind::ExecUpdate:
    return "exec-update";
  case EventKind::Launches:
    return "launches";
  case EventKind::Totals:
    return "totals";
  case EventKind::FreedWhileHeld:
    return "freed-while-held";
  case EventKind::StaleLaunch:
    return "stale-launch";
  }
  return "call";
}

static bool parseKind(const std::string &S, EventKind &K) {
  for (EventKind C :
       {EventKind::Call, EventKind::BeginCapture, EventKind::EndCapture,
        EventKind::ExchangeMode, EventKind::Instantiate, EventKind::FirstLaunch,
        EventKind::ExecUpdate, EventKind::Launches, EventKind::Totals,
        EventKind::FreedWhileHeld, EventKind::StaleLaunch})
    if (S == kindName(C)) {
      K = C;
      return true;
    }
  return false;
}

namespace {

/// Writes a JSON line field by field, straight onto the end of a string:
/// events are written from inside the program's CUDA calls, and building a
/// json object (or a string per line) per event cost more than the call.
/// The string grows in steps and the writer copies through a cursor, so a
/// field costs a few copies, not a string append per piece.
class LineWriter {
public:
  explicit LineWriter(std::string &Out) : Out(Out), Pos(Out.size()) {}
  template <size_t N> void number(const char (&K)[N], uint64_t V) {
    key(K);
    digits(V);
  }
  template <size_t N> void integer(const char (&K)[N], int V) {
    key(K);
    digits(V);
  }
  template <size_t N> void boolean(const char (&K)[N], bool V) {
    key(K);
    V ? raw("true", 4) : raw("false", 5);
  }
  template <size_t N> void string(const char (&K)[N], std::string_view V) {
    key(K);
    quoted(V);
  }
  template <size_t N>
  void strings(const char (&K)[N], const std::vector<std::string> &V) {
    key(K);
    raw("[", 1);
    for (size_t I = 0; I < V.size(); ++I) {
      if (I)
        raw(",", 1);
      quoted(V[I]);
    }
    raw("]", 1);
  }
  template <size_t N>
  void counts(const char (&K)[N], const std::map<std::string, int> &V) {
    key(K);
    raw("{", 1);
    bool F = true;
    for (const auto &KV : V) {
      if (!F)
        raw(",", 1);
      F = false;
      quoted(KV.first);
      raw(":", 1);
      digits(KV.second);
    }
    raw("}", 1);
  }
  /// Closes the object and trims the string to what was written.
  void done() {
    raw("}", 1);
    Out.resize(Pos);
  }

private:
  /// At least \p N writable bytes at the cursor.
  char *room(size_t N) {
    if (Pos + N > Out.size())
      Out.resize(std::max(Pos + N, Out.size() + 256));
    return Out.data() + Pos;
  }
  void raw(const char *S, size_t N) {
    std::memcpy(room(N), S, N);
    Pos += N;
  }
  template <typename T> void digits(T V) {
    char *P = room(24); // a 64-bit number and its sign fit
    Pos = size_t(std::to_chars(P, P + 24, V).ptr - Out.data());
  }
  template <size_t N> void key(const char (&K)[N]) {
    char *P = room(N + 3);
    *P++ = First ? '{' : ',';
    *P++ = '"';
    std::memcpy(P, K, N - 1);
    P += N - 1;
    *P++ = '"';
    *P = ':';
    Pos += N + 3;
    First = false;
  }
  /// A JSON string; control characters and bytes outside ASCII are
  /// escaped (paths and API names are ASCII in practice: copied whole).
  void quoted(std::string_view S) {
    bool Plain = std::all_of(S.begin(), S.end(), [](unsigned char C) {
      return C >= 0x20 && C < 0x80 && C != '"' && C != '\\';
    });
    if (Plain) {
      char *P = room(S.size() + 2);
      *P++ = '"';
      std::memcpy(P, S.data(), S.size());
      P[S.size()] = '"';
      Pos += S.size() + 2;
      return;
    }
    raw("\"", 1);
    for (unsigned char C : S) {
      if (C == '"' || C == '\\') {
        char Esc[2] = {'\\', char(C)};
        raw(Esc, 2);
      } else if (C < 0x20 || C >= 0x80) {
        char Buf[8];
        raw(Buf, size_t(std::snprintf(Buf, sizeof Buf, "\\u%04x", C)));
      } else {
        char Ch = char(C);
        raw(&Ch, 1);
      }
    }
    raw("\"", 1);
  }

  std::string &Out;
  size_t Pos;
  bool First = true;
};

/// Appends \p E's JSON line (without its newline) to \p Out; its native
/// stack as \p StackRef when that is not empty, else as its frames.
void appendEventJson(std::string &Out, const Event &E,
                     std::string_view StackRef = {}) {
  LineWriter W(Out);
  W.number("seq", E.Seq);
  W.number("thread", E.Thread);
  W.string("kind", kindName(E.Kind));
  W.string("api", E.Api);
  W.integer("result", E.Result);
  if (!E.ResultName.empty())
    W.string("result_name", E.ResultName);
  if (E.Stream)
    W.number("stream", *E.Stream);
  if (E.NodesCreated)
    W.integer("nodes_created", *E.NodesCreated);
  if (E.Kind == EventKind::BeginCapture || E.Kind == EventKind::ExchangeMode)
    W.string("mode", std::string(modeName(E.Mode)));
  if (E.Kind == EventKind::BeginCapture) {
    if (E.NonBlocking)
      W.boolean("non_blocking", *E.NonBlocking);
    W.boolean("to_graph", E.ToGraph);
  }
  if (E.Kind == EventKind::EndCapture) {
    W.boolean("graph_returned", E.GraphReturned);
    W.counts("graph_nodes", E.GraphNodes);
  }
  if (E.Graph)
    W.number("graph", E.Graph);
  if (E.Exec)
    W.number("exec", E.Exec);
  if (E.Count)
    W.number("count", E.Count);
  if (E.CudaEvent)
    W.number("event", *E.CudaEvent);
  if (E.Kernel)
    W.number("kernel", E.Kernel);
  if (!E.Node.empty())
    W.string("node", E.Node);
  if (!E.Collectives.empty())
    W.strings("collectives", E.Collectives);
  if (E.AfterFailedCapture)
    W.boolean("after_failed_capture", true);
  if (E.ByRuntime)
    W.boolean("by_runtime", true);
  if (E.Caller)
    W.number("caller", E.Caller);
  if (E.Repeats > 1) {
    W.number("repeats", E.Repeats);
    W.number("last_seq", E.LastSeq);
  }
  if (!StackRef.empty())
    W.string("stack_ref", StackRef);
  else if (!E.Frames.empty()) // none for clean captured work
    W.strings("frames", E.Frames);
  if (!E.PyFrames.empty())
    W.strings("py_frames", E.PyFrames);
  W.done();
}

} // namespace

std::string eventToJsonLine(const Event &E) {
  std::string Line;
  appendEventJson(Line, E);
  return Line;
}

namespace {
/// The mapped window's size: a few system calls per window.
constexpr uint64_t WindowSize = 4 << 20;

/// How many fork()s led to this process: a sink opened before the last one
/// belongs to an ancestor and writes nothing here.
std::atomic<unsigned> Forks{0};

unsigned watchForks() {
  static std::once_flag Once;
  std::call_once(Once,
                 [] { pthread_atfork(nullptr, nullptr, [] { ++Forks; }); });
  return Forks.load();
}

/// Makes [From, To) of the file real, blocks included (a mapped page with
/// no block behind it would raise SIGBUS on a full disk); ftruncate where
/// the file system cannot allocate ahead.
bool extend(int Fd, uint64_t From, uint64_t To) {
  if (fallocate(Fd, 0, off_t(From), off_t(To - From)) == 0)
    return true;
  return errno == EOPNOTSUPP && ftruncate(Fd, off_t(To)) == 0;
}
} // namespace

JsonLinesSink::JsonLinesSink(const std::string &Path) {
  std::string P;
  for (size_t I = 0; I < Path.size(); ++I) {
    if (Path[I] == '%' && I + 1 < Path.size() && Path[I + 1] == 'p') {
      P += std::to_string(getpid());
      ++I;
    } else {
      P += Path[I];
    }
  }
  ResolvedPath = P;
  Fd = ::open(P.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (Fd < 0) {
    Error = "cannot open event log '" + P + "': " + std::strerror(errno);
    return;
  }
  OpenedAfterForks = watchForks();
  off_t Size = lseek(Fd, 0, SEEK_END);
  End = Size > 0 ? uint64_t(Size) : 0; // appending to what is there
  uint64_t Page = uint64_t(sysconf(_SC_PAGESIZE));
  if (!mapWindow(End / Page * Page))
    ftruncate(Fd, off_t(End)); // lines go out with write(2)
}

JsonLinesSink::~JsonLinesSink() {
  trim();
  if (Window && !inForkedChild())
    munmap(Window, WindowSize);
  if (Fd >= 0)
    ::close(Fd);
}

bool JsonLinesSink::inForkedChild() const {
  return Forks.load(std::memory_order_relaxed) != OpenedAfterForks;
}

bool JsonLinesSink::mapWindow(uint64_t Start) {
  if (!extend(Fd, End, Start + WindowSize))
    return false;
  void *M = mmap(nullptr, WindowSize, PROT_READ | PROT_WRITE, MAP_SHARED, Fd,
                 off_t(Start));
  if (M == MAP_FAILED)
    return false;
  if (Window)
    munmap(Window, WindowSize);
  Window = static_cast<char *>(M);
  WindowStart = Start;
  return true;
}

void JsonLinesSink::append(const char *P, size_t N) {
  while (N && Window) {
    uint64_t WindowEnd = WindowStart + WindowSize;
    if (End == WindowEnd) {
      if (!mapWindow(WindowEnd)) {
        munmap(Window, WindowSize);
        Window = nullptr;
        ftruncate(Fd, off_t(End)); // from here on, write(2)
      }
      continue;
    }
    size_t K = size_t(std::min<uint64_t>(N, WindowEnd - End));
    std::memcpy(Window + (End - WindowStart), P, K);
    End += K;
    P += K;
    N -= K;
  }
  while (N) {
    ssize_t K = ::pwrite(Fd, P, N, off_t(End));
    if (K < 0 && errno == EINTR)
      continue;
    if (K <= 0)
      return;
    End += uint64_t(K);
    P += K;
    N -= size_t(K);
  }
}

void JsonLinesSink::write(const Event &E) {
  if (inForkedChild())
    return;
  std::lock_guard<std::mutex> G(Lock);
  if (Fd < 0)
    return;
  Line.clear();
  std::string_view Ref;
  if (!E.Frames.empty())
    Ref = stackRef(E.Frames);
  appendEventJson(Line, E, Ref);
  Line += '\n';
  if (Trimmed && Window && !extend(Fd, End, WindowStart + WindowSize)) {
    munmap(Window, WindowSize);
    Window = nullptr;
  }
  append(Line.data(), Line.size());
  if (Trimmed)
    ftruncate(Fd, off_t(End));
}

const std::string &
JsonLinesSink::stackRef(const std::vector<std::string> &Frames) {
  StackKey.clear();
  for (const std::string &F : Frames)
    (StackKey += F) += '\n';
  auto [It, New] = StackRefs.try_emplace(StackKey);
  if (!New)
    return It->second;
  It->second =
      std::to_string(getpid()) + "." + std::to_string(StackRefs.size());
  LineWriter W(Line);
  W.string("stack", It->second);
  W.strings("frames", Frames);
  W.done();
  Line += '\n';
  return It->second;
}

void JsonLinesSink::trim() {
  if (inForkedChild())
    return;
  std::lock_guard<std::mutex> G(Lock);
  if (Fd < 0)
    return;
  ftruncate(Fd, off_t(End));
  Trimmed = true;
}

EventSink *processEventLog() {
  static JsonLinesSink *Sink = [] {
    const char *Path = std::getenv(LogPathVariable);
    auto *S =
        new JsonLinesSink(Path && *Path ? Path : "capture-probe.%p.jsonl");
    if (!S->ok())
      std::fprintf(stderr, "capture-probe: %s\n", S->error().c_str());
    return S; // lives until exit: callbacks may write during teardown
  }();
  // Registered before the backends' own exit handlers (they start after
  // the log is open), so it runs after them: the file is cut to its lines
  // once they have written theirs.
  static bool TrimAtExit = [] {
    return std::atexit([] { Sink->trim(); }) == 0;
  }();
  (void)TrimAtExit;
  return Sink->ok() ? Sink : nullptr;
}

void MemorySink::write(const Event &E) {
  std::lock_guard<std::mutex> G(Lock);
  Events.push_back(E);
}

std::vector<Event> MemorySink::take() {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<Event> Out;
  Out.swap(Events);
  return Out;
}

/// Whether the integer fields fit their types: nlohmann converts -2 to a
/// uint64_t and 2^40 to an int without a word.
static bool integersInRange(const json &J, std::string &Why) {
  static const char *const Unsigned[] = {
      "seq",   "thread", "stream", "graph",   "exec",
      "count", "event",  "kernel", "repeats", "last_seq"};
  static const char *const Signed[] = {"result", "nodes_created"};
  for (const char *Key : Unsigned)
    if (J.contains(Key) && J[Key].is_number_integer() &&
        !J[Key].is_number_unsigned()) {
      Why = "'" + std::string(Key) + "' is negative";
      return false;
    }
  for (const char *Key : Signed) {
    if (!J.contains(Key) || !J[Key].is_number_integer())
      continue;
    bool Fits = J[Key].is_number_unsigned()
                    ? J[Key].get<uint64_t>() <= uint64_t(INT32_MAX)
                    : J[Key].get<int64_t>() >= INT32_MIN &&
                          J[Key].get<int64_t>() <= INT32_MAX;
    if (!Fits) {
      Why = "'" + std::string(Key) + "' is out of range";
      return false;
    }
  }
  return true;
}

/// The fields every event has (and a call's result and stream); false, with
/// \p Why, for an unknown kind. Throws json::exception on a wrong type.
static bool readCommonFields(const json &J, Event &E, std::string &Why) {
  E.Seq = J.at("seq").get<uint64_t>();
  E.Thread = J.at("thread").get<uint64_t>();
  if (!parseKind(J.at("kind").get<std::string>(), E.Kind)) {
    Why = "unknown kind";
    return false;
  }
  E.Api = J.at("api").get<std::string>();
  E.Result = J.at("result").get<int>();
  E.ResultName = J.value("result_name", "");
  if (J.contains("stream"))
    E.Stream = J["stream"].get<uint64_t>();
  if (J.contains("nodes_created"))
    E.NodesCreated = J["nodes_created"].get<int>();
  return true;
}

/// The fields of begin, end and exchange-mode events; false, with \p Why,
/// for an unknown mode.
static bool readCaptureFields(const json &J, Event &E, std::string &Why) {
  if (J.contains("mode")) {
    auto M = parseMode(J["mode"].get<std::string>());
    if (!M) {
      Why = "unknown mode";
      return false;
    }
    E.Mode = *M;
  }
  if (J.contains("non_blocking"))
    E.NonBlocking = J["non_blocking"].get<bool>();
  E.ToGraph = J.value("to_graph", false);
  E.GraphReturned = J.value("graph_returned", false);
  return true;
}

/// The handles, counts and the rest: graph lifecycle, events, kernels,
/// folding and stacks.
static void readOtherFields(const json &J, Event &E) {
  E.Graph = J.value("graph", uint64_t(0));
  E.Exec = J.value("exec", uint64_t(0));
  E.Count = J.value("count", uint64_t(0));
  if (J.contains("event"))
    E.CudaEvent = J["event"].get<uint64_t>();
  E.Kernel = J.value("kernel", uint64_t(0));
  E.Node = J.value("node", "");
  if (J.contains("collectives"))
    E.Collectives = J["collectives"].get<std::vector<std::string>>();
  E.AfterFailedCapture = J.value("after_failed_capture", false);
  E.ByRuntime = J.value("by_runtime", false);
  E.Caller = J.value("caller", uint64_t(0));
  E.Repeats = std::max<uint64_t>(J.value("repeats", uint64_t(1)), 1);
  E.LastSeq = E.Repeats > 1 ? J.value("last_seq", E.Seq) : 0;
  if (J.contains("py_frames"))
    E.PyFrames = J["py_frames"].get<std::vector<std::string>>();
  if (J.contains("graph_nodes"))
    E.GraphNodes = J["graph_nodes"].get<std::map<std::string, int>>();
  if (J.contains("frames"))
    E.Frames = J["frames"].get<std::vector<std::string>>();
}

static bool eventFromJson(const json &J, Event &E, std::string &Why) {
  std::string Where;
  if (!integersOnly(J, Where)) {
    Why = "'" + Where + "' is not an integer";
    return false;
  }
  if (!J.is_object()) {
    Why = "not a JSON object";
    return false;
  }
  if (!integersInRange(J, Why))
    return false;
  try {
    if (!readCommonFields(J, E, Why) || !readCaptureFields(J, E, Why))
      return false;
    readOtherFields(J, E);
  } catch (const json::exception &Ex) {
    Why = Ex.what();
    return false;
  }
  return true;
}

namespace {

/// Splits a log into pieces as it arrives in chunks. A process that died
/// left zero bytes after its last line (the rest of the mapped window); a
/// later process appending to the same file writes after them, on the same
/// line if the dead one was mid-line. A run of zero bytes therefore ends a
/// piece as a newline does (JSON text never holds one); pieces keep the
/// number of the line they are on. A piece that does not end with a newline
/// may be the torn last line of a process that died while writing it: if it
/// is malformed, it is counted only once a later piece shows it was not the
/// last.
class LogSplitter {
public:
  LogSplitter(const std::string &Path,
              const std::function<void(Event &&)> &Consume,
              SkippedLines *Skipped)
      : Path(Path), Consume(Consume), Skipped(Skipped) {}

  void feed(std::string_view Chunk) {
    while (!Chunk.empty()) {
      size_t Stop = Chunk.find_first_of(std::string_view("\n\0", 2));
      if (Stop == std::string_view::npos) {
        Partial.append(Chunk);
        return;
      }
      Partial.append(Chunk.substr(0, Stop));
      piece(Chunk[Stop] == '\n');
      if (Chunk[Stop] == '\n')
        ++LineNo;
      Chunk.remove_prefix(Stop + 1);
    }
  }

  /// The end of the file: what is left is a piece without its newline.
  void finish() {
    piece(/*Newline=*/false);
    Pending.reset(); // the torn last line: dropped, not counted
  }

private:
  void piece(bool Newline) {
    std::string Text;
    Text.swap(Partial);
    // A later newline or non-empty piece shows that a pending one was not
    // the last line.
    if (Pending && (Newline || !Text.empty())) {
      skip(Pending->first, Pending->second);
      Pending.reset();
    }
    if (Text.empty())
      return;
    json J = json::parse(Text, nullptr, /*allow_exceptions=*/false);
    Event E;
    std::string Why = "not JSON";
    if (!J.is_discarded()) {
      if (J.is_object() && J.contains("stack")) {
        if (keepStack(J, Why))
          return;
      } else if (eventFromJson(J, E, Why) && framesOf(J, E, Why)) {
        Consume(std::move(E));
        return;
      }
    }
    if (Newline)
      skip(LineNo, Why);
    else
      Pending.emplace(LineNo, Why);
  }

  /// Keeps stack line \p J (`{"stack": REF, "frames": [...]}`) for the
  /// events that name it; false, with \p Why, when it is malformed.
  bool keepStack(const json &J, std::string &Why) {
    auto Frames = J.find("frames");
    bool Ok = J.size() == 2 && J["stack"].is_string() && Frames != J.end() &&
              Frames->is_array();
    for (size_t I = 0; Ok && I < Frames->size(); ++I)
      Ok = (*Frames)[I].is_string();
    if (!Ok) {
      Why = "malformed stack line";
      return false;
    }
    Stacks[J["stack"].get<std::string>()] =
        Frames->get<std::vector<std::string>>();
    return true;
  }

  /// \p E's native stack from the stack line its `stack_ref` names.
  bool framesOf(const json &J, Event &E, std::string &Why) {
    auto Ref = J.find("stack_ref");
    if (Ref == J.end())
      return true;
    auto It =
        Ref->is_string() ? Stacks.find(Ref->get<std::string>()) : Stacks.end();
    if (It == Stacks.end()) {
      Why = "stack_ref names no stack line before it";
      return false;
    }
    E.Frames = It->second;
    return true;
  }

  void skip(size_t Line, const std::string &Why) {
    if (Skipped && Skipped->Count++ == 0)
      Skipped->First =
          Path + ":" + std::to_string(Line) + ": malformed event (" + Why + ")";
  }

  const std::string &Path;
  const std::function<void(Event &&)> &Consume;
  SkippedLines *Skipped;
  std::string Partial;
  size_t LineNo = 1;
  std::unordered_map<std::string, std::vector<std::string>> Stacks;
  std::optional<std::pair<size_t, std::string>> Pending;
};

} // namespace

bool forEachEvent(const std::string &Path,
                  const std::function<void(Event &&)> &Consume,
                  std::string &Error, SkippedLines *Skipped) {
  // Far beyond any log a program writes (10 million events are ~2 GB).
  constexpr uint64_t MaxLogBytes = uint64_t(64) << 30;
  LogSplitter Splitter(Path, Consume, Skipped);
  if (!capture_lint::readBoundedFileInChunks(
          Path, MaxLogBytes,
          [&](std::string_view Chunk) { Splitter.feed(Chunk); }, Error)) {
    Error = "cannot read event log: " + Error;
    return false;
  }
  Splitter.finish();
  return true;
}

bool forEachEventInOrder(const std::string &Path,
                         const std::function<void(Event &&)> &Consume,
                         std::string &Error, SkippedLines *Skipped,
                         size_t Window) {
  // A heap, smallest sequence number first; equal ones in the order read.
  using Held = std::pair<std::pair<uint64_t, uint64_t>, Event>;
  auto Later = [](const Held &A, const Held &B) { return A.first > B.first; };
  std::vector<Held> Heap;
  uint64_t Arrival = 0;
  auto Release = [&] {
    std::pop_heap(Heap.begin(), Heap.end(), Later);
    Consume(std::move(Heap.back().second));
    Heap.pop_back();
  };
  bool Ok = forEachEvent(
      Path,
      [&](Event &&E) {
        uint64_t Seq = E.Seq;
        Heap.emplace_back(std::make_pair(Seq, Arrival++), std::move(E));
        std::push_heap(Heap.begin(), Heap.end(), Later);
        if (Heap.size() > Window)
          Release();
      },
      Error, Skipped);
  while (!Heap.empty())
    Release();
  return Ok;
}

bool readEventLog(const std::string &Path, std::vector<Event> &Out,
                  std::string &Error, SkippedLines *Skipped) {
  return forEachEvent(
      Path, [&](Event &&E) { Out.push_back(std::move(E)); }, Error, Skipped);
}

} // namespace capture_probe
