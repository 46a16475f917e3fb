//===- BoundedFile.cpp - Reading an untrusted file safely -----------------===//

#include "capture_lint/BoundedFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace capture_lint {

static std::string quoted(const std::string &Path) { return "'" + Path + "'"; }

static const char *kindOf(mode_t Mode) {
  if (S_ISDIR(Mode))
    return "a directory";
  if (S_ISFIFO(Mode))
    return "a FIFO";
  if (S_ISCHR(Mode) || S_ISBLK(Mode))
    return "a device";
  if (S_ISSOCK(Mode))
    return "a socket";
  return "not a regular file";
}

/// Opens \p Path for reading if it is a regular file of at most \p MaxBytes;
/// -1 with \p Error set otherwise.
static int openRegularFile(const std::string &Path, uint64_t MaxBytes,
                           std::string &Error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  int FD = ::open(Path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0) {
    Error = quoted(Path) + " cannot be read: " + std::strerror(errno);
    return -1;
  }
  struct stat St{};
  if (::fstat(FD, &St) != 0 || !S_ISREG(St.st_mode)) {
    ::close(FD);
    Error = quoted(Path) + " is " + kindOf(St.st_mode) + ", not a regular file";
    return -1;
  }
  if (static_cast<uint64_t>(St.st_size) > MaxBytes) {
    ::close(FD);
    Error = quoted(Path) + " is " + std::to_string(St.st_size) +
            " bytes, more than the limit of " + std::to_string(MaxBytes);
    return -1;
  }
  return FD;
}

bool readBoundedFileInChunks(const std::string &Path, uint64_t MaxBytes,
                             const std::function<void(std::string_view)> &Chunk,
                             std::string &Error) {
  int FD = openRegularFile(Path, MaxBytes, Error);
  if (FD < 0)
    return false;
  // Small files (catalogs, cache entries) need no 1 MiB buffer.
  struct stat St{};
  size_t Size = ::fstat(FD, &St) == 0 ? size_t(St.st_size) + 1 : 1;
  std::string Buf(std::min<size_t>(1 << 20, std::max<size_t>(Size, 4096)),
                  '\0');
  uint64_t Total = 0;
  for (;;) {
    ssize_t N = ::read(FD, Buf.data(), Buf.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      int Err = errno;
      ::close(FD);
      if (N < 0)
        Error = quoted(Path) + " cannot be read: " + std::strerror(Err);
      return N == 0;
    }
    Total += N;
    if (Total > MaxBytes) {
      ::close(FD);
      Error = quoted(Path) + " grew past the limit of " +
              std::to_string(MaxBytes) + " bytes while it was read";
      return false;
    }
    Chunk(std::string_view(Buf.data(), N));
  }
}

bool readBoundedFile(const std::string &Path, uint64_t MaxBytes,
                     std::string &Text, std::string &Error) {
  Text.clear();
  return readBoundedFileInChunks(
      Path, MaxBytes, [&](std::string_view Piece) { Text.append(Piece); },
      Error);
}

} // namespace capture_lint
