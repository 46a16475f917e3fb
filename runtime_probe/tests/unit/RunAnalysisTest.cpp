//===- RunAnalysisTest.cpp - What a whole run's events say ----------------===//
//
// Synthetic event logs for what the tracker works out beyond single calls:
// captures into existing graphs, the sticky error, the framework's pool
// growth, forked streams never joined, the graph lifecycle (instantiations,
// launches, churn, never launched, silent fallback, coverage), identical
// captures folded, and collectives compared across ranks.
//
//===----------------------------------------------------------------------===//

#include "capture_probe/CaptureTracker.h"
#include "capture_probe/Lifecycle.h"
#include "capture_probe/RankCompare.h"
#include "capture_probe/Symbolizer.h"
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

class Log {
public:
  Event &add(EventKind K, const std::string &Api, int Result = 0,
             uint64_t Thread = 1) {
    Event E;
    E.Seq = ++Seq;
    E.Kind = K;
    E.Api = Api;
    E.Result = Result;
    E.Thread = Thread;
    E.NodesCreated = 0;
    Events.push_back(E);
    return Events.back();
  }
  Event &begin(uint64_t Stream, std::vector<std::string> Frames = {"/p+0x10"},
               uint64_t Thread = 1) {
    Event &E =
        add(EventKind::BeginCapture, "cudaStreamBeginCapture", 0, Thread);
    E.Stream = Stream;
    E.Frames = std::move(Frames);
    return E;
  }
  Event &end(uint64_t Stream, uint64_t Graph, int Result = 0,
             uint64_t Thread = 1) {
    Event &E =
        add(EventKind::EndCapture, "cudaStreamEndCapture", Result, Thread);
    E.Stream = Stream;
    E.GraphReturned = Result == 0 && Graph != 0;
    E.Graph = Result == 0 ? Graph : 0;
    E.GraphNodes = {{"kernel", 2}};
    return E;
  }
  Event &launch(const std::string &Frame, int Nodes = 1, uint64_t Thread = 1) {
    Event &E = add(EventKind::Call, "cudaLaunchKernel", 0, Thread);
    E.NodesCreated = Nodes;
    E.Frames = {"/usr/lib/libcudart.so.13+0x99", Frame};
    return E;
  }
  Event &sync(uint64_t Stream, uint64_t CudaEvent, bool Record) {
    Event &E = add(EventKind::Call,
                   Record ? "cudaEventRecord" : "cudaStreamWaitEvent");
    E.Stream = Stream;
    E.CudaEvent = CudaEvent;
    E.NodesCreated = Record ? 0 : 1;
    return E;
  }
  void instantiate(uint64_t Graph, uint64_t Exec, uint64_t Kernels = 2) {
    Event &E = add(EventKind::Instantiate, "cudaGraphInstantiate");
    E.Graph = Graph;
    E.Exec = Exec;
    E.Count = Kernels;
  }
  void launches(uint64_t Exec, uint64_t Count) {
    add(EventKind::FirstLaunch, "cudaGraphLaunch").Exec = Exec;
    Event &E = add(EventKind::Launches, "cudaGraphExecDestroy");
    E.Exec = Exec;
    E.Count = Count;
  }
  void totals(uint64_t EagerKernels) {
    add(EventKind::Totals, "(exit)").Count = EagerKernels;
  }
  std::vector<CaptureRecord> run(Coverage *Cover = nullptr) const {
    Coverage C;
    auto Caps = trackCaptures(Events, ApiCatalog::builtin(), &C);
    analyzeLifecycle(Caps, C);
    if (Cover)
      *Cover = C;
    return Caps;
  }

private:
  uint64_t Seq = 0;
  std::vector<Event> Events;
};

} // namespace

TEST(RunAnalysis, ACaptureIntoAGraphMayEndWithoutAGraphPointer) {
  Log L;
  Event &B = L.begin(10);
  B.Api = "cudaStreamBeginCaptureToGraph";
  B.ToGraph = true;
  L.launch("/p+0x20");
  Event &E = L.end(10, 0);
  E.GraphReturned = false; // cudaStreamEndCapture(s, nullptr)
  auto Caps = L.run();
  ASSERT_EQ(Caps.size(), 1u);
  EXPECT_TRUE(Caps[0].Succeeded);
  EXPECT_FALSE(Caps[0].Classes.count(classes::CaptureFailed));
  // Its graph runs inside the graph that holds it: not "never launched".
  EXPECT_FALSE(Caps[0].Classes.count(classes::NeverLaunched));
}

