//===- FuzzSupport.h - Helpers shared by the libFuzzer targets --*- C++ -*-===//
//
// Readers under test take paths, so a target writes its input to a file in a
// scratch directory of its own (made once per process) and reads it back.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_FUZZ_SUPPORT_H
#define CAPTURE_LINT_FUZZ_SUPPORT_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace capture_lint::fuzz {

/// A directory only this process uses.
inline const std::string &scratchDir() {
  static const std::string Dir = [] {
    char Template[] = "/tmp/capture-lint-fuzz-XXXXXX";
    const char *D = mkdtemp(Template);
    if (!D)
      abort();
    return std::string(D);
  }();
  return Dir;
}

/// Writes \p Size bytes to scratchDir()/\p Name and returns the path.
inline std::string writeScratch(const char *Name, const uint8_t *Data,
                                size_t Size) {
  std::string Path = scratchDir() + "/" + Name;
  FILE *F = fopen(Path.c_str(), "wb");
  if (!F)
    abort();
  if (Size && fwrite(Data, 1, Size, F) != Size)
    abort();
  fclose(F);
  return Path;
}

/// A property every input must have; a violation is a crash for libFuzzer.
inline void require(bool Holds) {
  if (!Holds)
    __builtin_trap();
}

} // namespace capture_lint::fuzz

#endif // CAPTURE_LINT_FUZZ_SUPPORT_H
