/* Declaration-only stand-in for cuml's prims linalg/matrix_vector_op.cuh. */
#pragma once
#include <cuda_runtime_api.h>
namespace MLCommon { namespace LinAlg {
template <typename Type, int veclen_ = 1, typename Lambda, typename IdxType = int, int TPB = 256>
void matrixVectorOp(Type *out, const Type *matrix, const Type *vec, IdxType D, IdxType N, bool rowMajor, bool bcastAlongRows, Lambda op, cudaStream_t stream);
}}
