// Mock libtorch CUDA generator: only what the fixtures call.
#pragma once
#include <cstdint>
namespace at {
struct CUDAGeneratorImpl {
  void set_current_seed(uint64_t seed);
  uint64_t current_seed() const;
  uint64_t get_offset() const;
  void set_offset(uint64_t offset);
};
void manual_seed(uint64_t seed);
} // namespace at
