// capture-lint compat header. CUDA 13 removed texture_fetch_functions.h, but
// clang 19's __clang_cuda_runtime_wrapper.h still includes it. capture-lint
// adds this directory with -idirafter, so a CUDA install that still has the
// real header wins. Host-side analysis needs nothing from it.
#pragma once
