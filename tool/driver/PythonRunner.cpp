//===- PythonRunner.cpp - Python inputs through the same report -----------===//

#include "PythonRunner.h"
#include "Excludes.h"
#include "PythonGuard.h"

#include "capture_lint/ProjectConfig.h"
#include "capture_lint/python/PyAnalysis.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

namespace capture_lint {

bool isPythonInput(llvm::StringRef Path) {
  return python::isPythonFile(Path) || llvm::sys::fs::is_directory(Path);
}

/// The .py files \p Inputs name, directories walked (less what --exclude
/// excludes), sorted and once each; what cannot be read goes to \p R.
static std::vector<std::string>
pythonFiles(const std::vector<std::string> &Inputs, const Excludes &Excluded,
            Report &R) {
  std::vector<std::string> Files;
  for (const std::string &In : Inputs) {
    if (!llvm::sys::fs::is_directory(In)) {
      Files.push_back(In);
      continue;
    }
    std::vector<python::PyError> Unreadable;
    std::vector<std::string> Under =
        python::pythonFilesUnder(In, &Unreadable, [&](llvm::StringRef P) {
          return Excluded.excludes(P);
        });
    for (const python::PyError &E : Unreadable)
      R.Errors.push_back({{E.File}, E.Message});
    if (Under.empty() && Unreadable.empty())
      R.Warnings.push_back(In + ": no .py files in this directory");
    Files.insert(Files.end(), Under.begin(), Under.end());
  }
  std::sort(Files.begin(), Files.end());
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

/// The Python analysis's result of \p Files, into the report.
static void addResult(python::PyResult PR,
                      const std::vector<std::string> &Files, Report &R,
                      PythonJoin *Join) {
  if (Join)
    Join->NativeCalls = std::move(PR.NativeCalls);
  R.FilesAnalyzed += PR.FilesAnalyzed;
  R.AnalyzedFiles.insert(R.AnalyzedFiles.end(), Files.begin(), Files.end());
  for (const std::string &File : PR.FilesRead)
    recordSnapshot(R.FilesRead, File, FileSnapshot());
  for (const python::PyError &E : PR.Errors)
    R.Errors.push_back({{E.File}, E.Message});
  for (std::string &W : PR.Warnings)
    R.Warnings.push_back(std::move(W));
  for (Finding &F : PR.Findings)
    R.Findings.emplace_back(std::move(F));
}

void runPython(const std::vector<std::string> &Inputs, const RunConfig &Config,
               Report &R, PythonJoin *Join) {
  auto Excluded = Excludes::create(Config.Exclude);
  if (!Excluded) { // checked when the options were read
    R.Errors.push_back({{""}, llvm::toString(Excluded.takeError())});
    return;
  }
  std::vector<std::string> Files = pythonFiles(Inputs, *Excluded, R);
  if (Files.empty())
    return;
  // One catalog for the Python program: the one of its first file.
  auto Cat = effectiveCatalog(Files.front(), Config.Catalogs);
  if (!Cat) {
    R.Errors.push_back({{Files.front()}, llvm::toString(Cat.takeError())});
    return;
  }
  std::vector<std::string> Checks = enabledChecks(Config.ChecksGlob);
  python::PyOptions Opts;
  Opts.MaxCallDepth = Config.MaxCallDepth;
  if (!Config.StdinPath.empty())
    Opts.Overrides[Config.StdinPath] = Config.StdinText;
  Opts.CheckEnabled = [&](const std::string &C) {
    return std::find(Checks.begin(), Checks.end(), C) != Checks.end();
  };
  if (Join) {
    Opts.NativeKeys = Join->NativeKeys;
    Opts.Overrides.insert(Join->Texts.begin(), Join->Texts.end());
    Opts.Files = Join->Files;
    if (!Join->Root.empty())
      Opts.ProjectTops.push_back(Join->Root);
  }
  addResult(analyzePythonGuarded(Files, **Cat, Opts), Files, R, Join);
}

std::optional<SummaryFileContents> summarizePythonFile(const std::string &File,
                                                       Report &R) {
  if (llvm::sys::fs::is_directory(File)) {
    R.Errors.push_back({{File},
                        "is a directory; summarize takes one file (summarize "
                        "each .py file under it, as the Bazel aspect does: "
                        "docs/scale.md)"});
    return std::nullopt;
  }
  auto Text = python::readPythonSource(File);
  if (!Text) {
    R.Errors.push_back({{File}, llvm::toString(Text.takeError())});
    return std::nullopt;
  }
  if (Text->find('\0') != std::string::npos) {
    R.Errors.push_back(
        {{File}, "not a Python source file (it holds NUL bytes)"});
    return std::nullopt;
  }
  SummaryFileContents S;
  S.Source = File;
  S.PythonText = std::move(*Text);
  return S;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
modulesOnly(const std::map<std::string, std::string> &Texts) {
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const auto &[Path, Text] : Texts)
    FS->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  return FS;
}

} // namespace capture_lint
