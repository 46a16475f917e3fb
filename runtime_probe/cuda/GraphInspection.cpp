//===- GraphInspection.cpp - One walk over a captured graph ---------------===//
//
// See GraphInspection.h.
//
//===----------------------------------------------------------------------===//

#include "GraphInspection.h"
#include "CallbackData.h"
#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace capture_probe {
namespace {

/// A kernel parameter that may hold device pointers: one the size of a
/// pointer, or a structure passed by value (PyTorch's elementwise kernels
/// take their operands as a std::array<char *, N>), read as 8-byte words.
struct ParamWords {
  unsigned Arg = 0, Words = 0;
};
/// The words of a structure read for pointers, at most.
constexpr unsigned MaxParamWords = 64;
/// Smaller words are no device addresses.
constexpr uint64_t LowestDeviceAddress = 1 << 16;

/// What the probe needs of a kernel, looked up once per CUfunction or
/// CUkernel handle: its name and which parameters are pointer-sized. Both
/// are fixed for the handle's life; the cache is cleared when a module or
/// library is unloaded (a handle may then be reused). Saves a driver call
/// per kernel node and parameter on every graph walk.
struct KernelInfo {
  std::optional<std::string> Name;
  std::optional<std::vector<ParamWords>> PointerParams;
};
std::mutex KernelLock;
std::unordered_map<uint64_t, KernelInfo> &KernelCache =
    *new std::unordered_map<uint64_t, KernelInfo>;

uint64_t kernelKey(const CUDA_KERNEL_NODE_PARAMS &P) {
  return P.func ? uint64_t(uintptr_t(P.func)) : uint64_t(uintptr_t(P.kern));
}

/// The kernel's name, if the driver gives one.
std::optional<std::string> kernelName(const CUDA_KERNEL_NODE_PARAMS &P) {
  uint64_t Key = kernelKey(P);
  {
    std::lock_guard<std::mutex> G(KernelLock);
    auto It = KernelCache.find(Key);
    if (It != KernelCache.end() && It->second.Name)
      return It->second.Name;
  }
  const char *Name = nullptr;
  if (P.func && cuFuncGetName(&Name, P.func) != CUDA_SUCCESS)
    Name = nullptr;
  if (!Name && P.kern && cuKernelGetName(&Name, P.kern) != CUDA_SUCCESS)
    Name = nullptr;
  if (!Name)
    return std::nullopt; // not cached: asked again next time
  std::lock_guard<std::mutex> G(KernelLock);
  return KernelCache[Key].Name = std::string(Name);
}

/// The kernel's parameters that may hold pointers: those the size of a
/// pointer and structures of whole 8-byte words.
std::optional<std::vector<ParamWords>>
pointerParams(const CUDA_KERNEL_NODE_PARAMS &P) {
  uint64_t Key = kernelKey(P);
  {
    std::lock_guard<std::mutex> G(KernelLock);
    auto It = KernelCache.find(Key);
    if (It != KernelCache.end() && It->second.PointerParams)
      return It->second.PointerParams;
  }
  CUfunction F = P.func;
  if (!F && P.kern && cuKernelGetFunction(&F, P.kern) != CUDA_SUCCESS)
    F = nullptr;
  if (!F)
    return std::nullopt;
  std::vector<ParamWords> Out;
  size_t Offset, Size;
  for (unsigned A = 0;
       A < 64 && cuFuncGetParamInfo(F, A, &Offset, &Size) == CUDA_SUCCESS; ++A)
    if (Size >= sizeof(uint64_t) && Size % sizeof(uint64_t) == 0 &&
        Offset % sizeof(uint64_t) == 0)
      Out.push_back(
          {A, std::min(unsigned(Size / sizeof(uint64_t)), MaxParamWords)});
  std::lock_guard<std::mutex> G(KernelLock);
  return KernelCache[Key].PointerParams = std::move(Out);
}

/// Adds a kernel node's collective name and argument addresses to \p S;
/// false if \p Node is no kernel node.
bool inspectKernelNode(CUgraphNode Node, unsigned What, GraphSummary &S) {
  CUDA_KERNEL_NODE_PARAMS P;
  std::memset(&P, 0, sizeof P);
  if (cuGraphKernelNodeGetParams(Node, &P) != CUDA_SUCCESS)
    return false;
  if (What & WalkCollectives) {
    auto Name = kernelName(P);
    if (Name && Name->find("nccl") != std::string::npos)
      S.Collectives.push_back(std::move(*Name));
  }
  if (!(What & WalkAddresses))
    return true;
  uint32_t Index = S.Buffers->addNode(NodeKind::Kernel, kernelKey(P));
  if (!P.kernelParams)
    return true;
  if (auto Params = pointerParams(P))
    for (const ParamWords &A : *Params)
      if (const char *Value = static_cast<const char *>(P.kernelParams[A.Arg]))
        for (unsigned W = 0; W < A.Words; ++W) {
          uint64_t V;
          std::memcpy(&V, Value + W * sizeof V, sizeof V);
          if (V >= LowestDeviceAddress) // not a size, a count, a flag
            S.Buffers->addUse(Index, int32_t(A.Arg), V);
        }
  return true;
}

/// Adds a copy's or memset's addresses to \p S.
void inspectMemoryNode(CUgraphNode Node, CUgraphNodeType Type,
                       GraphSummary &S) {
  GraphBuffers &B = *S.Buffers;
  if (Type == CU_GRAPH_NODE_TYPE_MEMCPY) {
    uint32_t Index = B.addNode(NodeKind::Memcpy);
    CUDA_MEMCPY3D P;
    std::memset(&P, 0, sizeof P);
    if (cuGraphMemcpyNodeGetParams(Node, &P) == CUDA_SUCCESS) {
      B.addUse(Index, CopySource, uint64_t(P.srcDevice));
      B.addUse(Index, CopyTarget, uint64_t(P.dstDevice));
    }
  } else if (Type == CU_GRAPH_NODE_TYPE_MEMSET) {
    uint32_t Index = B.addNode(NodeKind::Memset);
    CUDA_MEMSET_NODE_PARAMS P;
    std::memset(&P, 0, sizeof P);
    if (cuGraphMemsetNodeGetParams(Node, &P) == CUDA_SUCCESS)
      B.addUse(Index, MemsetTarget, uint64_t(P.dst));
  } else {
    B.addNode(NodeKind::Other);
  }
}

} // namespace

