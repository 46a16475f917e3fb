//===- BoundedFile.h - Reading the probe's input files safely ---*- C++ -*-===//
//
// Reports (`capture-probe show`, `compare`), event logs and catalogs are
// paths anyone may point anywhere: a directory there made std::ifstream throw
// (an abort), a FIFO blocked the read forever, a link to /dev/zero read until
// memory ran out. capture-lint has its own reader (checks/core's
// BoundedRead.h); the probe builds without LLVM, so it has this one: a file
// is opened without blocking, must be a regular file and may not exceed a
// size limit.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_BOUNDEDFILE_H
#define CAPTURE_PROBE_BOUNDEDFILE_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace capture_probe {

/// Reads \p Path into \p Text if it is a regular file (after following
/// symlinks) of at most \p MaxBytes; otherwise false, with \p Error naming
/// the path and saying what it is instead.
bool readRegularFile(const std::string &Path, uint64_t MaxBytes,
                     std::string &Text, std::string &Error);

/// Like readRegularFile, but hands the file to \p Chunk piece by piece (in
/// order, each at most 1 MiB), so memory does not grow with the file.
bool readRegularFileInChunks(const std::string &Path, uint64_t MaxBytes,
                             const std::function<void(std::string_view)> &Chunk,
                             std::string &Error);

} // namespace capture_probe

#endif // CAPTURE_PROBE_BOUNDEDFILE_H
