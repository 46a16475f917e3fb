// Issue 11, causes H and I (seen in NVIDIA/warp): conditions on process-wide
// state decide whether a branch can run under capture.
//  - A miss in a static cache (or a static handle not yet set) takes a
//    first-use branch that fills it: one-time initialisation, made before the
//    capture by a warm-up; it is not reported. The same call outside such a
//    branch, a miss branch that fills nothing, or a lazily set member, is.
//  - A capture registry: a static container the opener fills after its
//    begin is not empty while that capture is active, so `registry.empty()`
//    guards a "not capturing" branch. A container no opener fills is no guard.
//  - A capture lookup (a pointer non-null only while capturing) guards the
//    branch where it is null.
// RUN: not %capture-lint --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

#include <map>
#include <unordered_map>
#include <vector>

struct Info {
  void *scratch = nullptr;
};
static std::unordered_map<int, Info> g_infos;

// warp's get_context_info: if/else on an iterator from find().
Info *info_for(int device) {
  auto it = g_infos.find(device);
  if (it != g_infos.end()) {
    return &it->second;
  } else {
    Info info;
    cudaMallocAsync(&info.scratch, 1, nullptr);
    cudaFreeAsync(info.scratch, nullptr);
    auto result = g_infos.insert({device, info});
    return &result.first->second;
  }
}

// The early-return shape, and a count() test.
static std::map<int, void *> g_buffers;
void *buffer_for(int key) {
  auto it = g_buffers.find(key);
  if (it != g_buffers.end())
    return it->second;
  void *p = nullptr;
  cudaMalloc(&p, 256);
  g_buffers[key] = p;
  return p;
}
void *other_buffer_for(int key) {
  if (!g_buffers.count(key)) {
    void *p = nullptr;
    cudaMalloc(&p, 256);
    g_buffers.emplace(key, p);
  }
  return g_buffers[key];
}

// A static handle set on first use.
void *workspace() {
  static void *ws = nullptr;
  if (ws == nullptr)
    cudaMalloc(&ws, 1 << 20);
  return ws;
}

// A lookup whose miss branch fills nothing: every miss allocates.
void *uncached(int key) {
  auto it = g_buffers.find(key);
  if (it == g_buffers.end()) {
    void *p = nullptr;
    cudaMalloc(&p, 256);
    return p;
  }
  return it->second;
}

// A member set lazily: the first forward often is the captured one.
struct Layer {
  void *ws_ = nullptr;
  void forward(cudaStream_t s) {
    if (!ws_)
      cudaMalloc(&ws_, 1024);
    cudaMemsetAsync(ws_, 0, 1024, s);
  }
};

// The registry: filled by the opener after its begin, emptied by the closer.
struct Capture {
  cudaStream_t stream;
};
static std::unordered_map<unsigned long long, Capture *> g_captures;
static std::vector<void *> g_deferred;

bool begin_capture(cudaStream_t s, unsigned long long id) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) !=
      cudaSuccess)
    return false;
  g_captures[id] = new Capture{s};
  return true;
}

bool end_capture(cudaStream_t s, unsigned long long id, cudaGraph_t *g) {
  g_captures.erase(id);
  return cudaStreamEndCapture(s, g) == cudaSuccess;
}

void free_device(void *p) {
  if (g_captures.empty())
    cudaFree(p);
  else
    g_deferred.push_back(p);
}

void free_unless_capturing(void *p) {
  if (!g_captures.empty()) {
    g_deferred.push_back(p);
    return;
  }
  cudaFree(p);
}

// A capture lookup: non-null only while the stream is capturing.
bool is_capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &st);
  return st == cudaStreamCaptureStatusActive;
}
Capture *capture_of(cudaStream_t s) {
  if (!g_captures.empty() && is_capturing(s))
    return g_captures.begin()->second;
  return nullptr;
}
Capture *capture_or_null(cudaStream_t s) {
  if (!is_capturing(s))
    return nullptr;
  return g_captures.begin()->second;
}
void stage(cudaStream_t s, void *p) {
  Capture *capture = capture_of(s);
  if (capture)
    cudaMemsetAsync(p, 0, 64, s);
  else
    cudaFree(p);
  if (!capture_or_null(s))
    cudaFree(p);
}
// Returns a pointer whatever the status: no lookup.
Capture *any_capture(cudaStream_t s) {
  if (is_capturing(s))
    return g_captures.begin()->second;
  return new Capture{s};
}
void stage_wrongly(cudaStream_t s, void *p) {
  if (!any_capture(s))
    cudaFree(p);
}

// g_deferred is filled by no opener: its emptiness says nothing.
void flush_deferred() {
  if (!g_deferred.empty())
    cudaFree(g_deferred.back());
}

void record(cudaStream_t s, void *p, cudaGraph_t *g) {
  if (!begin_capture(s, 7))
    return;
  info_for(0);
  buffer_for(1);
  other_buffer_for(2);
  workspace();
  free_device(p);
  free_unless_capturing(p);
  stage(s, p);
  stage_wrongly(s, p);
  // CHECK: :[[@LINE-1]]:3: error: call to 'stage_wrongly' reaches 'cudaFree'
  uncached(3);
  // CHECK: :[[@LINE-1]]:3: error: call to 'uncached' reaches 'cudaMalloc'
  Layer layer;
  layer.forward(s);
  // CHECK: :[[@LINE-1]]:9: error: call to 'Layer::forward' reaches 'cudaMalloc'
  flush_deferred();
  // CHECK: :[[@LINE-1]]:3: error: call to 'flush_deferred' reaches 'cudaFree'
  void *direct = nullptr;
  cudaMalloc(&direct, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc'
  end_capture(s, 7, g);
}
