#include "layer.h"

void Tanh::forward(cudaStream_t s) { cudaDeviceSynchronize(); }
