//===- EventLogTest.cpp - JSON-lines logs: round trip, torn lines, errors
//--===//

#include "capture_probe/EventLog.h"
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

using namespace capture_probe;

namespace {
std::string tempPath(const char *Name) {
  return testing::TempDir() + "/" + Name + "." + std::to_string(getpid());
}
} // namespace

TEST(EventLog, RoundTripsEveryField) {
  std::string Path = tempPath("events-%p.jsonl");
  std::remove(Path.c_str());
  Event B;
  B.Seq = 1;
  B.Thread = 42;
  B.Kind = EventKind::BeginCapture;
  B.Api = "cudaStreamBeginCapture";
  B.Stream = 0xabc;
  B.Mode = CaptureMode::ThreadLocal;
  B.NonBlocking = true;
  B.Frames = {"/bin/prog+0x10"};
  Event End;
  End.Seq = 2;
  End.Kind = EventKind::EndCapture;
  End.Api = "cudaStreamEndCapture";
  End.Result = 901;
  End.ResultName = "cudaErrorStreamCaptureInvalidated";
  End.GraphReturned = false;
  End.GraphNodes = {{"kernel", 3}};
  End.NodesCreated = 0;
  std::string Resolved;
  {
    JsonLinesSink Sink(Path);
    ASSERT_TRUE(Sink.ok()) << Sink.error();
    Resolved = Sink.path();
    EXPECT_EQ(Resolved.find("%p"), std::string::npos);
    Sink.write(B);
    Sink.write(End);
  }
  std::vector<Event> Got;
  std::string Error;
  ASSERT_TRUE(readEventLog(Resolved, Got, Error)) << Error;
  ASSERT_EQ(Got.size(), 2u);
  EXPECT_EQ(Got[0].Kind, EventKind::BeginCapture);
  EXPECT_EQ(Got[0].Thread, 42u);
  EXPECT_EQ(Got[0].Stream, std::optional<uint64_t>(0xabc));
  EXPECT_EQ(Got[0].Mode, CaptureMode::ThreadLocal);
  EXPECT_EQ(Got[0].NonBlocking, std::optional<bool>(true));
  EXPECT_EQ(Got[0].Frames, B.Frames);
  EXPECT_EQ(Got[1].Result, 901);
  EXPECT_EQ(Got[1].ResultName, End.ResultName);
  EXPECT_EQ(Got[1].GraphNodes, End.GraphNodes);
  EXPECT_EQ(Got[1].NodesCreated, std::optional<int>(0));
  std::remove(Resolved.c_str());
}

TEST(EventLog, ATornLastLineIsDroppedOtherDamageIsAnError) {
  std::string Path = tempPath("torn.jsonl");
  Event E;
  E.Seq = 1;
  E.Api = "cudaMalloc";
  std::string Line = eventToJsonLine(E);
  {
    std::ofstream Out(Path);
    Out << Line << "\n" << Line.substr(0, Line.size() / 2); // died mid-write
  }
  std::vector<Event> Got;
  std::string Error;
  ASSERT_TRUE(readEventLog(Path, Got, Error)) << Error;
  EXPECT_EQ(Got.size(), 1u);

  {
    std::ofstream Out(Path);
    Out << Line << "\n{\"seq\": \"one\"}\n" << Line << "\n";
  }
  Got.clear();
  EXPECT_FALSE(readEventLog(Path, Got, Error));
  EXPECT_NE(Error.find(Path + ":2:"), std::string::npos) << Error;
  std::remove(Path.c_str());

  // A fractional number where an integer belongs (converting 4e28 to a
  // uint64_t is undefined) is damage, named by its field.
  {
    std::ofstream Out(Path);
    Out << "{\"seq\": 1, \"thread\": 4.44444e+28, \"kind\": \"call\", "
           "\"api\": \"cudaMalloc\", \"result\": 0}\n"
        << Line << "\n";
  }
  Got.clear();
  EXPECT_FALSE(readEventLog(Path, Got, Error));
  EXPECT_NE(Error.find(Path + ":1: malformed event ('thread' is not an "
                              "integer)"),
            std::string::npos)
      << Error;
  std::remove(Path.c_str());

  EXPECT_FALSE(readEventLog("/no/such/log.jsonl", Got, Error));
  EXPECT_NE(Error.find("/no/such/log.jsonl"), std::string::npos);
}

namespace {
Event call(uint64_t Seq) {
  Event E;
  E.Seq = Seq;
  E.Api = "cudaLaunchKernel";
  E.NodesCreated = 1;
  return E;
}

std::vector<uint64_t> seqsIn(const std::string &Path) {
  std::vector<Event> Got;
  std::string Error;
  EXPECT_TRUE(readEventLog(Path, Got, Error)) << Error;
  std::vector<uint64_t> Seqs;
  for (const Event &E : Got)
    Seqs.push_back(E.Seq);
  return Seqs;
}
} // namespace

TEST(EventLog, DeferredEventsGoOutWithTheThreadsNextWrite) {
  std::string Path = tempPath("deferred.jsonl");
  std::remove(Path.c_str());
  JsonLinesSink Sink(Path);
  ASSERT_TRUE(Sink.ok()) << Sink.error();
  Sink.defer(call(1));
  Sink.defer(call(2));
  EXPECT_TRUE(seqsIn(Path).empty());
  Sink.write(call(3));
  EXPECT_EQ(seqsIn(Path), (std::vector<uint64_t>{1, 2, 3}));
  std::remove(Path.c_str());
}

// A program may exit while a thread that captured is still alive: what that
// thread held back is written by flushAll, which the process's exit runs.
TEST(EventLog, FlushAllWritesWhatALiveThreadHeldBack) {
  std::string Path = tempPath("held.jsonl");
  std::remove(Path.c_str());
  JsonLinesSink Sink(Path);
  ASSERT_TRUE(Sink.ok()) << Sink.error();
  std::mutex M;
  std::condition_variable CV;
  bool Deferred = false, Done = false;
  std::thread Worker([&] {
    Sink.defer(call(7));
    std::unique_lock<std::mutex> L(M);
    Deferred = true;
    CV.notify_all();
    CV.wait(L, [&] { return Done; });
  });
  {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] { return Deferred; });
  }
  EXPECT_TRUE(seqsIn(Path).empty());
  Sink.flushAll();
  EXPECT_EQ(seqsIn(Path), (std::vector<uint64_t>{7}));
  {
    std::lock_guard<std::mutex> L(M);
    Done = true;
  }
  CV.notify_all();
  Worker.join();
  EXPECT_EQ(seqsIn(Path), (std::vector<uint64_t>{7})); // written once
  std::remove(Path.c_str());
}

TEST(EventLog, AThreadsExitAndTheSinksEndWriteWhatWasHeld) {
  std::string Path = tempPath("exit.jsonl");
  std::remove(Path.c_str());
  {
    JsonLinesSink Sink(Path);
    ASSERT_TRUE(Sink.ok()) << Sink.error();
    std::thread([&] { Sink.defer(call(1)); }).join();
    EXPECT_EQ(seqsIn(Path), (std::vector<uint64_t>{1}));
    Sink.defer(call(2));
  }
  EXPECT_EQ(seqsIn(Path), (std::vector<uint64_t>{1, 2}));
  std::remove(Path.c_str());
}

TEST(EventLog, AnUnwritableLogSaysWhy) {
  JsonLinesSink Sink("/no/such/dir/log.jsonl");
  EXPECT_FALSE(Sink.ok());
  EXPECT_NE(Sink.error().find("/no/such/dir/log.jsonl"), std::string::npos);
  Event E;
  Sink.write(E); // harmless
}
