//===- OutputGuard.cpp - Outputs must never overwrite inputs --------------===//

#include "OutputGuard.h"
#include "CompileDatabaseCheck.h"
#include "Runner.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>

namespace capture_lint {

std::vector<std::string> inputsOfRun(const RunConfig &Config,
                                     const std::vector<std::string> &Extra) {
  std::vector<std::string> Inputs = Config.Files;
  Inputs.insert(Inputs.end(), Config.Catalogs.begin(), Config.Catalogs.end());
  Inputs.insert(Inputs.end(), Extra.begin(), Extra.end());
  if (!Config.BuildDir.empty()) {
    llvm::SmallString<256> Db(Config.BuildDir);
    llvm::sys::path::append(Db, "compile_commands.json");
    Inputs.push_back(std::string(Db));
    // Read without blocking (a FIFO there is reported by the run itself).
    std::string Err;
    if (checkCompileDatabase(std::string(Db)).empty())
      if (auto Loaded = clang::tooling::JSONCompilationDatabase::loadFromFile(
              Db, Err, clang::tooling::JSONCommandLineSyntax::AutoDetect))
        for (const std::string &F : Loaded->getAllFiles())
          Inputs.push_back(F);
  }
  return Inputs;
}

std::vector<std::string> filesReadBy(const Report &R) {
  std::vector<std::string> Files;
  for (const auto &[File, Read] : R.FilesRead)
    Files.push_back(File);
  return Files;
}

llvm::Error checkOutputsAreNotInputs(const std::vector<NamedOutput> &Outputs,
                                     const std::vector<std::string> &Inputs) {
  std::map<llvm::sys::fs::UniqueID, std::string> ById;
  for (const std::string &In : Inputs) {
    llvm::sys::fs::UniqueID Id;
    if (!llvm::sys::fs::getUniqueID(In, Id))
      ById.emplace(Id, In);
  }
  for (const NamedOutput &Out : Outputs) {
    if (Out.Path.empty() || Out.Path == "-")
      continue;
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::status(Out.Path, St) ||
        St.type() != llvm::sys::fs::file_type::regular_file)
      continue; // a new file, or a device such as /dev/stdout
    auto It = ById.find(St.getUniqueID());
    if (It == ById.end())
      continue;
    std::string Same = It->second == Out.Path
                           ? ""
                           : " (the same file as '" + It->second + "')";
    return llvm::createStringError(
        std::errc::invalid_argument,
        "%s '%s' is an input of this run%s; it would be overwritten: "
        "choose another output file",
        Out.Option.c_str(), Out.Path.c_str(), Same.c_str());
  }
  return llvm::Error::success();
}

} // namespace capture_lint