TEST(RunAnalysis, TheStickyErrorIsNotAnErrorOfItsOwn) {
  Log L;
  L.begin(10);
  L.add(EventKind::Call, "cudaMemcpy", 900);
  L.add(EventKind::Call, "cudaGetLastError", 900);
  L.add(EventKind::Call, "cudaPeekAtLastError", 900);
  L.end(10, 0, 901);
  auto Caps = L.run();
  const auto &Calls = Caps[0].Calls;
  ASSERT_EQ(Calls.size(), 3u);
  EXPECT_TRUE(Calls[0].FirstError);
  for (int I : {1, 2}) {
    EXPECT_TRUE(Calls[I].Classes.empty()) << Calls[I].Api;
    EXPECT_TRUE(Calls[I].ReportsEarlierError);
    EXPECT_FALSE(Calls[I].FirstError);
  }
}

TEST(RunAnalysis, PoolGrowthByTheCachingAllocatorIsNotAUserAllocation) {
  Log L;
  L.begin(10);
  Event &X =
      L.add(EventKind::ExchangeMode, "cudaThreadExchangeStreamCaptureMode");
  X.Mode = CaptureMode::Relaxed;
  Event &Pool = L.add(EventKind::Call, "cudaMalloc");
  Pool.Frames = {"/t/libcudart.so.13+0x10", "/t/lib/libc10_cuda.so+0x20",
                 "/t/lib/libtorch_cuda.so+0x30"};
  Event &User = L.add(EventKind::Call, "cudaMalloc");
  User.Frames = {"/t/libcudart.so.13+0x10", "/app/prog+0x40"};
  L.add(EventKind::ExchangeMode, "cudaThreadExchangeStreamCaptureMode").Mode =
      CaptureMode::Global;
  L.end(10, 0x100);
  auto Caps = L.run();
  const auto &Calls = Caps[0].Calls;
  ASSERT_EQ(Calls.size(), 4u);
  EXPECT_TRUE(Calls[1].PoolGrowth);
  EXPECT_TRUE(Calls[1].Classes.empty());
  EXPECT_FALSE(Calls[2].PoolGrowth);
  EXPECT_TRUE(Calls[2].Classes.count(classes::Allocation));
  EXPECT_FALSE(Caps[0].Classes.count(classes::Allocation) &&
               Calls[2].PoolGrowth);
}

TEST(RunAnalysis, AForkedStreamNeverJoinedIsNamedWithItsFork) {
  Log L;
  L.begin(10);
  L.sync(10, 0xe1, true);  // record on the origin
  L.sync(20, 0xe1, false); // stream 20 forked in
  L.sync(30, 0xe1, false); // stream 30 forked in
  L.sync(20, 0xe2, true);  // 20 records ...
  L.sync(10, 0xe2, false); // ... and the origin waits: joined
  L.end(10, 0, 904);
  auto Caps = L.run();
  ASSERT_EQ(Caps[0].Unjoined.size(), 1u);
  EXPECT_EQ(Caps[0].Unjoined[0].Stream, std::optional<uint64_t>(30));
  EXPECT_EQ(Caps[0].Unjoined[0].Api, "cudaStreamWaitEvent");
}

TEST(RunAnalysis, LaunchesAndKernelsAreCountedPerCapture) {
  Log L;
  L.begin(10);
  L.end(10, 0x100);
  L.instantiate(0x100, 0x200, 3);
  L.launches(0x200, 50);
  L.totals(25);
  Coverage Cover;
  auto Caps = L.run(&Cover);
  EXPECT_EQ(Caps[0].Instantiations, 1u);
  EXPECT_EQ(Caps[0].Launches, 50u);
  EXPECT_TRUE(Caps[0].Classes.empty());
  EXPECT_EQ(Cover.GraphLaunches, 50u);
  EXPECT_EQ(Cover.GraphKernels, 150u);
  EXPECT_EQ(Cover.EagerKernels, 25u);
}

TEST(RunAnalysis, AGraphNeverLaunched) {
  Log L;
  L.begin(10);
  L.end(10, 0x100);
  L.instantiate(0x100, 0x200);
  L.totals(10);
  auto Caps = L.run();
  EXPECT_TRUE(Caps[0].Classes.count(classes::NeverLaunched));
}

