// nvcc's math headers make ::min/::max(int, int) callable from host code;
// clang's CUDA headers declare them __device__ only. Host code written for
// nvcc (NCCL's contrib/custom_algos) calls them, so bring std's in
// (bench/realworld stub, included with -include).
#pragma once
#include <algorithm>
using std::max;
using std::min;
