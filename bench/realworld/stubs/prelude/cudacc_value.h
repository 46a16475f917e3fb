// clang's CUDA wrapper defines __CUDACC__ as empty; nvcc defines it as 1 and
// some headers (NCCL's nccl_device) test it with `#if __CUDACC__`. Included
// with -include after the wrapper (bench/realworld stub).
#pragma once
#undef __CUDACC__
#define __CUDACC__ 1
