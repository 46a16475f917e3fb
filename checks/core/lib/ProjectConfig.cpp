//===- ProjectConfig.cpp - The effective catalog for a source file --------===//

#include "capture_lint/ProjectConfig.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>
#include <mutex>

namespace capture_lint {

std::string findProjectConfig(llvm::StringRef File) {
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  while (!Dir.empty()) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, ProjectConfigName);
    if (llvm::sys::fs::is_regular_file(Candidate))
      return std::string(Candidate);
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  return "";
}

std::vector<std::string> splitCatalogList(llvm::StringRef List) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  List.split(Parts, ';', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Out;
  for (llvm::StringRef P : Parts)
    if (!P.trim().empty())
      Out.push_back(P.trim().str());
  return Out;
}

llvm::Expected<std::shared_ptr<const Catalog>>
effectiveCatalog(llvm::StringRef File,
                 const std::vector<std::string> &ExtraCatalogs) {
  std::vector<std::string> Files = ExtraCatalogs;
  std::string Project = File.empty() ? "" : findProjectConfig(File);
  if (!Project.empty())
    Files.push_back(Project);
  // Key by the files and their modification times, so an edited
  // .capture-lint.json is picked up by a long-running clangd.
  std::string Key;
  for (const std::string &F : Files) {
    llvm::sys::fs::file_status St;
    Key += F + "@";
    if (!llvm::sys::fs::status(F, St))
      Key += std::to_string(
          St.getLastModificationTime().time_since_epoch().count());
    Key += ";";
  }
  static std::mutex Mu;
  static std::map<std::string, std::shared_ptr<const Catalog>> Cache;
  std::lock_guard<std::mutex> Lock(Mu);
  auto It = Cache.find(Key);
  if (It != Cache.end())
    return It->second;
  auto Cat = std::make_shared<Catalog>();
  Cat->addBuiltin();
  for (const std::string &F : Files) {
    std::string Error;
    if (!Cat->addFile(F, Error))
      return llvm::createStringError(std::errc::invalid_argument, "%s",
                                     Error.c_str());
  }
  Cache[Key] = Cat;
  return std::shared_ptr<const Catalog>(Cat);
}

} // namespace capture_lint
