// Mock ATen header for capture-lint's tests: the class layout of
// at::TensorBase / at::Tensor and the factory functions the checks know.
#pragma once
#include <cstdint>
#include <vector>
namespace c10 {
enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
enum class ScalarType : int8_t { Float, Half, Long };
struct Device {
  Device(DeviceType t, int8_t index = -1) : type(t), index(index) {}
  DeviceType type;
  int8_t index;
};
using IntArrayRef = std::vector<int64_t>;
} // namespace c10
namespace at {
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::kCPU;
using c10::kCUDA;
using c10::ScalarType;
class TensorBase {
public:
  int64_t size(int64_t dim) const;
  IntArrayRef sizes() const;
  int64_t numel() const;
  int64_t dim() const;
  template <typename T> T *data_ptr() const;
};
class Tensor : public TensorBase {
public:
  template <typename T> T item() const;
  Tensor cpu() const;
  Tensor cuda() const;
  Tensor to(Device device, bool non_blocking = false, bool copy = false) const;
  Tensor to(ScalarType dtype, bool non_blocking = false) const;
  Tensor nonzero() const;
  Tensor add(const Tensor &other) const;
  Tensor slice(int64_t dim, int64_t start, int64_t end) const;
  Tensor &copy_(const Tensor &src, bool non_blocking = false);
  bool equal(const Tensor &other) const;
};
Tensor empty(IntArrayRef size);
Tensor zeros(IntArrayRef size);
Tensor matmul(const Tensor &a, const Tensor &b);
} // namespace at
namespace torch {
using at::Tensor;
using namespace at;
} // namespace torch
