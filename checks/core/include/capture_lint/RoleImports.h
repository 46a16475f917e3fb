//===- RoleImports.h - Roles of functions other files define ----*- C++ -*-===//
//
// A function defined in another translation unit has no body here, so its
// role (FunctionRoles.h: opener, closer, wrapper, capture predicate) cannot
// be computed from one. Each TU's summary (Summary.h) records the roles of
// the functions it defines and the bodiless functions it calls; the
// whole-program run (tool/driver/Runner.cpp) hands a TU the roles its calls
// need and analyses it again. RoleAnalyzer then answers for those bodiless
// functions from these records, matched by USR.
//
// Locations are absolute paths and offsets, as everywhere in summaries.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_ROLEIMPORTS_H
#define CAPTURE_LINT_ROLEIMPORTS_H

#include "capture_lint/Finding.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace capture_lint {

struct SummaryLoc {
  std::string File; // absolute
  unsigned Offset = 0;
  bool valid() const { return !File.empty(); }
};

struct SummaryNote {
  SummaryLoc Loc;
  std::string Message;
};

/// An OpenedCapture without the AST.
struct SummaryCapture {
  std::string BeginApi; // the catalog begin call at the bottom
  std::string Mode;     // global, thread_local, relaxed, unknown
  std::string Stream;   // as written at the begin call
  SummaryLoc BeginLoc;
  std::vector<SummaryNote> Chain; // from the function down to the begin
};

struct SummaryWrap {
  unsigned Index = 0;
  SummaryCapture Capture;
  SummaryLoc InvokeLoc;
};

/// What a call to a function does to captures, computed from its body in
/// the TU that defines it.
struct SummaryRole {
  std::string Usr, Name;
  std::optional<SummaryCapture> Opens;
  std::string Closes; // the catalog end call at the bottom ("" for none)
  bool LaunchesGraph = false; // a closer that launches the graph it ended
  std::vector<SummaryWrap> Wraps;
  std::optional<bool> TrueWhenCapturing;
  bool PausesAndResumes = false;
  /// The line, column and text of its locations, when it was read from a
  /// summary file: where the defining file is absent (a sandboxed build
  /// action), its notes still point into it (ImportedRole.cpp). Not part
  /// of the role's JSON.
  std::vector<SourcePlace> Places;
};

/// The roles one analysis imports, by USR.
using RoleImports = std::map<std::string, SummaryRole>;

} // namespace capture_lint

#endif // CAPTURE_LINT_ROLEIMPORTS_H
