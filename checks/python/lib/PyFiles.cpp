//===- PyFiles.cpp - Reading Python sources from disk ---------------------===//

#include "PyFiles.h"

#include "capture_lint/BoundedRead.h"
#include "capture_lint/python/PyAnalysis.h"

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
