/* Declaration-only stand-in for cuml's prims linalg/unary_op.cuh (the cuml
   submodule is not in the mirror); capture-lint roles-across-files measurement. */
#pragma once
#include <cuda_runtime_api.h>
namespace MLCommon { namespace LinAlg {
template <typename InType, typename Lambda, typename IdxType = int, typename OutType = InType, int TPB = 256>
void unaryOp(OutType *out, const InType *in, IdxType len, Lambda op, cudaStream_t stream);
}}
