//===- Runner.cpp - Running the capture checks over files -----------------===//

#include "Runner.h"

#include "capture_lint/FindingSink.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

using namespace clang;
using namespace clang::tidy;

namespace capture_lint {

namespace {

/// The compile commands capture-lint decided on, keyed by absolute path.
class CommandDatabase : public tooling::CompilationDatabase {
public:
  void add(tooling::CompileCommand C) {
    std::string Key = C.Filename;
    Commands[Key] = std::move(C);
  }
  std::vector<tooling::CompileCommand>
  getCompileCommands(StringRef File) const override {
    auto It = Commands.find(File.str());
    if (It == Commands.end())
      return {};
    return {It->second};
  }
  std::vector<std::string> getAllFiles() const override {
    std::vector<std::string> Files;
    for (const auto &C : Commands)
      Files.push_back(C.first);
    return Files;
  }

private:
  std::map<std::string, tooling::CompileCommand> Commands;
};

std::string absolutePath(StringRef Path, StringRef Base = "") {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P)) {
    llvm::SmallString<256> Full(Base);
    if (Full.empty())
      llvm::sys::fs::current_path(Full);
    llvm::sys::path::append(Full, P);
    P = Full;
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::string checksOption(StringRef Glob) {
  // Nothing but capture checks, whatever the glob says.
  return "-*," + Glob.str() + ",-clang-analyzer-*,-clang-diagnostic-*";
}

ClangTidyOptions overrideOptions(const RunConfig &Config) {
  ClangTidyOptions O;
  O.Checks = checksOption(Config.ChecksGlob);
  O.HeaderFilterRegex = ".*"; // regions in project headers count too
  O.SystemHeaders = false;
  if (!Config.Catalogs.empty()) {
    std::string List;
    for (const std::string &C : Config.Catalogs)
      List += (List.empty() ? "" : ";") + absolutePath(C);
    O.CheckOptions["CaptureCatalog"] = ClangTidyOptions::ClangTidyValue(List);
  }
  return O;
}

class RecordingSink : public FindingSink {
public:
  explicit RecordingSink(std::vector<FindingRecord> &Out) : Out(Out) {}
  void record(FindingRecord R) override { Out.push_back(std::move(R)); }

private:
  std::vector<FindingRecord> &Out;
};

/// Limits the AST traversal of the checks to declarations outside system
/// headers, as clangd does for the main file: capture regions live in user
/// code, and matching through every CUDA header costs more than the
/// analysis. Calls into system headers are catalog entries or not followed.
class UserCodeScope : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<Decl *> Scope;
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
        Scope.push_back(D);
    Ctx.setTraversalScope(Scope);
  }
};

struct FileResult {
  std::vector<ClangTidyError> Diags;
  std::vector<FindingRecord> Records;
  bool Crashed = false;
};

/// Runs clang-tidy's engine with the capture checks on one file.
void analyzeFile(const std::string &File, const CommandDatabase &DB,
                 const RunConfig &Config, FileResult &Out) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical(
      llvm::vfs::createPhysicalFileSystem().release());
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Physical);
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = checksOption("capture-*");
  ClangTidyContext Context(std::make_unique<FileOptionsProvider>(
      ClangTidyGlobalOptions(), Defaults, overrideOptions(Config), FS));

  RecordingSink Sink(Out.Records);
  FindingSink::setCurrent(&Sink);
  llvm::CrashRecoveryContext CRC;
  bool Completed = CRC.RunSafely([&] {
    tooling::ClangTool Tool(DB, {File},
                            std::make_shared<PCHContainerOperations>(), FS);
    Tool.setPrintErrorMessage(false);
    Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());
    // Without carets clang does not print "N errors generated" to stderr.
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        "-fno-caret-diagnostics", tooling::ArgumentInsertPosition::END));
    ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr, true, false);
    DiagnosticsEngine DE(new DiagnosticIDs(), new DiagnosticOptions(),
                         &DiagConsumer, /*ShouldOwnClient=*/false);
    Context.setDiagnosticsEngine(&DE);
    Tool.setDiagnosticConsumer(&DiagConsumer);

    class Factory : public tooling::FrontendActionFactory {
    public:
      Factory(ClangTidyContext &Ctx,
              llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS)
          : Consumers(Ctx, std::move(FS)) {}
      std::unique_ptr<FrontendAction> create() override {
        struct Action : ASTFrontendAction {
          ClangTidyASTConsumerFactory *F;
          explicit Action(ClangTidyASTConsumerFactory *F) : F(F) {}
          std::unique_ptr<ASTConsumer>
          CreateASTConsumer(CompilerInstance &CI, StringRef File) override {
            std::vector<std::unique_ptr<ASTConsumer>> Consumers;
            Consumers.push_back(std::make_unique<UserCodeScope>());
            Consumers.push_back(F->createASTConsumer(CI, File));
            return std::make_unique<MultiplexConsumer>(std::move(Consumers));
          }
        };
        return std::make_unique<Action>(&Consumers);
      }

    private:
      ClangTidyASTConsumerFactory Consumers;
    };
    Factory F(Context, FS);
    Tool.run(&F);
    Out.Diags = DiagConsumer.take();
  });
  FindingSink::setCurrent(nullptr);
  Out.Crashed = !Completed;
}

