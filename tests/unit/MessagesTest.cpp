//===- MessagesTest.cpp - Every catalog entry's message, in every mode ----===//
//
// Renders what capture-lint says of each catalog API in each capture mode
// (directly and through a call) and fails on a message that contradicts
// itself or breaks its sentence (issue 14, item 5): a behaviour is told
// once, and "fails with" is followed by an error, not by a sentence.
//
//===----------------------------------------------------------------------===//

#include "capture_lint/Analysis.h"
#include "capture_lint/Catalog.h"
#include "capture_lint/RegionFinder.h"

#include "llvm/ADT/StringRef.h"
#include "gtest/gtest.h"

#include <regex>

using namespace capture_lint;

namespace {

/// The problems of one rendered message, or "" when it reads well.
std::string problemsOf(const std::string &M) {
  llvm::StringRef S(M);
  std::string Out;
  auto Flag = [&](bool Bad, const char *What) {
    if (Bad)
      Out += std::string(Out.empty() ? "" : "; ") + What;
  };
  Flag(S.count("invalidates the capture") > 1, "invalidation told twice");
  Flag(S.contains("missing from the graph and invalidates"),
       "'missing from the graph' and 'invalidates' in one clause");
  Flag(S.contains("poisoned and invalidates"),
       "'poisoned' and 'invalidates' in one clause");
  Flag(std::regex_search(M, std::regex("fails with [^:;,]* refuses")),
       "'fails with' followed by a sentence");
  Flag(S.contains(" ,") || S.contains(",,") || S.contains(";;") ||
           S.contains("  "),
       "broken punctuation or spacing");
  Flag(S.contains(": :") || S.ends_with(":") || S.ends_with(";"),
       "dangling separator");
  return Out;
}

TEST(Messages, EveryCatalogEntryReadsWellInEveryMode) {
  Catalog C;
  C.addBuiltin();
  const RegionApi *Begin = C.findRegionApi("cudaStreamBeginCapture");
  ASSERT_TRUE(Begin);
  unsigned Rendered = 0;
  std::string Failures;
  for (const auto &E : C.apis()) {
    for (CaptureMode Mode : {CaptureMode::Global, CaptureMode::ThreadLocal,
                             CaptureMode::Relaxed, CaptureMode::Unknown}) {
      CaptureRegion R;
      R.Api = Begin;
      R.Mode = Mode;
      R.Stream = "s";
      RawHazard H;
      H.Kind = RawHazard::ApiCall;
      H.Entry = E.get();
      H.Api = E->Display;
      for (llvm::StringRef Via : {llvm::StringRef(), llvm::StringRef("f")}) {
        auto T = describeHazard(H, R, Via, Via.empty() ? "" : "a.cu:3");
        if (!T)
          continue;
        ++Rendered;
        std::string P = problemsOf(T->Message);
        if (!P.empty())
          Failures += E->Name + " (" + std::string(modeName(Mode)) + "): " + P +
                      "\n  " + T->Message + "\n";
      }
    }
  }
  EXPECT_GT(Rendered, 400u);
  EXPECT_EQ(Failures, "");
}

} // namespace
