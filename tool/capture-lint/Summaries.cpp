//===- Summaries.cpp - The summaries summarize and link read --------------===//

#include "Delivery.h"
#include "Paths.h"
#include "Subcommands.h"
#include "capture_lint/BoundedRead.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

namespace capture_lint {

/// A list of summaries this long is no list.
static constexpr uint64_t MaxListBytes = 64u << 20;

/// The `capture-lint launch` summaries (*.capture-lint.sum) under \p Dir,
/// sorted.
static std::vector<std::string> summariesUnder(const std::string &Dir) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".capture-lint.sum") &&
        llvm::sys::fs::is_regular_file(It->path()))
      Out.push_back(It->path());
  llvm::sort(Out);
  return Out;
}

std::string summaryRoot(const Options &O) {
  return absolutePath(O.Root.empty() ? "." : O.Root);
}

llvm::Expected<std::vector<std::string>>
expandLists(const std::vector<std::string> &Args) {
  std::vector<std::string> Out;
  for (const std::string &A : Args) {
    if (llvm::sys::fs::is_directory(A)) {
      std::vector<std::string> Found = summariesUnder(A);
      Out.insert(Out.end(), Found.begin(), Found.end());
      continue;
    }
    if (!llvm::StringRef(A).starts_with("@")) {
      Out.push_back(A);
      continue;
    }
    auto Text = readRegularFile(A.substr(1), MaxListBytes);
    if (!Text)
      return llvm::createStringError(std::errc::invalid_argument,
                                     "the list '%s': %s", A.c_str(),
                                     llvm::toString(Text.takeError()).c_str());
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    llvm::StringRef(*Text).split(Lines, '\n');
    for (llvm::StringRef L : Lines)
      if (!L.trim().empty())
        Out.push_back(L.trim().str());
  }
  return Out;
}

llvm::Expected<std::vector<SummaryFileContents>>
readSummaries(const std::vector<std::string> &Paths, llvm::StringRef Root) {
  std::vector<SummaryFileContents> Out;
  for (const std::string &P : Paths) {
    auto S = readSummaryFile(P, Root);
    if (!S)
      return S.takeError();
    Out.push_back(std::move(*S));
  }
  return Out;
}

llvm::Error prepareSummary(Options &O, std::vector<UnitResult> &RoleSources) {
  auto RolePaths = expandLists(O.ImportRoles);
  if (!RolePaths)
    return RolePaths.takeError();
  auto Roles = readSummaries(*RolePaths, summaryRoot(O));
  if (!Roles)
    return Roles.takeError();
  for (SummaryFileContents &S : *Roles)
    RoleSources.push_back(std::move(S.Unit));
  O.Run.CacheDir.clear();
  O.Run.WholeProgram = true;
  O.Run.Jobs = 1;
  return llvm::Error::success();
}

bool writeSummary(const Options &O, const SummaryFileContents &S,
                  const std::string &Path) {
  std::string Root = summaryRoot(O);
  if (!writeOutput(Path, summaryFileText(S, Root)))
    return false;
  if (O.RolesOut.empty())
    return true;
  SummaryFileContents Roles;
  Roles.Source = S.Source;
  Roles.Unit.Summary.Roles = S.Unit.Summary.Roles;
  Roles.Places = placesOf(Roles.Unit.Summary);
  return writeOutput(O.RolesOut, summaryFileText(Roles, Root));
}

} // namespace capture_lint
