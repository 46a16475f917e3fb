//===- SuppressionsTest.cpp - The shared suppression parser ---------------===//

#include "capture_lint/Suppressions.h"

#include <gtest/gtest.h>

using capture_lint::Suppressions;

TEST(Suppressions, CppCommentsEveryDirective) {
  Suppressions S("cudaDeviceSynchronize(); // NOLINT(capture-sync-call)\n" // 1
                 "// NOLINTNEXTLINE(capture-*)\n"                          // 2
                 "cudaMalloc(&p, 4);\n"                                    // 3
                 "// NOLINTBEGIN\n"                                        // 4
                 "a(); // NOLINTBEGIN(capture-allocation)\n"               // 5
                 "b();\n"                                                  // 6
                 "c(); // NOLINTEND(capture-allocation)\n"                 // 7
                 "// NOLINTEND\n"                                          // 8
                 "d(); // NOLINT\n"                                        // 9
                 "e(); // a comment, no directive\n",                      // 10
                 "//");
  EXPECT_TRUE(S.suppressed(1, "capture-sync-call"));
  EXPECT_FALSE(S.suppressed(1, "capture-allocation"));
  EXPECT_FALSE(S.suppressed(2, "capture-allocation"));
  EXPECT_TRUE(S.suppressed(3, "capture-allocation"));
  for (unsigned Line = 4; Line <= 8; ++Line)
    EXPECT_TRUE(S.suppressed(Line, "capture-host-read")) << Line;
  EXPECT_TRUE(S.suppressed(9, "capture-legacy-stream"));
  EXPECT_FALSE(S.suppressed(10, "capture-sync-call"));
  EXPECT_TRUE(S.problems().empty());
}

TEST(Suppressions, UnmatchedRangesSilenceNothingAndAreReported) {
  Suppressions S("x = 1  # NOLINTEND(capture-sync-call)\n"
                 "# NOLINTBEGIN(capture-host-read)\n"
                 "y = t.item()\n",
                 "#");
  EXPECT_FALSE(S.suppressed(3, "capture-host-read"));
  ASSERT_EQ(S.problems().size(), 2u);
  EXPECT_EQ(S.problems()[0].Line, 1u);
  EXPECT_NE(S.problems()[0].Message.find("NOLINTEND without"),
            std::string::npos);
  EXPECT_EQ(S.problems()[1].Line, 2u);
}

TEST(Suppressions, NoqaAsRuffSpellsIt) {
  Suppressions S("a  # noqa\n"
                 "b  # noqa: capture-sync-call, capture-host-read\n"
                 "c  # noqa:E501\n",
                 "#");
  EXPECT_TRUE(S.suppressed(1, "capture-allocation"));
  EXPECT_TRUE(S.suppressed(2, "capture-host-read"));
  EXPECT_FALSE(S.suppressed(2, "capture-allocation"));
  EXPECT_FALSE(S.suppressed(3, "capture-sync-call"));
}

TEST(Suppressions, CppNolintAnywhereOnTheLineAsClangTidyReadsIt) {
  Suppressions S("cudaDeviceSynchronize(); /* NOLINT(capture-sync-call) */\n"
                 "cudaMalloc(&p, 4); // pool grows once: NOLINT\n"
                 "/* NOLINTNEXTLINE(capture-host-read) */\n"
                 "int v = read();\n"
                 "f(); // NOLINTEND without a begin is still reported\n",
                 "//");
  EXPECT_TRUE(S.suppressed(1, "capture-sync-call"));
  EXPECT_FALSE(S.suppressed(1, "capture-allocation"));
  EXPECT_TRUE(S.suppressed(2, "capture-allocation"));
  EXPECT_TRUE(S.suppressed(4, "capture-host-read"));
  ASSERT_EQ(S.problems().size(), 1u);
  EXPECT_EQ(S.problems()[0].Line, 5u);
}
