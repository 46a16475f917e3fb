//===- CallStackTest.cpp - Chains seen before -----------------------------===//

#include "capture_probe/CallStack.h"
#include "capture_probe/InProcess.h"
#include <gtest/gtest.h>
#include <thread>

using namespace capture_probe;

namespace {

__attribute__((noinline)) std::vector<std::string> framesHere() {
  std::vector<std::string> F = captureFrames();
  asm volatile("" ::: "memory"); // keep the call a call
  return F;
}

__attribute__((noinline)) std::vector<std::string> fromSiteA() {
  std::vector<std::string> F = framesHere();
  asm volatile("" ::: "memory");
  return F;
}

__attribute__((noinline)) std::vector<std::string> fromSiteB() {
  volatile char Pad[512] = {}; // a larger frame: every outer offset moves
  std::vector<std::string> F = framesHere();
  asm volatile("" ::"r"(Pad) : "memory");
  return F;
}

__attribute__((noinline)) std::vector<std::string> atDepth(int D) {
  if (D == 0)
    return framesHere();
  std::vector<std::string> F = atDepth(D - 1);
  asm volatile("" ::: "memory");
  return F;
}

uint64_t reused() { return callStackCounts().Reused; }

} // namespace

// Each call below is made from one line in a loop: a call from another line
// is another chain (its return address differs).

TEST(CallStack, TheSameChainIsRecognisedAndGivesTheSameFrames) {
  uint64_t Before = reused();
  std::vector<std::vector<std::string>> Got;
  for (int I = 0; I < 4; ++I)
    Got.push_back(fromSiteA());
  ASSERT_FALSE(Got[0].empty());
  for (int I = 1; I < 4; ++I)
    EXPECT_EQ(Got[I], Got[0]);
#if defined(__x86_64__)
  EXPECT_EQ(reused() - Before, 3u);
#endif
}

TEST(CallStack, ADifferentCallerIsADifferentChain) {
  std::vector<std::vector<std::string>> A, B;
  for (int I = 0; I < 4; ++I) {
    A.push_back(fromSiteA());
    B.push_back(fromSiteB());
  }
  // The frames differ where the callers do, and each keeps its own.
  ASSERT_GE(A[0].size(), 3u);
  EXPECT_EQ(A[0][0], B[0][0]);
  EXPECT_NE(A[0][1], B[0][1]);
  for (int I = 1; I < 4; ++I) {
    EXPECT_EQ(A[I], A[0]);
    EXPECT_EQ(B[I], B[0]);
  }
}

TEST(CallStack, EachDepthOfARecursionIsItsOwnChain) {
  std::vector<std::vector<std::string>> Got[3];
  for (int Round = 0; Round < 3; ++Round)
    for (int D = 0; D < 6; ++D)
      Got[Round].push_back(atDepth(D));
  for (int D = 1; D < 6; ++D)
    EXPECT_EQ(Got[0][D].size(), Got[0][D - 1].size() + 1) << D;
  for (int Round = 1; Round < 3; ++Round)
    for (int D = 0; D < 6; ++D)
      EXPECT_EQ(Got[Round][D], Got[0][D]) << D;
}

TEST(CallStack, AnotherThreadHasItsOwnChains) {
  std::vector<std::vector<std::string>> Main, Other;
  auto Twice = [](std::vector<std::vector<std::string>> &Out) {
    for (int I = 0; I < 2; ++I)
      Out.push_back(fromSiteA());
  };
  Twice(Main);
  std::thread T([&] { Twice(Other); });
  T.join();
  ASSERT_GE(Other[0].size(), 2u);
  EXPECT_EQ(Other[1], Other[0]);
  EXPECT_EQ(Main[1], Main[0]);
  // The same innermost frames, then the thread's start instead of main's.
  EXPECT_EQ(Other[0][0], Main[0][0]);
  EXPECT_EQ(Other[0][1], Main[0][1]);
  EXPECT_NE(Other[0], Main[0]);
}

TEST(CallStack, MoreChainsThanAreKeptStillGiveTheirOwnFrames) {
  // More depths than a thread keeps shapes for: old shapes are replaced,
  // none is confused with another.
  std::vector<std::vector<std::string>> Got[2];
  for (int Round = 0; Round < 2; ++Round)
    for (int D = 0; D < 40; ++D)
      Got[Round].push_back(atDepth(D));
  for (int D = 0; D < 40; ++D)
    EXPECT_EQ(Got[1][D], Got[0][D]) << D;
}

// The first capture begun at a call chain keeps its clean calls' stacks
// while it lasts; a later capture begun at the same chain does not, one at
// another chain does.
TEST(FirstCaptures, OnlyTheFirstCaptureAtAChainKeepsCleanStacks) {
  FirstCaptures First;
  EXPECT_FALSE(First.any());
  First.begin(10, {"app+0x10", "app+0x20"});
  EXPECT_TRUE(First.any());
  First.end(10);
  EXPECT_FALSE(First.any());
  First.begin(11, {"app+0x10", "app+0x20"}); // the same chain again
  EXPECT_FALSE(First.any());
  First.end(11);
  First.begin(12, {"app+0x30", "app+0x20"}); // another chain
  EXPECT_TRUE(First.any());
}

TEST(ActiveCaptures, ListsTheStreamsNowCapturing) {
  ActiveCaptures Active;
  EXPECT_TRUE(Active.streams().empty());
  Active.begin(10);
  Active.begin(20);
  EXPECT_EQ(Active.streams(), (std::vector<uint64_t>{10, 20}));
  EXPECT_TRUE(Active.end(10));
  EXPECT_FALSE(Active.end(10));
  EXPECT_EQ(Active.streams(), (std::vector<uint64_t>{20}));
}
