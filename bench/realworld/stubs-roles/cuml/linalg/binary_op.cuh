/* Declaration-only stand-in for cuml's prims linalg/binary_op.cuh. */
#pragma once
#include <cuda_runtime_api.h>
namespace MLCommon { namespace LinAlg {
template <typename InType, typename Lambda, typename OutType = InType, typename IdxType = int, int TPB = 256>
void binaryOp(OutType *out, const InType *in1, const InType *in2, IdxType len, Lambda op, cudaStream_t stream);
}}
