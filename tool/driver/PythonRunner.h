//===- PythonRunner.h - Python inputs through the same report ---*- C++ -*-===//
//
// capture-lint's command line takes .py files and directories (walked for
// .py files) beside C++ sources. This runs the Python front end
// (checks/python) over them and adds its findings to the run's Report, in
// the same records the text, JSON and SARIF writers and baselines read.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_PYTHONRUNNER_H
#define CAPTURE_LINT_TOOL_PYTHONRUNNER_H

#include "Report.h"
#include "Runner.h"
#include "SummaryFile.h"
#include "capture_lint/python/PyAnalysis.h"

#include <map>
#include <optional>
#include <set>

namespace capture_lint {

/// Whether the input \p Path goes to the Python front end: a .py file, or a
/// directory (whose .py files are analysed).
bool isPythonInput(llvm::StringRef Path);

/// What the whole-program phase gives the Python analysis and takes back.
struct PythonJoin {
  /// Names C++ binds to functions Python calls (NativeJoin.h).
  std::set<std::string> NativeKeys;
  /// The link step's modules, from their summaries: texts by absolute path,
  /// the file system imports look in (only these modules), and the root
  /// the summaries were written under, the project's top.
  std::map<std::string, std::string> Texts;
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Files;
  std::string Root;
  /// Out: the calls regions make to NativeKeys.
  std::vector<python::PyNativeCall> NativeCalls;
};

/// Analyses \p Inputs (absolute .py files and directories) and appends
/// findings and errors to \p R; with \p Join, as its comments say.
void runPython(const std::vector<std::string> &Inputs, const RunConfig &Config,
               Report &R, PythonJoin *Join = nullptr);

/// `capture-lint summarize` of a Python module: its text, which the link
/// step analyses with the program's other modules (the Python analysis is
/// whole-program). Unusable input: std::nullopt, \p R's errors say why.
std::optional<SummaryFileContents> summarizePythonFile(const std::string &File,
                                                       Report &R);

/// The link step's file system: the modules of \p Texts (by absolute path),
/// nothing else.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
modulesOnly(const std::map<std::string, std::string> &Texts);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_PYTHONRUNNER_H
