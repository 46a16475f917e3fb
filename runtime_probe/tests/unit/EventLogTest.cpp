//===- EventLogTest.cpp - JSON-lines logs: round trip, torn lines, errors -===//

#include "capture_probe/EventLog.h"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
  Event Freed;
  Freed.Seq = 3;
  Freed.Kind = EventKind::FreedWhileHeld;
  Freed.Api = "caching-allocator free";
  Freed.Exec = 0x200;
  Freed.Count = 0x7f0000800000;
  Freed.Node = "kernel node 1 of 1 (at::native::vectorized_elementwise_"
               "kernel), argument 2";
  std::string Resolved;
  {
    JsonLinesSink Sink(Path);
    ASSERT_TRUE(Sink.ok()) << Sink.error();
    Resolved = Sink.path();
    EXPECT_EQ(Resolved.find("%p"), std::string::npos);
    Sink.write(B);
    Sink.write(End);
    Sink.write(Freed);
  }
  std::vector<Event> Got;
  std::string Error;
  ASSERT_TRUE(readEventLog(Resolved, Got, Error)) << Error;
  ASSERT_EQ(Got.size(), 3u);
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
  EXPECT_TRUE(Got[1].Node.empty());
  EXPECT_EQ(Got[2].Kind, EventKind::FreedWhileHeld);
  EXPECT_EQ(Got[2].Exec, 0x200u);
  EXPECT_EQ(Got[2].Count, Freed.Count);
  EXPECT_EQ(Got[2].Node, Freed.Node);
  EXPECT_TRUE(Got[2].ResultName.empty());
  std::remove(Resolved.c_str());
}

/// One event of each kind with every field it may carry: written where
/// CAPTURE_PROBE_EVENT_SAMPLE says (tests/docs/check_schemas.py checks it
/// against checks/schemas/event-log.schema.json), read back here.
TEST(EventLog, WritesEveryKindAndField) {
  const char *Sample = std::getenv("CAPTURE_PROBE_EVENT_SAMPLE");
  std::string Path = Sample ? Sample : tempPath("sample.jsonl");
  std::remove(Path.c_str());
  std::vector<Event> All;
  for (EventKind K :
       {EventKind::Call, EventKind::BeginCapture, EventKind::EndCapture,
        EventKind::ExchangeMode, EventKind::Instantiate, EventKind::FirstLaunch,
        EventKind::ExecUpdate, EventKind::Launches, EventKind::Totals,
        EventKind::FreedWhileHeld, EventKind::StaleLaunch}) {
    Event E;
    E.Seq = All.size() + 1;
    E.Thread = 7;
    E.Kind = K;
    E.Api = "cudaStreamBeginCapture";
    E.Result = -3;
    E.ResultName = "cudaErrorStreamCaptureUnsupported";
    E.Stream = 0xabc;
    E.NodesCreated = 1;
    E.Mode = CaptureMode::Relaxed;
    E.NonBlocking = false;
    E.ToGraph = true;
    E.GraphNodes = {{"kernel", 3}, {"memcpy", 1}};
    E.Graph = 0x10;
    E.Exec = 0x20;
    E.Count = 4;
    E.CudaEvent = 0x30;
    E.Kernel = 0x40;
    E.Collectives = {"ncclDevKernel_AllReduce_Sum_f32_RING_LL"};
    E.AfterFailedCapture = true;
    E.Frames = {"/bin/prog+0x10"};
    E.PyFrames = {"model.py:12:forward"};
    if (K == EventKind::Call) { // a folded run of identical clean calls
      E.Repeats = 3;
      E.LastSeq = 5;
    }
    if (K == EventKind::FreedWhileHeld) // the node that uses the block
      E.Node = "kernel node 2 of 5 (scale_kernel), argument 1";
    All.push_back(E);
  }
  {
    JsonLinesSink Sink(Path);
    ASSERT_TRUE(Sink.ok()) << Sink.error();
    for (const Event &E : All)
      Sink.write(E);
  }
  std::vector<Event> Got;
  std::string Error;
  ASSERT_TRUE(readEventLog(Path, Got, Error)) << Error;
  ASSERT_EQ(Got.size(), All.size());
  for (size_t I = 0; I < All.size(); ++I)
    EXPECT_EQ(Got[I].Kind, All[I].Kind);
  EXPECT_EQ(Got[1].Mode, CaptureMode::Relaxed);
  EXPECT_EQ(Got[2].GraphNodes, All[2].GraphNodes);
  EXPECT_EQ(Got[3].Frames, All[3].Frames);
  EXPECT_EQ(Got[0].Repeats, 3u);
  EXPECT_EQ(Got[0].LastSeq, 5u);
  EXPECT_EQ(Got[9].Kind, EventKind::FreedWhileHeld);
  EXPECT_EQ(Got[9].Node, All[9].Node);
  if (!Sample)
    std::remove(Path.c_str());
}

