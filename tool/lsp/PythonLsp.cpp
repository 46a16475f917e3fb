//===- PythonLsp.cpp - capture-lint --lsp: diagnostics for Python ---------===//

#include "PythonLsp.h"
#include "LspTransport.h"
#include "PythonGuard.h"

#include "capture_lint/ProjectConfig.h"
#include "capture_lint/python/PyAnalysis.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

using nlohmann::json;

namespace capture_lint {

namespace {

std::string pathOf(const std::string &Uri) {
  const std::string Prefix = "file://";
  if (Uri.rfind(Prefix, 0) != 0)
    return "";
  std::string Path;
  for (size_t I = Prefix.size(); I < Uri.size(); ++I) {
    if (Uri[I] == '%' && I + 2 < Uri.size() && llvm::isHexDigit(Uri[I + 1]) &&
        llvm::isHexDigit(Uri[I + 2])) {
      Path += static_cast<char>(std::stoi(Uri.substr(I + 1, 2), nullptr, 16));
      I += 2;
    } else {
      Path += Uri[I];
    }
  }
  return Path;
}

/// An LSP position: 0-based, in UTF-16 code units of \p LineText.
json position(unsigned Line, const std::string &LineText, unsigned Column) {
  return {{"line", Line ? Line - 1 : 0},
          {"character", utf16Column(LineText, Column) - 1}};
}

class Server {
public:
  Server(const RunConfig &Config, std::ostream &Out)
      : Config(Config), Out(Out) {}

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
      Documents.erase(pathOf(Uri));
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
    std::string Path = pathOf(Uri);
    if (Path.empty() || !python::isPythonFile(Path)) {
      publish(Uri, json::array());
      return;
    }
    Documents[Path] = Text;
    json Diags = json::array();
    auto Cat = effectiveCatalog(Path, Config.Catalogs);
    if (!Cat) {
      Diags.push_back(
          {{"range",
            {{"start", position(1, "", 1)}, {"end", position(1, "", 1)}}},
           {"severity", 1},
           {"source", "capture-lint"},
           {"message", llvm::toString(Cat.takeError())}});
      publish(Uri, Diags);
      return;
    }
    std::vector<std::string> Checks = enabledChecks(Config.ChecksGlob);
    python::PyOptions Opts;
    Opts.MaxCallDepth = Config.MaxCallDepth;
    Opts.Overrides = Documents;
    Opts.CheckEnabled = [&](const std::string &C) {
      return std::find(Checks.begin(), Checks.end(), C) != Checks.end();
    };
    python::PyResult R = analyzePythonGuarded({Path}, **Cat, Opts);
    for (const python::PyError &E : R.Errors)
      if (E.File == Path)
        Diags.push_back(
            {{"range",
              {{"start", position(1, "", 1)}, {"end", position(1, "", 1)}}},
             {"severity", 1},
             {"source", "capture-lint"},
             {"message", E.Message}});
    for (const Finding &F : R.Findings) {
      if (F.Loc.File != Path)
        continue;
      json Related = json::array();
      for (const FindingNote &N : F.Notes)
        Related.push_back(
            {{"location",
              {{"uri", "file://" + N.Loc.File},
               {"range",
                {{"start", position(N.Loc.Line, N.Loc.LineText, N.Loc.Column)},
                 {"end",
                  position(N.Loc.Line, N.Loc.LineText, N.Loc.Column)}}}}},
             {"message", N.Message}});
      // LSP severities as clangd gives them (a remark is a hint).
      int Severity = F.Level == Severity::Error     ? 1
                     : F.Level == Severity::Warning ? 2
                                                    : 4;
      Diags.push_back(
          {{"range",
            {{"start", position(F.Loc.Line, F.Loc.LineText, F.Loc.Column)},
             {"end", position(F.Loc.Line, F.Loc.LineText,
                              unsigned(F.Loc.LineText.size()) + 1)}}},
           {"severity", Severity},
           {"code", F.Check},
           {"source", "capture-lint"},
           {"message", F.Message},
           {"relatedInformation", Related}});
    }
    publish(Uri, Diags);
  }

  const RunConfig &Config;
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
