//===- EventLog.cpp - JSON-lines event logs
//--------------------------------===//

#include "capture_probe/EventLog.h"
#include "capture_probe/JsonIntegers.h"
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string_view>
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

/// Appends \p E's JSON line (without its newline) to \p Out.
void appendEventJson(std::string &Out, const Event &E) {
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
    W.string("mode", modeName(E.Mode));
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
  if (!E.Collectives.empty())
    W.strings("collectives", E.Collectives);
  if (E.AfterFailedCapture)
    W.boolean("after_failed_capture", true);
  if (!E.Frames.empty()) // none for clean captured work
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
  File = std::fopen(P.c_str(), "a");
  if (!File)
    Error = "cannot open event log '" + P + "': " + std::strerror(errno);
}

JsonLinesSink::~JsonLinesSink() {
  detach();
  if (File)
    std::fclose(File);
}

namespace {
/// A thread's events held back by defer(), and the sink they are for.
/// Every thread's buffer is in a registry, so that the process's exit
/// writes them all: a program may exit while threads that captured are
/// still alive, and their held instantiations and launch counts decide
/// whether a graph was used. Its owner appends under Lock; only a flush
/// from another thread (at exit) contends for it. Locks are taken in the
/// order registry, buffer, sink.
struct HeldLines {
  std::mutex Lock;
  std::string Lines;
  JsonLinesSink *Sink = nullptr;
};
constexpr size_t DeferLimit = 64 << 10;

struct HeldRegistry {
  std::mutex Lock;
  std::vector<HeldLines *> All;
};
HeldRegistry &registry() {
  static HeldRegistry *R = new HeldRegistry; // used until the very end
  return *R;
}

/// A plain pointer: the probe writes from atexit handlers, after the main
/// thread's thread_local objects are destroyed (a new buffer is made then).
thread_local HeldLines *Held = nullptr;

/// Writes and unregisters a thread's buffer when the thread exits.
struct ReleaseAtThreadExit {
  ~ReleaseAtThreadExit() {
    if (!Held)
      return;
    HeldRegistry &R = registry();
    std::lock_guard<std::mutex> G(R.Lock);
    if (Held->Sink)
      Held->Sink->flushThread();
    R.All.erase(std::remove(R.All.begin(), R.All.end(), Held), R.All.end());
    delete Held;
    Held = nullptr;
  }
};
thread_local ReleaseAtThreadExit ThreadExit;

/// Appends \p E's line, newline included, to a thread's buffer.
void appendEventLine(std::string &Lines, const Event &E) {
  appendEventJson(Lines, E);
  Lines += '\n';
}

/// The calling thread's buffer, made on first use.
HeldLines &held() {
  if (!Held) {
    (void)&ThreadExit; // armed for this thread
    Held = new HeldLines;
    HeldRegistry &R = registry();
    std::lock_guard<std::mutex> G(R.Lock);
    R.All.push_back(Held);
  }
  return *Held;
}
} // namespace

void JsonLinesSink::append(std::string &Lines) {
  std::lock_guard<std::mutex> G(Lock);
  if (!File) {
    Lines.clear(); // nowhere to go
    return;
  }
  if (Lines.empty())
    return;
  // One write(2) on the descriptor, as fwrite and fflush did (nothing else
  // writes through the FILE), without copying into its buffer first.
  int Fd = fileno(File);
  const char *P = Lines.data();
  size_t Left = Lines.size();
  while (Left) {
    ssize_t N = ::write(Fd, P, Left);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    P += N;
    Left -= size_t(N);
  }
  Lines.clear();
}

void JsonLinesSink::write(const Event &E) {
  HeldLines &H = held();
  std::lock_guard<std::mutex> G(H.Lock);
  H.Sink = this;
  appendEventLine(H.Lines, E);
  append(H.Lines);
}

void JsonLinesSink::defer(const Event &E) {
  HeldLines &H = held();
  std::lock_guard<std::mutex> G(H.Lock);
  H.Sink = this;
  appendEventLine(H.Lines, E);
  if (H.Lines.size() >= DeferLimit)
    append(H.Lines);
}

void JsonLinesSink::flushThread() {
  if (!Held)
    return;
  std::lock_guard<std::mutex> G(Held->Lock);
  if (Held->Sink == this)
    append(Held->Lines);
}

void JsonLinesSink::flushAll() { flushHeld(/*Forget=*/false); }

void JsonLinesSink::detach() { flushHeld(/*Forget=*/true); }

void JsonLinesSink::flushHeld(bool Forget) {
  HeldRegistry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  for (HeldLines *H : R.All) {
    std::lock_guard<std::mutex> HG(H->Lock);
    if (H->Sink != this)
      continue;
    append(H->Lines);
    if (Forget)
      H->Sink = nullptr;
  }
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
  // the log is open), so it runs after them and writes what they held
  // back too.
  static bool FlushAtExit = [] {
    return std::atexit([] { Sink->flushAll(); }) == 0;
  }();
  (void)FlushAtExit;
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

static bool eventFromJson(const json &J, Event &E, std::string &Why) {
  std::string Where;
  if (!integersOnly(J, Where)) {
    Why = "'" + Where + "' is not an integer";
    return false;
  }
  try {
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
    E.Graph = J.value("graph", uint64_t(0));
    E.Exec = J.value("exec", uint64_t(0));
    E.Count = J.value("count", uint64_t(0));
    if (J.contains("event"))
      E.CudaEvent = J["event"].get<uint64_t>();
    E.Kernel = J.value("kernel", uint64_t(0));
    if (J.contains("collectives"))
      E.Collectives = J["collectives"].get<std::vector<std::string>>();
    E.AfterFailedCapture = J.value("after_failed_capture", false);
    if (J.contains("py_frames"))
      E.PyFrames = J["py_frames"].get<std::vector<std::string>>();
    if (J.contains("graph_nodes"))
      E.GraphNodes = J["graph_nodes"].get<std::map<std::string, int>>();
    if (J.contains("frames"))
      E.Frames = J["frames"].get<std::vector<std::string>>();
  } catch (const json::exception &Ex) {
    Why = Ex.what();
    return false;
  }
  return true;
}

bool readEventLog(const std::string &Path, std::vector<Event> &Out,
                  std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = "cannot read event log '" + Path + "'";
    return false;
  }
  std::vector<std::string> Lines;
  for (std::string L; std::getline(In, L);)
    Lines.push_back(L);
  // A line without its newline was being written when the process died.
  bool LastTorn = false;
  {
    std::ifstream Tail(Path, std::ios::binary | std::ios::ate);
    auto Size = Tail.tellg();
    if (Size > 0) {
      Tail.seekg(-1, std::ios::end);
      LastTorn = Tail.get() != '\n';
    }
  }
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (Lines[I].empty())
      continue;
    json J = json::parse(Lines[I], nullptr, /*allow_exceptions=*/false);
    Event E;
    std::string Why = "not JSON";
    if (!J.is_discarded() && eventFromJson(J, E, Why)) {
      Out.push_back(std::move(E));
      continue;
    }
    if (LastTorn && I + 1 == Lines.size())
      break;
    Error =
        Path + ":" + std::to_string(I + 1) + ": malformed event (" + Why + ")";
    return false;
  }
  return true;
}

} // namespace capture_probe
