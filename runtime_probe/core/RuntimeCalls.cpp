//===- RuntimeCalls.cpp - The runtime call a driver call was for ----------===//
//
// See RuntimeCalls.h.
//
//===----------------------------------------------------------------------===//

#include "capture_probe/RuntimeCalls.h"
#include <cctype>

namespace capture_probe {

std::optional<std::string> runtimeApiName(const std::string &Function) {
  // cudaX with X upper case: cudaMalloc, cudaStreamSynchronize; not the
  // runtime's internals (cudart::, __cudaRegisterFunction).
  if (Function.size() < 5 || Function.compare(0, 4, "cuda") != 0 ||
      !std::isupper(static_cast<unsigned char>(Function[4])))
    return std::nullopt;
  size_t End = 4;
  while (End < Function.size() &&
         (std::isalnum(static_cast<unsigned char>(Function[End])) ||
          Function[End] == '_'))
    ++End;
  return Function.substr(0, End);
}

std::optional<std::string>
runtimeCallOf(const std::vector<SourceFrame> &Frames) {
  std::optional<std::string> Outermost;
  for (const SourceFrame &F : Frames) {
    // The program's own code first: its cudaCheck() is no runtime call.
    if (!Symbolizer::isRuntimeFrame(F))
      break;
    if (auto Name = runtimeApiName(F.Function))
      Outermost = Name;
  }
  return Outermost;
}

bool nameRuntimeCall(const Symbolizer &S, Event &E) {
  std::vector<SourceFrame> Frames;
  for (const std::string &Raw : E.Frames)
    for (SourceFrame &F : S.frames(Raw))
      Frames.push_back(std::move(F));
  std::optional<std::string> Name = runtimeCallOf(Frames);
  if (!Name)
    return false;
  E.DriverApi = std::move(E.Api);
  E.Api = std::move(*Name);
  return true;
}

} // namespace capture_probe
