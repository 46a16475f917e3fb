//===- CaptureCheckBase.cpp - Shared driver of the capture checks ---------===//

#include "CaptureCheckBase.h"

#include "capture_lint/FindingSink.h"
#include "capture_lint/ProjectConfig.h"
#include "capture_lint/ToolkitVersion.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <mutex>

using namespace clang;
using namespace clang::ast_matchers;

namespace capture_lint::tidy {

/// The analyzer of a translation unit, shared by the checks that run on it
/// with the same catalog and options; it lives while one of them holds it.
static std::shared_ptr<CaptureAnalyzer>
sharedAnalyzer(ASTContext &Ctx, const std::shared_ptr<const Catalog> &Cat,
               const AnalysisOptions &Opts) {
  std::string Key =
      std::to_string(reinterpret_cast<uintptr_t>(&Ctx)) + "|" +
      std::to_string(reinterpret_cast<uintptr_t>(Cat.get())) + "|" +
      std::to_string(Opts.MaxCallDepth) + "|" +
      llvm::join(Opts.ShapeFunctions, ";") + "|" +
      llvm::join(Opts.TensorClasses, ";") + "|" +
      std::to_string(Opts.CudaVersion.value_or(0)) + "|" +
      std::to_string(reinterpret_cast<uintptr_t>(Opts.Imports.get()));
  static std::mutex Lock;
  static std::map<std::string, std::weak_ptr<CaptureAnalyzer>> Live;
  std::lock_guard<std::mutex> Guard(Lock);
  for (auto It = Live.begin(); It != Live.end();)
    It = It->second.expired() ? Live.erase(It) : std::next(It);
  if (auto Existing = Live[Key].lock())
    return Existing;
  auto Fresh = std::make_shared<CaptureAnalyzer>(Ctx, *Cat, Opts);
  Live[Key] = Fresh;
  return Fresh;
}

CaptureCheckBase::CaptureCheckBase(StringRef Name,
                                   clang::tidy::ClangTidyContext *Context,
                                   CheckKind Kind)
    : ClangTidyCheck(Name, Context), Kind(Kind),
      CatalogOption(Options.getLocalOrGlobal("CaptureCatalog", "")) {
  std::string Depth = Options.getLocalOrGlobal("MaxCallDepth", "8").str();
  unsigned N = 0;
  if (StringRef(Depth).trim().getAsInteger(10, N) || N == 0 || N > 64)
    ConfigError = "invalid MaxCallDepth '" + Depth +
                  "' in the clang-tidy configuration: expected a number "
                  "between 1 and 64; the capture checks did not run";
  else
    Analysis.MaxCallDepth = N;
}

CaptureCheckBase::~CaptureCheckBase() = default;

void CaptureCheckBase::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CaptureCatalog", CatalogOption);
  Options.store(Opts, "MaxCallDepth", Analysis.MaxCallDepth);
}

void CaptureCheckBase::registerMatchers(MatchFinder *Finder) {
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
    if (PP)
      Analysis.CudaVersion = cudaVersionOf(*PP);
    Analysis.Imports = currentRoleImports(); // whole-program CLI runs only
    Analyzer = sharedAnalyzer(*Result.Context, Cat, Analysis);
    SM = Result.SourceManager;
  }
  Analyzer->analyzeFunction(FD);
  emitNew();
}

/// The main file's absolute path: a compile database's `"file":
/// "../src/a.cu"` is relative to the command's directory, which is the
/// file manager's working directory, not the process's.
static std::string absoluteMainFile(const SourceManager &SM,
                                    StringRef Fallback) {
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  llvm::SmallString<256> Path(Main ? Main->getName() : Fallback);
  SM.getFileManager().makeAbsolutePath(Path);
  return std::string(Path);
}

void CaptureCheckBase::registerPPCallbacks(const SourceManager &SM,
                                           Preprocessor *P, Preprocessor *) {
  FileSM = &SM;
  PP = P; // for the toolkit's version
  // The catalog: the nearest .capture-lint.json above the file, and the
  // CaptureCatalog option's files.
  auto Loaded = effectiveCatalog(absoluteMainFile(SM, getCurrentMainFile()),
                                 splitCatalogList(CatalogOption));
  if (!Loaded && ConfigError.empty())
    ConfigError =
        "invalid capture catalog: " + llvm::toString(Loaded.takeError()) +
        "; the capture checks did not run";
  else if (!Loaded)
    llvm::consumeError(Loaded.takeError());
  if (ConfigError.empty())
    Cat = *Loaded;
}

void CaptureCheckBase::onEndOfTranslationUnit() {
  if (!ConfigError.empty() && FileSM) {
    // An error, so the CLI exits 2 and clang-tidy and clangd show it.
    diag(FileSM->getLocForStartOfFile(FileSM->getMainFileID()), "%0",
         DiagnosticIDs::Error)
        << ConfigError;
    return;
  }
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
    R.Message = F.Message;
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
