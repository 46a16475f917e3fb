// Forced in (-include) for apache/tvm (capture-lint scout): the dlpack mirror here
// is older than the dlpack tvm-ffi pins and lacks the allocator typedef that
// tvm-ffi's c_env_api.h names. Declaration only.
#pragma once
#include <dlpack/dlpack.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef int (*DLPackManagedTensorAllocator)(DLTensor* prototype, DLManagedTensorVersioned** out,
                                            void* error_ctx,
                                            void (*SetError)(void* error_ctx, const char* kind,
                                                             const char* message));
#ifdef __cplusplus
}
#endif
