//===- ClangReadyDatabase.cpp - nvcc projects' databases for clangd -------===//

#include "ClangReadyDatabase.h"
#include "CompileFlags.h"
#include "ExportDatabase.h"
#include "PythonDiagnostics.h"

#include "capture_lint/BoundedRead.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <functional>
#include <unistd.h>

using nlohmann::json;

namespace capture_lint {

namespace {

/// The workspace root the editor names; "" when it names none.
std::string rootOf(const json &Params) {
  if (Params.contains("rootUri") && Params["rootUri"].is_string())
    return pathOfUri(Params["rootUri"].get<std::string>());
  if (Params.contains("rootPath") && Params["rootPath"].is_string())
    return Params["rootPath"].get<std::string>();
  if (Params.contains("workspaceFolders") &&
      Params["workspaceFolders"].is_array() &&
      !Params["workspaceFolders"].empty()) {
    const json &F = Params["workspaceFolders"][0];
    if (F.is_object() && F.contains("uri") && F["uri"].is_string())
      return pathOfUri(F["uri"].get<std::string>());
  }
  return "";
}

/// Whether the root's `.clangd` names a database itself.
bool clangdConfigNamesDatabase(const std::string &Root) {
  auto Text = readRegularFile(Root + "/.clangd", 1 << 20);
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return false;
  }
  return llvm::StringRef(*Text).contains("CompilationDatabase");
}

/// The compiler of a database entry: its first argument.
std::string compilerOf(const json &Entry) {
  if (Entry.contains("arguments") && Entry["arguments"].is_array() &&
      !Entry["arguments"].empty() && Entry["arguments"][0].is_string())
    return Entry["arguments"][0].get<std::string>();
  if (Entry.contains("command") && Entry["command"].is_string()) {
    llvm::StringRef Command = Entry["command"].get_ref<const std::string &>();
    return Command.ltrim().split(' ').first.str();
  }
  return "";
}

/// Whether some entry of \p Database runs nvcc or hipcc.
bool writtenForNvcc(const std::string &Database) {
  auto Text = readRegularFile(Database, 256u << 20);
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return false;
  }
  json J = json::parse(*Text, nullptr, /*allow_exceptions=*/false);
  if (!J.is_array())
    return false;
  for (const json &Entry : J) {
    if (!Entry.is_object())
      continue;
    std::string Compiler = compilerOf(Entry);
    if (isNvcc(Compiler) ||
        llvm::sys::path::filename(Compiler).starts_with("hipcc"))
      return true;
  }
  return false;
}

/// A folder of capture-clangd's own for the copy of \p Database.
std::string copyDirFor(const std::string &Database) {
  std::string Base;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
    Base = Xdg;
  else if (const char *Home = std::getenv("HOME"); Home && *Home)
    Base = std::string(Home) + "/.cache";
  else
    Base = "/tmp/capture-lint-" + std::to_string(::getuid());
  return Base + "/capture-lint/clangd/" +
         llvm::utohexstr(std::hash<std::string>()(Database));
}

llvm::sys::TimePoint<> modified(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return {};
  return Status.getLastModificationTime();
}

} // namespace

std::optional<json> ClangReadyDatabase::initialize(const json &Msg,
                                                   std::string &Log) {
  if (UserNamedOne || !Msg.contains("params") || !Msg["params"].is_object())
    return std::nullopt;
  const json &Params = Msg["params"];
  if (Params.contains("initializationOptions") &&
      Params["initializationOptions"].is_object() &&
      Params["initializationOptions"].contains("compilationDatabasePath"))
    return std::nullopt;
  std::string Root = rootOf(Params);
  if (Root.empty() || clangdConfigNamesDatabase(Root))
    return std::nullopt;
  for (const char *Candidate :
       {"/compile_commands.json", "/build/compile_commands.json"}) {
    std::string Database = Root + Candidate;
    if (!llvm::sys::fs::is_regular_file(Database))
      continue;
    if (!writtenForNvcc(Database))
      return std::nullopt; // clang reads it as it is
    Source = Database;
    OutDir = copyDirFor(Database);
    if (!write(Log))
      return std::nullopt;
    json Out = Msg;
    json &Options = Out["params"]["initializationOptions"];
    if (!Options.is_object())
      Options = json::object();
    Options["compilationDatabasePath"] = OutDir;
    return Out;
  }
  return std::nullopt;
}

void ClangReadyDatabase::refresh(std::string &Log) {
  if (!Source.empty() && modified(Source) != Written)
    write(Log);
}

bool ClangReadyDatabase::write(std::string &Log) {
  ExportRequest Req{llvm::sys::path::parent_path(Source).str(),
                    OutDir,
                    {},
                    {},
                    findToolPaths(Argv0.c_str())};
  Written = modified(Source);
  auto Result = exportCompileDatabase(Req);
  if (!Result) {
    Log = "cannot translate '" + Source +
          "' for clang: " + llvm::toString(Result.takeError());
    return false;
  }
  Log = "'" + Source + "' was written for nvcc or hipcc: clangd reads it " +
        "translated (as capture-lint --export-compile-db writes it) from '" +
        Result->OutFile + "'";
  return true;
}

} // namespace capture_lint