TEST(EventLog, EachStackIsWrittenOnceAndReadBackIntoItsEvents) {
  std::string Path = tempPath("stacks.jsonl");
  std::remove(Path.c_str());
  std::vector<std::string> Loop = {"/bin/prog+0x10", "/bin/prog+0x20"};
  std::vector<std::string> Other = {"/bin/prog+0x30"};
  {
    JsonLinesSink Sink(Path);
    ASSERT_TRUE(Sink.ok()) << Sink.error();
    for (uint64_t Seq = 1; Seq <= 100; ++Seq) {
      Event E;
      E.Seq = Seq;
      E.Api = "cudaStreamIsCapturing";
      E.Frames = Seq == 50 ? Other : Loop;
      if (Seq == 60)
        E.Frames.clear(); // clean captured work: no stack
      Sink.write(E);
    }
  }
  std::ifstream In(Path);
  std::string Text((std::istreambuf_iterator<char>(In)),
                   std::istreambuf_iterator<char>());
  size_t StackLines = 0;
  for (size_t At = Text.find("{\"stack\":"); At != std::string::npos;
       At = Text.find("{\"stack\":", At + 1))
    ++StackLines;
  EXPECT_EQ(StackLines, 2u); // Loop's and Other's, once each
  EXPECT_EQ(Text.find("/bin/prog+0x10"), Text.rfind("/bin/prog+0x10"));
  std::vector<Event> Got;
  std::string Error;
  SkippedLines Skipped;
  ASSERT_TRUE(readEventLog(Path, Got, Error, &Skipped)) << Error;
  ASSERT_EQ(Got.size(), 100u);
  EXPECT_EQ(Skipped.Count, 0u) << Skipped.First;
  EXPECT_EQ(Got[0].Frames, Loop);
  EXPECT_EQ(Got[49].Frames, Other);
  EXPECT_TRUE(Got[59].Frames.empty());
  EXPECT_EQ(Got[99].Frames, Loop);
  std::remove(Path.c_str());
}

TEST(EventLog, AStackRefWithoutItsStackLineIsDamage) {
  std::string Path = tempPath("stackref.jsonl");
  {
    std::ofstream Out(Path);
    Out << "{\"seq\": 1, \"thread\": 1, \"kind\": \"call\", \"api\": "
           "\"cudaMalloc\", \"result\": 0, \"stack_ref\": \"7.1\"}\n"
        << "{\"stack\": \"7.2\", \"frames\": [3]}\n"
        << "{\"stack\": \"7.1\", \"frames\": [\"/bin/prog+0x10\"]}\n"
        << "{\"seq\": 2, \"thread\": 1, \"kind\": \"call\", \"api\": "
           "\"cudaMalloc\", \"result\": 0, \"stack_ref\": \"7.1\"}\n";
  }
  std::vector<Event> Got;
  std::string Error;
  SkippedLines Skipped;
  ASSERT_TRUE(readEventLog(Path, Got, Error, &Skipped)) << Error;
  ASSERT_EQ(Got.size(), 1u);
  EXPECT_EQ(Got[0].Seq, 2u);
  EXPECT_EQ(Got[0].Frames, std::vector<std::string>{"/bin/prog+0x10"});
  EXPECT_EQ(Skipped.Count, 2u);
  EXPECT_EQ(Skipped.First, Path + ":1: malformed event (stack_ref names no "
                                  "stack line before it)");
  std::remove(Path.c_str());
}

