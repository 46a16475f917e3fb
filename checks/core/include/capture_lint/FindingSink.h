//===- FindingSink.h - Structured findings for the CLI ----------*- C++ -*-===//
//
// clang-tidy's diagnostics carry text, a location and notes. The CLI's JSON
// and SARIF output also want the offending API and the region (its lines,
// mode and stream). The checks therefore hand each finding they emit to the
// sink installed on the current thread, if any; the CLI installs one per
// worker thread and joins the records with clang-tidy's diagnostics by
// (check, file, offset). The clang-tidy plugin and clangd install none.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_FINDINGSINK_H
#define CAPTURE_LINT_FINDINGSINK_H

#include <string>

namespace capture_lint {

struct FindingRecord {
  std::string Check;
  std::string File; // as clang-tidy names it (SourceManager::getFilename)
  unsigned Offset = 0;
  /// The diagnostic's text: several findings can share a location (calls
  /// reached through one call in the region), the message tells them apart.
  std::string Message;
  std::string Api;
  std::string Severity;
  std::string RegionFile;
  unsigned RegionBeginLine = 0;
  unsigned RegionEndLine = 0; // 0: not ended in the function
  std::string Mode;
  std::string Stream;
};

class FindingSink {
public:
  virtual ~FindingSink() = default;
  virtual void record(FindingRecord R) = 0;

  /// The sink of the calling thread, or null.
  static FindingSink *current();
  /// Installs \p S for the calling thread (null to remove).
  static void setCurrent(FindingSink *S);
};

} // namespace capture_lint

#endif // CAPTURE_LINT_FINDINGSINK_H
