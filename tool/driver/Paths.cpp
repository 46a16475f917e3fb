//===- Paths.cpp - Absolute paths as the driver compares them -------------===//

#include "Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace capture_lint {

std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P)) {
    llvm::SmallString<256> Full(Base);
    if (Full.empty())
      llvm::sys::fs::current_path(Full);
    llvm::sys::path::append(Full, P);
    P = Full;
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

} // namespace capture_lint
