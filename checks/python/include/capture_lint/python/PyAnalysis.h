//===- PyAnalysis.h - capture-lint for PyTorch Python code ------*- C++ -*-===//
//
// The Python front end: finds CUDA graph capture regions in PyTorch code
// (`with torch.cuda.graph(g):`, `g.capture_begin()` ... `g.capture_end()`,
// callables given to `torch.cuda.make_graphed_callables`, functions marked
// `# capture-lint: captured` or named "captured" in .capture-lint.json) and
// reports the catalog's hazards in them, following calls into functions and
// methods of the analysed package. Findings use the C++ checks' names and
// land in the same report records (tool/driver/PythonRunner.cpp).
// See docs/python.md.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_PYANALYSIS_H
#define CAPTURE_LINT_PYTHON_PYANALYSIS_H

#include "capture_lint/Catalog.h"
#include "capture_lint/Finding.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace capture_lint::python {

struct PyError {
  std::string File;
  std::string Message;
};

struct PyOptions {
  unsigned MaxCallDepth = 8;
  /// Whether a check is enabled (all when empty).
  std::function<bool(const std::string &)> CheckEnabled;
  /// Texts that replace the files' contents on disk (an editor's unsaved
  /// buffers), by absolute path: of the files analysed and of the modules
  /// their imports load.
  std::map<std::string, std::string> Overrides;
  /// Names C++ code binds to functions Python calls (nativeCallKey's form):
  /// calls to them from regions are reported in PyResult::NativeCalls.
  std::set<std::string> NativeKeys;
  /// Where the modules imports load are looked for: the disk when null.
  /// The link step gives the modules of its summaries, and the directories
  /// that are the projects' tops (ProjectTops), which the disk shows by
  /// their markers (.git, pyproject.toml, setup.py, setup.cfg).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Files;
  std::vector<std::string> ProjectTops;
};

/// A call from a capture region (directly or through the functions it
/// follows) into a C++ function bound to a name Python calls: the
/// whole-program phase follows it (tool/driver/NativeJoin.cpp).
struct PyNativeCall {
  std::string Key;    // "torch.ops.myext.step"
  std::string Callee; // as written: "torch.ops.myext.step.default"
  SourcePlace At;     // the call
  /// The calls from the region down to the function making it, outermost
  /// first (none when the region makes it).
  std::vector<std::pair<SourcePlace, std::string>> Steps;
  SourcePlace RegionBegin, RegionEnd;
  std::string Headline, Mode, Stream;
};

struct PyResult {
  std::vector<Finding> Findings;
  std::vector<PyError> Errors;
  /// Files that do not parse completely (their other parts are analysed).
  std::vector<std::string> Warnings;
  /// Every file read: the inputs and the modules followed into.
  std::vector<std::string> FilesRead;
  std::vector<PyNativeCall> NativeCalls;
  unsigned FilesAnalyzed = 0;
  unsigned FilesParsed = 0; // files that could hold a region, or were followed
  unsigned long long Lines = 0;
};

/// Analyses \p Files (absolute .py paths) as one program: calls from a
/// region are followed into any of them and into modules of the same
/// packages found on disk.
PyResult analyzePython(const std::vector<std::string> &Files,
                       const Catalog &Cat, const PyOptions &Opts);

/// The key a call to \p Full (a dotted name resolved through the imports)
/// has in PyOptions::NativeKeys: "torch.ops.NS.OP" for an operator (an
/// overload named after it dropped), "MODULE.NAME" (the last two names) for
/// a function of a compiled module; "" for a name too short to be one.
std::string nativeCallKey(llvm::StringRef Full);

/// The key a call of the C function \p Name through a foreign library
/// (`lib.NAME(...)` with `lib = ctypes.CDLL(path)` or cffi's
/// `ffi.dlopen(path)`) has in PyOptions::NativeKeys: "extern-c:NAME".
std::string nativeLibraryKey(llvm::StringRef Name);

/// The text of the Python source at \p Path as the analysis reads it: a
/// bounded regular file (never a FIFO or a device), lone CRs made LFs so
/// offsets stay the file's. The error says why it cannot be read.
llvm::Expected<std::string> readPythonSource(const std::string &Path);

/// Whether \p Path names a Python source file.
bool isPythonFile(llvm::StringRef Path);

/// Every .py file below \p Dir, sorted. Skipped: hidden directories,
/// __pycache__, node_modules, build output (build, dist, _build,
/// buck-out), installed packages (site-packages, dist-packages,
/// __pypackages__), virtual environments (venv, or any directory with a
/// pyvenv.cfg), and the paths \p Excluded accepts (--exclude).
/// Directories that cannot be listed (no permission, a path longer than
/// PATH_MAX) are said in \p Unreadable.
std::vector<std::string>
pythonFilesUnder(llvm::StringRef Dir, std::vector<PyError> *Unreadable,
                 llvm::function_ref<bool(llvm::StringRef)> Excluded = {});

} // namespace capture_lint::python

#endif // CAPTURE_LINT_PYTHON_PYANALYSIS_H
