//===- NameList.cpp - The first few of a list, and how many more ----------===//

#include "capture_lint/NameList.h"

namespace capture_lint {

std::string firstFew(const std::vector<std::string> &Items, size_t Shown) {
  std::string Out;
  for (size_t I = 0; I < Items.size() && I < Shown; ++I)
    Out += (I ? ", " : "") + Items[I];
  if (Items.size() > Shown)
    Out += " and " + std::to_string(Items.size() - Shown) + " more";
  return Out;
}

} // namespace capture_lint
