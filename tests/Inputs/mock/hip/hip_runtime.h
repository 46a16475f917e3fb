// Mock HIP runtime header for capture-lint's tests (HIP-Clang style: kernel
// launches go through __hipPushCallConfiguration).
#pragma once
#include <stddef.h>
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipGraph *hipGraph_t;
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef enum hipStreamCaptureMode {
  hipStreamCaptureModeGlobal = 0,
  hipStreamCaptureModeThreadLocal,
  hipStreamCaptureModeRelaxed
} hipStreamCaptureMode;
typedef enum hipStreamCaptureStatus {
  hipStreamCaptureStatusNone = 0,
  hipStreamCaptureStatusActive,
  hipStreamCaptureStatusInvalidated
} hipStreamCaptureStatus;
typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4
} hipMemcpyKind;
hipError_t hipStreamCreate(hipStream_t *s);
hipError_t hipStreamBeginCapture(hipStream_t s, hipStreamCaptureMode mode);
hipError_t hipStreamEndCapture(hipStream_t s, hipGraph_t *g);
hipError_t hipGraphDestroy(hipGraph_t g);
hipError_t hipStreamIsCapturing(hipStream_t s, hipStreamCaptureStatus *st);
hipError_t hipMalloc(void **p, size_t n);
hipError_t hipFree(void *p);
hipError_t hipHostMalloc(void **p, size_t n, unsigned flags = 0);
hipError_t hipMallocAsync(void **p, size_t n, hipStream_t s);
hipError_t hipMemcpy(void *d, const void *s, size_t n, hipMemcpyKind k);
hipError_t hipMemcpyAsync(void *d, const void *s, size_t n, hipMemcpyKind k,
                          hipStream_t st = 0);
hipError_t hipMemset(void *p, int v, size_t n);
hipError_t hipDeviceSynchronize(void);
hipError_t hipStreamSynchronize(hipStream_t s);
hipError_t hipLaunchHostFunc(hipStream_t s, void (*fn)(void *), void *data);
extern "C" hipError_t __hipPushCallConfiguration(dim3 g, dim3 b, size_t shm = 0,
                                                 hipStream_t s = 0);
#define hipLaunchKernelGGL(kernel, grid, block, shm, stream, ...)              \
  do {                                                                         \
    kernel<<<(grid), (block), (shm), (stream)>>>(__VA_ARGS__);                 \
  } while (0)
