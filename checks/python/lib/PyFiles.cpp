//===- PyFiles.cpp - Reading Python sources from disk ---------------------===//

#include "PyFiles.h"

#include "capture_lint/BoundedRead.h"
#include "capture_lint/python/PyAnalysis.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace capture_lint::python {

void normalizeLineEndings(std::string &Text) {
  for (size_t I = Text.find('\r'); I != std::string::npos;
       I = Text.find('\r', I + 1))
    if (I + 1 == Text.size() || Text[I + 1] != '\n')
      Text[I] = '\n';
}

llvm::Expected<std::string> readPythonSource(const std::string &Path) {
  auto Text = readRegularFile(Path, MaxPythonSourceBytes);
  if (Text)
    normalizeLineEndings(*Text);
  return Text;
}

bool PyDisk::exists(const llvm::Twine &Path) const {
  return FS ? FS->exists(Path) : llvm::sys::fs::exists(Path);
}

bool PyDisk::isDirectory(const llvm::Twine &Path) const {
  if (!FS)
    return llvm::sys::fs::is_directory(Path);
  auto Status = FS->status(Path);
  return Status && Status->isDirectory();
}

bool PyDisk::isProjectTop(llvm::StringRef Dir) const {
  if (FS)
    return llvm::is_contained(Tops, Dir);
  for (const char *Marker : {".git", "pyproject.toml", "setup.py", "setup.cfg"})
    if (llvm::sys::fs::exists(Dir + "/" + Marker))
      return true;
  return false;
}

std::vector<std::string> PyDisk::list(const std::string &Dir) const {
  std::vector<std::string> Out;
  std::error_code EC;
  if (FS) {
    for (llvm::vfs::directory_iterator D = FS->dir_begin(Dir, EC), End;
         !EC && D != End; D.increment(EC))
      Out.push_back(D->path().str());
    return Out;
  }
  for (llvm::sys::fs::directory_iterator D(Dir, EC), End; !EC && D != End;
       D.increment(EC))
    Out.push_back(D->path());
  return Out;
}

llvm::Expected<std::string> PyDisk::read(const std::string &Path) const {
  if (!FS)
    return readPythonSource(Path);
  auto Buffer = FS->getBufferForFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "'%s': %s", Path.c_str(),
                                   Buffer.getError().message().c_str());
  std::string Text = (*Buffer)->getBuffer().str();
  normalizeLineEndings(Text);
  return Text;
}

std::error_code PyDisk::makeAbsolute(llvm::SmallVectorImpl<char> &Path) const {
  return FS ? FS->makeAbsolute(Path) : llvm::sys::fs::make_absolute(Path);
}

namespace {

/// What a Python tree holds besides its own sources, as other Python
/// linters skip it: hidden directories, caches, build output, installed
/// packages and virtual environments (a directory with a pyvenv.cfg).
bool skippedDirectory(llvm::StringRef Path, llvm::StringRef Name) {
  static const char *const Skipped[] = {
      "__pycache__",    "node_modules", "build",         "dist",
      "_build",         "buck-out",     "site-packages", "dist-packages",
      "__pypackages__", "venv"};
  if (Name.starts_with(".") || llvm::is_contained(Skipped, Name))
    return true;
  return llvm::sys::fs::exists(Path + "/pyvenv.cfg");
}

/// The .py files below \p Dir into \p Out; what cannot be listed into
/// \p Unreadable. Symbolic links to directories are not followed (no
/// cycles, no duplicates).
void walk(const std::string &Dir, std::vector<std::string> &Out,
          std::vector<PyError> &Unreadable,
          llvm::function_ref<bool(llvm::StringRef)> Excluded) {
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Dir, EC, /*follow=*/false), End;
  for (; !EC && It != End; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Excluded && Excluded(It->path()))
      continue;
    if (It->type() == llvm::sys::fs::file_type::directory_file) {
      if (!skippedDirectory(It->path(), Name))
        walk(It->path(), Out, Unreadable, Excluded);
      continue;
    }
    if (Name.ends_with(".py"))
      Out.push_back(It->path());
  }
  if (EC)
    Unreadable.push_back({Dir, "cannot be listed (" + EC.message() +
                                   "); the .py files in it were not "
                                   "analysed"});
}

} // namespace

std::vector<std::string>
pythonFilesUnder(llvm::StringRef Dir, std::vector<PyError> *Unreadable,
                 llvm::function_ref<bool(llvm::StringRef)> Excluded) {
  std::vector<std::string> Out;
  std::vector<PyError> Skipped;
  walk(Dir.str(), Out, Skipped, Excluded);
  std::sort(Out.begin(), Out.end());
  if (Unreadable)
    *Unreadable = std::move(Skipped);
  return Out;
}

} // namespace capture_lint::python
