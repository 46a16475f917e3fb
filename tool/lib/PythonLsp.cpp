//===- PythonLsp.cpp - capture-lint --lsp: diagnostics for Python ---------===//

#include "PythonLsp.h"
#include "PythonGuard.h"

#include "capture_lint/ProjectConfig.h"
#include "capture_lint/python/PyAnalysis.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

using nlohmann::json;

namespace capture_lint {

namespace {

/// Reads one message (Content-Length framing); false at the end of input.
bool readMessage(std::istream &In, json &Msg) {
  size_t Length = 0;
  std::string Line;
  while (std::getline(In, Line)) {
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    if (Line.empty())
      break;
    const std::string Key = "content-length:";
    std::string Lower;
    for (char C : Line.substr(0, Key.size()))
      Lower += static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
    if (Lower == Key)
      Length = std::stoul(Line.substr(Key.size()));
  }
  if (!In || Length == 0)
    return false;
  std::string Body(Length, '\0');
  In.read(Body.data(), static_cast<std::streamsize>(Length));
  if (!In)
    return false;
  Msg = json::parse(Body, nullptr, /*allow_exceptions=*/false);
  return !Msg.is_discarded();
}

void writeMessage(std::ostream &Out, const json &Msg) {
  std::string Body =
      Msg.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  Out << "Content-Length: " << Body.size() << "\r\n\r\n" << Body;
  Out.flush();
}

std::string pathOf(const std::string &Uri) {
  const std::string Prefix = "file://";
  if (Uri.rfind(Prefix, 0) != 0)
    return "";
  std::string Path;
  for (size_t I = Prefix.size(); I < Uri.size(); ++I) {
    if (Uri[I] == '%' && I + 2 < Uri.size()) {
      Path += static_cast<char>(std::stoi(Uri.substr(I + 1, 2), nullptr, 16));
      I += 2;
    } else {
      Path += Uri[I];
    }
  }
  return Path;
}

json position(unsigned Line, unsigned Column) {
  return {{"line", Line ? Line - 1 : 0},
          {"character", Column ? Column - 1 : 0}};
}

class Server {
public:
  Server(const RunConfig &Config, std::ostream &Out)
      : Config(Config), Out(Out) {}

  /// Handles one message; false when the client asked to exit.
  bool handle(const json &Msg) {
    std::string Method = Msg.value("method", "");
    const json Params = Msg.value("params", json::object());
    if (Method == "initialize") {
      reply(Msg, {{"capabilities", {{"textDocumentSync", 1}}},
                  {"serverInfo", {{"name", "capture-lint"}}}});
    } else if (Method == "shutdown") {
      ShutDown = true;
      reply(Msg, nullptr);
    } else if (Method == "exit") {
      return false;
    } else if (Method == "textDocument/didOpen") {
      const json &Doc = Params.at("textDocument");
      update(Doc.value("uri", ""), Doc.value("text", ""));
    } else if (Method == "textDocument/didChange") {
      const json &Changes = Params.value("contentChanges", json::array());
      if (!Changes.empty())
        update(Params.at("textDocument").value("uri", ""),
               Changes.back().value("text", ""));
    } else if (Method == "textDocument/didClose") {
      std::string Uri = Params.at("textDocument").value("uri", "");
      Documents.erase(pathOf(Uri));
      publish(Uri, json::array());
    } else if (Msg.contains("id")) {
      writeMessage(Out, {{"jsonrpc", "2.0"},
                         {"id", Msg.at("id")},
                         {"error",
                          {{"code", -32601},
                           {"message", "method not found: " + Method}}}});
    }
    return true;
  }

  bool shutDown() const { return ShutDown; }

private:
  void reply(const json &Msg, const json &Result) {
    writeMessage(
        Out, {{"jsonrpc", "2.0"}, {"id", Msg.at("id")}, {"result", Result}});
  }

  void publish(const std::string &Uri, json Diags) {
    writeMessage(Out, {{"jsonrpc", "2.0"},
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
          {{"range", {{"start", position(1, 1)}, {"end", position(1, 1)}}},
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
            {{"range", {{"start", position(1, 1)}, {"end", position(1, 1)}}},
             {"severity", 1},
             {"source", "capture-lint"},
             {"message", E.Message}});
    for (const python::PyFinding &F : R.Findings) {
      if (F.Loc.File != Path)
        continue;
      json Related = json::array();
      for (const python::PyNote &N : F.Notes)
        Related.push_back({{"location",
                            {{"uri", "file://" + N.Loc.File},
                             {"range",
                              {{"start", position(N.Loc.Line, N.Loc.Column)},
                               {"end", position(N.Loc.Line, N.Loc.Column)}}}}},
                           {"message", N.Message}});
      // LSP severities as clangd gives them (a remark is a hint).
      int Severity = F.Severity == "error"     ? 1
                     : F.Severity == "warning" ? 2
                                               : 4;
      Diags.push_back(
          {{"range",
            {{"start", position(F.Loc.Line, F.Loc.Column)},
             {"end",
              position(F.Loc.Line, unsigned(F.Loc.LineText.size()) + 1)}}},
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
  json Msg;
  while (readMessage(In, Msg))
    if (!S.handle(Msg))
      break;
  return S.shutDown() ? 0 : 1;
}

} // namespace capture_lint
