/* Declaration-only stand-in for cuml's prims linalg/reduce.cuh. */
#pragma once
#include <cuda_runtime_api.h>
namespace MLCommon { namespace LinAlg {
struct Nop { template <typename T, typename I> __host__ __device__ T operator()(T in, I = 0) const { return in; } };
struct Sum { template <typename T> __host__ __device__ T operator()(T a, T b) const { return a + b; } };
template <typename InType, typename OutType = InType, typename IdxType = int, typename MainLambda = Nop, typename ReduceLambda = Sum, typename FinalLambda = Nop>
void reduce(OutType *dots, const InType *data, IdxType D, IdxType N, OutType init, bool rowMajor, bool alongRows, cudaStream_t stream, bool inplace = false, MainLambda main_op = Nop(), ReduceLambda reduce_op = Sum(), FinalLambda final_op = Nop());
}}
