//===- BoundedRead.h - Reading an untrusted file safely ---------*- C++ -*-===//
//
// Catalogs, project configs, baselines, cache entries and probe reports come
// from disk that anyone (another run, another machine, an attacker, a
// mistake) may have written. A FIFO there would block a plain read forever and
// a link to /dev/zero would read until memory runs out, so these files are
// opened without blocking, must be regular files and may not exceed a size
// limit.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_BOUNDEDREAD_H
#define CAPTURE_LINT_BOUNDEDREAD_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace capture_lint {

/// The contents of \p Path if it is a regular file (after following
/// symlinks) of at most \p MaxBytes; otherwise an error that names the path
/// and says what it is instead.
llvm::Expected<std::string> readRegularFile(const std::string &Path,
                                            uint64_t MaxBytes);

} // namespace capture_lint

#endif // CAPTURE_LINT_BOUNDEDREAD_H
