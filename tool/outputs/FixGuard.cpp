//===- FixGuard.cpp - Fixing only the text that was analysed -------------===//

#include "FixGuard.h"

#include "llvm/Support/Path.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <set>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace capture_lint {

/// No source the compiler reads comes near this.
static constexpr uint64_t MaxSourceBytes = 1024u << 20;

DirectoryLocks::~DirectoryLocks() {
  for (int FD : FDs)
    ::close(FD); // releases the lock
}

/// Takes the lock on \p FD, waiting up to \p TimeoutSeconds for another
/// holder; false when it is still held then.
static bool lockWithin(int FD, unsigned TimeoutSeconds) {
  auto Deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(TimeoutSeconds);
  while (::flock(FD, LOCK_EX | LOCK_NB) != 0) {
    if ((errno != EWOULDBLOCK && errno != EINTR) ||
        std::chrono::steady_clock::now() > Deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

llvm::Error DirectoryLocks::lock(const std::vector<std::string> &Files,
                                 unsigned TimeoutSeconds) {
  std::set<std::string> Dirs;
  for (const std::string &F : Files) {
    llvm::StringRef Dir = llvm::sys::path::parent_path(F);
    Dirs.insert(Dir.empty() ? "." : Dir.str());
  }
  for (const std::string &Dir : Dirs) {
    int FD = ::open(Dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (FD < 0)
      return llvm::createStringError(
          std::errc::io_error,
          "cannot lock the directory '%s' to fix files "
          "in it: %s",
          Dir.c_str(), std::strerror(errno));
    FDs.push_back(FD);
    if (!lockWithin(FD, TimeoutSeconds))
      return llvm::createStringError(
          std::errc::resource_unavailable_try_again,
          "another capture-lint --fix has held the lock on '%s' for more "
          "than %u s; nothing was fixed",
          Dir.c_str(), TimeoutSeconds);
  }
  return llvm::Error::success();
}

static llvm::Error refuse(const std::string &File, const std::string &Why) {
  return llvm::createStringError(std::errc::invalid_argument, "'%s' %s",
                                 File.c_str(), Why.c_str());
}

llvm::Expected<std::string>
textAsAnalysed(const std::string &File, const std::vector<std::string> &Names,
               const FileSnapshots &Read) {
  const FileSnapshot *Analysed = nullptr;
  for (const std::string &Name : Names) {
    auto It = Read.find(Name);
    if (It == Read.end() || It->second.Hash.empty())
      return refuse(Name, "was not analysed by this run, yet a fix names "
                          "it (from a damaged or forged cache entry?)");
    if (It->second.Changed || (Analysed && It->second.Hash != Analysed->Hash))
      return refuse(Name, "changed while this run analysed it");
    Analysed = &It->second;
  }
  std::string Text;
  auto Now = snapshotNow(File, MaxSourceBytes, &Text);
  const std::string &Shown = Names.front();
  if (!Now)
    return refuse(Shown, "cannot be read again, or is being replaced");
  if (Analysed->Id && Now->Id && *Analysed->Id != *Now->Id)
    return refuse(Shown,
                  "is no longer the file this run analysed (it was "
                  "replaced" +
                      (File == Shown ? std::string(": saved by an editor, or "
                                                   "fixed by another "
                                                   "capture-lint run)")
                                     : ", and leads to '" + File + "' now)"));
  if (Now->Hash != Analysed->Hash ||
      (Analysed->MTime && Now->MTime && *Analysed->MTime != *Now->MTime))
    return refuse(Shown, "changed since this run analysed it (saved by an "
                         "editor, or fixed by another capture-lint run)");
  return Text;
}

} // namespace capture_lint