/// Offsets to lines and columns, reading each file once.
class SourceFiles {
public:
  ReportLocation locate(const std::string &File, unsigned Offset) {
    ReportLocation L;
    L.File = File;
    auto &Buf = Buffers[File];
    if (!Buf) {
      auto B = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
      if (!B)
        return L;
      Buf = std::move(*B);
    }
    StringRef Text = Buf->getBuffer();
    if (Offset > Text.size())
      return L;
    StringRef Before = Text.substr(0, Offset);
    L.Line = Before.count('\n') + 1;
    size_t LineStart = Before.rfind('\n');
    LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
    L.Column = Offset - LineStart + 1;
    size_t LineEnd = Text.find('\n', LineStart);
    L.LineText = Text.slice(LineStart, LineEnd).rtrim("\r").str();
    return L;
  }

private:
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Buffers;
};

} // namespace

std::vector<std::string> enabledChecks(StringRef Glob) {
  ClangTidyOptions Opts = ClangTidyOptions::getDefaults();
  Opts.Checks = checksOption(Glob);
  return getCheckNames(Opts, false);
}

Report runAnalysis(const RunConfig &Config) {
  Report R;
  CommandDatabase DB;
  std::vector<std::string> Files;

  std::unique_ptr<tooling::CompilationDatabase> Loaded;
  if (!Config.BuildDir.empty()) {
    llvm::SmallString<256> Path(Config.BuildDir);
    llvm::sys::path::append(Path, "compile_commands.json");
    if (!llvm::sys::fs::exists(Path)) {
      R.Errors.push_back({{std::string(Path)},
                          "no compile database: '" + std::string(Path) +
                              "' does not exist (generate it with "
                              "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)"});
      return R;
    }
    std::string Err;
    Loaded = tooling::JSONCompilationDatabase::loadFromFile(
        Path, Err, tooling::JSONCommandLineSyntax::AutoDetect);
    if (!Loaded) {
      R.Errors.push_back(
          {{std::string(Path)}, "cannot load the compile database: " + Err});
      return R;
    }
  }

  std::vector<std::string> Inputs = Config.Files;
  if (Inputs.empty() && Loaded)
    Inputs = Loaded->getAllFiles();
  std::set<std::string> Seen;
  for (const std::string &Input : Inputs) {
    std::string File = absolutePath(Input);
    if (!Seen.insert(File).second)
      continue;
    if (!llvm::sys::fs::is_regular_file(File)) {
      R.Errors.push_back({{File},
                          llvm::sys::fs::exists(File) ? "not a regular file"
                                                      : "no such file"});
      continue;
    }
    tooling::CompileCommand Cmd;
    Cmd.Filename = File;
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    Cmd.Directory = std::string(Cwd);
    std::vector<tooling::CompileCommand> FromDb;
    if (Loaded)
      FromDb = Loaded->getCompileCommands(File);
    if (!FromDb.empty()) {
      TranslatedCommand T =
          translateCommand(FromDb.front().CommandLine, File,
                           FromDb.front().Directory, Config.Paths);
      for (const std::string &W : T.Warnings)
        R.Warnings.push_back(File + ": " + W);
      Cmd.CommandLine = std::move(T.Args);
      Cmd.Directory = FromDb.front().Directory;
    } else if (Config.HasExplicitFlags) {
      Cmd.CommandLine =
          explicitCommand(Config.ExplicitFlags, File, Config.Paths);
    } else {
      auto Default = defaultCommand(File, Config.Paths);
      if (!Default) {
        R.Errors.push_back(
            {{File},
             "cannot tell the language of this file (expected .cu, "
             ".cuh, .hip, .cpp, .cc, .cxx, .h, .hpp); pass compile "
             "flags after '--' or use -p with a compile database"});
        continue;
      }
      if (Loaded)
        R.Warnings.push_back(File +
                             ": not in the compile database; analysed with "
                             "default flags");
      Cmd.CommandLine = std::move(*Default);
    }
    DB.add(std::move(Cmd));
    Files.push_back(File);
  }

  // Analyse in parallel; results keep the input order.
  std::vector<FileResult> Results(Files.size());
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (size_t I = Next++; I < Files.size(); I = Next++)
      analyzeFile(Files[I], DB, Config, Results[I]);
  };
  unsigned Jobs = std::max(1u, std::min<unsigned>(Config.Jobs, Files.size()));
  if (Jobs == 1) {
    Worker();
  } else {
    std::vector<std::thread> Threads;
    for (unsigned J = 0; J < Jobs; ++J)
      Threads.emplace_back(Worker);
    for (std::thread &T : Threads)
      T.join();
  }

  SourceFiles Sources;
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Dedup;
  for (size_t I = 0; I < Files.size(); ++I) {
    FileResult &FR = Results[I];
    ++R.FilesAnalyzed;
    if (FR.Crashed) {
      R.Errors.push_back({{Files[I]},
                          "capture-lint crashed while analysing this file "
                          "(an internal error: please report it with the "
                          "file); other files were analysed"});
      continue;
    }
    std::map<std::tuple<std::string, std::string, unsigned>,
             const FindingRecord *>
        ByKey;
    for (const FindingRecord &Rec : FR.Records)
      ByKey[{Rec.Check, Rec.File, Rec.Offset}] = &Rec;
    bool ParseError = false;
    for (const ClangTidyError &E : FR.Diags) {
      StringRef Name = E.DiagnosticName;
      std::string Path =
          E.Message.FilePath.empty()
              ? ""
              : absolutePath(E.Message.FilePath, E.BuildDirectory);
      if (!Name.starts_with("capture-")) {
        if (E.DiagLevel != ClangTidyError::Error)
          continue;
        ParseError = ParseError || Name.starts_with("clang-diagnostic");
        ReportError Err;
        Err.Loc = Path.empty() ? ReportLocation{Files[I]}
                               : Sources.locate(Path, E.Message.FileOffset);
        Err.Message = E.Message.Message + " [" + Name.str() + "]";
        R.Errors.push_back(std::move(Err));
        continue;
      }
      ReportFinding F;
      F.Check = Name.str();
      F.Severity = E.DiagLevel == ClangTidyError::Error    ? "error"
                   : E.DiagLevel == ClangTidyError::Remark ? "remark"
                                                           : "warning";
      F.Loc = Sources.locate(Path, E.Message.FileOffset);
      F.Offset = E.Message.FileOffset;
      F.Message = E.Message.Message;
      for (const auto &FileFix : E.Message.Fix)
        for (const tooling::Replacement &Rep : FileFix.second)
          F.Fixes.push_back({absolutePath(Rep.getFilePath(), E.BuildDirectory),
                             Rep.getOffset(), Rep.getLength(),
                             Rep.getReplacementText().str()});
      if (!Dedup.insert({F.Check, F.Loc.File, E.Message.FileOffset, F.Message})
               .second)
        continue; // the same header finding from another TU
      auto It = ByKey.find({F.Check, E.Message.FilePath, E.Message.FileOffset});
      if (It != ByKey.end()) {
        const FindingRecord &Rec = *It->second;
        F.Severity = Rec.Severity;
        F.Api = Rec.Api;
        F.HasRegion = !Rec.RegionFile.empty();
        F.RegionFile = absolutePath(Rec.RegionFile, E.BuildDirectory);
        F.RegionBeginLine = Rec.RegionBeginLine;
        F.RegionEndLine = Rec.RegionEndLine;
        F.Mode = Rec.Mode;
        F.Stream = Rec.Stream;
      }
      for (const auto &N : E.Notes) {
        ReportNote Note;
        Note.Loc = Sources.locate(absolutePath(N.FilePath, E.BuildDirectory),
                                  N.FileOffset);
        Note.Message = N.Message;
        F.Notes.push_back(std::move(Note));
      }
      R.Findings.push_back(std::move(F));
    }
    if (ParseError)
      R.Errors.push_back({{Files[I]},
                          "this file does not parse; its findings may be "
                          "incomplete (check the compile flags)"});
  }
  std::stable_sort(R.Findings.begin(), R.Findings.end(),
                   [](const ReportFinding &A, const ReportFinding &B) {
                     return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Column,
                                     A.Check) < std::tie(B.Loc.File, B.Loc.Line,
                                                         B.Loc.Column, B.Check);
                   });
  return R;
}

} // namespace capture_lint
