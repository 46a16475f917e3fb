//===- TorchBridge.cpp - What the probe's Python hook tells it ------------===//
//
// PyTorch's caching allocator never calls cudaFree when a tensor dies: the
// block goes back to its pool, and the next tensor of that size gets it. The
// probe's Python hook (runtime_probe/python/capture_probe_torch.py, loaded
// into Python programs that `capture-probe run` starts) watches the tensors
// a graph uses and calls these C functions through ctypes: which storages a
// graph just captured uses, and, before a replay, that one of them was
// released. The backend then reports the graph's next launch as it does
// after a cudaFree.
//
//===----------------------------------------------------------------------===//

#include "CuptiBackend.h"
#include "capture_probe/PythonStack.h"
#include <cstdint>

/// The 1-based index of the node of executable graph \p Exec that uses any
/// byte of [Address, Address + Size), or 0.
extern "C" __attribute__((visibility("default"))) unsigned
capture_probe_exec_uses(uint64_t Exec, uint64_t Address, uint64_t Size) {
  return capture_probe::execUsesRange(Exec, Address, Size);
}

/// The storage at [Address, Address + Size), which \p Exec uses, was
/// released; \p PyFrames: where its last Python reference went, one
/// "file:line:function" a line, innermost first. 1 when reported.
extern "C" __attribute__((visibility("default"))) int
capture_probe_released(uint64_t Exec, uint64_t Address, uint64_t Size,
                       const char *PyFrames) {
  return capture_probe::noteReleased(
             Exec, Address, Size,
             capture_probe::userPythonFrames(PyFrames ? PyFrames : ""))
             ? 1
             : 0;
}
