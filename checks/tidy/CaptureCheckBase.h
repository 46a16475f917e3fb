//===- CaptureCheckBase.h - Shared driver of the capture checks -*- C++ -*-===//
//
// Every capture check finds the functions that begin a capture region (a
// matcher on the catalog's begin calls), runs the core analysis on them, and
// emits the findings of its own kind. The analysis is cheap next to parsing
// (it only builds CFGs for functions that begin a capture and for what they
// call), so each check runs its own instance.
//
// Options (all checks): CaptureCatalog (global or local; extra catalog files,
// ';'-separated) and MaxCallDepth.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_CAPTURECHECKBASE_H
#define CAPTURE_LINT_TIDY_CAPTURECHECKBASE_H

#include "capture_lint/Analysis.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace capture_lint::tidy {

class CaptureCheckBase : public clang::tidy::ClangTidyCheck {
public:
  CaptureCheckBase(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context,
                   CheckKind Kind);
  ~CaptureCheckBase() override;

  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

protected:
  AnalysisOptions Analysis;

private:
  void emit(const Finding &F, const clang::SourceManager &SM);

  CheckKind Kind;
  std::string CatalogOption;
  std::shared_ptr<const Catalog> Cat;
  std::unique_ptr<CaptureAnalyzer> Analyzer;
  std::vector<std::string> BeginNames; // the matcher refers to these
  size_t Emitted = 0;
};

} // namespace capture_lint::tidy

#endif // CAPTURE_LINT_TIDY_CAPTURECHECKBASE_H
