/* Declaration-only stand-in for RMM's device_memory_resource.hpp (RMM is not
   installed here); written for capture-lint's roles-across-files measurement. */
#pragma once
#include <cstddef>
#include <cuda_runtime_api.h>
namespace rmm {
struct cuda_stream_view { cudaStream_t s{}; cuda_stream_view() = default; cuda_stream_view(cudaStream_t x) : s(x) {} cudaStream_t value() const { return s; } };
namespace mr {
class device_memory_resource {
 public:
  virtual ~device_memory_resource() = default;
  void *allocate(std::size_t bytes, cuda_stream_view stream = {});
  void deallocate(void *p, std::size_t bytes, cuda_stream_view stream = {});
 private:
  virtual void *do_allocate(std::size_t bytes, cuda_stream_view stream) = 0;
  virtual void do_deallocate(void *p, std::size_t bytes, cuda_stream_view stream) = 0;
};
}  // namespace mr
}  // namespace rmm
