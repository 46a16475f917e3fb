//===- CheckOwners.cpp - Which check reports a catalog hazard class -------===//

#include "capture_lint/CheckOwners.h"

namespace capture_lint {

std::string_view checkOwning(Hazard H, Language L) {
#define CAPTURE_CHECK(Kind, Name, InCpp, InPython, Owns, ...)                  \
  if (Hazard::Owns != Hazard::None && H == Hazard::Owns &&                     \
      (L == Language::Cpp ? InCpp : InPython))                                 \
    return Name;
#include "Checks.def"
#undef CAPTURE_CHECK
  return "";
}

} // namespace capture_lint
