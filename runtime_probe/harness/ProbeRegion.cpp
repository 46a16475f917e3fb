//===- ProbeRegion.cpp - The in-process capture harness -------------------===//

#include "ProbeRegion.h"
#include "../cuda/CuptiBackend.h"
#include "capture_probe/ApiCatalog.h"
#include "capture_probe/CaptureTracker.h"
#include "capture_probe/Symbolizer.h"
#include <cstring>

namespace capture_probe {
namespace {

MemorySink &harnessSink() {
  static MemorySink *S = new MemorySink; // outlives every callback
  return *S;
}

cudaStreamCaptureMode toCuda(CaptureMode M) {
  switch (M) {
  case CaptureMode::Global:
    return cudaStreamCaptureModeGlobal;
  case CaptureMode::ThreadLocal:
    return cudaStreamCaptureModeThreadLocal;
  case CaptureMode::Relaxed:
    return cudaStreamCaptureModeRelaxed;
  }
  return cudaStreamCaptureModeGlobal;
}

bool snapshot(const ProbeOptions &O, cudaStream_t S,
              std::vector<std::vector<unsigned char>> &Out, std::string &Err) {
  if (cudaStreamSynchronize(S) != cudaSuccess) {
    Err = "the region's work failed";
    return false;
  }
  Out.clear();
  for (const OutputBuffer &B : O.outputs) {
    std::vector<unsigned char> Host(B.bytes);
    if (cudaMemcpy(Host.data(), B.device, B.bytes, cudaMemcpyDeviceToHost) !=
        cudaSuccess) {
      Err = "cannot read output '" + B.name + "'";
      return false;
    }
    Out.push_back(std::move(Host));
  }
  return true;
}

/// Poisons the outputs so a replay that writes nothing cannot pass for one
/// that wrote the eager values.
void poison(const ProbeOptions &O, cudaStream_t S) {
  for (const OutputBuffer &B : O.outputs)
    cudaMemsetAsync(const_cast<void *>(B.device), 0xA5, B.bytes, S);
}

} // namespace

ProbeResult probe_region(const std::function<void(cudaStream_t)> &Region,
                         const ProbeOptions &O) {
  ProbeResult Result;
  Result.report.Backend = "cuda";
  std::string Err;
  if (!startCupti(&harnessSink(), Err)) {
    Result.error = "cannot start CUPTI: " + Err +
                   " (is the program already running under capture-probe?)";
    return Result;
  }
  cudaStream_t S = nullptr;
  if (cudaStreamCreateWithFlags(&S, O.non_blocking
                                        ? cudaStreamNonBlocking
                                        : cudaStreamDefault) != cudaSuccess) {
    Result.error = "cannot create a stream";
    return Result;
  }
  cudaDeviceSynchronize();

  // Eager reference runs.
  std::vector<std::vector<std::vector<unsigned char>>> Eager;
  if (!O.outputs.empty())
    for (int K = 0; K < O.replays; ++K) {
      if (O.reset)
        O.reset(S, K);
      poison(O, S);
      Region(S);
      Eager.emplace_back();
      if (!snapshot(O, S, Eager.back(), Result.error))
        return Result;
    }
  if (O.reset)
    O.reset(S, 0);
  cudaStreamSynchronize(S);
  cudaGetLastError();

  // The capture, with the probe listening.
  harnessSink().take();
  cudaGraph_t Graph = nullptr;
  if (cudaStreamBeginCapture(S, toCuda(O.mode)) == cudaSuccess) {
    Region(S);
    cudaStreamEndCapture(S, &Graph);
  }
  cudaGetLastError(); // a failed capture leaves no sticky error
  ApiCatalog Catalog = ApiCatalog::builtin();
  Result.report.Captures = trackCaptures(harnessSink().take(), Catalog);
  unsigned CaptureId =
      Result.report.Captures.empty() ? 0 : Result.report.Captures.back().Id;

  cudaGraphExec_t Exec = nullptr;
  if (Graph && cudaGraphInstantiate(&Exec, Graph, 0) == cudaSuccess) {
    Result.captured = true;
    for (int K = 0; K < O.replays; ++K) {
      if (O.reset)
        O.reset(S, K);
      poison(O, S);
      if (cudaGraphLaunch(Exec, S) != cudaSuccess) {
        Result.captured = false;
        break;
      }
      std::vector<std::vector<unsigned char>> Got;
      if (!snapshot(O, S, Got, Result.error)) {
        Result.captured = false;
        break;
      }
      for (size_t I = 0; I < Got.size() && K < int(Eager.size()); ++I) {
        const auto &Want = Eager[K][I];
        Divergence D;
        D.Capture = CaptureId;
        D.Replay = unsigned(K);
        D.Output = O.outputs[I].name;
        D.Bytes = Want.size();
        for (size_t B = 0; B < Want.size(); ++B)
          if (Want[B] != Got[I][B]) {
            if (!D.DifferingBytes)
              D.FirstByte = B;
            ++D.DifferingBytes;
          }
        if (D.DifferingBytes)
          Result.report.Divergences.push_back(D);
      }
    }
    cudaGraphExecDestroy(Exec);
  }
  if (Graph)
    cudaGraphDestroy(Graph);
  cudaStreamSynchronize(S);
  cudaStreamDestroy(S);
  cudaGetLastError();
  if (O.symbolize)
    Symbolizer().symbolize(Result.report);
  return Result;
}

} // namespace capture_probe
