//===- GraphBuffersTest.cpp - Which node uses a freed block ---------------===//
//
// The matching behind freed-while-held: a graph's nodes and the addresses
// they use, a freed range (a cudaFree'd allocation, or a tensor storage
// PyTorch's caching allocator took back) matched against them, the node
// named; and Python frames handed over by the probe's PyTorch hook.
//
//===----------------------------------------------------------------------===//

#include "capture_probe/GraphBuffers.h"
#include "capture_probe/PythonStack.h"
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

/// A graph like `out = x * scale` then a copy out and a memset: one
/// elementwise kernel reading two 4 MiB tensors and writing a third.
GraphBuffers threeNodes() {
  GraphBuffers B;
  uint32_t K = B.addNode(NodeKind::Kernel, 0xf00);
  B.addUse(K, 2, 0x7f0000400000); // x
  B.addUse(K, 2, 0x7f0000800000); // scale
  B.addUse(K, 2, 0x7f0000000000); // out
  B.addUse(K, 0, 0);              // a null pointer: no use
  uint32_t C = B.addNode(NodeKind::Memcpy);
  B.addUse(C, CopySource, 0x7f0000000000);
  B.addUse(C, CopyTarget, 0x7f0001000000);
  uint32_t S = B.addNode(NodeKind::Memset);
  B.addUse(S, MemsetTarget, 0x7f0001000100);
  B.addNode(NodeKind::Other); // a host node
  B.finish();
  return B;
}

std::string nameOf(uint64_t Kernel) {
  return Kernel == 0xf00 ? "_ZN2at6native29vectorized_elementwise_"
                           "kernelILi4ENS0_10MulFunctorIfEESt5arrayIPcLm3EEEEvi"
                           "T0_T1_"
                         : "";
}

TEST(GraphBuffers, FindsTheNodeUsingAnyByteOfARange) {
  GraphBuffers B = threeNodes();
  EXPECT_EQ(B.nodes(), 4u);
  EXPECT_EQ(B.uses().size(), 6u); // the null argument is no use
  // scale's storage, exactly.
  const BufferUse *U = B.usesRange(0x7f0000800000, 4 << 20);
  ASSERT_TRUE(U);
  EXPECT_EQ(U->Node, 0u);
  EXPECT_EQ(U->Address, 0x7f0000800000u);
  // A block holding the address in its middle.
  U = B.usesRange(0x7f00007ff000, 0x2000);
  ASSERT_TRUE(U);
  EXPECT_EQ(U->Address, 0x7f0000800000u);
  // The memset's target, 256 bytes into a block.
  U = B.usesRange(0x7f0001000080, 0x100);
  ASSERT_TRUE(U);
  EXPECT_EQ(U->Node, 2u);
}

TEST(GraphBuffers, RangesAroundTheUsesMatchNothing) {
  GraphBuffers B = threeNodes();
  // The block just below scale ends where scale begins.
  EXPECT_FALSE(B.usesRange(0x7f0000700000, 0x100000));
  // Just past the memset's target.
  EXPECT_FALSE(B.usesRange(0x7f0001000101, 0x1000));
  EXPECT_FALSE(B.usesRange(0x7f0002000000, 1 << 20));
  EXPECT_FALSE(B.usesRange(0x7f0000400000, 0)); // an empty range
  EXPECT_FALSE(GraphBuffers().usesRange(0x7f0000400000, 1 << 20));
}

TEST(GraphBuffers, NamesTheNodeAndOperand) {
  GraphBuffers B = threeNodes();
  EXPECT_EQ(B.describe(*B.usesRange(0x7f0000800000, 16), nameOf),
            "kernel node 1 of 4 (at::native::vectorized_elementwise_kernel), "
            "argument 2");
  // The copy reads `out` and writes its target; the lowest use is named.
  EXPECT_EQ(B.describe(*B.usesRange(0x7f0001000000, 16), nameOf),
            "memcpy node 2 of 4 (target)");
  EXPECT_EQ(B.describe(*B.usesRange(0x7f0001000100, 16), nameOf),
            "memset node 3 of 4 (target)");
  // A kernel whose name is unknown.
  GraphBuffers C;
  C.addUse(C.addNode(NodeKind::Kernel, 0xbad), 1, 0x7f0000000000);
  C.finish();
  EXPECT_EQ(C.describe(*C.usesRange(0x7f0000000000, 8), nameOf),
            "kernel node 1 of 1, argument 1");
}

TEST(GraphBuffers, AddressesOnceInOrder) {
  GraphBuffers B = threeNodes();
  EXPECT_EQ(B.addresses(), (std::vector<uint64_t>{
                               0x7f0000000000, 0x7f0000400000, 0x7f0000800000,
                               0x7f0001000000, 0x7f0001000100}));
}

TEST(GraphBuffers, ShortKernelNames) {
  EXPECT_EQ(shortKernelName(nameOf(0xf00)),
            "at::native::vectorized_elementwise_kernel");
  // Triton's kernels (Inductor) and C names do not demangle: unchanged.
  EXPECT_EQ(shortKernelName("triton_poi_fused_mul_0"),
            "triton_poi_fused_mul_0");
  // A kernel in an anonymous namespace keeps its namespace.
  EXPECT_EQ(shortKernelName("_ZN12_GLOBAL__N_15scaleEPfi"),
            "(anonymous namespace)::scale");
}

TEST(PythonHookFrames, KeepsTheUsersFramesOnly) {
  std::string Lines =
      "/opt/build/capture_probe_python/capture_probe_torch.py:120:released\n"
      "/home/u/train.py:63:main\n"
      "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/module.py:9:f\n"
      "/home/u/train.py:80:<module>";
  EXPECT_EQ(userPythonFrames(Lines),
            (std::vector<std::string>{"/home/u/train.py:63:main",
                                      "/home/u/train.py:80:<module>"}));
  EXPECT_EQ(userPythonFrames(Lines, 1),
            std::vector<std::string>{"/home/u/train.py:63:main"});
  EXPECT_TRUE(userPythonFrames("").empty());
  EXPECT_TRUE(userPythonFrames("not a frame\n").empty());
}

} // namespace
