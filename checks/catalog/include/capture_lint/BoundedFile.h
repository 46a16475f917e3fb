//===- BoundedFile.h - Reading an untrusted file safely ---------*- C++ -*-===//
//
// Catalogs, project configs, baselines, cache entries, probe reports and
// event logs are paths anyone may point anywhere: a directory there made
// std::ifstream throw (an abort), a FIFO blocked the read forever, a link to
// /dev/zero read until memory ran out. A file is opened without blocking,
// must be a regular file and may not exceed a size limit. capture-lint and
// the probe both read through this (capture-lint's BoundedRead.h wraps it in
// llvm::Expected).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_BOUNDEDFILE_H
#define CAPTURE_LINT_BOUNDEDFILE_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace capture_lint {

/// Reads \p Path into \p Text if it is a regular file (after following
/// symlinks) of at most \p MaxBytes; otherwise false, with \p Error naming
/// the path and saying what it is instead ("'x.json' is a FIFO, not a
/// regular file").
bool readBoundedFile(const std::string &Path, uint64_t MaxBytes,
                     std::string &Text, std::string &Error);

/// Like readBoundedFile, but hands the file to \p Chunk piece by piece (in
/// order, each at most 1 MiB), so memory does not grow with the file.
bool readBoundedFileInChunks(const std::string &Path, uint64_t MaxBytes,
                             const std::function<void(std::string_view)> &Chunk,
                             std::string &Error);

} // namespace capture_lint

#endif // CAPTURE_LINT_BOUNDEDFILE_H
