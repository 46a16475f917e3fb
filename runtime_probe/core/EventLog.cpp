//===- EventLog.cpp - JSON-lines event logs
//--------------------------------===//

#include "capture_probe/EventLog.h"
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
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
  }
  return "call";
}

static bool parseKind(const std::string &S, EventKind &K) {
  for (EventKind C : {EventKind::Call, EventKind::BeginCapture,
                      EventKind::EndCapture, EventKind::ExchangeMode})
    if (S == kindName(C)) {
      K = C;
      return true;
    }
  return false;
}

std::string eventToJsonLine(const Event &E) {
  json J = {{"seq", E.Seq},
            {"thread", E.Thread},
            {"kind", kindName(E.Kind)},
            {"api", E.Api},
            {"result", E.Result}};
  if (!E.ResultName.empty())
    J["result_name"] = E.ResultName;
  if (E.Stream)
    J["stream"] = *E.Stream;
  if (E.NodesCreated)
    J["nodes_created"] = *E.NodesCreated;
  if (E.Kind == EventKind::BeginCapture || E.Kind == EventKind::ExchangeMode)
    J["mode"] = modeName(E.Mode);
  if (E.Kind == EventKind::BeginCapture) {
    if (E.NonBlocking)
      J["non_blocking"] = *E.NonBlocking;
    J["to_graph"] = E.ToGraph;
  }
  if (E.Kind == EventKind::EndCapture) {
    J["graph"] = E.GraphReturned;
    J["graph_nodes"] = E.GraphNodes;
  }
  J["frames"] = E.Frames;
  return J.dump(-1, ' ', false, json::error_handler_t::replace);
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
  if (File)
    std::fclose(File);
}

void JsonLinesSink::write(const Event &E) {
  std::string Line = eventToJsonLine(E);
  std::lock_guard<std::mutex> G(Lock);
  if (!File)
    return;
  std::fputs(Line.c_str(), File);
  std::fputc('\n', File);
  std::fflush(File);
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
    E.GraphReturned = J.value("graph", false);
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
