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

static std::optional<std::string>
runtimeCallOf(const Symbolizer &S, const std::vector<std::string> &Raw) {
  std::vector<SourceFrame> Frames;
  for (const std::string &R : Raw)
    for (SourceFrame &F : S.frames(R))
      Frames.push_back(std::move(F));
  return runtimeCallOf(Frames);
}

static void rename(Event &E, std::string Name) {
  E.DriverApi = std::move(E.Api);
  E.Api = std::move(Name);
}

bool nameRuntimeCall(const Symbolizer &S, Event &E) {
  std::optional<std::string> Name = runtimeCallOf(S, E.Frames);
  if (!Name)
    return false;
  rename(E, std::move(*Name));
  return true;
}

void RuntimeCallNames::learn(const Symbolizer &S, uint64_t Caller,
                             const std::vector<std::string> &Frames) {
  if (!Caller || Frames.empty())
    return;
  std::optional<std::string> Name = runtimeCallOf(S, Frames);
  if (!Name)
    return;
  auto [It, New] = ByCaller.try_emplace(Caller, Name);
  if (!New && It->second != Name)
    It->second.reset(); // two runtime calls reach the driver there
}

bool RuntimeCallNames::name(const Symbolizer &S, Event &E) const {
  if (!E.Frames.empty())
    return nameRuntimeCall(S, E);
  auto It = ByCaller.find(E.Caller);
  if (!E.Caller || It == ByCaller.end() || !It->second)
    return false;
  rename(E, *It->second);
  return true;
}

} // namespace capture_probe
