//===- InductorSourcesTest.cpp - Generated code back to the user's lines --===//
//
// A module in the shape Inductor generates (written for this test: a
// partition that allocates, calls an extern kernel and two Triton kernels
// under source-nodes comments, and a Runner whose call runs the partition),
// the node locations the probe's Python hook records, and frames mapped.
//
//===----------------------------------------------------------------------===//

#include "capture_probe/InductorSources.h"
#include "capture_probe/Symbolizer.h"
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

const char *const Generated = R"(# AOT ID: ['0_inference']
from ctypes import c_void_p, c_long, c_int
import torch
from torch._inductor.select_algorithm import extern_kernels

# kernel path: /tmp/torchinductor_u/ab/cabtwo.py
# Topologically Sorted Source Nodes: [gelu], Original ATen: [aten.gelu]
# Source node to ATen node mapping:
#   gelu => gelu
triton_poi_fused_gelu_0 = async_compile.triton('triton_poi_fused_gelu_0', '''
@triton.jit
def triton_poi_fused_gelu_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
''', device_str='cuda')

def partition_0(args):
    arg0_1, arg1_1, arg2_1 = args
    args.clear()
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((16, 32), (32, 1), torch.float32)
        # Topologically Sorted Source Nodes: [proj], Original ATen: [aten.addmm]
        extern_kernels.addmm(arg1_1, arg2_1, arg0_1, alpha=1, beta=1, out=buf0)
        buf1 = empty_strided_cuda((16, 32), (32, 1), torch.float32)
        # Topologically Sorted Source Nodes: [gelu], Original ATen: [aten.gelu]
        stream0 = get_raw_stream(0)
        triton_poi_fused_gelu_0.run(buf0, buf1, 512, stream=stream0)
        # Source Nodes: [out, scaled], Original ATen: [aten.add, aten.mul]
        triton_poi_fused_add_mul_1.run(buf1, arg0_1, 512, stream=stream0)
    return (buf1, )

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def call(self, args):
        arg0_1, arg1_1, arg2_1 = args
        args.clear()
        partition0_args = [arg0_1, arg1_1, arg2_1]
        (buf1,) = self.partitions[0](partition0_args)
        del partition0_args
        return (buf1, )

runner = Runner(partitions=[partition_0,])
call = runner.call
)";

/// The line of \p Needle in Generated (1-based).
unsigned lineOf(const std::string &Needle) {
  std::string G = Generated;
  size_t At = G.find(Needle);
  unsigned Line = 1;
  for (size_t I = 0; I < At; ++I)
    Line += G[I] == '\n';
  return Line;
}

using Names = std::vector<std::string>;

TEST(InductorSources, TheCommentAboveALaunch) {
  EXPECT_EQ(sourceNodesAt(Generated, lineOf("extern_kernels.addmm")),
            Names{"proj"});
  EXPECT_EQ(sourceNodesAt(Generated, lineOf("triton_poi_fused_gelu_0.run")),
            Names{"gelu"});
  // The older comment, with two nodes.
  EXPECT_EQ(sourceNodesAt(Generated, lineOf("triton_poi_fused_add_mul_1.run")),
            (Names{"out", "scaled"}));
}

TEST(InductorSources, AnAllocationBelongsToTheKernelAfterIt) {
  EXPECT_EQ(sourceNodesAt(Generated, lineOf("buf0 = empty_strided")),
            Names{"proj"});
  EXPECT_EQ(sourceNodesAt(Generated, lineOf("buf1 = empty_strided")),
            Names{"gelu"});
}

TEST(InductorSources, APartitionCallRunsAllOfItsNodes) {
  EXPECT_EQ(sourceNodesAt(Generated, lineOf("self.partitions[0](")),
            (Names{"proj", "gelu", "out", "scaled"}));
}

TEST(InductorSources, LinesWithNoNodes) {
  // Above the first comment of its function; another function's line; out
  // of range.
  EXPECT_TRUE(sourceNodesAt(Generated, lineOf("args.clear()")).empty());
  EXPECT_TRUE(sourceNodesAt(Generated, lineOf("del partition0_args")).empty());
  EXPECT_TRUE(sourceNodesAt(Generated, 0).empty());
  EXPECT_TRUE(sourceNodesAt(Generated, 10000).empty());
}

SourceFrame generatedFrame(unsigned Line, const std::string &Fn) {
  return pythonFrames({"/tmp/torchinductor_u/xy/cxy.py:" +
                       std::to_string(Line) + ":" + Fn})
      .front();
}

TEST(InductorSources, MapsAFrameToTheUsersLine) {
  InductorSources S;
  S.addLines(
      R"({"generated": "/tmp/torchinductor_u/xy/cxy.py", "nodes": {)"
      R"("proj": "/home/u/model.py:14:forward", "gelu": "/home/u/model.py:15:forward"}})"
      "\nnot json\n{\"generated\": 3}\n");
  S.addGenerated("/tmp/torchinductor_u/xy/cxy.py", Generated);
  SourceFrame G =
      generatedFrame(lineOf("triton_poi_fused_gelu_0.run"), "partition_0");
  auto U = S.userFrame(G);
  ASSERT_TRUE(U);
  EXPECT_EQ(U->File, "/home/u/model.py");
  EXPECT_EQ(U->Line, 15u);
  EXPECT_EQ(U->Function, "forward");
  EXPECT_EQ(U->Module, InductorModule);
  EXPECT_EQ(U->Raw, G.Raw); // the generated location, kept
  // A partition's call: its first node with a location.
  U = S.userFrame(generatedFrame(lineOf("self.partitions[0]("), "call"));
  ASSERT_TRUE(U);
  EXPECT_EQ(U->Line, 14u);
  // Nodes the hook did not record, lines with none, other files.
  EXPECT_FALSE(S.userFrame(
      generatedFrame(lineOf("triton_poi_fused_add_mul_1.run"), "partition_0")));
  EXPECT_FALSE(S.userFrame(generatedFrame(lineOf("args.clear()"), "call")));
  EXPECT_FALSE(S.userFrame(pythonFrames({"/home/u/model.py:14:f"}).front()));
}

} // namespace
