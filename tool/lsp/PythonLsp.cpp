//===- PythonLsp.cpp - capture-lint --lsp: diagnostics for Python ---------===//

#include "PythonLsp.h"
#include "LspTransport.h"
#include "PythonDiagnostics.h"

#include "capture_lint/python/PyAnalysis.h"

#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

using nlohmann::json;

namespace capture_lint {

namespace {

class Server {
public:
  Server(const RunConfig &Config, std::ostream &Out)
      : Settings{Config.Catalogs, Config.ChecksGlob, Config.MaxCallDepth},
        Out(Out) {}

  /// Handles one message; false when the client asked to exit. A message
  /// of the wrong shape is answered with an error (a request) or logged (a
  /// notification), never fatal.
  bool handle(const json &Msg) {
    try {
      return dispatch(Msg);
    } catch (const std::exception &E) { // a field missing or mistyped
      refuse(Msg, InvalidParams, std::string("invalid params: ") + E.what());
    }
    return true;
  }

  bool shutDown() const { return ShutDown; }

private:
  bool dispatch(const json &Msg) {
    if (!Msg.contains("method") || !Msg.at("method").is_string()) {
      if (Msg.contains("id")) // else a response from the client
        refuse(Msg, InvalidRequest, "a request needs a method (a string)");
      return true;
    }
    std::string Method = Msg.at("method").get<std::string>();
    if (Method == "exit")
      return false;
    if (ShutDown) {
      refuse(Msg, InvalidRequest, "the server is shut down");
      return true;
    }
    const json Params = Msg.value("params", json::object());
    if (!Params.is_object()) {
      refuse(Msg, InvalidParams,
             "params of '" + Method + "' must be an object");
      return true;
    }
    if (Method == "initialize") {
      reply(Msg, {{"capabilities", {{"textDocumentSync", 1}}},
                  {"serverInfo", {{"name", "capture-lint"}}}});
    } else if (Method == "shutdown") {
      ShutDown = true;
      reply(Msg, nullptr);
    } else if (Method == "textDocument/didOpen") {
      const json &Doc = Params.at("textDocument");
      update(Doc.at("uri").get<std::string>(),
             Doc.at("text").get<std::string>());
    } else if (Method == "textDocument/didChange") {
      const json &Changes = Params.at("contentChanges");
      if (!Changes.is_array())
        throw std::invalid_argument("'contentChanges' is not an array");
      if (!Changes.empty())
        update(Params.at("textDocument").at("uri").get<std::string>(),
               Changes.back().at("text").get<std::string>());
    } else if (Method == "textDocument/didClose") {
      std::string Uri = Params.at("textDocument").at("uri").get<std::string>();
      Documents.erase(pathOfUri(Uri));
      publish(Uri, json::array());
    } else if (Msg.contains("id")) {
      refuse(Msg, MethodNotFound, "method not found: " + Method);
    }
    return true;
  }

  void reply(const json &Msg, const json &Result) {
    writeLspMessage(
        Out, {{"jsonrpc", "2.0"}, {"id", Msg.at("id")}, {"result", Result}});
  }

  /// An error response to a request; a notification cannot be answered,
  /// so the problem goes to stderr (the editor's server log).
  void refuse(const json &Msg, int Code, const std::string &Problem) {
    if (Msg.contains("id")) {
      writeLspMessage(Out, lspErrorResponse(Msg.at("id"), Code, Problem));
      return;
    }
    std::string Method = Msg.contains("method") && Msg.at("method").is_string()
                             ? Msg.at("method").get<std::string>()
                             : "?";
    llvm::errs() << "capture-lint --lsp: ignored the notification '" << Method
                 << "': " << Problem << "\n";
  }

  void publish(const std::string &Uri, json Diags) {
    writeLspMessage(Out, {{"jsonrpc", "2.0"},
                          {"method", "textDocument/publishDiagnostics"},
                          {"params", {{"uri", Uri}, {"diagnostics", Diags}}}});
  }

  void update(const std::string &Uri, const std::string &Text) {
    std::string Path = pathOfUri(Uri);
    if (Path.empty() || !python::isPythonFile(Path)) {
      publish(Uri, json::array());
      return;
    }
    Documents[Path] = Text;
    publish(Uri, pythonDiagnostics(Path, Documents, Settings));
  }

  PythonLspSettings Settings;
  std::ostream &Out;
  std::map<std::string, std::string> Documents;
  bool ShutDown = false;
};

} // namespace

int serveLsp(const RunConfig &Config, std::istream &In, std::ostream &Out) {
  Server S(Config, Out);
  LspReader Reader(In);
  while (std::optional<LspFrame> F = Reader.next()) {
    if (F->Error) {
      writeLspMessage(Out, lspErrorResponse(nullptr, F->Error, F->Problem));
      continue;
    }
    if (!S.handle(F->Message))
      break;
  }
  return S.shutDown() ? 0 : 1;
}

} // namespace capture_lint