TEST(EventLog, ATornLastLineIsDroppedOtherDamageIsSkippedAndCounted) {
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
  SkippedLines Skipped;
  ASSERT_TRUE(readEventLog(Path, Got, Error, &Skipped)) << Error;
  EXPECT_EQ(Got.size(), 1u);
  EXPECT_EQ(Skipped.Count, 0u);

  // One damaged line loses only itself (issue 24, item 9); a line a dead
  // process tore, zero bytes, then a later process's line: the later line
  // is read.
  {
    std::ofstream Out(Path);
    Out << Line << "\n{\"seq\": \"one\"}\n"
        << Line.substr(0, 20) << Line << "\n"
        << Line.substr(0, 20) << std::string(64, '\0') << Line << "\n";
  }
  Got.clear();
  ASSERT_TRUE(readEventLog(Path, Got, Error, &Skipped)) << Error;
  EXPECT_EQ(Got.size(), 2u);
  EXPECT_EQ(Skipped.Count, 3u);
  EXPECT_EQ(Skipped.First.find(Path + ":2: malformed event"), 0u)
      << Skipped.First;
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
  Skipped = SkippedLines();
  ASSERT_TRUE(readEventLog(Path, Got, Error, &Skipped));
  EXPECT_EQ(Got.size(), 1u);
  EXPECT_EQ(Skipped.First, Path + ":1: malformed event ('thread' is not an "
                                  "integer)");
  std::remove(Path.c_str());

  EXPECT_FALSE(readEventLog("/no/such/log.jsonl", Got, Error));
  EXPECT_NE(Error.find("/no/such/log.jsonl"), std::string::npos);
}

TEST(EventLog, LinesAcrossReadChunksAndEventsOutOfOrder) {
  // The reader streams the file in 1 MiB chunks: lines straddle them. A
  // torn line followed by zero bytes and a newline was not the last line.
  std::string Path = tempPath("chunks.jsonl");
  const unsigned N = 20000; // about 2.5 MiB
  {
    std::ofstream Out(Path);
    for (unsigned I = 0; I < N; ++I) {
      Event E;
      // Threads write a little out of order: pairs swapped.
      E.Seq = I % 2 ? I - 1 : I + 1;
      E.Api = "cudaLaunchKernel";
      E.Frames = {"libapp.so+0x" + std::to_string(1000 + I)};
      Out << eventToJsonLine(E) << "\n";
    }
    Out << "{\"seq\": 1" << std::string(8, '\0') << "\n";
  }
  std::vector<uint64_t> Seqs;
  std::string Error;
  SkippedLines Skipped;
  ASSERT_TRUE(forEachEventInOrder(
      Path, [&](Event &&E) { Seqs.push_back(E.Seq); }, Error, &Skipped))
      << Error;
  ASSERT_EQ(Seqs.size(), N);
  for (unsigned I = 0; I < N; ++I)
    ASSERT_EQ(Seqs[I], I);
  EXPECT_EQ(Skipped.Count, 1u);
  EXPECT_EQ(Skipped.First.find(Path + ":" + std::to_string(N + 1) +
                               ": malformed event"),
            0u)
      << Skipped.First;
  std::remove(Path.c_str());
}

TEST(EventLog, IntegersMustFitTheirFields) {
  std::string Path = tempPath("ranges.jsonl");
  {
    std::ofstream Out(Path);
    Out << "{\"seq\": -2, \"thread\": 1, \"kind\": \"call\", "
           "\"api\": \"cudaMalloc\", \"result\": 0}\n"
        << "{\"seq\": 3, \"thread\": 1, \"kind\": \"call\", "
           "\"api\": \"cudaMalloc\", \"result\": 4294967296}\n"
        << "{\"seq\": 4, \"thread\": 1, \"kind\": \"call\", "
           "\"api\": \"cudaMalloc\", \"result\": -2}\n";
  }
  std::vector<Event> Got;
  std::string Error;
  SkippedLines Skipped;
  ASSERT_TRUE(readEventLog(Path, Got, Error, &Skipped)) << Error;
  ASSERT_EQ(Got.size(), 1u); // a negative result is a result
  EXPECT_EQ(Got[0].Result, -2);
  EXPECT_EQ(Skipped.Count, 2u);
  EXPECT_EQ(Skipped.First, Path + ":1: malformed event ('seq' is negative)");
  std::remove(Path.c_str());
}

TEST(EventLog, ALogThatIsNotARegularFileIsAnErrorNotABlock) {
  std::string Dir = tempPath("dir.jsonl"), Fifo = tempPath("fifo.jsonl");
  ASSERT_EQ(mkdir(Dir.c_str(), 0755), 0);
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0644), 0);
  std::vector<Event> Got;
  std::string Error;
  EXPECT_FALSE(readEventLog(Dir, Got, Error));
  EXPECT_NE(Error.find("'" + Dir + "' is a directory"), std::string::npos)
      << Error;
  EXPECT_FALSE(readEventLog(Fifo, Got, Error));
  EXPECT_NE(Error.find("'" + Fifo + "' is a FIFO"), std::string::npos) << Error;
  rmdir(Dir.c_str());
  std::remove(Fifo.c_str());
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

