// The probe_region harness on a real GPU: a clean region, a region whose
// replays silently diverge from its eager runs (a device value read on the
// host through the legacy stream while a non-blocking stream captures, and
// baked into a kernel argument), and a region that fails in global mode.
#include "ProbeRegion.h"
#include <cuda_runtime.h>
#include <gtest/gtest.h>

using namespace capture_probe;

__global__ void fill(float *out, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value * float(i);
}

__global__ void setScalar(float *x, float v) { *x = v; }

struct Buffers {
  float *in = nullptr, *out = nullptr;
  int n = 4096;
  Buffers() {
    cudaMalloc(&in, sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
  }
  ~Buffers() {
    cudaFree(in);
    cudaFree(out);
  }
};

static const CallRecord *findCall(const ProbeReport &R,
                                  const std::string &Api) {
  for (const CaptureRecord &C : R.Captures)
    for (const CallRecord &K : C.Calls)
      if (K.Api.find(Api) != std::string::npos && !K.Classes.empty())
        return &K;
  return nullptr;
}

TEST(Harness, CleanRegionReplaysLikeEager) {
  Buffers b;
  ProbeOptions o;
  o.outputs = {{"out", b.out, b.n * sizeof(float)}};
  o.reset = [&](cudaStream_t s, int k) {
    setScalar<<<1, 1, 0, s>>>(b.in, k + 1.f);
  };
  auto r = probe_region(
      [&](cudaStream_t s) {
        fill<<<(b.n + 255) / 256, 256, 0, s>>>(b.out, 3.f, b.n);
      },
      o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.captured);
  EXPECT_TRUE(r.report.Divergences.empty()) << summarize(r.report);
  ASSERT_EQ(r.report.Captures.size(), 1u);
  EXPECT_EQ(r.report.Captures[0].GraphNodes.at("kernel"), 1);
}

TEST(Harness, HostReadBakedIntoTheGraphDiverges) {
  Buffers b;
  ProbeOptions o;
  o.replays = 3;
  o.outputs = {{"out", b.out, b.n * sizeof(float)}};
  o.reset = [&](cudaStream_t s, int k) {
    setScalar<<<1, 1, 0, s>>>(b.in, k + 1.f);
    cudaStreamSynchronize(s);
  };
  auto r = probe_region(
      [&](cudaStream_t s) {
        float scale = 0;
        // The bug: a synchronous read of a device value. Under capture on a
        // non-blocking stream it runs once, now; the graph keeps the value.
        cudaMemcpy(&scale, b.in, sizeof(float), cudaMemcpyDeviceToHost);
        fill<<<(b.n + 255) / 256, 256, 0, s>>>(b.out, scale, b.n);
      },
      o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.captured);
  // Replay 0 matches (same input as at capture); later replays do not.
  ASSERT_EQ(r.report.Divergences.size(), 2u) << summarize(r.report);
  EXPECT_EQ(r.report.Divergences[0].Replay, 1u);
  EXPECT_EQ(r.report.Divergences[0].Output, "out");
  const CallRecord *copy = findCall(r.report, "cudaMemcpy");
  ASSERT_NE(copy, nullptr) << summarize(r.report);
  EXPECT_TRUE(copy->Classes.count(classes::UncapturedWork));
  ASSERT_TRUE(copy->Site.has_value());
  EXPECT_NE(copy->Site->File.find("harness_test.cu"), std::string::npos)
      << summarize(r.report);
}

TEST(Harness, GlobalModeAllocationFailsTheCapture) {
  Buffers b;
  ProbeOptions o;
  o.mode = CaptureMode::Global;
  auto r = probe_region(
      [&](cudaStream_t s) {
        float *tmp = nullptr;
        cudaMalloc(&tmp, 1 << 20);
        fill<<<1, 256, 0, s>>>(b.out, 1.f, 256);
      },
      o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.captured);
  const CallRecord *m = findCall(r.report, "cudaMalloc");
  ASSERT_NE(m, nullptr) << summarize(r.report);
  EXPECT_EQ(m->Result, 900);
  EXPECT_TRUE(m->FirstError);
  EXPECT_TRUE(r.report.allClasses().count(classes::CaptureFailed));
}

TEST(Harness, RelaxedModeAllocationRunsEagerly) {
  Buffers b;
  ProbeOptions o;
  o.mode = CaptureMode::Relaxed;
  o.non_blocking = false;
  float *tmp = nullptr;
  auto r = probe_region(
      [&](cudaStream_t s) {
        if (!tmp)
          cudaMalloc(&tmp, 1 << 20);
        fill<<<1, 256, 0, s>>>(b.out, 1.f, 256);
      },
      o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.captured);
  EXPECT_TRUE(r.report.Captures.at(0).NonBlocking ==
              std::optional<bool>(false));
  cudaFree(tmp);
}
