//===- CachedOtherFiles.cpp - Other files, as the last run cached them ----===//
//
// capture-clangd's OtherFiles (OtherFiles.h): the summaries of the program's
// other translation units, read from the cache the last `capture-lint -p`
// run wrote (BUILD_DIR/.capture-lint-cache). The cache is looked for in the
// folders above the edited file and in their `build/` folders, the nearest
// first, or named by $CAPTURE_LINT_CACHE_DIR (for --cache-dir users). Its
// entries are read again when the folder changes (a run rewrote entries);
// an entry whose files changed since it was written is left out, as is
// every entry that read the edited file (the editor's text supersedes it).
//
//===----------------------------------------------------------------------===//

#include "OtherFiles.h"
#include "Runner.h"
#include "SummaryCache.h"
#include "WholeProgram.h"

#include "capture_lint/ProjectConfig.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <map>
#include <mutex>

namespace capture_lint {

namespace {

/// The cache folder for \p MainFile; "" when there is none.
std::string cacheDirFor(const std::string &MainFile) {
  if (const char *Env = std::getenv("CAPTURE_LINT_CACHE_DIR"); Env && *Env)
    return Env;
  for (llvm::StringRef Dir = llvm::sys::path::parent_path(MainFile);
       !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
    for (const char *Sub :
         {".capture-lint-cache", "build/.capture-lint-cache"}) {
      llvm::SmallString<256> Candidate(Dir);
      llvm::sys::path::append(Candidate, Sub);
      if (llvm::sys::fs::is_directory(Candidate))
        return std::string(Candidate);
    }
  }
  return "";
}

/// One cache folder as last read.
struct CacheState {
  bool Read = false;
  llvm::sys::TimePoint<> Modified;
  std::vector<UnitResult> Units;
  /// Per edited file: the roles of what the other units define.
  std::map<std::string, std::shared_ptr<const RoleImports>> Roles;
};

class CachedOtherFiles final : public tidy::OtherFiles {
public:
  std::shared_ptr<const RoleImports>
  roles(const std::string &MainFile) override {
    std::lock_guard<std::mutex> Guard(Lock);
    CacheState *S = state(MainFile);
    if (!S)
      return nullptr;
    auto [It, New] = S->Roles.try_emplace(MainFile);
    if (New) {
      auto Imports = std::make_shared<RoleImports>();
      for (const TuSummary *U : others(*S, MainFile))
        for (const SummaryRole &R : U->Roles)
          Imports->emplace(R.Usr, R); // the first seen, as a linker
      if (!Imports->empty())
        It->second = std::move(Imports);
    }
    return It->second;
  }

  std::vector<Finding> findings(const TuSummary &Live,
                                const std::string &MainFile,
                                unsigned MaxCallDepth) override {
    std::lock_guard<std::mutex> Guard(Lock);
    CacheState *S = state(MainFile);
    if (!S)
      return {};
    WholeProgramInput In;
    In.Reported = {&Live};
    In.IndexOnly = others(*S, MainFile);
    In.MaxCallDepth = MaxCallDepth;
    In.CatalogFor = [this](const std::string &File) { return catalog(File); };
    In.Enabled = [](const std::string &) { return true; }; // each check filters
    std::vector<Finding> Out;
    for (ReportFinding &F : resolveAcrossUnits(In).Findings)
      Out.push_back(std::move(F));
    return Out;
  }

private:
  /// The cache for \p MainFile, read again when its folder changed.
  CacheState *state(const std::string &MainFile) {
    std::string Dir = cacheDirFor(MainFile);
    llvm::sys::fs::file_status Status;
    if (Dir.empty() || llvm::sys::fs::status(Dir, Status))
      return nullptr;
    CacheState &S = Caches[Dir];
    if (!S.Read || S.Modified != Status.getLastModificationTime()) {
      S.Read = true;
      S.Modified = Status.getLastModificationTime();
      // The -p run kept paths under its checkout relative to its top.
      S.Units =
          SummaryCache(Dir, checkoutTop(llvm::sys::path::parent_path(MainFile)))
              .loadAll();
      S.Roles.clear();
    }
    return &S;
  }

  /// The summaries of units that did not read \p MainFile.
  static std::vector<const TuSummary *> others(const CacheState &S,
                                               const std::string &MainFile) {
    std::vector<const TuSummary *> Out;
    for (const UnitResult &U : S.Units)
      if (!U.Deps.count(MainFile))
        Out.push_back(&U.Summary);
    return Out;
  }

  std::shared_ptr<const Catalog> catalog(const std::string &File) {
    std::string Dir = llvm::sys::path::parent_path(File).str();
    auto [It, New] = Catalogs.try_emplace(Dir);
    if (New) {
      auto C = effectiveCatalog(File, {});
      if (C)
        It->second = *C;
      else
        llvm::consumeError(C.takeError());
    }
    return It->second;
  }

  std::mutex Lock;
  std::map<std::string, CacheState> Caches;
  std::map<std::string, std::shared_ptr<const Catalog>> Catalogs;
};

CachedOtherFiles TheCache;

} // namespace

} // namespace capture_lint

namespace capture_lint::tidy {
OtherFiles *const ProgramOtherFiles = &TheCache;
} // namespace capture_lint::tidy
