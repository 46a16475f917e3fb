//===- CaptureTrackerTest.cpp - The capture state machine -----------------===//

#include "capture_probe/CaptureTracker.h"
#include "capture_probe/Lifecycle.h"
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

class Script {
public:
  Script &begin(uint64_t Stream, CaptureMode M, uint64_t Thread = 1,
                int Result = 0, bool NonBlocking = false) {
    Event E =
        make(EventKind::BeginCapture, "cudaStreamBeginCapture", Thread, Result);
    E.Stream = Stream;
    E.Mode = M;
    E.NonBlocking = NonBlocking;
    Events.push_back(E);
    return *this;
  }
  Script &call(const std::string &Api, int Result = 0, uint64_t Thread = 1,
               std::optional<int> Nodes = 0) {
    Event E = make(EventKind::Call, Api, Thread, Result);
    E.NodesCreated = Nodes;
    Events.push_back(E);
    return *this;
  }
  /// The last event's call stack.
  Script &at(std::vector<std::string> Frames) {
    Events.back().Frames = std::move(Frames);
    return *this;
  }
  Script &exchange(CaptureMode M, uint64_t Thread = 1) {
    Event E = make(EventKind::ExchangeMode,
                   "cudaThreadExchangeStreamCaptureMode", Thread, 0);
    E.Mode = M;
    Events.push_back(E);
    return *this;
  }
  Script &end(uint64_t Stream, int Result = 0,
              std::map<std::string, int> Nodes = {}, uint64_t Thread = 1) {
    Event E =
        make(EventKind::EndCapture, "cudaStreamEndCapture", Thread, Result);
    E.Stream = Stream;
    E.GraphReturned = Result == 0;
    E.GraphNodes = Nodes;
    Events.push_back(E);
    return *this;
  }
  std::vector<CaptureRecord> run() const {
    return trackCaptures(Events, ApiCatalog::builtin());
  }

private:
  Event make(EventKind K, const std::string &Api, uint64_t Thread, int Result) {
    Event E;
    E.Seq = ++Seq;
    E.Kind = K;
    E.Api = Api;
    E.Thread = Thread;
    E.Result = Result;
    return E;
  }
  uint64_t Seq = 0;
  std::vector<Event> Events;
};

bool has(const CallRecord &C, const char *Class) {
  return C.Classes.count(Class) > 0;
}

} // namespace

TEST(CaptureTracker, FirstErrorIsTheCauseNotTheInvalidatedFollowers) {
  auto Caps = Script()
                  .begin(10, CaptureMode::Global)
                  .call("cudaLaunchKernel", 0, 1, 1)
                  .call("cudaMalloc", 900)
                  .call("cudaLaunchKernel", 901)
                  .end(10, 901)
                  .run();
  ASSERT_EQ(Caps.size(), 1u);
  const CaptureRecord &C = Caps[0];
  EXPECT_FALSE(C.Succeeded);
  EXPECT_TRUE(C.Classes.count(classes::CaptureFailed));
  ASSERT_EQ(C.Calls.size(), 3u);
  EXPECT_TRUE(C.Calls[0].Classes.empty()); // captured launch: nothing to say
  EXPECT_TRUE(has(C.Calls[1], classes::Error));
  EXPECT_TRUE(has(C.Calls[1], classes::Allocation));
  EXPECT_TRUE(C.Calls[1].FirstError);
  EXPECT_EQ(C.Calls[1].Expected, "illegal");
  EXPECT_TRUE(has(C.Calls[2], classes::Invalidated));
  EXPECT_FALSE(has(C.Calls[2], classes::Error));
  EXPECT_FALSE(C.Calls[2].FirstError);
  ASSERT_TRUE(C.FirstErrorSeq.has_value());
  EXPECT_EQ(*C.FirstErrorSeq, C.Calls[1].Seq);
  ASSERT_TRUE(C.End.has_value());
  EXPECT_TRUE(has(*C.End, classes::Invalidated));
}

TEST(CaptureTracker, WorkThatMadeNoNodeRanOutsideTheGraph) {
  auto Caps = Script()
                  .begin(10, CaptureMode::Global, 1, 0, /*NonBlocking=*/true)
                  .call("cudaLaunchKernel", 0, 1, 1)
                  .call("__cudaLaunchKernel", 0, 1, 0) // legacy stream
                  .call("cudaMemcpy", 0, 1, 0)         // sync D2H
                  .end(10, 0, {{"kernel", 1}})
                  .run();
  ASSERT_EQ(Caps.size(), 1u);
  const CaptureRecord &C = Caps[0];
  EXPECT_TRUE(C.Succeeded);
  EXPECT_EQ(C.GraphNodes.at("kernel"), 1);
  EXPECT_EQ(C.NonBlocking, std::optional<bool>(true));
  EXPECT_TRUE(C.Calls[0].Classes.empty());
  EXPECT_TRUE(has(C.Calls[1], classes::UncapturedWork));
  EXPECT_TRUE(has(C.Calls[2], classes::UncapturedWork));
  EXPECT_TRUE(has(C.Calls[2], classes::Sync));
  EXPECT_TRUE(has(C.Calls[2], classes::Eager));
  EXPECT_FALSE(C.FirstErrorSeq.has_value());
  EXPECT_FALSE(C.Classes.count(classes::CaptureFailed));
}

