// Minimal nvPTXCompiler declarations (bench/realworld stub: the static
// library's header is not part of this machine's CUDA install).
#pragma once
#include <stddef.h>
typedef struct nvPTXCompiler *nvPTXCompilerHandle;
typedef enum {
  NVPTXCOMPILE_SUCCESS = 0,
  NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE = 1,
  NVPTXCOMPILE_ERROR_INVALID_INPUT = 2,
  NVPTXCOMPILE_ERROR_COMPILATION_FAILURE = 3,
  NVPTXCOMPILE_ERROR_INTERNAL = 4,
  NVPTXCOMPILE_ERROR_OUT_OF_MEMORY = 5,
  NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE = 6,
  NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION = 7,
  NVPTXCOMPILE_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 8,
  NVPTXCOMPILE_ERROR_CANCELLED = 9
} nvPTXCompileResult;
extern "C" {
nvPTXCompileResult nvPTXCompilerCreate(nvPTXCompilerHandle *c, size_t len,
                                       const char *ptx);
nvPTXCompileResult nvPTXCompilerDestroy(nvPTXCompilerHandle *c);
nvPTXCompileResult nvPTXCompilerCompile(nvPTXCompilerHandle c, int n,
                                        const char *const *opts);
nvPTXCompileResult nvPTXCompilerGetCompiledProgramSize(nvPTXCompilerHandle c,
                                                       size_t *size);
nvPTXCompileResult nvPTXCompilerGetCompiledProgram(nvPTXCompilerHandle c,
                                                   void *image);
nvPTXCompileResult nvPTXCompilerGetErrorLogSize(nvPTXCompilerHandle c,
                                                size_t *size);
nvPTXCompileResult nvPTXCompilerGetErrorLog(nvPTXCompilerHandle c, char *log);
nvPTXCompileResult nvPTXCompilerGetInfoLogSize(nvPTXCompilerHandle c,
                                               size_t *size);
nvPTXCompileResult nvPTXCompilerGetInfoLog(nvPTXCompilerHandle c, char *log);
}
