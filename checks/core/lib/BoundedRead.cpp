//===- BoundedRead.cpp - Reading an untrusted file safely -----------------===//

#include "capture_lint/BoundedRead.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace capture_lint {

namespace {

llvm::Error fail(const std::string &Path, const std::string &Why) {
  return llvm::createStringError(std::errc::invalid_argument, "'%s' %s",
                                 Path.c_str(), Why.c_str());
}

const char *kindOf(mode_t Mode) {
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

} // namespace

llvm::Expected<std::string> readRegularFile(const std::string &Path,
                                            uint64_t MaxBytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  int FD = ::open(Path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0)
    return fail(Path, std::string("cannot be read: ") + std::strerror(errno));
  struct stat St{};
  if (::fstat(FD, &St) != 0 || !S_ISREG(St.st_mode)) {
    ::close(FD);
    return fail(Path, std::string("is ") + kindOf(St.st_mode) +
                          ", not a regular file");
  }
  if (static_cast<uint64_t>(St.st_size) > MaxBytes) {
    ::close(FD);
    return fail(Path, "is " + std::to_string(St.st_size) +
                          " bytes, more than the limit of " +
                          std::to_string(MaxBytes));
  }
  std::string Text;
  char Buf[65536];
  while (true) {
    ssize_t N = ::read(FD, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      int Err = errno;
      ::close(FD);
      return fail(Path, std::string("cannot be read: ") + std::strerror(Err));
    }
    if (N == 0)
      break;
    Text.append(Buf, N);
    if (Text.size() > MaxBytes) { // grew while we read
      ::close(FD);
      return fail(Path, "grew past the limit of " + std::to_string(MaxBytes) +
                            " bytes while it was read");
    }
  }
  ::close(FD);
  return Text;
}

} // namespace capture_lint