TEST(CaptureTracker, UnknownNodeCountsNeverClaimUncapturedWork) {
  auto Caps = Script()
                  .begin(10, CaptureMode::Global)
                  .call("cudaLaunchKernel", 0, 1, std::nullopt)
                  .end(10)
                  .run();
  EXPECT_TRUE(Caps[0].Calls[0].Classes.empty());
}

TEST(CaptureTracker, RelaxedThreadModeMakesAllocationsEager) {
  auto Caps = Script()
                  .begin(10, CaptureMode::Global)
                  .exchange(CaptureMode::Relaxed)
                  .call("cudaMalloc", 0)
                  .exchange(CaptureMode::Global)
                  .call("cudaMallocAsync", 0, 1, 1) // a memory node
                  .end(10, 0, {{"mem-alloc", 1}})
                  .run();
  const CaptureRecord &C = Caps[0];
  ASSERT_EQ(C.Calls.size(), 4u);
  const CallRecord &Malloc = C.Calls[1];
  EXPECT_EQ(Malloc.Api, "cudaMalloc");
  EXPECT_EQ(Malloc.EffectiveMode, "relaxed");
  EXPECT_EQ(Malloc.Expected, "eager");
  EXPECT_TRUE(has(Malloc, classes::Allocation));
  EXPECT_TRUE(has(Malloc, classes::Eager));
  EXPECT_FALSE(has(C.Calls[3], classes::Allocation));
  EXPECT_TRUE(C.Succeeded);
}

TEST(CaptureTracker, OtherThreadsReachOnlyGlobalCaptures) {
  auto Caps = Script()
                  .begin(10, CaptureMode::Global, /*Thread=*/1)
                  .begin(20, CaptureMode::ThreadLocal, /*Thread=*/2)
                  .call("cudaMalloc", 900, /*Thread=*/3)
                  .end(10, 901, {}, 1)
                  .end(20, 0, {}, 2)
                  .run();
  ASSERT_EQ(Caps.size(), 2u);
  EXPECT_EQ(Caps[0].Mode, "global");
  ASSERT_EQ(Caps[0].Calls.size(), 1u);
  EXPECT_TRUE(Caps[0].Calls[0].OtherThread);
  EXPECT_TRUE(Caps[0].Calls[0].FirstError);
  EXPECT_TRUE(Caps[1].Calls.empty());
  EXPECT_TRUE(Caps[1].Succeeded);
}

TEST(CaptureTracker, AThreadInThreadLocalModeIgnoresOtherGlobalCaptures) {
  // PyTorch's NCCL watchdog switches its thread to thread-local mode
  // around its event queries while another thread captures in global mode.
  auto Caps = Script()
                  .begin(10, CaptureMode::Global, /*Thread=*/1)
                  .exchange(CaptureMode::ThreadLocal, /*Thread=*/2)
                  .call("cudaEventQuery", 0, /*Thread=*/2)
                  .exchange(CaptureMode::Global, /*Thread=*/2)
                  .call("cudaEventQuery", 0, /*Thread=*/2)
                  .end(10, 0, {}, 1)
                  .run();
  ASSERT_EQ(Caps.size(), 1u);
  // Only the query made after the thread went back to global mode.
  std::vector<const CallRecord *> Queries;
  for (const CallRecord &R : Caps[0].Calls)
    if (R.Api == "cudaEventQuery")
      Queries.push_back(&R);
  ASSERT_EQ(Queries.size(), 1u);
  EXPECT_EQ(Queries[0]->Seq, 5u);
  EXPECT_TRUE(Queries[0]->OtherThread);
  EXPECT_TRUE(has(*Queries[0], classes::Query));
}