uint64_t fileSize(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary | std::ios::ate);
  return uint64_t(In.tellg());
}

// A line is in the file once written: a process that dies without closing
// the log (abort() after a capture error, a signal) leaves all of it, the
// rest of the mapped window as zero bytes, which the reader skips; and a
// later process appending to the same file writes after them.
TEST(EventLog, EveryLineIsInTheFileWhenTheProcessDies) {
  std::string Path = tempPath("died.jsonl");
  std::remove(Path.c_str());
  pid_t Child = fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    auto *Sink = new JsonLinesSink(Path); // never closed, never trimmed
    for (uint64_t Seq = 1; Seq <= 3; ++Seq)
      Sink->write(call(Seq));
    std::abort();
  }
  int Status = 0;
  ASSERT_EQ(waitpid(Child, &Status, 0), Child);
  ASSERT_TRUE(WIFSIGNALED(Status));
  EXPECT_EQ(seqsIn(Path), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_GT(fileSize(Path), 3 * eventToJsonLine(call(1)).size() + 3);
  {
    JsonLinesSink Sink(Path);
    ASSERT_TRUE(Sink.ok()) << Sink.error();
    Sink.write(call(4));
  }
  EXPECT_EQ(seqsIn(Path), (std::vector<uint64_t>{1, 2, 3, 4}));
  std::remove(Path.c_str());
}

// Lines cross from one mapped window to the next whole, from several
// threads; the end of the sink cuts the file to its lines.
TEST(EventLog, ManyLinesFromManyThreadsAreAllThereInOrder) {
  std::string Path = tempPath("many.jsonl");
  std::remove(Path.c_str());
  Event Big = call(0); // Python frames: written in each line, unlike stacks
  for (int I = 0; I < 40; ++I)
    Big.PyFrames.push_back("/a/long/path/to/something.py:" +
                           std::to_string(1000000 + I) + ":forward");
  size_t Bytes = 0;
  {
    JsonLinesSink Sink(Path);
    ASSERT_TRUE(Sink.ok()) << Sink.error();
    std::vector<std::thread> Threads;
    for (uint64_t T = 0; T < 4; ++T)
      Threads.emplace_back([&, T] {
        for (uint64_t I = 0; I < 1200; ++I) {
          Event E = Big;
          E.Seq = T * 100000 + I;
          Sink.write(E);
        }
      });
    for (std::thread &T : Threads)
      T.join();
    Bytes = size_t(fileSize(Path));
  }
  std::vector<uint64_t> Seqs = seqsIn(Path);
  ASSERT_EQ(Seqs.size(), 4800u);
  std::vector<uint64_t> Next(4, 0);
  for (uint64_t S : Seqs) {
    uint64_t T = S / 100000;
    ASSERT_LT(T, 4u);
    EXPECT_EQ(S % 100000, Next[T]++) << "thread " << T;
  }
  size_t Line = eventToJsonLine(Big).size() + 1;
  EXPECT_GT(Bytes, 8u << 20) << "crossed windows";
  EXPECT_NEAR(double(fileSize(Path)), double(Line * 4800), 4800 * 8.0)
      << "cut to its lines";
  std::remove(Path.c_str());
}

TEST(EventLog, LinesWrittenAfterTheExitsCutStillLand) {
  std::string Path = tempPath("late.jsonl");
  std::remove(Path.c_str());
  JsonLinesSink Sink(Path);
  ASSERT_TRUE(Sink.ok()) << Sink.error();
  Sink.write(call(1));
  Sink.trim();
  EXPECT_EQ(fileSize(Path), eventToJsonLine(call(1)).size() + 1);
  Sink.write(call(2));
  EXPECT_EQ(seqsIn(Path), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(fileSize(Path), 2 * (eventToJsonLine(call(1)).size() + 1));
  std::remove(Path.c_str());
}

// A child made by fork() shares its parent's mapped window: its lines would
// land on the parent's. It writes none.
TEST(EventLog, AForkedChildWritesNothingIntoItsParentsLog) {
  std::string Path = tempPath("forked.jsonl");
  std::remove(Path.c_str());
  JsonLinesSink Sink(Path);
  ASSERT_TRUE(Sink.ok()) << Sink.error();
  Sink.write(call(1));
  pid_t Child = fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    Sink.write(call(99));
    Sink.trim();
    _exit(0);
  }
  int Status = 0;
  ASSERT_EQ(waitpid(Child, &Status, 0), Child);
  Sink.write(call(2));
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
