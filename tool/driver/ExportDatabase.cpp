//===- ExportDatabase.cpp - A clang-ready copy of a compile database ------===//

#include "ExportDatabase.h"
#include "CompileDatabaseCheck.h"
#include "OutputGuard.h"
#include "SafeWrite.h"
#include "TidyCompat.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

namespace capture_lint {

namespace {

using nlohmann::json;

llvm::Error fail(const std::string &Message) {
  return llvm::createStringError(std::errc::invalid_argument, "%s",
                                 Message.c_str());
}

std::string databaseIn(llvm::StringRef Dir) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "compile_commands.json");
  return std::string(Path);
}

std::string absoluteIn(llvm::StringRef Directory, llvm::StringRef File) {
  if (llvm::sys::path::is_absolute(File))
    return File.str();
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, File);
  return std::string(Path);
}

/// The input database, checked and loaded.
llvm::Expected<std::unique_ptr<clang::tooling::JSONCompilationDatabase>>
loadDatabase(const std::string &In) {
  if (!llvm::sys::fs::exists(In))
    return fail("no compile database: '" + In +
                "' does not exist (generate it with "
                "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)");
  std::string Problem = checkCompileDatabase(In);
  if (!Problem.empty())
    return fail("cannot use the compile database: " + Problem);
  auto Loaded = clang::tooling::JSONCompilationDatabase::loadFromFile(
      In, Problem, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Loaded)
    return fail("cannot load the compile database '" + In + "': " + Problem);
  return std::move(Loaded);
}

/// OUT_DIR must be a directory (or not exist yet), and its database must be
/// neither the input database (the same path, a symlink or a hard link to
/// it) nor one of the sources the database lists.
llvm::Error checkOutput(const ExportRequest &Req, const std::string &In,
                        const std::string &Out,
                        const std::vector<std::string> &Sources) {
  if (llvm::sys::fs::exists(Req.OutDir) &&
      !llvm::sys::fs::is_directory(Req.OutDir))
    return fail("--export-compile-db: '" + Req.OutDir +
                "' exists and is not a directory");
  llvm::sys::fs::UniqueID InId, OutId;
  if (!llvm::sys::fs::getUniqueID(In, InId) &&
      !llvm::sys::fs::getUniqueID(Out, OutId) && InId == OutId)
    return fail("--export-compile-db: '" + Out + "' is the input database '" +
                In +
                "'; exporting would overwrite it: choose another directory");
  return checkOutputsAreNotInputs({{"--export-compile-db", Out}}, Sources);
}

/// One entry with its command translated; the first unreadable argument
/// file of the command, if any, goes to \p Unreadable.
json translateEntry(const clang::tooling::CompileCommand &C,
                    const ExportRequest &Req, ExportResult &Result,
                    std::string &Unreadable) {
  std::string File = absoluteIn(C.Directory, C.Filename);
  TranslatedCommand T =
      translateCommand(C.CommandLine, File, C.Directory, Req.Paths);
  for (const std::string &W : T.Warnings)
    Result.Warnings.push_back(C.Filename + ": " + W);
  if (!T.UnreadableArgumentFiles.empty())
    Unreadable = T.UnreadableArgumentFiles.front();
  addExtraArguments(T.Args, Req.ExtraArgsBefore, Req.ExtraArgs);
  json Entry = {
      {"directory", C.Directory}, {"file", C.Filename}, {"arguments", T.Args}};
  if (!C.Output.empty())
    Entry["output"] = C.Output;
  return Entry;
}

} // namespace

llvm::Expected<ExportResult> exportCompileDatabase(const ExportRequest &Req) {
  std::string In = databaseIn(Req.BuildDir);
  auto Loaded = loadDatabase(In);
  if (!Loaded)
    return Loaded.takeError();
  std::vector<clang::tooling::CompileCommand> Commands =
      (*Loaded)->getAllCompileCommands();
  ExportResult Result;
  Result.OutFile = databaseIn(Req.OutDir);
  std::vector<std::string> Sources;
  for (const clang::tooling::CompileCommand &C : Commands)
    Sources.push_back(absoluteIn(C.Directory, C.Filename));
  if (llvm::Error E = checkOutput(Req, In, Result.OutFile, Sources))
    return std::move(E);

  json Entries = json::array();
  for (size_t I = 0; I < Commands.size(); ++I) {
    std::string Unreadable;
    Entries.push_back(translateEntry(Commands[I], Req, Result, Unreadable));
    if (!Unreadable.empty())
      return fail("'" + In + "': entry " + std::to_string(I) + " ('" +
                  Commands[I].Filename + "'): " + Unreadable +
                  "; nothing was exported");
  }
  Result.Entries = Commands.size();
  if (std::error_code EC = llvm::sys::fs::create_directories(Req.OutDir))
    return fail("--export-compile-db: cannot create '" + Req.OutDir +
                "': " + EC.message());
  std::string Text =
      Entries.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  if (llvm::Error E = writeFileSafely(Result.OutFile, Text))
    return std::move(E);
  return Result;
}

} // namespace capture_lint
