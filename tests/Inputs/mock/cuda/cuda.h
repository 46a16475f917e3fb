// Mock CUDA driver API header for capture-lint's tests.
#pragma once
#include <stddef.h>
typedef struct CUstream_st *CUstream;
typedef struct CUgraph_st *CUgraph;
typedef unsigned long long CUdeviceptr;
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;
typedef enum CUstreamCaptureMode_enum {
  CU_STREAM_CAPTURE_MODE_GLOBAL = 0,
  CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
  CU_STREAM_CAPTURE_MODE_RELAXED = 2
} CUstreamCaptureMode;
#define cuMemAlloc cuMemAlloc_v2
#define cuMemFree cuMemFree_v2
#define cuMemcpyDtoH cuMemcpyDtoH_v2
#define cuStreamBeginCapture cuStreamBeginCapture_v2
#define cuCtxSynchronize cuCtxSynchronize_v2
extern "C" {
CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode mode);
CUresult cuStreamEndCapture(CUstream s, CUgraph *g);
CUresult cuGraphDestroy(CUgraph g);
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n);
CUresult cuMemFree_v2(CUdeviceptr p);
CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuCtxSynchronize_v2(void);
CUresult cuStreamSynchronize(CUstream s);
}
