//===- UnitAnalysis.cpp - One translation unit, one analysis --------------===//

#include "UnitAnalysis.h"
#include "CompilerErrors.h"
#include "Paths.h"
#include "UnitFindings.h"

#include "capture_lint/AnalyzedFunctions.h"
#include "capture_lint/ToolkitVersion.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
#include <tuple>

using namespace clang;
using namespace clang::ast_matchers;

namespace capture_lint {

namespace {

/// The files a TU read, as the compiler read them (their identity and the
/// hash of the text the findings are about).
void recordSourceFiles(const SourceManager &SM, llvm::StringRef Directory,
                       FileSnapshots &Out) {
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    FileSnapshot S;
    S.Id = It->first.getUniqueID();
    S.MTime = It->first.getModificationTime();
    if (auto Buffer = It->second->getBufferIfLoaded())
      S.Hash = contentHash(Buffer->getBuffer());
    recordSnapshot(Out, absolutePath(It->first.getName(), Directory), S);
  }
}

/// Sorts \p Items by \p Key (stably) and keeps one of each key: clang-tidy's
/// order for diagnostics, (file, offset, name, message).
template <typename T, typename KeyFn>
void sortOnce(std::vector<T> &Items, KeyFn Key) {
  std::stable_sort(Items.begin(), Items.end(),
                   [&](const T &A, const T &B) { return Key(A) < Key(B); });
  Items.erase(
      std::unique(Items.begin(), Items.end(),
                  [&](const T &A, const T &B) { return Key(A) == Key(B); }),
      Items.end());
}

/// Limits the traversal to declarations outside system headers, as clangd
/// does for the main file: capture regions live in user code, and matching
/// through every CUDA header costs more than the analysis. Calls into
/// system headers are catalog entries or not followed.
void limitToUserCode(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> Scope;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      Scope.push_back(D);
  Ctx.setTraversalScope(Scope);
}

/// Hands each analysed function (AnalyzedFunctions.h) to the analyzer.
class FunctionFeeder : public MatchFinder::MatchCallback {
public:
  explicit FunctionFeeder(CaptureAnalyzer &Analyzer) : Analyzer(Analyzer) {}
  void run(const MatchFinder::MatchResult &Result) override {
    if (const FunctionDecl *FD = analyzedFunction(Result))
      Analyzer.analyzeFunction(FD);
  }

private:
  CaptureAnalyzer &Analyzer;
};

/// What one TU's action reads and writes: its settings, the compile
/// command's directory, the reader of source lines, the result.
struct UnitRun {
  const UnitSettings &Settings;
  std::string Directory;
  SourceFiles &Sources;
  UnitAnalysis &Out;
};

class UnitConsumer : public ASTConsumer {
public:
  UnitConsumer(const UnitRun &Run, const Preprocessor &PP)
      : Settings(Run.Settings), Directory(Run.Directory), Sources(Run.Sources),
        Out(Run.Out), PP(PP) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    recordSourceFiles(SM, Directory, Out.Deps);
    if (!Settings.Settings.Error.empty()) {
      // The configuration is wrong: say so at the top of the file, never
      // "0 findings".
      OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
      SourcePlace At;
      if (Main)
        At = Sources.locate(absolutePath(Main->getName(), Directory), 0);
      Out.Errors.push_back({At, Settings.Settings.Error});
      return;
    }
    if (!Settings.Cat || Ctx.getLangOpts().ObjC)
      return;
    limitToUserCode(Ctx);
    AnalysisOptions Opts = Settings.Settings.Analysis;
    Opts.CudaVersion = cudaVersionOf(PP);
    Opts.RecordExternalCalls = Settings.Summarize;
    Opts.Imports = Settings.Imports;
    CaptureAnalyzer Analyzer(Ctx, *Settings.Cat, Opts);
    FunctionFeeder Feeder(Analyzer);
    MatchFinder Finder;
    addAnalyzedFunctionMatchers(Finder, &Feeder);
    Finder.matchAST(Ctx);
    if (Settings.Summarize)
      Out.Summary = summarizeTranslationUnit(Analyzer, Directory);
    Analyzer.finish();
    report(Analyzer.findings(), SM, Ctx.getLangOpts());
  }

private:
  /// The findings of the enabled checks, once each, in clang-tidy's order
  /// (file, offset, check, message).
  void report(const std::vector<ClangFinding> &Found, const SourceManager &SM,
              const LangOptions &LO) {
    UnitFindings Convert(SM, LO, Directory, Sources);
    std::vector<ReportFinding> Kept;
    for (const ClangFinding &F : Found)
      if (Settings.Enabled.count(checkName(F.Check).str()))
        if (auto R = Convert.convert(F))
          Kept.push_back(std::move(*R));
    sortOnce(Kept, [](const ReportFinding &F) {
      return std::tie(F.Loc.File, F.Loc.Offset, F.Check, F.Message);
    });
    Out.Findings = std::move(Kept);
    for (ReportError &E : Convert.suppressionProblems())
      Out.Errors.push_back(std::move(E));
  }

  const UnitSettings &Settings;
  const std::string &Directory;
  SourceFiles &Sources;
  UnitAnalysis &Out;
  const Preprocessor &PP;
};

class UnitAction : public ASTFrontendAction {
public:
  explicit UnitAction(const UnitRun &Run) : Run(Run) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<UnitConsumer>(Run, CI.getPreprocessor());
  }

private:
  const UnitRun &Run;
};

class UnitActionFactory : public tooling::FrontendActionFactory {
public:
  explicit UnitActionFactory(const UnitRun &Run) : Run(Run) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<UnitAction>(Run);
  }

private:
  const UnitRun &Run;
};

} // namespace

void analyzeUnit(const std::string &File,
                 const tooling::CompilationDatabase &DB,
                 const UnitSettings &Settings, SourceFiles &Sources,
                 UnitAnalysis &Out) {
  // A file system with its own working directory: the process's is not
  // changed (workers run in parallel, and the report names files relative
  // to it).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical(
      llvm::vfs::createPhysicalFileSystem().release());
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Physical);
  tooling::ClangTool Tool(DB, {File},
                          std::make_shared<PCHContainerOperations>(), FS);
  Tool.setPrintErrorMessage(false);
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());
  // Without carets clang does not print "N errors generated" to stderr.
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      "-fno-caret-diagnostics", tooling::ArgumentInsertPosition::END));
  CompilerErrors Errors;
  Tool.setDiagnosticConsumer(&Errors);
  UnitRun Run{Settings, DB.getCompileCommands(File).front().Directory, Sources,
              Out};
  UnitActionFactory Factory(Run);
  Tool.run(&Factory);
  // In clang-tidy's order (file, offset, name, message), once each.
  std::vector<CompilerError> Found = Errors.take();
  sortOnce(Found, [](const CompilerError &E) {
    return std::tie(E.File, E.Offset, E.Name, E.Message);
  });
  for (CompilerError &E : Found) {
    Out.ParseError = true;
    ReportError R;
    R.Loc = E.File.empty()
                ? SourcePlace{File}
                : Sources.locate(absolutePath(E.File, Run.Directory), E.Offset);
    R.Message = E.Message + " [" + E.Name + "]";
    Out.Errors.push_back(std::move(R));
  }
}

} // namespace capture_lint
