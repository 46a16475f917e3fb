//===- CaptureCheckBase.cpp - Shared driver of the capture checks ---------===//

#include "CaptureCheckBase.h"

#include "capture_lint/FindingSink.h"
#include "capture_lint/ProjectConfig.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace capture_lint::tidy {

CaptureCheckBase::CaptureCheckBase(StringRef Name,
                                   clang::tidy::ClangTidyContext *Context,
                                   CheckKind Kind)
    : ClangTidyCheck(Name, Context), Kind(Kind),
      CatalogOption(Options.getLocalOrGlobal("CaptureCatalog", "")) {
  Analysis.MaxCallDepth = Options.getLocalOrGlobal("MaxCallDepth", 8u);
}

CaptureCheckBase::~CaptureCheckBase() = default;

void CaptureCheckBase::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CaptureCatalog", CatalogOption);
  Options.store(Opts, "MaxCallDepth", Analysis.MaxCallDepth);
}

void CaptureCheckBase::registerMatchers(MatchFinder *Finder) {
  auto Loaded =
      effectiveCatalog(getCurrentMainFile(), splitCatalogList(CatalogOption));
  if (!Loaded) {
    configurationDiag("%0") << llvm::toString(Loaded.takeError());
    return;
  }
  Cat = *Loaded;
  // Every function definition outside system headers: regions begin in
  // functions that call the catalog's begin calls, openers, RAII guards and
  // wrappers, or that are declared to run under capture. The analyzer
  // rejects the others after a syntactic look.
  Finder->addMatcher(
      functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("function"),
      this);
  Finder->addMatcher(
      lambdaExpr(unless(isExpansionInSystemHeader())).bind("lambda"), this);
}

void CaptureCheckBase::check(const MatchFinder::MatchResult &Result) {
  if (!Cat)
    return;
  const FunctionDecl *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (const auto *L = Result.Nodes.getNodeAs<LambdaExpr>("lambda"))
    FD = L->getCallOperator();
  if (!FD)
    return;
  if (!Analyzer) {
    Analyzer =
        std::make_unique<CaptureAnalyzer>(*Result.Context, *Cat, Analysis);
    SM = Result.SourceManager;
  }
  Analyzer->analyzeFunction(FD);
  emitNew();
}

void CaptureCheckBase::onEndOfTranslationUnit() {
  if (!Analyzer)
    return;
  Analyzer->finish();
  emitNew();
  Analyzer.reset();
}

void CaptureCheckBase::emitNew() {
  const std::vector<Finding> &All = Analyzer->findings();
  for (; Emitted < All.size(); ++Emitted)
    if (All[Emitted].Check == Kind)
      emit(All[Emitted], *SM);
}

void CaptureCheckBase::emit(const Finding &F, const SourceManager &SM) {
  // clang-tidy never lets NOLINT suppress an error-level diagnostic, so
  // errors are emitted as warnings; the CLI reports the real severity from
  // the FindingRecord.
  DiagnosticIDs::Level Level = F.Level == Severity::Remark
                                   ? DiagnosticIDs::Remark
                                   : DiagnosticIDs::Warning;
  {
    auto D = diag(F.Loc, "%0", Level) << F.Message;
    for (const FixItHint &Fix : F.Fixes)
      D << Fix;
  }
  for (const DiagNote &N : F.Notes)
    diag(N.Loc, "%0", DiagnosticIDs::Note) << N.Message;

  if (FindingSink *Sink = FindingSink::current()) {
    FindingRecord R;
    R.Check = checkName(F.Check).str();
    R.File = SM.getFilename(F.Loc).str();
    R.Offset = SM.getFileOffset(F.Loc);
    R.Api = F.Api;
    R.Severity = severityName(F.Level).str();
    if (F.RegionBegin.isValid()) {
      R.RegionFile = SM.getFilename(F.RegionBegin).str();
      R.RegionBeginLine = SM.getSpellingLineNumber(F.RegionBegin);
    }
    if (F.RegionEnd.isValid())
      R.RegionEndLine = SM.getSpellingLineNumber(F.RegionEnd);
    R.Mode = modeName(F.Mode).str();
    R.Stream = F.Stream;
    Sink->record(std::move(R));
  }
}

} // namespace capture_lint::tidy
