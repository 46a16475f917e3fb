//===- GraphInspection.h - What a captured graph holds ----------*- C++ -*-===//
//
// Reads a complete graph with the driver, in one walk: its nodes by type,
// its collective (NCCL) kernels, and the device addresses its nodes use
// (kernel arguments that may hold pointers, copy sources and targets,
// memset targets), for the probe's report and its dead-memory check. What
// it needs of each kernel (its name, which parameters may hold pointers) is
// looked up once per handle and cached. The caller marks the walk as the
// probe's own driver calls.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_GRAPHINSPECTION_H
#define CAPTURE_PROBE_CUDA_GRAPHINSPECTION_H

#include "capture_probe/GraphBuffers.h"
#include <cuda.h>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace capture_probe {

struct GraphSummary {
  std::map<std::string, int> Types;
  std::vector<std::string> Collectives; // NCCL kernels, in node order
  /// Device addresses the nodes use: kernel arguments the size of a
  /// pointer, copy sources and targets, memset targets.
  std::shared_ptr<GraphBuffers> Buffers = std::make_shared<GraphBuffers>();
};

/// What to read besides the node types.
enum GraphWalk : unsigned { WalkCollectives = 1, WalkAddresses = 2 };

/// The graph's nodes by type and, as \p What asks, its collective kernels
/// and the device addresses its nodes use.
GraphSummary inspectGraph(CUgraph Graph, unsigned What);

/// A kernel's name from the cache the graph walks fill (no driver call), or
/// "".
std::string cachedKernelName(uint64_t Key);

/// Clears the kernel cache: a module or library was unloaded, and its
/// handles may be reused.
void forgetKernels();

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_GRAPHINSPECTION_H
