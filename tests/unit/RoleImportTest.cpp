//===- RoleImportTest.cpp - Roles taken from other translation units ------===//
//
// One snippet defines capture helpers and is summarised; another declares
// them only. The second finds its region only with the first's roles, and
// the records survive the cache's JSON.
//
//===----------------------------------------------------------------------===//

#include "RoleImport.h"
#include "TestAST.h"

#include "capture_lint/Analysis.h"
#include "capture_lint/Summary.h"

#include "clang/AST/ASTContext.h"
#include "gtest/gtest.h"

using namespace capture_lint;
using namespace capture_lint::test;

namespace {

const char *Helpers = R"(
void open_graph(cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
}
void close_graph(cudaStream_t s, cudaGraph_t *g) { cudaStreamEndCapture(s, g); }
bool capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  return st != cudaStreamCaptureStatusNone;
}
static void private_open(cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
}
void uses_private(cudaStream_t s) { private_open(s); }
)";

const char *User = R"(
void open_graph(cudaStream_t s);
void close_graph(cudaStream_t s, cudaGraph_t *g);
bool capturing(cudaStream_t s);
void open_graph(int); // a namesake: another USR
void step(cudaStream_t s, cudaGraph_t *g) {
  open_graph(s);
  cudaDeviceSynchronize();
  close_graph(s, g);
  cudaDeviceSynchronize();
}
void flush(cudaStream_t s) {
  open_graph(s);
  if (!capturing(s))
    cudaDeviceSynchronize();
  close_graph(s, nullptr);
}
void other(cudaStream_t s) {
  open_graph(1);
  cudaDeviceSynchronize();
}
)";

TuSummary summarize(const std::string &Code) {
  auto AST = parse(Code);
  EXPECT_TRUE(AST);
  return summarizeTranslationUnit(AST->getASTContext(), builtinCatalog(), {},
                                  "/src");
}

/// The lines of the findings the analysis of \p Code reports.
std::vector<unsigned> findingLines(const std::string &Code,
                                   std::shared_ptr<const RoleImports> Imports) {
  auto AST = parse(Code);
  EXPECT_TRUE(AST);
  AnalysisOptions Opts;
  Opts.Imports = std::move(Imports);
  clang::ASTContext &Ctx = AST->getASTContext();
  CaptureAnalyzer Analyzer(Ctx, builtinCatalog(), Opts);
  for (const char *Name : {"step", "flush", "other"})
    Analyzer.analyzeFunction(function(*AST, Name));
  Analyzer.finish();
  std::vector<unsigned> Lines;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  unsigned PreludeLines = 0;
  for (const char *C = Prelude; *C; ++C)
    PreludeLines += *C == '\n';
  for (const ClangFinding &F : Analyzer.findings())
    Lines.push_back(SM.getSpellingLineNumber(F.Loc) - PreludeLines);
  return Lines;
}

TEST(RoleImport, SummaryRecordsRolesOfExternallyVisibleFunctions) {
  TuSummary S = summarize(Helpers);
  std::map<std::string, const SummaryRole *> ByName;
  for (const SummaryRole &R : S.Roles)
    ByName[R.Name] = &R;
  ASSERT_EQ(ByName.size(), 4u); // uses_private opens through private_open
  ASSERT_TRUE(ByName["open_graph"]->Opens);
  EXPECT_EQ(ByName["open_graph"]->Opens->BeginApi, "cudaStreamBeginCapture");
  EXPECT_EQ(ByName["open_graph"]->Opens->Mode, "global");
  EXPECT_EQ(ByName["close_graph"]->Closes, "cudaStreamEndCapture");
  EXPECT_EQ(ByName["capturing"]->TrueWhenCapturing, std::optional<bool>(true));
  EXPECT_TRUE(ByName["uses_private"]->Opens);
  EXPECT_EQ(ByName.count("private_open"), 0u);
}

TEST(RoleImport, CallerFindsItsRegionOnlyWithImportedRoles) {
  TuSummary Defs = summarize(Helpers);
  TuSummary Uses = summarize(User);
  EXPECT_FALSE(Uses.Bodiless.empty());
  auto Imports = roleImportsFor({&Uses}, {&Defs, &Uses});
  ASSERT_EQ(Imports.size(), 1u);
  ASSERT_TRUE(Imports[0]);
  EXPECT_EQ(Imports[0]->size(), 3u); // open, close, capturing; not open(int)
  EXPECT_TRUE(findingLines(User, nullptr).empty());
  // The sync between open and close only: not after close, not in the
  // guarded branch, not after the namesake open_graph(int).
  EXPECT_EQ(findingLines(User, Imports[0]), std::vector<unsigned>{8});
}

TEST(RoleImport, NothingToImportIsNull) {
  TuSummary Defs = summarize(Helpers);
  TuSummary Plain = summarize("void g() { cudaDeviceSynchronize(); }");
  auto Imports = roleImportsFor({&Plain}, {&Defs});
  ASSERT_EQ(Imports.size(), 1u);
  EXPECT_FALSE(Imports[0]);
  EXPECT_EQ(importsKey(nullptr), "");
}

TEST(RoleImport, RolesSurviveJsonAndChangeTheKey) {
  TuSummary Defs = summarize(Helpers);
  TuSummary Back = tuSummaryFromJson(toJson(Defs));
  ASSERT_EQ(Back.Roles.size(), Defs.Roles.size());
  for (size_t I = 0; I < Defs.Roles.size(); ++I)
    EXPECT_EQ(toJson(Back.Roles[I]), toJson(Defs.Roles[I]));
  EXPECT_EQ(Back.Bodiless, Defs.Bodiless);

  TuSummary Uses = summarize(User);
  auto Imports = roleImportsFor({&Uses}, {&Defs});
  std::string Key = importsKey(Imports[0].get());
  RoleImports Changed = *Imports[0];
  for (auto &[Usr, Role] : Changed)
    if (Role.Name == "open_graph")
      Role.Opens->Mode = "relaxed";
  EXPECT_NE(importsKey(&Changed), Key);
  // A summary written before roles existed is malformed, not empty.
  nlohmann::json Old = toJson(Defs);
  Old.erase("roles");
  EXPECT_THROW(tuSummaryFromJson(Old), nlohmann::json::exception);
}

} // namespace
