//===- Finding.h - A finding, as both analyses report it --------*- C++ -*-===//
//
// What the C++ and the Python analysis hand the driver and the outputs: a
// finding with plain locations (file, offset, line, column, the line's
// text), its check, severity and message (Message.h), the call in the
// region that reaches the hazard and where the hazard itself is, the notes
// that chain from the region down to it, the region, and mechanical fixes.
// The C++ analysis makes one from its clang-located findings
// (tool/driver/UnitFindings.cpp), the Python one directly. No LLVM or
// tree-sitter types.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_FINDING_H
#define CAPTURE_LINT_FINDING_H

#include "capture_lint/Message.h"

#include <string>
#include <vector>

namespace capture_lint {

/// A place in a source file.
struct SourcePlace {
  std::string File; // absolute
  unsigned Offset = 0, Line = 0, Column = 0;
  std::string LineText; // the source line, for carets
};

struct FindingNote {
  SourcePlace Loc;
  std::string Message;
};

/// One text replacement of a fix.
struct TextEdit {
  std::string File; // absolute
  unsigned Offset = 0, Length = 0;
  std::string Text;
};

struct Finding {
  std::string Check; // the registry's name: "capture-sync-call", ...
  Severity Level = Severity::Warning;
  SourcePlace Loc; // where it is reported: the hazard, or the call reaching it
  std::string Message;
  std::string Api; // the offending API ("cudaMalloc", "x.item()", ...)
  /// The function called at Loc that reaches the hazard; empty when the
  /// hazard is at Loc.
  std::string Via;
  /// Where the hazard itself is (Loc when Via is empty).
  SourcePlace HazardLoc;
  std::vector<FindingNote> Notes; // the chain of calls, then the region's
  bool HasRegion = false;
  std::string RegionFile;
  unsigned RegionBeginLine = 0, RegionEndLine = 0;
  std::string Mode, Stream; // the region's capture mode and stream
  std::vector<TextEdit> Fixes;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_FINDING_H
