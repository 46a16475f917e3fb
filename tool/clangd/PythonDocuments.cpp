//===- PythonDocuments.cpp - capture-clangd's Python side -----------------===//

#include "PythonDocuments.h"
#include "PythonDiagnostics.h"

#include "capture_lint/python/PyAnalysis.h"

using nlohmann::json;

namespace capture_lint {

bool aboutPythonDocument(const json &Msg, std::string &Path) {
  if (!Msg.is_object() || !Msg.contains("params"))
    return false;
  const json &Params = Msg["params"];
  if (!Params.is_object() || !Params.contains("textDocument"))
    return false;
  const json &Doc = Params["textDocument"];
  if (!Doc.is_object() || !Doc.contains("uri") || !Doc["uri"].is_string())
    return false;
  Path = pathOfUri(Doc["uri"].get<std::string>());
  return !Path.empty() && python::isPythonFile(Path);
}

PythonDocuments::PythonDocuments(std::function<void(const json &)> Send)
    : Send(std::move(Send)) {}

PythonDocuments::~PythonDocuments() {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Stopping = true;
  }
  Wake.notify_all();
  if (Worker.joinable())
    Worker.join();
}

static json publication(const std::string &Uri, json Diags) {
  return {{"jsonrpc", "2.0"},
          {"method", "textDocument/publishDiagnostics"},
          {"params", {{"uri", Uri}, {"diagnostics", std::move(Diags)}}}};
}

bool PythonDocuments::take(const json &Msg, const std::string *Text) {
  std::string Path;
  if (!aboutPythonDocument(Msg, Path))
    return false;
  const json &Method = Msg.contains("method") ? Msg["method"] : json();
  if (Msg.contains("id") && Method.is_string()) {
    Send({{"jsonrpc", "2.0"}, {"id", Msg["id"]}, {"result", nullptr}});
    return true;
  }
  if (Method != "textDocument/didOpen" && Method != "textDocument/didChange" &&
      Method != "textDocument/didClose")
    return true; // didSave, willSave: nothing to do
  std::string Uri = Msg["params"]["textDocument"]["uri"].get<std::string>();
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Text) { // closed
    Open.erase(Path);
    Pending.erase(Path);
    Send(publication(Uri, json::array()));
    return true;
  }
  Open[Path] = *Text;
  UriOf[Path] = Uri;
  // Every open document again: what one file's regions reach can change
  // with another's text.
  for (const auto &[Other, _] : Open)
    Pending.insert(Other);
  if (!Worker.joinable())
    Worker = std::thread([this] { analyse(); });
  Wake.notify_all();
  return true;
}

void PythonDocuments::analyse() {
  std::unique_lock<std::mutex> Guard(Lock);
  for (;;) {
    Wake.wait(Guard, [&] { return Stopping || !Pending.empty(); });
    if (Stopping)
      return;
    std::string Path = *Pending.begin();
    Pending.erase(Pending.begin());
    std::map<std::string, std::string> Texts = Open;
    std::string Uri = UriOf[Path];
    Busy = true;
    Guard.unlock();
    std::string Problem;
    PythonLspSettings Settings = pythonSettingsFor(Path, Problem);
    json Diags = pythonDiagnostics(Path, Texts, Settings);
    if (!Problem.empty())
      Diags.insert(Diags.begin(), documentError(Problem));
    Guard.lock();
    Busy = false;
    if (Open.count(Path)) // not closed meanwhile
      Send(publication(Uri, std::move(Diags)));
    Idle.notify_all();
  }
}

void PythonDocuments::drain() {
  std::unique_lock<std::mutex> Guard(Lock);
  Idle.wait(Guard, [&] { return Pending.empty() && !Busy; });
}

} // namespace capture_lint