TEST(RunAnalysis, AnEmptyGraphNeverLaunchedIsFine) {
  Log L; // PyTorch keeps a memory pool alive with an empty capture
  L.begin(10);
  L.end(10, 0x100).GraphNodes.clear();
  L.instantiate(0x100, 0x200, 0);
  L.totals(10);
  auto Caps = L.run();
  EXPECT_TRUE(Caps[0].Classes.empty());
}

TEST(RunAnalysis, ALaunchWithoutItsCountStillCounts) {
  Log L; // the program died before the count was written
  L.begin(10);
  L.end(10, 0x100);
  L.instantiate(0x100, 0x200);
  L.add(EventKind::FirstLaunch, "cudaGraphLaunch").Exec = 0x200;
  auto Caps = L.run();
  EXPECT_EQ(Caps[0].Launches, 1u);
  EXPECT_FALSE(Caps[0].Classes.count(classes::NeverLaunched));
}

TEST(RunAnalysis, CaptureChurnAndItsFoldedReport) {
  Log L;
  for (uint64_t I = 0; I < 5; ++I) {
    L.begin(10);
    L.launch("/p+0x20");
    L.end(10, 0x100 + I);
    L.instantiate(0x100 + I, 0x200 + I);
    L.launches(0x200 + I, 1);
  }
  L.totals(0);
  auto Caps = L.run();
  ASSERT_EQ(Caps.size(), 5u);
  for (const CaptureRecord &C : Caps)
    EXPECT_TRUE(C.Classes.count(classes::CaptureChurn));
  aggregateIdentical(Caps);
  ASSERT_EQ(Caps.size(), 1u);
  EXPECT_EQ(Caps[0].Repeats, 5u);
  EXPECT_EQ(Caps[0].LastId, 5u);
  EXPECT_EQ(Caps[0].Launches, 5u);
  std::string S = summarize(ProbeReport{"cuda", {}, 0, "", Caps, {}, {}});
  EXPECT_NE(S.find("and 4 identical, up to capture 5"), std::string::npos) << S;
}

TEST(RunAnalysis, DifferentCapturesAreNotFolded) {
  Log L;
  L.begin(10);
  L.launch("/p+0x20");
  L.end(10, 0x100);
  L.begin(10);
  L.launch("/p+0x20");
  L.launch("/p+0x30"); // one more launch
  L.end(10, 0x101);
  auto Caps = L.run();
  aggregateIdentical(Caps);
  EXPECT_EQ(Caps.size(), 2u);
}

TEST(RunAnalysis, IdenticalCapturesKeepTheirCallsOnceWhileRead) {
  Log L; // memory per capture, not per call: later copies drop their calls
  for (uint64_t I = 0; I < 4; ++I) {
    L.begin(10);
    L.launch("/p+0x20");
    L.launch("/p+0x28");
    L.end(10, 0x100 + I);
  }
  auto Caps = L.run();
  ASSERT_EQ(Caps.size(), 4u);
  EXPECT_EQ(Caps[0].Calls.size(), 2u);
  EXPECT_FALSE(Caps[0].CallsShared);
  for (size_t I = 1; I < 4; ++I) {
    EXPECT_TRUE(Caps[I].Calls.empty()) << I;
    EXPECT_TRUE(Caps[I].CallsShared) << I;
    EXPECT_EQ(Caps[I].CallsGroup, Caps[0].CallsGroup) << I;
  }
  aggregateIdentical(Caps);
  ASSERT_EQ(Caps.size(), 1u);
  EXPECT_EQ(Caps[0].Repeats, 4u);
  ASSERT_EQ(Caps[0].Calls.size(), 2u);
  EXPECT_EQ(Caps[0].Calls[0].Seq, 2u); // the first capture's own calls
  EXPECT_EQ(Caps[0].CallsFrom, 0u);
}

