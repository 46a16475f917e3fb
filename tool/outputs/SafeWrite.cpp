//===- SafeWrite.cpp - Writing a user's file without ever damaging it -----===//

#include "SafeWrite.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/stat.h>
#include <unistd.h>

namespace capture_lint {

namespace {

llvm::Error failure(const std::string &Path, const llvm::Twine &Why) {
  return llvm::createStringError(std::errc::io_error, "cannot write '%s': %s",
                                 Path.c_str(), Why.str().c_str());
}

/// Flushes and closes \p OS; its error, if any, is returned and cleared (an
/// uncleared one would abort the process in the destructor).
std::error_code finish(llvm::raw_fd_ostream &OS) {
  OS.close();
  std::error_code EC = OS.error();
  OS.clear_error();
  return EC;
}

/// The file a write lands in: a symlink's final target.
std::string resolveLinks(const std::string &Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path; // does not exist (yet), or a dangling link
  return std::string(Real);
}

llvm::Error writeThrough(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return failure(Path, EC.message());
  OS << Text;
  if (std::error_code Err = finish(OS))
    return failure(Path, Err.message());
  return llvm::Error::success();
}

/// Refuses an in-place edit that would change what the file is.
llvm::Error checkEditable(const std::string &Path, const struct stat &St) {
  if (St.st_nlink > 1)
    return failure(Path, "it has " + llvm::Twine(St.st_nlink) +
                             " hard links and replacing it would split "
                             "them; apply the fix by hand");
  if (::access(Path.c_str(), W_OK) != 0)
    return failure(
        Path, "it is not writable (" +
                  std::error_code(errno, std::generic_category()).message() +
                  ")");
  return llvm::Error::success();
}

} // namespace

llvm::Error writeFileSafely(const std::string &Requested, llvm::StringRef Text,
                            WriteKind Kind) {
  bool Private = Kind == WriteKind::Private;
  std::string Path = Private ? Requested : resolveLinks(Requested);
  struct stat St;
  bool Exists =
      (Private ? ::lstat(Path.c_str(), &St) : ::stat(Path.c_str(), &St)) == 0;
  if (Exists && Private && !S_ISDIR(St.st_mode) && !S_ISREG(St.st_mode))
    Exists = false; // replaced by the rename below
  if (Exists && !S_ISREG(St.st_mode)) {
    if (S_ISDIR(St.st_mode))
      return failure(Requested, "it is a directory");
    return writeThrough(Path, Text); // a device or a pipe: no rename
  }
  if (Kind == WriteKind::InPlaceEdit) {
    if (!Exists)
      return failure(Requested, "it no longer exists");
    if (llvm::Error E = checkEditable(Path, St))
      return E;
  }

  int FD = -1;
  llvm::SmallString<256> Tmp;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Tmp))
    return failure(Requested, "cannot create a temporary file beside it (" +
                                  EC.message() + ")");
  std::string TmpPath(Tmp);
  llvm::sys::RemoveFileOnSignal(TmpPath);
  auto Discard = [&](const llvm::Twine &Why) {
    llvm::sys::fs::remove(TmpPath);
    llvm::sys::DontRemoveFileOnSignal(TmpPath);
    return failure(Requested, Why);
  };
  if (Exists) {
    // The replacement keeps the original's mode and owner.
    if (::fchmod(FD, St.st_mode & 07777) != 0) {
      ::close(FD);
      return Discard("cannot keep its mode");
    }
    if (::fchown(FD, St.st_uid, St.st_gid) != 0 &&
        Kind == WriteKind::InPlaceEdit) {
      ::close(FD);
      return Discard("cannot keep its owner (uid " + llvm::Twine(St.st_uid) +
                     "); apply the fix as that user");
    }
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    if (std::error_code EC = finish(OS))
      return Discard(EC.message());
  }
  if (std::error_code EC = llvm::sys::fs::rename(TmpPath, Path))
    return Discard(EC.message());
  llvm::sys::DontRemoveFileOnSignal(TmpPath);
  return llvm::Error::success();
}

llvm::Error writeStdout(llvm::StringRef Text) {
  llvm::raw_fd_ostream &OS = llvm::outs();
  OS << Text;
  OS.flush();
  if (!OS.has_error())
    return llvm::Error::success();
  std::error_code EC = OS.error();
  OS.clear_error();
  return llvm::createStringError(EC, "cannot write to standard output: %s",
                                 EC.message().c_str());
}

} // namespace capture_lint
