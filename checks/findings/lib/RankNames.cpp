//===- RankNames.cpp - Names that hold a process's rank -------------------===//

#include "capture_lint/RankNames.h"

#include <cctype>
#include <string>

namespace capture_lint {

bool namesRank(std::string_view Name) {
  std::string Word;
  auto IsRank = [&] {
    if (Word.size() != 4)
      return false;
    for (size_t I = 0; I < 4; ++I)
      if (std::tolower(static_cast<unsigned char>(Word[I])) != "rank"[I])
        return false;
    return true;
  };
  for (size_t I = 0; I < Name.size(); ++I) {
    unsigned char C = Name[I];
    bool Boundary =
        C == '_' || (I > 0 && std::isupper(C) &&
                     std::islower(static_cast<unsigned char>(Name[I - 1])));
    if (Boundary) {
      if (IsRank())
        return true;
      Word.clear();
    }
    if (C != '_')
      Word += static_cast<char>(C);
  }
  return IsRank();
}

} // namespace capture_lint
