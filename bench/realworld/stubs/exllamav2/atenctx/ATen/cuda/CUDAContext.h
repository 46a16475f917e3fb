// Stub <ATen/cuda/CUDAContext.h> (capture-lint scout): libtorch is not installed
// here. For files that include this header but use nothing from ATen (exllamav2's
// CUDA sources): it only brings in what the real header pulls in transitively and
// those files rely on (CUDA runtime, cuBLAS, cuSPARSE types). No ATen declarations.
#pragma once
#include <cuda_runtime_api.h>
#include <cublas_v2.h>
#include <cusparse.h>
// standard headers the real one pulls in transitively
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>