void forgetKernels() {
  std::lock_guard<std::mutex> G(KernelLock);
  KernelCache.clear();
}

/// The graph's nodes by type and, as \p What asks, its collective kernels
/// and the device addresses its nodes use, read with the driver once the
/// graph is complete: one walk for all three.
GraphSummary inspectGraph(CUgraph Graph, unsigned What) {
  GraphSummary S;
  size_t N = 0;
  if (cuGraphGetNodes(Graph, nullptr, &N) != CUDA_SUCCESS || N == 0)
    return S;
  std::vector<CUgraphNode> Nodes(N);
  if (cuGraphGetNodes(Graph, Nodes.data(), &N) != CUDA_SUCCESS)
    return S;
  // Graphs are mostly kernels: a kernel node's parameters are asked for
  // first, and only the other nodes' types (one driver call per node
  // instead of two).
  int Kernels = 0;
  for (size_t I = 0; I < N; ++I) {
    if (What && inspectKernelNode(Nodes[I], What, S)) {
      ++Kernels;
      continue;
    }
    CUgraphNodeType Type;
    if (cuGraphNodeGetType(Nodes[I], &Type) != CUDA_SUCCESS)
      continue;
    ++S.Types[nodeTypeName(Type)];
    if (What & WalkAddresses)
      inspectMemoryNode(Nodes[I], Type, S);
  }
  if (Kernels)
    S.Types[nodeTypeName(CU_GRAPH_NODE_TYPE_KERNEL)] += Kernels;
  S.Buffers->finish();
  return S;
}

/// A kernel's name from the cache the graph walks fill (no driver call).
std::string cachedKernelName(uint64_t Key) {
  std::lock_guard<std::mutex> G(KernelLock);
  auto It = KernelCache.find(Key);
  return It != KernelCache.end() && It->second.Name ? *It->second.Name : "";
}

} // namespace capture_probe
