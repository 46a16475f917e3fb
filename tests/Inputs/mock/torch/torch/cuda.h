// Mock torch::cuda.
#pragma once
namespace torch::cuda {
void synchronize(int device = -1);
} // namespace torch::cuda
