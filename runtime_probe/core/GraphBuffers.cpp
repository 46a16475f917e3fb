//===- GraphBuffers.cpp - The device memory a graph's nodes use -----------===//

#include "capture_probe/GraphBuffers.h"
#include <algorithm>
#include <cstdlib>
#include <cxxabi.h>

namespace capture_probe {

uint32_t GraphBuffers::addNode(NodeKind Kind, uint64_t Kernel) {
  Kinds.push_back(Kind);
  Kernels.push_back(Kernel);
  return uint32_t(Kinds.size() - 1);
}

void GraphBuffers::addUse(uint32_t Node, int32_t Operand, uint64_t Address) {
  if (Address)
    Uses.push_back({Address, Node, Operand});
}

void GraphBuffers::finish() {
  std::stable_sort(Uses.begin(), Uses.end(),
                   [](const BufferUse &A, const BufferUse &B) {
                     return A.Address < B.Address;
                   });
}

const BufferUse *GraphBuffers::usesRange(uint64_t Address,
                                         uint64_t Size) const {
  auto It = std::lower_bound(
      Uses.begin(), Uses.end(), Address,
      [](const BufferUse &U, uint64_t A) { return U.Address < A; });
  if (It == Uses.end() || It->Address - Address >= Size)
    return nullptr;
  return &*It;
}

std::string GraphBuffers::describe(
    const BufferUse &U,
    const std::function<std::string(uint64_t)> &KernelName) const {
  if (U.Node >= Kinds.size())
    return "";
  static const char *const KindNames[] = {"kernel", "memcpy", "memset", "node"};
  std::string Out = std::string(KindNames[int(Kinds[U.Node])]) + " node " +
                    std::to_string(U.Node + 1) + " of " +
                    std::to_string(Kinds.size());
  if (Kinds[U.Node] == NodeKind::Kernel) {
    std::string Name = KernelName ? KernelName(Kernels[U.Node]) : "";
    if (!Name.empty())
      Out += " (" + shortKernelName(Name) + ")";
    return Out + ", argument " + std::to_string(U.Operand);
  }
  if (U.Operand == CopySource)
    return Out + " (source)";
  return Out + " (target)";
}

std::vector<uint64_t> GraphBuffers::addresses() const {
  std::vector<uint64_t> Out;
  for (const BufferUse &U : Uses)
    if (Out.empty() || Out.back() != U.Address)
      Out.push_back(U.Address);
  return Out;
}

/// Cuts a demangled name at its template arguments or parameter list,
/// keeping "(anonymous namespace)::".
static std::string withoutArguments(const std::string &Name) {
  static const std::string Anonymous = "(anonymous namespace)";
  for (size_t I = 0; I < Name.size(); ++I) {
    if (Name.compare(I, Anonymous.size(), Anonymous) == 0) {
      I += Anonymous.size() - 1;
      continue;
    }
    if (Name[I] == '<' || Name[I] == '(')
      return Name.substr(0, I);
  }
  return Name;
}

std::string shortKernelName(const std::string &Name) {
  int Status = -1;
  char *D = abi::__cxa_demangle(Name.c_str(), nullptr, nullptr, &Status);
  if (Status != 0 || !D) {
    std::free(D);
    return Name;
  }
  std::string Out = withoutArguments(D);
  std::free(D);
  // A function template's name carries its return type: kernels return
  // void.
  if (Out.compare(0, 5, "void ") == 0)
    Out.erase(0, 5);
  return Out;
}

} // namespace capture_probe
