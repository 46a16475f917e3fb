//===- FileSnapshot.cpp - A file as the analysis read it ------------------===//

#include "FileSnapshot.h"
#include "capture_lint/BoundedRead.h"

#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/xxhash.h"

#include <cstdio>

namespace capture_lint {

std::string contentHash(llvm::StringRef Text) {
  char Buf[17];
  snprintf(Buf, sizeof Buf, "%016llx",
           static_cast<unsigned long long>(llvm::xxh3_64bits(Text)));
  return Buf;
}

void recordSnapshot(FileSnapshots &Files, const std::string &Path,
                    const FileSnapshot &S) {
  auto [It, New] = Files.emplace(Path, S);
  if (New)
    return;
  FileSnapshot &Old = It->second;
  if (Old.Hash.empty())
    Old.Hash = S.Hash;
  else if (!S.Hash.empty() && S.Hash != Old.Hash)
    Old.Changed = true;
  if (!Old.Id)
    Old.Id = S.Id;
  else if (S.Id && *S.Id != *Old.Id)
    Old.Changed = true;
  if (!Old.MTime)
    Old.MTime = S.MTime;
  else if (S.MTime && *S.MTime != *Old.MTime)
    Old.Changed = true;
  Old.Changed = Old.Changed || S.Changed;
}

std::optional<FileSnapshot> snapshotNow(const std::string &Path,
                                        uint64_t MaxBytes, std::string *Out) {
  // The same file before and after the read: not replaced in between.
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return std::nullopt;
  llvm::sys::fs::UniqueID Id = Status.getUniqueID(), After;
  auto Text = readRegularFile(Path, MaxBytes);
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return std::nullopt;
  }
  if (llvm::sys::fs::getUniqueID(Path, After) || After != Id)
    return std::nullopt;
  FileSnapshot S;
  S.Hash = contentHash(*Text);
  S.Id = Id;
  S.MTime = llvm::sys::toTimeT(Status.getLastModificationTime());
  if (Out)
    *Out = std::move(*Text);
  return S;
}

} // namespace capture_lint
