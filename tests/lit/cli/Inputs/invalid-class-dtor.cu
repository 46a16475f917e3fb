// A class template clang gives up on (invalid) because a header is missing:
// an unknown-type field comes first, then a field of a template instance
// left undefined. The old tool crashed in clang's CFG builder on its destructor.
#include <cuda_runtime.h>
#include <memory>
#include <vendor/table.hpp> // not there: vendor::table is never declared

template <class T> struct Staging {
  T *data = nullptr;
  ~Staging() { delete[] data; }
};

struct WorkerBase {
  virtual ~WorkerBase() = default;
};

template <class T> class TableWorker : public WorkerBase {
  std::unique_ptr<vendor::table> cached_; // error: unknown type
  Staging<long> staging_;                 // never instantiated after that
  cudaStream_t stream_ = nullptr;
  bool started_{false};

public:
  explicit TableWorker(cudaStream_t s) : stream_(s) {}
  ~TableWorker() {
    if (started_) {
      cudaGraph_t graph;
      cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
      cudaStreamEndCapture(stream_, &graph);
    }
  }
};
