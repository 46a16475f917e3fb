//===- ImportTestDriver.cpp - A stand-in driver for the import-slot test --===//
//
// ImportTestModule links against this (and the test program does not): a
// driver function the module calls through a lazily bound slot, and a
// symbol the module also defines, to tell a lookup relative to the module
// (RTLD_NEXT finds this one) from one relative to the test program.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

extern "C" CUresult CUDAAPI cuEventQuery(CUevent Event) {
  return Event ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

extern "C" int importTestShadowed() { return 2; }
