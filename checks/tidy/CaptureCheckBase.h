//===- CaptureCheckBase.h - Shared driver of the capture checks -*- C++ -*-===//
//
// Every capture check hands each function definition (and lambda) of user
// code to the core analysis, which skips after a syntactic look those that
// reach no capture, and emits the findings of its own kind; regions left
// unended are reported at the end of the translation unit, once every
// function that might close them has been seen. The checks enabled on a
// translation unit share one analyzer (per catalog and options), so the
// analysis runs once however many capture checks are on. Findings are
// silenced by the same comments the CLI reads (SilencingComments.h) and
// shown at the level the front door chooses (FindingLevel.h). Where the
// front door knows the program's other files (OtherFiles.h), their roles
// go into the analysis and the calls into them are followed.
//
// Options (CaptureSettings.h), all checks: CaptureCatalog (global or local;
// extra catalog files,
// ';'-separated) and MaxCallDepth (1 to 64). An invalid value or catalog is an
// error at the top of the file, in every front door, never zero findings.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_CAPTURECHECKBASE_H
#define CAPTURE_LINT_TIDY_CAPTURECHECKBASE_H

#include "capture_lint/Analysis.h"
#include "capture_lint/CaptureSettings.h"
#include "capture_lint/Finding.h"
#include "capture_lint/SilencingComments.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace capture_lint::tidy {

class CaptureCheckBase : public clang::tidy::ClangTidyCheck {
public:
  CaptureCheckBase(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context,
                   CheckKind Kind);
  ~CaptureCheckBase() override;

  /// C++ and C alike: plain C programs capture through the runtime API too
  /// (library samples, C drivers).
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return !LangOpts.ObjC;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerPPCallbacks(const clang::SourceManager &SM,
                           clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void onEndOfTranslationUnit() override;

protected:
  CaptureSettings Settings;

private:
  struct SharedUnit;
  static std::shared_ptr<SharedUnit>
  sharedUnit(clang::ASTContext &Ctx, const std::shared_ptr<const Catalog> &Cat,
             const AnalysisOptions &Opts);

  void emit(const ClangFinding &F, const clang::SourceManager &SM);
  void emitNew();
  /// Findings from calls into other files (OtherFiles.h), of this check.
  void emitFromOtherFiles();
  void emit(const Finding &F);

  CheckKind Kind;
  const clang::SourceManager *FileSM = nullptr;
  clang::SourceManager *MutableSM = nullptr; // to load other files' notes
  std::string MainFile;
  std::shared_ptr<const Catalog> Cat;
  std::shared_ptr<SharedUnit> Unit;
  CaptureAnalyzer *Analyzer = nullptr; // Unit's
  std::unique_ptr<SilencingComments> Comments;
  const clang::SourceManager *SM = nullptr;
  const clang::Preprocessor *PP = nullptr; // for the toolkit's version
  size_t Emitted = 0;
};

} // namespace capture_lint::tidy

#endif // CAPTURE_LINT_TIDY_CAPTURECHECKBASE_H
