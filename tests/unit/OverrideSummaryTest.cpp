//===- OverrideSummaryTest.cpp - Virtual calls in whole-program summaries -===//
//
// A summary lists what each method overrides and records each virtual call
// with the overrides its own TU followed, and both survive the cache's JSON.
//
//===----------------------------------------------------------------------===//

#include "TestAST.h"

#include "capture_lint/Summary.h"

#include "clang/AST/ASTContext.h"
#include "gtest/gtest.h"

#include <algorithm>

using namespace capture_lint;
using namespace capture_lint::test;

namespace {

const char *Code = R"(
struct Layer {
  virtual ~Layer() {}
  virtual void forward(cudaStream_t s) = 0;
};
struct Visible : Layer {
  void forward(cudaStream_t s) override;
};
struct Local : Layer {
  void forward(cudaStream_t s) override { cudaStreamSynchronize(s); }
};
void step(Layer *l, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  l->forward(s);
  cudaStreamEndCapture(s, g);
}
)";

TuSummary summarize() {
  auto AST = parse(Code);
  EXPECT_TRUE(AST);
  return summarizeTranslationUnit(AST->getASTContext(), builtinCatalog(), {},
                                  "/src");
}

const SummaryFunction *named(const TuSummary &S, llvm::StringRef Name) {
  for (const SummaryFunction &F : S.Functions)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

} // namespace

TEST(OverrideSummary, AnOverrideDefinedInItsClassHereIsSummarised) {
  TuSummary S = summarize();
  const SummaryFunction *Local = named(S, "Local::forward");
  ASSERT_TRUE(Local);
  ASSERT_EQ(Local->Overrides.size(), 1u);
  EXPECT_NE(Local->Overrides[0].find("Layer@F@forward"), std::string::npos)
      << Local->Overrides[0];
}

TEST(OverrideSummary, AVirtualCallRecordsTheOverridesItsTuFollowed) {
  TuSummary S = summarize();
  const SummaryUse *Virtual = nullptr;
  for (const SummaryUse &U : S.Uses)
    if (U.Call.Kind == "overrides")
      Virtual = &U;
  ASSERT_TRUE(Virtual);
  EXPECT_EQ(Virtual->Call.Api, "Layer::forward");
  auto Has = [&](llvm::StringRef Class) {
    return std::any_of(Virtual->Call.Followed.begin(),
                       Virtual->Call.Followed.end(),
                       [&](const std::string &Usr) {
                         return llvm::StringRef(Usr).contains(
                             ("@S@" + Class + "@F@forward").str());
                       });
  };
  EXPECT_TRUE(Has("Visible"));
  EXPECT_TRUE(Has("Local"));
  // The visible override without a body goes to the global phase by name.
  EXPECT_TRUE(
      std::any_of(S.Uses.begin(), S.Uses.end(), [](const SummaryUse &U) {
        return U.Call.Kind == "external" && U.Call.Api == "Visible::forward";
      }));
}

TEST(OverrideSummary, OverridesAndFollowedSurviveJson) {
  TuSummary S = summarize();
  TuSummary Back = tuSummaryFromJson(toJson(S));
  EXPECT_EQ(toJson(Back), toJson(S));
  const SummaryFunction *Local = named(Back, "Local::forward");
  ASSERT_TRUE(Local);
  EXPECT_EQ(Local->Overrides, named(S, "Local::forward")->Overrides);
}