TEST(RunAnalysis, TheLowestCaptureKeepsTheCallsWhenItEndsLast) {
  Log L; // capture 1 (thread 1) ends after capture 2 (thread 2)
  L.begin(10, {"/p+0x10"}, 1);
  L.launch("/p+0x20", 1, 1);
  L.begin(11, {"/p+0x10"}, 2);
  L.launch("/p+0x20", 1, 2);
  L.end(11, 0x101, 0, 2);
  L.end(10, 0x100, 0, 1);
  auto Caps = L.run();
  ASSERT_EQ(Caps.size(), 2u);
  EXPECT_EQ(Caps[0].Calls.size(), 1u);
  EXPECT_TRUE(Caps[1].CallsShared);
  aggregateIdentical(Caps);
  ASSERT_EQ(Caps.size(), 1u);
  EXPECT_EQ(Caps[0].Calls.at(0).Seq, 2u);
}

TEST(RunAnalysis, ACaptureThatStaysApartListsTheKeptCallsAndSaysWhose) {
  Log L; // same calls, but only the second graph is instantiated per launch
  L.begin(10);
  L.launch("/p+0x20");
  L.end(10, 0x100);
  L.instantiate(0x100, 0x200);
  L.launches(0x200, 5);
  L.begin(10);
  L.launch("/p+0x20");
  L.end(10, 0x101);
  for (uint64_t I = 0; I < 4; ++I) {
    L.instantiate(0x101, 0x300 + I);
    L.launches(0x300 + I, 1);
  }
  auto Caps = L.run();
  aggregateIdentical(Caps);
  ASSERT_EQ(Caps.size(), 2u);
  EXPECT_EQ(Caps[0].CallsFrom, 0u);
  EXPECT_EQ(Caps[1].CallsFrom, Caps[0].Id);
  ASSERT_EQ(Caps[1].Calls.size(), 1u);
  EXPECT_EQ(Caps[1].Calls[0].Api, "cudaLaunchKernel");
  EXPECT_TRUE(Caps[1].Classes.count(classes::InstantiatePerLaunch));
  nlohmann::json J = toJson(ProbeReport{"cuda", {}, 0, "", Caps, {}, {}});
  EXPECT_EQ(J["captures"][1]["calls_from"], Caps[0].Id);
  EXPECT_FALSE(J["captures"][0].contains("calls_from"));
}

TEST(RunAnalysis, AFallbackIsFoundThroughCallsKeptByAnotherCapture) {
  Log L; // two identical failed captures; the eager rerun follows the second
  for (int I = 0; I < 2; ++I) {
    L.begin(10);
    L.launch("/p+0x20");
    L.end(10, 0, 901);
  }
  L.launch("/p+0x20", 0);
  auto Caps = L.run();
  ASSERT_EQ(Caps.size(), 2u);
  EXPECT_TRUE(Caps[1].CallsShared);
  EXPECT_TRUE(Caps[1].Classes.count(classes::SilentFallback));
}

TEST(RunAnalysis, ACallRepeatedInACaptureIsKeptOnceWithItsCount) {
  Log L; // a loop of launches: memory per distinct call, not per launch
  L.begin(10);
  for (int I = 0; I < 1000; ++I)
    L.launch("/p+0x20");
  L.launch("/p+0x28"); // another site
  L.sync(10, 0xe1, true);
  L.sync(20, 0xe1, false); // a fork: another stream, kept apart
  L.sync(20, 0xe2, true);
  L.sync(10, 0xe2, false);
  L.end(10, 0x100);
  auto Caps = L.run();
  ASSERT_EQ(Caps.size(), 1u);
  const auto &Calls = Caps[0].Calls;
  ASSERT_EQ(Calls.size(), 6u);
  EXPECT_EQ(Calls[0].Repeats, 1000u);
  EXPECT_EQ(Calls[0].Seq, 2u);
  EXPECT_EQ(Calls[0].LastSeq, 1001u);
  EXPECT_EQ(Calls[1].Repeats, 1u);
  EXPECT_TRUE(Caps[0].Unjoined.empty()); // joined back: the fork followed
  nlohmann::json J = toJson(ProbeReport{"cuda", {}, 0, "", Caps, {}, {}});
  EXPECT_EQ(J["captures"][0]["calls"][0]["repeats"], 1000u);
  EXPECT_FALSE(J["captures"][0]["calls"][1].contains("repeats"));
  ProbeReport Back;
  std::string Error;
  ASSERT_TRUE(fromJson(J, Back, Error)) << Error;
  EXPECT_EQ(Back.Captures[0].Calls[0].Repeats, 1000u);
}

