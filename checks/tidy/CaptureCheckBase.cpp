//===- CaptureCheckBase.cpp - Shared driver of the capture checks ---------===//

#include "CaptureCheckBase.h"
#include "FindingLevel.h"
#include "OtherFiles.h"

#include "capture_lint/AnalyzedFunctions.h"
#include "capture_lint/CaptureSettings.h"
#include "capture_lint/SilencingComments.h"
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

/// What the checks of one translation unit share: the analyzer (per catalog
/// and options), and the findings from calls into other files, joined once.
struct CaptureCheckBase::SharedUnit {
  SharedUnit(ASTContext &Ctx, const Catalog &Cat, const AnalysisOptions &Opts)
      : Analyzer(Ctx, Cat, Opts) {}
  CaptureAnalyzer Analyzer;
  std::once_flag Joined;
  std::vector<Finding> FromOtherFiles;
};

/// The unit of a translation unit, shared by the checks that run on it with
/// the same catalog and options; it lives while one of them holds it.
std::shared_ptr<CaptureCheckBase::SharedUnit>
CaptureCheckBase::sharedUnit(ASTContext &Ctx,
                             const std::shared_ptr<const Catalog> &Cat,
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
  static std::map<std::string, std::weak_ptr<SharedUnit>> Live;
  std::lock_guard<std::mutex> Guard(Lock);
  for (auto It = Live.begin(); It != Live.end();)
    It = It->second.expired() ? Live.erase(It) : std::next(It);
  if (auto Existing = Live[Key].lock())
    return Existing;
  auto Fresh = std::make_shared<SharedUnit>(Ctx, *Cat, Opts);
  Live[Key] = Fresh;
  return Fresh;
}

CaptureCheckBase::CaptureCheckBase(StringRef Name,
                                   clang::tidy::ClangTidyContext *Context,
                                   CheckKind Kind)
    : ClangTidyCheck(Name, Context), Kind(Kind) {
  const auto &Options = Context->getOptions().CheckOptions;
  Settings = readCaptureSettings(
      [&](StringRef Key) -> std::optional<std::string> {
        auto It = Options.find(Key);
        if (It == Options.end())
          return std::nullopt;
        return It->getValue().Value;
      },
      Name);
}

CaptureCheckBase::~CaptureCheckBase() = default;

void CaptureCheckBase::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CaptureCatalog", llvm::join(Settings.CatalogFiles, ";"));
  Options.store(Opts, "MaxCallDepth", Settings.Analysis.MaxCallDepth);
}

void CaptureCheckBase::registerMatchers(MatchFinder *Finder) {
  addAnalyzedFunctionMatchers(*Finder, this);
}

void CaptureCheckBase::check(const MatchFinder::MatchResult &Result) {
  if (!Cat)
    return;
  const FunctionDecl *FD = analyzedFunction(Result);
  if (!FD)
    return;
  if (!Analyzer) {
    if (PP)
      Settings.Analysis.CudaVersion = cudaVersionOf(*PP);
    if (ProgramOtherFiles) {
      Settings.Analysis.RecordExternalCalls = true;
      Settings.Analysis.Imports = ProgramOtherFiles->roles(MainFile);
    }
    Unit = sharedUnit(*Result.Context, Cat, Settings.Analysis);
    Analyzer = &Unit->Analyzer;
    SM = MutableSM = Result.SourceManager;
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
  // Null after an error, reported at the end of the file.
  MainFile = absoluteMainFile(SM, getCurrentMainFile());
  Cat = loadCatalogFor(MainFile, Settings);
}

void CaptureCheckBase::onEndOfTranslationUnit() {
  if (!Settings.Error.empty() && FileSM) {
    // An error, so that clang-tidy and clangd show it.
    diag(FileSM->getLocForStartOfFile(FileSM->getMainFileID()), "%0",
         DiagnosticIDs::Error)
        << Settings.Error;
    return;
  }
  if (!Analyzer)
    return;
  Analyzer->finish();
  emitNew();
  emitFromOtherFiles();
  Analyzer = nullptr;
  Unit.reset();
  Comments.reset();
}

void CaptureCheckBase::emitNew() {
  const std::vector<ClangFinding> &All = Analyzer->findings();
  for (; Emitted < All.size(); ++Emitted)
    if (All[Emitted].Check == Kind)
      emit(All[Emitted], *SM);
}

/// How a finding of severity \p S is shown (FindingLevel.h): remarks as
/// remarks, errors as errors where the front door says so, else warnings.
static DiagnosticIDs::Level levelOf(Severity S) {
  if (S == Severity::Remark)
    return DiagnosticIDs::Remark;
  if (S == Severity::Error && EmitFindingsAtTheirSeverity)
    return DiagnosticIDs::Error;
  return DiagnosticIDs::Warning;
}

void CaptureCheckBase::emit(const ClangFinding &F, const SourceManager &SM) {
  // The shared suppression comments, as the CLI reads them (clang-tidy's
  // own NOLINT never silences an error).
  if (!Comments)
    Comments = std::make_unique<SilencingComments>(SM);
  if (Comments->silenced(F.Loc, checkName(F.Check)))
    return;
  {
    auto D = diag(F.Loc, "%0", levelOf(F.Level)) << F.Message;
    for (const FixItHint &Fix : F.Fixes)
      D << Fix;
  }
  for (const DiagNote &N : F.Notes)
    diag(N.Loc, "%0", DiagnosticIDs::Note) << N.Message;
}

void CaptureCheckBase::emitFromOtherFiles() {
  if (!ProgramOtherFiles)
    return;
  SharedUnit &U = *Unit;
  std::call_once(U.Joined, [&] {
    llvm::ErrorOr<std::string> Cwd = SM->getFileManager()
                                         .getVirtualFileSystem()
                                         .getCurrentWorkingDirectory();
    TuSummary Live =
        summarizeTranslationUnit(U.Analyzer, Cwd ? *Cwd : std::string());
    U.FromOtherFiles = ProgramOtherFiles->findings(
        Live, MainFile, Settings.Analysis.MaxCallDepth);
  });
  for (const Finding &F : U.FromOtherFiles)
    if (F.Check == checkName(Kind))
      emit(F);
}

/// The location of \p P in \p SM, loading its file when the translation
/// unit did not (a note in another file); invalid when it cannot be.
static SourceLocation locationOf(const SourcePlace &P, SourceManager &SM) {
  auto File = SM.getFileManager().getOptionalFileRef(P.File);
  if (!File || !P.Line)
    return SourceLocation();
  FileID ID = SM.translateFile(*File);
  if (ID.isInvalid())
    ID = SM.createFileID(*File, SourceLocation(), SrcMgr::C_User);
  return SM.translateLineCol(ID, P.Line, std::max(1u, P.Column));
}

void CaptureCheckBase::emit(const Finding &F) {
  SourceLocation Loc = locationOf(F.Loc, *MutableSM);
  if (Loc.isInvalid())
    return;
  if (!Comments)
    Comments = std::make_unique<SilencingComments>(*SM);
  if (Comments->silenced(Loc, F.Check))
    return;
  diag(Loc, "%0", levelOf(F.Level)) << F.Message;
  for (const FindingNote &N : F.Notes) {
    SourceLocation At = locationOf(N.Loc, *MutableSM);
    if (At.isValid())
      diag(At, "%0", DiagnosticIDs::Note) << N.Message;
    else // a file gone since the summary was made: the place in words
      diag(Loc, "%0 (%1:%2)", DiagnosticIDs::Note)
          << N.Message << N.Loc.File << N.Loc.Line;
  }
}

} // namespace capture_lint::tidy
