//===- EnabledChecks.cpp - Which checks a --checks glob turns on ----------===//

#include "EnabledChecks.h"

#include "clang-tidy/GlobList.h"

#include <algorithm>

namespace capture_lint {

std::vector<std::string> enabledChecks(llvm::StringRef Glob) {
  // Every check of the registry, C++ and Python alike.
  static const char *const Registry[] = {
#define CAPTURE_CHECK(Kind, Name, Cpp, Python, Owns, Severity, Summary, Why,   \
                      Fix, Finds)                                              \
  Name,
#include "Checks.def"
#undef CAPTURE_CHECK
  };
  // Nothing but capture checks, whatever the glob says.
  clang::tidy::CachedGlobList Enabled("-*," + Glob.str() +
                                      ",-clang-analyzer-*,-clang-diagnostic-*");
  std::vector<std::string> Names;
  for (const char *Name : Registry)
    if (Enabled.contains(Name))
      Names.push_back(Name);
  std::sort(Names.begin(), Names.end());
  return Names;
}

} // namespace capture_lint
