/* Declaration-only stand-in for NVIDIA's nvml.h (not installed here); written
   for capture-lint's roles-across-files measurement. Never linked. */
#pragma once
typedef enum nvmlReturn_enum { NVML_SUCCESS = 0, NVML_ERROR_UNKNOWN = 999 } nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
#ifdef __cplusplus
extern "C" {
#endif
const char *nvmlErrorString(nvmlReturn_t result);
nvmlReturn_t nvmlInit_v2(void);
nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceGetCpuAffinity(nvmlDevice_t device, unsigned int cpuSetSize, unsigned long *cpuSet);
#ifdef __cplusplus
}
#endif
