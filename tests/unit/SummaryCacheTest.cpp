//===- SummaryCacheTest.cpp - A cache entry is bound to its key -----------===//
//
// Cache entries are untrusted input (a shared directory, a stray copy): an
// entry is used only for the key it was written for, only as written, and
// only when its fixes land in files it depends on. Anything else is a miss,
// so the file is analysed again.
//
//===----------------------------------------------------------------------===//

#include "SummaryCache.h"
#include "UnitPaths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <fstream>
#include <nlohmann/json.hpp>

using namespace capture_lint;

namespace {

class SummaryCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("summarycache", D));
    Dir = std::string(D);
    Source = Dir + "/k.cu";
    std::ofstream(Source) << "kernel<<<1, 32>>>(d);\n";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// What analysing k.cu gave: one finding with a fix in k.cu.
  UnitResult unit() {
    UnitResult U;
    U.Deps[Source] = *snapshotNow(Source, 1 << 20);
    ReportFinding F;
    F.Check = "capture-legacy-stream";
    F.Level = Severity::Error;
    F.Loc.File = Source;
    F.Loc.Offset = 6;
    F.Via = "launch";
    F.HazardLoc = {Source, 0, 1, 1, "kernel<<<1, 32>>>(d);"};
    F.Message = "kernel launch 'kernel' runs on the legacy default stream";
    F.Fixes.push_back({Source, 14, 0, ", 0, stream"});
    U.Findings.push_back(F);
    return U;
  }

  std::string entry(const std::string &Key) {
    return Dir + "/cache/" + Key + ".json";
  }

  const std::string KeyA = "k.cu-000000000000000a";
  const std::string KeyB = "k.cu-000000000000000b";
  std::string Dir, Source;
};

TEST_F(SummaryCacheTest, AnEntryLoadsForItsKey) {
  SummaryCache Cache(Dir + "/cache");
  ASSERT_FALSE(llvm::errorToBool(Cache.store(KeyA, unit())));
  std::optional<UnitResult> U = Cache.load(KeyA);
  ASSERT_TRUE(U);
  ASSERT_EQ(U->Findings.size(), 1u);
  EXPECT_EQ(U->Deps.count(Source), 1u);
  // Every field of the finding comes back.
  const ReportFinding &F = U->Findings.front();
  EXPECT_EQ(F.Level, Severity::Error);
  EXPECT_EQ(F.Loc.Offset, 6u);
  EXPECT_EQ(F.Via, "launch");
  EXPECT_EQ(F.HazardLoc.File, Source);
  EXPECT_EQ(F.HazardLoc.Line, 1u);
  EXPECT_EQ(F.HazardLoc.LineText, "kernel<<<1, 32>>>(d);");
  ASSERT_EQ(F.Fixes.size(), 1u);
  EXPECT_EQ(F.Fixes.front().Text, ", 0, stream");
}

TEST_F(SummaryCacheTest, AnotherKeysEntryCopiedOrLinkedIsAMiss) {
  SummaryCache Cache(Dir + "/cache");
  ASSERT_FALSE(llvm::errorToBool(Cache.store(KeyA, unit())));
  ASSERT_FALSE(llvm::sys::fs::copy_file(entry(KeyA), entry(KeyB)));
  EXPECT_FALSE(SummaryCache(Dir + "/cache").load(KeyB));
  ASSERT_FALSE(llvm::sys::fs::remove(entry(KeyB)));
  ASSERT_FALSE(llvm::sys::fs::create_link(entry(KeyA), entry(KeyB)));
  EXPECT_FALSE(SummaryCache(Dir + "/cache").load(KeyB));
}

TEST_F(SummaryCacheTest, AnEntryEditedWithinTheSchemaIsAMiss) {
  SummaryCache Cache(Dir + "/cache");
  ASSERT_FALSE(llvm::errorToBool(Cache.store(KeyA, unit())));
  auto Text = llvm::MemoryBuffer::getFile(entry(KeyA));
  ASSERT_TRUE(bool(Text));
  nlohmann::json J = nlohmann::json::parse((*Text)->getBuffer().str());
  J["findings"] = nlohmann::json::array(); // drops the finding
  std::ofstream(entry(KeyA), std::ios::trunc) << J.dump();
  EXPECT_FALSE(SummaryCache(Dir + "/cache").load(KeyA));
}

TEST_F(SummaryCacheTest, AFixOutsideTheEntrysFilesIsAMiss) {
  UnitResult U = unit();
  U.Findings[0].Fixes[0].File = Dir + "/victim.txt";
  SummaryCache Cache(Dir + "/cache");
  ASSERT_FALSE(llvm::errorToBool(Cache.store(KeyA, U)));
  EXPECT_FALSE(SummaryCache(Dir + "/cache").load(KeyA));
}

TEST_F(SummaryCacheTest, AnEntryOfAnOlderTextIsAMiss) {
  SummaryCache Cache(Dir + "/cache");
  ASSERT_FALSE(llvm::errorToBool(Cache.store(KeyA, unit())));
  std::ofstream(Source, std::ios::trunc) << "// edited\n";
  EXPECT_FALSE(SummaryCache(Dir + "/cache").load(KeyA));
}

} // namespace

TEST(UnitPaths, PathsUnderTheRootAreKeptRelativeAndPutBack) {
  EXPECT_EQ(relativeToRoot("/a/proj/src/x.cu", "/a/proj"), "src/x.cu");
  EXPECT_EQ(relativeToRoot("/a/proj/src/x.cu", "/a/proj/"), "src/x.cu");
  EXPECT_EQ(relativeToRoot("/a/proj", "/a/proj"), ".");
  EXPECT_EQ(relativeToRoot("/a/projx/y.cu", "/a/proj"), "/a/projx/y.cu");
  EXPECT_EQ(relativeToRoot("/usr/include/stdio.h", "/a/proj"),
            "/usr/include/stdio.h");
  EXPECT_EQ(relativeToRoot("/a/proj/x.cu", ""), "/a/proj/x.cu");
  EXPECT_EQ(underRoot("src/x.cu", "/b/proj"), "/b/proj/src/x.cu");
  EXPECT_EQ(underRoot(".", "/b/proj"), "/b/proj");
  EXPECT_EQ(underRoot("/usr/include/stdio.h", "/b/proj"),
            "/usr/include/stdio.h");
  EXPECT_EQ(underRoot("", "/b/proj"), "");
}
