// Stub <nvFatbin.h> (capture-lint scout): the nvFatbin header is not in this
// machine's CUDA include directory. Declarations only.
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
typedef enum { NVFATBIN_SUCCESS = 0 } nvFatbinResult;
typedef struct _nvFatbinHandle* nvFatbinHandle;
nvFatbinResult nvFatbinVersion(unsigned int* major, unsigned int* minor);
const char* nvFatbinGetErrorString(nvFatbinResult result);
#ifdef __cplusplus
}
#endif
