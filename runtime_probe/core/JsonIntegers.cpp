//===- JsonIntegers.cpp - Rejecting fractional numbers in probe files -----===//

#include "capture_probe/JsonIntegers.h"

#include <vector>

namespace capture_probe {

using nlohmann::json;

namespace {

/// One array or object being walked, at the child \p It.
struct Frame {
  const json *Node;
  json::const_iterator It;
  size_t Index = 0; // of It, in an array
};

/// The path of the child the innermost frame is at ("captures[0].seq").
std::string pathOf(const std::vector<Frame> &Stack) {
  std::string Path;
  for (const Frame &F : Stack)
    Path += F.Node->is_object() ? (Path.empty() ? "" : ".") + F.It.key()
                                : "[" + std::to_string(F.Index) + "]";
  return Path;
}

} // namespace

bool integersOnly(const json &J, std::string &Where) {
  // Iterative, so a deeply nested document cannot exhaust the stack, and
  // only the path being walked is kept: time linear in the size, memory
  // in the depth (a path string per node took seconds at 100,000 levels).
  if (J.is_number_float()) {
    Where = "the document";
    return false;
  }
  std::vector<Frame> Stack;
  if (J.is_structured())
    Stack.push_back({&J, J.cbegin()});
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (F.It == F.Node->cend()) {
      Stack.pop_back();
      if (!Stack.empty()) {
        ++Stack.back().It;
        ++Stack.back().Index;
      }
      continue;
    }
    const json &Child = *F.It;
    if (Child.is_number_float()) {
      Where = pathOf(Stack);
      return false;
    }
    if (Child.is_structured()) {
      Stack.push_back({&Child, Child.cbegin()});
      continue;
    }
    ++F.It;
    ++F.Index;
  }
  return true;
}

} // namespace capture_probe
