//===- PyFiles.h - Reading Python sources from disk -------------*- C++ -*-===//
//
// Python sources come from package walks and imports, where anything may
// sit under a .py name: a FIFO (a plain read blocks forever), a symlink to
// /dev/zero (reads until memory runs out), an unreadable directory, a path
// longer than PATH_MAX. Sources are read only as bounded regular files, and
// what cannot be read is said, never silently skipped. Old-Mac line endings
// (a lone CR) become LF, byte for byte, so offsets stay those of the file.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_PYFILES_H
#define CAPTURE_LINT_PYTHON_PYFILES_H

#include "capture_lint/python/PyAnalysis.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <string>
#include <vector>

namespace capture_lint::python {

/// No Python source comes near this.
constexpr uint64_t MaxPythonSourceBytes = 256u << 20;

/// The text of the Python source \p Path, or an error naming it and saying
/// why it cannot be read.
/// \p Text with each CR that does not start a CRLF turned into LF.
void normalizeLineEndings(std::string &Text);

/// What the analysis asks of the files around the ones it is given: the
/// disk, or a virtual file system holding only the modules of the link
/// step's summaries (nothing else is read then).
class PyDisk {
public:
  /// The disk.
  PyDisk() = default;
  /// \p FS, where the directories \p Tops are the projects' tops.
  PyDisk(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
         std::vector<std::string> Tops)
      : FS(std::move(FS)), Tops(std::move(Tops)) {}

  bool exists(const llvm::Twine &Path) const;
  bool isDirectory(const llvm::Twine &Path) const;
  /// A checkout, or where its Python build configuration lives.
  bool isProjectTop(llvm::StringRef Dir) const;
  /// The paths of the entries of \p Dir (none when it cannot be listed).
  std::vector<std::string> list(const std::string &Dir) const;
  /// readPythonSource's text.
  llvm::Expected<std::string> read(const std::string &Path) const;
  /// \p Path made absolute.
  std::error_code makeAbsolute(llvm::SmallVectorImpl<char> &Path) const;

private:
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS;
  std::vector<std::string> Tops;
};

} // namespace capture_lint::python

#endif // CAPTURE_LINT_PYTHON_PYFILES_H
