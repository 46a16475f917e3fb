//===- AllocationHoldersTest.cpp - Which graphs use each allocation -------===//

#include "capture_probe/AllocationHolders.h"
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

TEST(AllocationHolders, AFreeFindsEveryGraphThatUsesTheAllocation) {
  AllocationHolders H;
  H.hold(/*Exec=*/1, {0x100, 0x200, 0x100});
  H.hold(2, {0x200});
  H.hold(3, {});
  EXPECT_EQ(H.holders(0x100), std::vector<uint64_t>{1});
  EXPECT_EQ(H.holders(0x200), (std::vector<uint64_t>{1, 2}));
  EXPECT_TRUE(H.holders(0x300).empty());
}

TEST(AllocationHolders, ReleasedAndReinstantiatedGraphsHoldOnlyWhatTheyUse) {
  AllocationHolders H;
  H.hold(1, {0x100, 0x200});
  H.hold(2, {0x200});
  H.release(1);
  EXPECT_TRUE(H.holders(0x100).empty());
  EXPECT_EQ(H.holders(0x200), std::vector<uint64_t>{2});
  // A reused handle holds what its new graph uses, not the old one's too.
  H.hold(2, {0x300});
  EXPECT_TRUE(H.holders(0x200).empty());
  EXPECT_EQ(H.holders(0x300), std::vector<uint64_t>{2});
  H.release(7); // never held: nothing happens
  EXPECT_EQ(H.holders(0x300), std::vector<uint64_t>{2});
}

} // namespace