TEST(RunAnalysis, OneGraphInstantiatedPerLaunch) {
  Log L;
  L.begin(10);
  L.end(10, 0x100);
  for (uint64_t I = 0; I < 4; ++I) {
    L.instantiate(0x100, 0x200 + I);
    L.launches(0x200 + I, 1);
  }
  auto Caps = L.run();
  EXPECT_EQ(Caps[0].Instantiations, 4u);
  EXPECT_TRUE(Caps[0].Classes.count(classes::InstantiatePerLaunch));
  EXPECT_FALSE(Caps[0].Classes.count(classes::CaptureChurn));
}

TEST(RunAnalysis, ExecUpdateCreditsLaunchesToTheRightCapture) {
  Log L;
  L.begin(10);
  L.end(10, 0x100);
  L.instantiate(0x100, 0x200);
  L.add(EventKind::FirstLaunch, "cudaGraphLaunch").Exec = 0x200;
  L.begin(10);
  L.launch("/p+0x50");
  L.end(10, 0x101);
  Event &U = L.add(EventKind::ExecUpdate, "cudaGraphExecUpdate");
  U.Exec = 0x200;
  U.Graph = 0x101;
  U.Count = 7; // launches of the first graph
  Event &N = L.add(EventKind::Launches, "(exit)");
  N.Exec = 0x200;
  N.Count = 10;
  auto Caps = L.run();
  EXPECT_EQ(Caps[0].Launches, 7u);
  EXPECT_EQ(Caps[1].Launches, 3u);
}

TEST(RunAnalysis, RecaptureAndExecUpdateIsNoChurn) {
  // NVIDIA's jacobiCudaGraphs -gpumethod=1: one instantiation, then every
  // iteration captures again and updates the executable graph with it.
  Log L;
  for (uint64_t I = 0; I < 5; ++I) {
    L.begin(10);
    L.launch("/p+0x20");
    L.end(10, 0x100 + I);
    if (I == 0) {
      L.instantiate(0x100, 0x200);
      L.add(EventKind::FirstLaunch, "cudaGraphLaunch").Exec = 0x200;
    } else {
      Event &U = L.add(EventKind::ExecUpdate, "cudaGraphExecUpdate");
      U.Exec = 0x200;
      U.Graph = 0x100 + I;
      U.Count = I; // one launch of each graph before it
    }
  }
  Event &N = L.add(EventKind::Launches, "(exit)");
  N.Exec = 0x200;
  N.Count = 5;
  L.totals(0);
  auto Caps = L.run();
  ASSERT_EQ(Caps.size(), 5u);
  EXPECT_EQ(Caps[0].Instantiations, 1u);
  EXPECT_EQ(Caps[0].Updates, 0u);
  for (size_t I = 1; I < Caps.size(); ++I) {
    EXPECT_EQ(Caps[I].Instantiations, 0u); // updates are no instantiations
    EXPECT_EQ(Caps[I].Updates, 1u);
  }
  for (const CaptureRecord &C : Caps) {
    EXPECT_EQ(C.Launches, 1u);
    EXPECT_FALSE(C.Classes.count(classes::CaptureChurn));
    EXPECT_FALSE(C.Classes.count(classes::InstantiatePerLaunch));
    EXPECT_FALSE(C.Classes.count(classes::NeverLaunched));
  }
}

TEST(RunAnalysis, AFreeOfAGraphsBufferThenALaunch) {
  Log L;
  L.begin(10);
  L.end(10, 0x100);
  L.instantiate(0x100, 0x200);
  L.add(EventKind::FirstLaunch, "cudaGraphLaunch").Exec = 0x200;
  Event &F = L.add(EventKind::FreedWhileHeld, "cudaFree");
  F.Exec = 0x200;
  F.Frames = {"/p+0x90"};
  auto NoLaunch = L.run();
  EXPECT_FALSE(NoLaunch[0].Classes.count(classes::FreedWhileHeld));
  Event &S = L.add(EventKind::StaleLaunch, "cudaGraphLaunch");
  S.Exec = 0x200;
  S.Frames = {"/p+0xa0"};
  auto Caps = L.run();
  EXPECT_TRUE(Caps[0].Classes.count(classes::FreedWhileHeld));
  ASSERT_TRUE(Caps[0].StaleFree && Caps[0].StaleLaunch);
  EXPECT_EQ(Caps[0].StaleFree->Api, "cudaFree");
  EXPECT_EQ(Caps[0].StaleFree->Frames, std::vector<std::string>{"/p+0x90"});
  EXPECT_EQ(Caps[0].StaleLaunch->Frames, std::vector<std::string>{"/p+0xa0"});
}