TEST(CaptureTracker, AFailingCallTheCatalogDoesNotKnowIsNoCaptureError) {
  // PyTorch asks cuMemRetainAllocationHandle about ordinary memory during
  // capture: CUDA_ERROR_INVALID_VALUE (1) is its answer, and the capture
  // goes on; a capture error (900-908) of any call is the capture's.
  auto Caps = Script()
                  .begin(10, CaptureMode::Global)
                  .call("cuMemRetainAllocationHandle", 1)
                  .call("cudaLaunchKernel", 0, 1, 1)
                  .call("cuSomethingNew", 900)
                  .end(10, 901)
                  .run();
  ASSERT_EQ(Caps.size(), 1u);
  ASSERT_EQ(Caps[0].Calls.size(), 3u);
  EXPECT_FALSE(has(Caps[0].Calls[0], classes::Error));
  EXPECT_FALSE(Caps[0].Calls[0].FirstError);
  EXPECT_TRUE(has(Caps[0].Calls[2], classes::Error));
  EXPECT_TRUE(Caps[0].Calls[2].FirstError);
}

TEST(CaptureTracker, CapturesEndByStream) {
  auto Caps = Script()
                  .begin(10, CaptureMode::Global)
                  .begin(20, CaptureMode::Global)
                  .end(10, 0, {{"kernel", 2}})
                  .call("cudaDeviceSynchronize", 900)
                  .end(20, 901)
                  .run();
  ASSERT_EQ(Caps.size(), 2u);
  EXPECT_EQ(Caps[0].Stream, 10u);
  EXPECT_TRUE(Caps[0].Succeeded);
  EXPECT_TRUE(Caps[0].Calls.empty());
  EXPECT_EQ(Caps[1].Stream, 20u);
  EXPECT_FALSE(Caps[1].Succeeded);
  ASSERT_EQ(Caps[1].Calls.size(), 1u);
  EXPECT_TRUE(has(Caps[1].Calls[0], classes::Sync));
}

TEST(CaptureTracker, ACaptureTheProgramNeverEndedFails) {
  auto Caps =
      Script().begin(10, CaptureMode::Global).call("cuMemAlloc_v2", 900).run();
  ASSERT_EQ(Caps.size(), 1u);
  EXPECT_FALSE(Caps[0].End.has_value());
  EXPECT_FALSE(Caps[0].Succeeded);
  EXPECT_TRUE(Caps[0].Classes.count(classes::CaptureFailed));
  EXPECT_EQ(Caps[0].Calls[0].Hazard, "allocation");
}

TEST(CaptureTracker, AFailedBeginIsReported) {
  auto Caps = Script().begin(0, CaptureMode::Global, 1, 900).run();
  ASSERT_EQ(Caps.size(), 1u);
  EXPECT_EQ(Caps[0].Begin.Result, 900);
  EXPECT_TRUE(Caps[0].Begin.FirstError);
  EXPECT_TRUE(Caps[0].Classes.count(classes::CaptureFailed));
}

TEST(CaptureTracker, EndErrorsOtherThanInvalidatedAreTheFirstError) {
  // A fork never joined: every call succeeded, the end reports 904.
  auto Caps = Script()
                  .begin(10, CaptureMode::Global)
                  .call("cudaEventRecord")
                  .call("cudaStreamWaitEvent")
                  .end(10, 904)
                  .run();
  ASSERT_TRUE(Caps[0].End.has_value());
  EXPECT_TRUE(Caps[0].End->FirstError);
  EXPECT_TRUE(Caps[0].Classes.count(classes::Error));
}

TEST(CaptureTracker, CallsOutsideEveryCaptureAreIgnored) {
  auto Caps = Script()
                  .call("cudaMalloc")
                  .begin(10, CaptureMode::Global)
                  .end(10)
                  .call("cudaDeviceSynchronize")
                  .run();
  ASSERT_EQ(Caps.size(), 1u);
  EXPECT_TRUE(Caps[0].Calls.empty());
}

// The first capture begun at a call chain keeps its clean calls' stacks
// (FirstCaptures), later ones do not: the captures are still the same, one
// record with their count, and it keeps the stacks.
TEST(CaptureTracker, CleanStacksOfAFirstCaptureDoNotSetItApart) {
  Script S;
  S.begin(10, CaptureMode::Global).at({"app+0x10"});
  S.call("cudaLaunchKernel", 0, 1, 1).at({"app+0x20", "app+0x30"});
  S.call("cudaLaunchKernel", 0, 1, 1).at({"app+0x40", "app+0x30"});
  S.end(10, 0, {{"kernel", 2}});
  for (int I = 0; I < 3; ++I) {
    S.begin(10, CaptureMode::Global).at({"app+0x10"});
    S.call("cudaLaunchKernel", 0, 1, 1).call("cudaLaunchKernel", 0, 1, 1);
    S.end(10, 0, {{"kernel", 2}});
  }
  auto Caps = S.run();
  aggregateIdentical(Caps);
  ASSERT_EQ(Caps.size(), 1u);
  EXPECT_EQ(Caps[0].Repeats, 4u);
  ASSERT_EQ(Caps[0].Calls.size(), 2u);
  EXPECT_EQ(Caps[0].Calls[1].Frames.front(), "app+0x40");
}
