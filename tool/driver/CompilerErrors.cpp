//===- CompilerErrors.cpp - The compiler's errors on one TU ---------------===//

#include "CompilerErrors.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"

namespace capture_lint {

void CompilerErrors::HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                                      const clang::Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info); // counts them
  if (Level < clang::DiagnosticsEngine::Error)
    return;
  CompilerError E;
  llvm::StringRef Option =
      clang::DiagnosticIDs::getWarningOptionForDiag(Info.getID());
  E.Name = Option.empty() ? "clang-diagnostic-error"
                          : ("clang-diagnostic-" + Option).str();
  llvm::SmallString<256> Text;
  Info.FormatDiagnostic(Text);
  E.Message = std::string(Text);
  if (Info.hasSourceManager() && Info.getLocation().isValid()) {
    const clang::SourceManager &SM = Info.getSourceManager();
    clang::SourceLocation Loc = SM.getFileLoc(Info.getLocation());
    E.File = SM.getFilename(Loc).str();
    E.Offset = SM.getFileOffset(Loc);
  }
  Errors.push_back(std::move(E));
}

} // namespace capture_lint