TEST(RunAnalysis, ATensorTheCachingAllocatorTookBackThenAReplay) {
  // PyTorch: the probe's Python hook saw the storage of a tensor the graph
  // reads released (no cudaFree), with the node that reads it and the
  // Python line where its last reference went; then the graph's replay.
  Log L;
  Event &B = L.begin(10);
  B.PyFrames = {"/u/lifetime.py:28:capture_dropped"};
  L.end(10, 0x100);
  L.instantiate(0x100, 0x200);
  Event &F = L.add(EventKind::FreedWhileHeld, "caching-allocator free");
  F.Exec = 0x200;
  F.Count = 0x7f0000800000;
  const std::string Node = "kernel node 1 of 1 (at::native::vectorized_"
                           "elementwise_kernel), argument 2";
  const std::vector<std::string> FreeAt = {"/u/lifetime.py:55:main"},
                                 LaunchAt = {"/u/lifetime.py:44:replay_error",
                                             "/u/lifetime.py:59:main"};
  F.Node = Node;
  F.PyFrames = FreeAt;
  Event &S = L.add(EventKind::StaleLaunch, "cudaGraphLaunch");
  S.Exec = 0x200;
  S.PyFrames = LaunchAt;
  auto Caps = L.run();
  ASSERT_TRUE(Caps[0].StaleFree && Caps[0].StaleLaunch);
  EXPECT_TRUE(Caps[0].Classes.count(classes::FreedWhileHeld));
  EXPECT_EQ(Caps[0].StaleFree->Api, "caching-allocator free");
  EXPECT_EQ(Caps[0].StaleFree->Node, Node);
  EXPECT_TRUE(Caps[0].StaleFree->ResultName.empty());
  EXPECT_EQ(Caps[0].StaleFree->PyFrames, FreeAt);
  EXPECT_EQ(Caps[0].StaleLaunch->PyFrames, LaunchAt);
  ProbeReport R{"cuda", {}, 0, "", Caps, {}, {}};
  Symbolizer().symbolize(R);
  std::string Text = summarize(R);
  EXPECT_NE(Text.find("[freed-while-held] PyTorch's caching allocator took "
                      "back a tensor's memory that the instantiated graph "
                      "uses (kernel node 1 of 1 (at::native::vectorized_"
                      "elementwise_kernel), argument 2), at "
                      "/u/lifetime.py:55 in main; the graph was launched "
                      "after it at /u/lifetime.py:44 in replay_error"),
            std::string::npos)
      << Text;
}

TEST(RunAnalysis, ACachingAllocatorFreeWithNoLaunchAfterIsNoFinding) {
  // The kept look-alike at exit: storages die after the last replay.
  Log L;
  L.begin(10);
  L.end(10, 0x100);
  L.instantiate(0x100, 0x200);
  L.add(EventKind::FirstLaunch, "cudaGraphLaunch").Exec = 0x200;
  Event &F = L.add(EventKind::FreedWhileHeld, "caching-allocator free");
  F.Exec = 0x200;
  F.Node = "kernel node 1 of 1, argument 0";
  auto Caps = L.run();
  EXPECT_FALSE(Caps[0].Classes.count(classes::FreedWhileHeld));
  EXPECT_FALSE(Caps[0].StaleFree);
}

TEST(RunAnalysis, SilentFallbackAfterAFailedCapture) {
  Log L;
  L.begin(10);
  L.launch("/p+0x20");
  L.add(EventKind::Call, "cudaStreamSynchronize", 900);
  L.end(10, 0, 901);
  Event &Eager = L.launch("/p+0x20", 0); // the same launch, outside
  Eager.AfterFailedCapture = true;
  auto Caps = L.run();
  EXPECT_TRUE(Caps[0].Classes.count(classes::SilentFallback));
  ASSERT_TRUE(Caps[0].Fallback.has_value());
  EXPECT_EQ(Caps[0].Fallback->Api, "cudaLaunchKernel");
}

