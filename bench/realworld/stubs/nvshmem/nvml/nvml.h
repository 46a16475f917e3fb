// Stub <nvml.h> (capture-lint scout): NVML's header is not in this machine's
// CUDA include directory. A few types and functions, declarations only.
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
#define NVML_API_VERSION 12
typedef enum nvmlReturn_enum { NVML_SUCCESS = 0, NVML_ERROR_UNINITIALIZED = 1, NVML_ERROR_NOT_SUPPORTED = 3 } nvmlReturn_t;
typedef struct nvmlDevice_st* nvmlDevice_t;
typedef enum nvmlGpuP2PStatus_enum { NVML_P2P_STATUS_OK = 0 } nvmlGpuP2PStatus_t;
typedef enum nvmlGpuP2PCapsIndex_enum { NVML_P2P_CAPS_INDEX_READ = 0, NVML_P2P_CAPS_INDEX_WRITE = 1, NVML_P2P_CAPS_INDEX_NVLINK = 2, NVML_P2P_CAPS_INDEX_ATOMICS = 3 } nvmlGpuP2PCapsIndex_t;
#define NVML_GPU_FABRIC_UUID_LEN 16
#define NVML_GPU_FABRIC_STATE_COMPLETED 3
typedef unsigned char nvmlGpuFabricState_t;
typedef struct {
  unsigned int version;
  unsigned char clusterUuid[NVML_GPU_FABRIC_UUID_LEN];
  nvmlReturn_t status;
  unsigned int cliqueId;
  nvmlGpuFabricState_t state;
  unsigned int healthMask;
} nvmlGpuFabricInfo_v2_t;
typedef nvmlGpuFabricInfo_v2_t nvmlGpuFabricInfoV_t;
#define nvmlGpuFabricInfo_v2 (unsigned int)(sizeof(nvmlGpuFabricInfo_v2_t) | (2 << 24U))
nvmlReturn_t nvmlInit(void);
nvmlReturn_t nvmlInit_v2(void);
nvmlReturn_t nvmlShutdown(void);
const char* nvmlErrorString(nvmlReturn_t result);
nvmlReturn_t nvmlDeviceGetCount(unsigned int* count);
nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t* device);
nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char* pciBusId, nvmlDevice_t* device);
nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t d1, nvmlDevice_t d2, nvmlGpuP2PCapsIndex_t caps, nvmlGpuP2PStatus_t* st);
nvmlReturn_t nvmlDeviceGetGpuFabricInfoV(nvmlDevice_t device, nvmlGpuFabricInfoV_t* info);
#ifdef __cplusplus
}
#endif
