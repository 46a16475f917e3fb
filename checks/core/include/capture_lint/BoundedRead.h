//===- BoundedRead.h - Reading an untrusted file safely ---------*- C++ -*-===//
//
// readBoundedFile (capture_lint/BoundedFile.h, no LLVM) for LLVM code: the
// contents, or an llvm::Error that names the path and what it is instead.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_BOUNDEDREAD_H
#define CAPTURE_LINT_BOUNDEDREAD_H

#include "capture_lint/BoundedFile.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace capture_lint {

/// The contents of \p Path if it is a regular file (after following
/// symlinks) of at most \p MaxBytes; otherwise an error that names the path
/// and says what it is instead.
/// (readBoundedFile as LLVM code takes it.)
inline llvm::Expected<std::string> readRegularFile(const std::string &Path,
                                                   uint64_t MaxBytes) {
  std::string Text, Error;
  if (!readBoundedFile(Path, MaxBytes, Text, Error))
    return llvm::createStringError(std::errc::invalid_argument, "%s",
                                   Error.c_str());
  return Text;
}

} // namespace capture_lint

#endif // CAPTURE_LINT_BOUNDEDREAD_H