TEST(RunAnalysis, OtherWorkAfterAFailedCaptureIsNoFallback) {
  Log L;
  L.begin(10);
  L.launch("/p+0x20");
  L.end(10, 0, 904);
  L.launch("/p+0x70", 0).AfterFailedCapture = true;
  auto Caps = L.run();
  EXPECT_FALSE(Caps[0].Classes.count(classes::SilentFallback));
}

// In a Python program a call matches only from the same Python line (the
// native launch site is every operator's). The failed capture's kernels all
// running again eagerly, from other lines (a fallback path calling the same
// model through another wrapper), are the fallback too.
TEST(RunAnalysis, TheSameKernelsFromAnotherPythonLineAreTheFallback) {
  Log L;
  L.begin(10);
  Event &A = L.launch("/p+0x20");
  A.Kernel = 0xa, A.PyFrames = {"model.py:10:forward"};
  Event &B = L.launch("/p+0x20");
  B.Kernel = 0xb, B.PyFrames = {"model.py:11:forward"};
  L.add(EventKind::Call, "cudaStreamSynchronize", 900);
  L.end(10, 0, 901);
  Event &First = L.launch("/p+0x20", 0);
  First.Kernel = 0xa, First.AfterFailedCapture = true;
  First.PyFrames = {"eager.py:5:run"};
  auto Partial = L.run();
  EXPECT_FALSE(Partial[0].Classes.count(classes::SilentFallback));
  Event &Second = L.launch("/p+0x20", 0);
  Second.Kernel = 0xb, Second.AfterFailedCapture = true;
  Second.PyFrames = {"eager.py:6:run"};
  auto Caps = L.run();
  EXPECT_TRUE(Caps[0].Classes.count(classes::SilentFallback));
  ASSERT_TRUE(Caps[0].Fallback.has_value());
  EXPECT_EQ(Caps[0].Fallback->PyFrames.front(), "eager.py:6:run");
}

// One kernel (a fill) run again from another Python line says nothing:
// ordinary work uses it too.
TEST(RunAnalysis, OneKernelFromAnotherPythonLineIsNoFallback) {
  Log L;
  L.begin(10);
  Event &A = L.launch("/p+0x20");
  A.Kernel = 0xa, A.PyFrames = {"model.py:10:forward"};
  L.end(10, 0, 904);
  Event &Eager = L.launch("/p+0x20", 0);
  Eager.Kernel = 0xa, Eager.AfterFailedCapture = true;
  Eager.PyFrames = {"train.py:40:step"};
  auto Caps = L.run();
  EXPECT_FALSE(Caps[0].Classes.count(classes::SilentFallback));
}

namespace {
ProbeReport rankReport(std::vector<std::vector<std::string>> Captures) {
  ProbeReport R;
  unsigned Id = 1;
  for (auto &Coll : Captures) {
    CaptureRecord C;
    C.Id = C.LastId = Id++;
    C.Succeeded = true;
    C.Collectives = Coll;
    R.Captures.push_back(C);
  }
  return R;
}
} // namespace

TEST(RankCompare, SameCollectivesAgree) {
  std::string Text;
  EXPECT_TRUE(compareRanks({rankReport({{"ncclDevKernel_AllReduce_Sum_f32"}}),
                            rankReport({{"ncclDevKernel_AllReduce_Sum_f32"}})},
                           {"r0.json", "r1.json"}, Text))
      << Text;
}

TEST(RankCompare, TheFirstDivergenceIsNamed) {
  std::string Text;
  EXPECT_FALSE(
      compareRanks({rankReport({{"ncclDevKernel_AllReduce_Sum_f32"},
                                {"ncclDevKernel_AllGather"}}),
                    rankReport({{"ncclDevKernel_AllReduce_Sum_f32"},
                                {"ncclDevKernel_ReduceScatter_Sum_f32"}})},
                   {"r0.json", "r1.json"}, Text));
  EXPECT_NE(Text.find("2nd graph with collectives, collective 1"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("ncclDevKernel_ReduceScatter_Sum_f32"),
            std::string::npos);
}

TEST(RankCompare, AMissingCaptureIsADivergence) {
  std::string Text;
  EXPECT_FALSE(compareRanks(
      {rankReport({{"ncclA"}, {"ncclB"}}), rankReport({{"ncclA"}})},
      {"r0.json", "r1.json"}, Text));
  EXPECT_NE(Text.find("rank 1 captured only 1"), std::string::npos) << Text;
}
