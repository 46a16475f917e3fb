//===- FixGuardTest.cpp - --fix edits only the text it analysed -----------===//
//
// A report's fixes were computed from a file's text as the run read it. When
// the file was saved again, replaced by a symlink, or never read by the run
// (a fix from a forged cache entry), --fix refuses, naming the file, and
// changes nothing; a second --fix waits for the first's lock.
//
//===----------------------------------------------------------------------===//

#include "FixGuard.h"
#include "Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <fstream>
#include <optional>

using namespace capture_lint;

namespace {

std::string slurp(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : "<unreadable>";
}

void put(const std::string &Path, const std::string &Text) {
  std::ofstream(Path, std::ios::binary | std::ios::trunc) << Text;
}

class FixGuardTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("fixguard", D));
    Dir = std::string(D);
    File = Dir + "/k.cu";
    put(File, Original);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// A report whose one finding inserts ", 0, stream" into "<<<1, 32>>>",
  /// analysed from the file as it is now.
  Report analysed() {
    Report R;
    ReportFinding F;
    F.Check = "capture-legacy-stream";
    F.Loc.File = File;
    F.Fixes.push_back({File, 14, 0, ", 0, stream"});
    R.Findings.push_back(F);
    R.FilesRead[File] = *snapshotNow(File, 1 << 20);
    return R;
  }

  FixOutcome fix(const Report &R) {
    std::vector<std::string> Warnings;
    return applyFixes(R, Warnings);
  }

  const std::string Original = "kernel<<<1, 32>>>(d);\n";
  std::string Dir, File;
};

TEST_F(FixGuardTest, AppliesToTheTextAnalysed) {
  FixOutcome Out = fix(analysed());
  EXPECT_TRUE(Out.Failures.empty());
  EXPECT_EQ(Out.Applied, 1u);
  EXPECT_EQ(slurp(File), "kernel<<<1, 32, 0, stream>>>(d);\n");
}

TEST_F(FixGuardTest, RefusesAFileSavedSinceTheAnalysis) {
  Report R = analysed();
  put(File, "// saved by an editor\n" + Original);
  FixOutcome Out = fix(R);
  ASSERT_EQ(Out.Failures.size(), 1u);
  EXPECT_NE(Out.Failures[0].find("'" + File +
                                 "' changed since this run "
                                 "analysed it"),
            std::string::npos)
      << Out.Failures[0];
  EXPECT_EQ(Out.Applied, 0u);
  EXPECT_EQ(slurp(File), "// saved by an editor\n" + Original);
}

TEST_F(FixGuardTest, RefusesAFileRewrittenInPlaceSinceItWasOpened) {
  // A buffer mapped from the file changes with it: the hash may be the new
  // text's, but the file was opened at an earlier time.
  Report R = analysed();
  *R.FilesRead[File].MTime -= 5;
  FixOutcome Out = fix(R);
  ASSERT_EQ(Out.Failures.size(), 1u);
  EXPECT_NE(Out.Failures[0].find("changed since this run analysed it"),
            std::string::npos)
      << Out.Failures[0];
  EXPECT_EQ(slurp(File), Original);
}

TEST_F(FixGuardTest, RefusesTheSameTextInAnotherFile) {
  Report R = analysed();
  // An editor's save that writes a new file and renames it over the path:
  // the text is the same, the file is not.
  put(File + ".new", Original);
  ASSERT_FALSE(llvm::sys::fs::rename(File + ".new", File));
  FixOutcome Out = fix(R);
  ASSERT_EQ(Out.Failures.size(), 1u);
  EXPECT_NE(Out.Failures[0].find("is no longer the file this run analysed"),
            std::string::npos)
      << Out.Failures[0];
  EXPECT_EQ(slurp(File), Original);
}

TEST_F(FixGuardTest, RefusesAPathNowASymlinkToAnotherFile) {
  Report R = analysed();
  std::string Other = Dir + "/other.cu";
  put(Other, "int keep_me;\n");
  ASSERT_FALSE(llvm::sys::fs::remove(File));
  ASSERT_FALSE(llvm::sys::fs::create_link(Other, File));
  FixOutcome Out = fix(R);
  ASSERT_EQ(Out.Failures.size(), 1u);
  EXPECT_NE(Out.Failures[0].find("leads to '" + Other + "' now"),
            std::string::npos)
      << Out.Failures[0];
  EXPECT_EQ(slurp(Other), "int keep_me;\n");
}

TEST_F(FixGuardTest, RefusesAFileTheRunDidNotRead) {
  Report R = analysed();
  std::string Victim = Dir + "/victim.txt";
  put(Victim, "precious\n");
  R.Findings[0].Fixes.push_back({Victim, 0, 0, "POISONED "});
  FixOutcome Out = fix(R);
  ASSERT_EQ(Out.Failures.size(), 1u);
  EXPECT_NE(Out.Failures[0].find("'" + Victim +
                                 "' was not analysed by this "
                                 "run"),
            std::string::npos)
      << Out.Failures[0];
  // All or nothing: the file that was analysed is not fixed either.
  EXPECT_EQ(slurp(Victim), "precious\n");
  EXPECT_EQ(slurp(File), Original);
}

TEST_F(FixGuardTest, RefusesAFileThatChangedDuringTheRun) {
  Report R = analysed();
  FileSnapshot Later = R.FilesRead[File];
  Later.Hash = contentHash("another text");
  recordSnapshot(R.FilesRead, File, Later); // a second TU read another text
  FixOutcome Out = fix(R);
  ASSERT_EQ(Out.Failures.size(), 1u);
  EXPECT_NE(Out.Failures[0].find("changed while this run analysed it"),
            std::string::npos);
  EXPECT_EQ(slurp(File), Original);
}

TEST_F(FixGuardTest, ASecondRunWaitsForTheLockThenFindsTheFileChanged) {
  Report First = analysed(), Second = analysed();
  std::optional<DirectoryLocks> Held(std::in_place);
  ASSERT_FALSE(llvm::errorToBool(Held->lock({File})));
  DirectoryLocks Waiting;
  llvm::Error E = Waiting.lock({File}, /*TimeoutSeconds=*/0);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("another capture-lint --fix"),
            std::string::npos);
  Held.reset();
  EXPECT_TRUE(fix(First).Failures.empty());
  FixOutcome Out = fix(Second);
  ASSERT_EQ(Out.Failures.size(), 1u);
  EXPECT_EQ(slurp(File), "kernel<<<1, 32, 0, stream>>>(d);\n");
}

} // namespace
