// Declarations-only stand-in for c3sr/libscope's scope/scope.hpp (the
// submodule is not in the mirror store): Google-benchmark's State, the
// error-check macros (evaluate once; on error skip the benchmark and
// return/break), defer and the registration hooks. bench/realworld stub.
#pragma once
#include <cuda_runtime.h>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace benchmark {
struct Counter {
  Counter &operator=(double) { return *this; }
};
class State {
public:
  struct Iterator {
    bool operator!=(const Iterator &) const;
    Iterator &operator++();
    int operator*() const;
  };
  Iterator begin();
  Iterator end();
  long range(int i) const;
  void PauseTiming();
  void ResumeTiming();
  void SkipWithError(const char *msg);
  long iterations() const;
  void SetItemsProcessed(long n);
  void SetBytesProcessed(long n);
  std::map<std::string, Counter> counters;
};
struct Benchmark {
  Benchmark *Arg(long);
  Benchmark *DenseRange(long, long, long);
  Benchmark *ArgName(const char *);
  Benchmark *UseRealTime();
};
template <class F, class... Args>
Benchmark *RegisterBenchmark(const char *name, F &&fn, Args &&...args) {
  return nullptr;
}
} // namespace benchmark

namespace numa {
struct ScopedBind {
  explicit ScopedBind(int node);
  ~ScopedBind();
};
std::vector<int> mems();
} // namespace numa

namespace scope {
cudaError_t cuda_reset_device(int id);
namespace system {
std::vector<int> cuda_devices();
}
void register_after_init(void (*fn)(), const char *name);
} // namespace scope

// As libscope's: prints an error and says whether there was one.
inline bool scope_print_if_error(cudaError_t e, const char *file, int line) {
  (void)file;
  (void)line;
  return e != cudaSuccess;
}
#define PRINT_IF_ERROR(stmt) scope_print_if_error((stmt), __FILE__, __LINE__)
#define OR_SKIP_AND_RETURN(stmt, msg)                                          \
  if (PRINT_IF_ERROR(stmt)) {                                                  \
    state.SkipWithError(msg);                                                  \
    return;                                                                    \
  }
#define OR_SKIP_AND_BREAK(stmt, msg)                                           \
  if (PRINT_IF_ERROR(stmt)) {                                                  \
    state.SkipWithError(msg);                                                  \
    break;                                                                     \
  }

struct ScopeDefer {
  std::function<void()> fn;
  ~ScopeDefer() { fn(); }
};
#define SCOPE_CONCAT2(a, b) a##b
#define SCOPE_CONCAT(a, b) SCOPE_CONCAT2(a, b)
#define defer(stmt) ScopeDefer SCOPE_CONCAT(defer_, __LINE__){[&]() { stmt; }}
#define SCOPE_AFTER_INIT(fn, name)                                             \
  static int SCOPE_CONCAT(after_init_, __LINE__) =                             \
      (scope::register_after_init(fn, name), 0)
