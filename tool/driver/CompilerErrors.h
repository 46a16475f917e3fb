//===- CompilerErrors.h - The compiler's errors on one TU -------*- C++ -*-===//
//
// Collects the errors clang reports while parsing a translation unit, named
// as clang-tidy names them (`clang-diagnostic-error`, or the warning's
// option for a warning made an error), at their expansion location.
// Warnings and notes are dropped: the run reports only what stops it.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_COMPILERERRORS_H
#define CAPTURE_LINT_TOOL_COMPILERERRORS_H

#include "clang/Basic/Diagnostic.h"

#include <string>
#include <vector>

namespace capture_lint {

struct CompilerError {
  std::string Name;    // clang-diagnostic-error
  std::string Message; // as clang formats it
  std::string File;    // as the compiler opened it; empty for none
  unsigned Offset = 0;
};

class CompilerErrors : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  std::vector<CompilerError> take() { return std::move(Errors); }

private:
  std::vector<CompilerError> Errors;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_COMPILERERRORS_H
