//===- PythonGuard.cpp - Python nesting that cannot kill a run -----------===//

#include "PythonGuard.h"
#include "LargeStack.h"

#include <optional>

namespace capture_lint {

namespace {

/// The analysis of \p Files, or nothing when it ran out of stack or
/// crashed (\p How says which).
std::optional<python::PyResult>
tryAnalyze(const std::vector<std::string> &Files, const Catalog &Cat,
           const python::PyOptions &Opts, StackRun &How) {
  python::PyResult Result;
  How = runOnLargeStack(
      [&] { Result = python::analyzePython(Files, Cat, Opts); });
  if (How != StackRun::Completed)
    return std::nullopt;
  return Result;
}

std::string failure(StackRun How) {
  if (How == StackRun::StackExhausted)
    return "too deeply nested to analyse: the Python front end ran out of "
           "stack (thousands of nested brackets or expressions?); other "
           "files were analysed";
  return "capture-lint crashed while analysing this file (an internal "
         "error: please report it with the file); other files were analysed";
}

} // namespace

python::PyResult analyzePythonGuarded(const std::vector<std::string> &Files,
                                      const Catalog &Cat,
                                      const python::PyOptions &Opts) {
  StackRun How;
  if (auto All = tryAnalyze(Files, Cat, Opts, How))
    return std::move(*All);
  std::vector<std::string> Kept;
  std::vector<python::PyError> Failed;
  for (const std::string &File : Files) {
    StackRun One;
    if (tryAnalyze({File}, Cat, Opts, One))
      Kept.push_back(File);
    else
      Failed.push_back({File, failure(One)});
  }
  python::PyResult Result;
  if (Failed.empty()) {
    // Each file alone is fine, together they are not (a call followed
    // across modules): none is reported rather than all lost silently.
    for (const std::string &File : Files)
      Failed.push_back({File, failure(How)});
  } else if (!Kept.empty()) {
    if (auto Rest = tryAnalyze(Kept, Cat, Opts, How))
      Result = std::move(*Rest);
    else
      for (const std::string &File : Kept)
        Failed.push_back({File, failure(How)});
  }
  Result.Errors.insert(Result.Errors.end(), Failed.begin(), Failed.end());
  return Result;
}

} // namespace capture_lint
