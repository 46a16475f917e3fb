//===- ScanTestModule.cpp - A library loaded after the first scan ---------===//
//
// EntryPointScanTest loads this after scanning what was loaded before: a
// table of pointers to a function of its own in its writable data, as a
// library loaded late (Triton's compiled launchers) holds driver entry
// points.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

// Of cuStreamSynchronize's type: the scan test calls it through its wrapper.
extern "C" CUresult scanTestSynchronize(CUstream Stream) {
  return Stream ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

extern "C" {
void *ScanTestModuleTable[2] = {reinterpret_cast<void *>(&scanTestSynchronize),
                                nullptr};
}
