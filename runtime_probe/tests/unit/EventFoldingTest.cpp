//===- EventFoldingTest.cpp - Identical captured calls as one event -------===//

#include "capture_probe/EventFolding.h"
#include "capture_probe/CaptureTracker.h"
#include "capture_probe/Report.h"
#include <gtest/gtest.h>
#include <unistd.h>

using namespace capture_probe;

namespace {

Event begin(uint64_t Seq) {
  Event E;
  E.Seq = Seq;
  E.Thread = 1;
  E.Kind = EventKind::BeginCapture;
  E.Api = "cudaStreamBeginCapture";
  E.Stream = 5;
  E.NodesCreated = 0;
  E.Frames = {"/bin/prog+0x10"};
  return E;
}

Event launch(uint64_t Seq, uint64_t Kernel = 0x40) {
  Event E;
  E.Seq = Seq;
  E.Thread = 1;
  E.Api = "cudaLaunchKernel";
  E.Stream = 5;
  E.NodesCreated = 1;
  E.Kernel = Kernel;
  return E;
}

Event end(uint64_t Seq) {
  Event E;
  E.Seq = Seq;
  E.Thread = 1;
  E.Kind = EventKind::EndCapture;
  E.Api = "cudaStreamEndCapture";
  E.Stream = 5;
  E.GraphReturned = true;
  E.GraphNodes = {{"kernel", 5}};
  return E;
}

/// What a backend writes for \p Events: clean calls through a folder.
std::vector<Event> throughFolder(const std::vector<Event> &Events) {
  MemorySink Sink;
  {
    CallFolder F;
    for (Event E : Events) {
      if (CallFolder::foldable(E)) {
        F.add(std::move(E), &Sink);
        continue;
      }
      F.flush();
      Sink.write(E);
    }
  }
  return Sink.take();
}

} // namespace

TEST(EventFolding, FoldsOnlyCleanCapturedCallsWithoutStacks) {
  EXPECT_TRUE(CallFolder::foldable(launch(1)));
  Event Failed = launch(1);
  Failed.Result = 900;
  EXPECT_FALSE(CallFolder::foldable(Failed));
  Event Eager = launch(1);
  Eager.NodesCreated = 0;
  EXPECT_FALSE(CallFolder::foldable(Eager));
  Event WithStack = launch(1);
  WithStack.Frames = {"/bin/prog+0x10"};
  EXPECT_FALSE(CallFolder::foldable(WithStack));
  Event Record = launch(1);
  Record.CudaEvent = 0x30;
  EXPECT_FALSE(CallFolder::foldable(Record));
  EXPECT_FALSE(CallFolder::foldable(begin(1)));
}

TEST(EventFolding, CallsThatNameAnotherNodeAreNotTheSame) {
  Event A = launch(1), B = launch(2);
  EXPECT_TRUE(CallFolder::sameCall(A, B));
  B.Node = "kernel node 1 of 1, argument 0";
  EXPECT_FALSE(CallFolder::sameCall(A, B));
}

TEST(EventFolding, CountsARunAndKeepsTheThreadsOrder) {
  std::vector<Event> In = {begin(1),        launch(2), launch(3), launch(4),
                           launch(5, 0x41), launch(6), end(7)};
  std::vector<Event> Out = throughFolder(In);
  ASSERT_EQ(Out.size(), 5u);
  EXPECT_EQ(Out[0].Kind, EventKind::BeginCapture);
  EXPECT_EQ(Out[1].Seq, 2u);
  EXPECT_EQ(Out[1].Repeats, 3u);
  EXPECT_EQ(Out[1].LastSeq, 4u);
  EXPECT_EQ(Out[2].Kernel, 0x41u);
  EXPECT_EQ(Out[2].Repeats, 1u);
  EXPECT_EQ(Out[3].Seq, 6u);
  EXPECT_EQ(Out[4].Kind, EventKind::EndCapture);
}

TEST(EventFolding, WritesAHeldCallAtMaxRepeatsAndAtTheFoldersEnd) {
  std::vector<Event> In;
  for (uint64_t I = 1; I <= CallFolder::MaxRepeats + 3; ++I)
    In.push_back(launch(I));
  std::vector<Event> Out = throughFolder(In);
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_EQ(Out[0].Repeats, CallFolder::MaxRepeats);
  EXPECT_EQ(Out[1].Repeats, 3u);
  EXPECT_EQ(Out[1].LastSeq, CallFolder::MaxRepeats + 3);
}

TEST(EventFolding, TheReportIsTheSameFoldedOrNot) {
  std::vector<Event> In = {begin(1)};
  for (uint64_t I = 2; I < 22; ++I)
    In.push_back(launch(I, I % 3 ? 0x40 : 0x41));
  In.push_back(end(22));
  std::vector<Event> Folded = throughFolder(In);
  EXPECT_LT(Folded.size(), In.size());
  // Through the log too: repeats and last_seq are written and read back.
  std::string Path =
      testing::TempDir() + "/folded." + std::to_string(getpid()) + ".jsonl";
  std::remove(Path.c_str());
  {
    JsonLinesSink Sink(Path);
    ASSERT_TRUE(Sink.ok()) << Sink.error();
    for (const Event &E : Folded)
      Sink.write(E);
  }
  std::vector<Event> Read;
  std::string Error;
  ASSERT_TRUE(readEventLog(Path, Read, Error)) << Error;
  std::remove(Path.c_str());
  ASSERT_EQ(Read.size(), Folded.size());
  auto Report = [](const std::vector<Event> &Events) {
    ProbeReport R;
    R.Captures = trackCaptures(Events, ApiCatalog::builtin());
    return toJson(R).dump();
  };
  EXPECT_EQ(Report(Read), Report(In));
  EXPECT_NE(Report(In).find("\"repeats\""), std::string::npos);
}
