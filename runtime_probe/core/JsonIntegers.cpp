//===- JsonIntegers.cpp - Rejecting fractional numbers in probe files -----===//

#include "capture_probe/JsonIntegers.h"

#include <vector>

namespace capture_probe {

using nlohmann::json;

bool integersOnly(const json &J, std::string &Where) {
  // Iterative, so a deeply nested document cannot exhaust the stack.
  std::vector<std::pair<const json *, std::string>> Work{{&J, ""}};
  while (!Work.empty()) {
    auto [Node, Path] = Work.back();
    Work.pop_back();
    if (Node->is_number_float()) {
      Where = Path.empty() ? "the document" : Path;
      return false;
    }
    if (Node->is_object())
      for (auto It = Node->begin(); It != Node->end(); ++It)
        Work.push_back({&*It, Path.empty() ? It.key() : Path + "." + It.key()});
    else if (Node->is_array())
      for (size_t I = 0; I < Node->size(); ++I)
        Work.push_back({&(*Node)[I], Path + "[" + std::to_string(I) + "]"});
  }
  return true;
}

} // namespace capture_probe
