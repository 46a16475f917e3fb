//===- GraphBuffers.h - The device memory a graph's nodes use ---*- C++ -*-===//
//
// What an executable graph reads and writes, as its nodes' parameters say:
// each pointer-sized kernel argument, each copy's source and target, each
// memset's target, with the node it belongs to. Kept per executable graph,
// it answers "does this graph use any byte of [Address, Address + Size)?"
// and names the node that does, which is how a block freed while a graph
// still uses it (cudaFree, or PyTorch's caching allocator taking back a
// tensor's storage) is found and reported at the graph's next launch.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_GRAPHBUFFERS_H
#define CAPTURE_PROBE_GRAPHBUFFERS_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace capture_probe {

enum class NodeKind : uint8_t { Kernel, Memcpy, Memset, Other };

/// A device address a node uses. Operand: the kernel argument's index, or
/// one of the copy and memset operands below.
struct BufferUse {
  uint64_t Address = 0;
  uint32_t Node = 0; // index into the graph's nodes
  int32_t Operand = 0;
};
inline constexpr int32_t CopySource = -1, CopyTarget = -2, MemsetTarget = -3;

class GraphBuffers {
public:
  /// Adds node \p Kind (kernel: its function's handle, to name it later)
  /// and returns its index.
  uint32_t addNode(NodeKind Kind, uint64_t Kernel = 0);
  void addUse(uint32_t Node, int32_t Operand, uint64_t Address);
  /// Sorts the uses by address; needed before usesRange.
  void finish();

  /// The use of the lowest address in [Address, Address + Size), or null.
  const BufferUse *usesRange(uint64_t Address, uint64_t Size) const;
  /// "kernel node 2 of 3 (at::native::mul_kernel), argument 1", "memcpy
  /// node 1 of 3 (source)"; \p KernelName names a kernel handle ("" when
  /// unknown).
  std::string
  describe(const BufferUse &U,
           const std::function<std::string(uint64_t)> &KernelName) const;

  const std::vector<BufferUse> &uses() const { return Uses; }
  size_t nodes() const { return Kinds.size(); }
  /// The addresses used, each once, in order.
  std::vector<uint64_t> addresses() const;

private:
  std::vector<BufferUse> Uses;
  std::vector<NodeKind> Kinds;
  std::vector<uint64_t> Kernels;
};

/// A kernel's name as the driver gives it (mangled or not) made short for a
/// report: demangled, without template arguments or parameter list
/// ("at::native::vectorized_elementwise_kernel"); unchanged when it does not
/// demangle (Triton's "triton_poi_fused_mul_0").
std::string shortKernelName(const std::string &Name);

} // namespace capture_probe

#endif // CAPTURE_PROBE_GRAPHBUFFERS_H
