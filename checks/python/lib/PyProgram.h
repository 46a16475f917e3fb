//===- PyProgram.h - The modules, classes and functions analysed -*- C++ -*-=//
//
// An index of the Python program: each file is a module (its dotted name
// from the package directories around it), with its imports, top-level
// functions, classes (methods, bases, `self.attr = ...` initialisers) and
// module-level assignments. Modules of the same packages are loaded from
// disk on demand when an analysed file imports them, so a region in
// model.py follows `from .layers import Attention` into layers.py.
//
// Simplifications: one definition per name (the last one wins); no
// star-imports; no dynamic attributes; a name's class comes from
// constructor calls `Name(...)` only.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_PYPROGRAM_H
#define CAPTURE_LINT_PYTHON_PYPROGRAM_H

#include "PyFiles.h"
#include "PySource.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace capture_lint::python {

struct PyModule;
struct PyClass;

struct PyFunction {
  PyModule *Module = nullptr;
  PyClass *Owner = nullptr; // for methods
  TSNode Node{};            // function_definition or lambda
  std::string Name;         // "forward"
  std::string QualName;     // "pkg.model.Block.forward"
  std::string Display;      // "Block.forward"
  bool IsGenerator = false; // contains yield (a context manager's body)
  /// The `def`s directly in its body (not in nested functions or classes).
  std::vector<TSNode> NestedDefs;
  /// The calls its own code makes: outside nested function and class
  /// definitions, lambdas included (they run where they are called from).
  std::vector<TSNode> Calls;
  /// The with statements of its own code (where a capture may open).
  std::vector<TSNode> Withs;
  /// Of its calls, those that are statements of their own (`self.begin()`),
  /// by node id, sorted.
  std::vector<const void *> StatementCalls;
  bool isStatement(TSNode Call) const {
    return std::binary_search(StatementCalls.begin(), StatementCalls.end(),
                              Call.id);
  }
  /// What its own import statements bind: local name -> dotted target.
  std::map<std::string, std::string> Imports;
  /// For a nested function or lambda: the function it is defined in (whose
  /// imports it sees).
  const PyFunction *Enclosing = nullptr;
};

struct PyClass {
  PyModule *Module = nullptr;
  TSNode Node{};
  std::string Name, QualName;
  std::vector<TSNode> BaseExprs;
  std::map<std::string, PyFunction *> Methods;
  /// `self.NAME = EXPR` anywhere in the class's methods.
  std::map<std::string, std::vector<TSNode>> AttrInits;
};

struct PyModule {
  std::string Name; // dotted ("pkg.model"); the file stem outside packages
  std::string Dir;  // directory of the file
  std::string Root; // the directory the dotted name is relative to
  bool IsPackage = false; // an __init__.py
  bool IsInput = false;   // named on the command line
  std::unique_ptr<PySource> Src;
  std::map<std::string, std::string> Imports; // local name -> dotted target
  std::map<std::string, PyFunction *> Functions;
  std::map<std::string, PyClass *> Classes;
  std::map<std::string, TSNode> Globals; // NAME = EXPR at module level
};

/// What a dotted expression names.
struct PySymbol {
  PyModule *Module = nullptr;
  PyClass *Class = nullptr;
  PyFunction *Function = nullptr;
  /// A name outside the program ("torch.cuda.synchronize"), with imports
  /// substituted; empty when the expression is not a dotted name rooted in
  /// an import or a builtin.
  std::string External;
  explicit operator bool() const {
    return Module || Class || Function || !External.empty();
  }
};

class PyProgram {
public:
  /// Adds a file; returns null when it cannot be read (\p Error says why).
  PyModule *addFile(const std::string &Path, std::string Text, bool IsInput);

  /// Makes the package root of \p Path (and its directory) a place where
  /// imports are looked for, without reading it: an input that cannot open
  /// a region is still a module the others may import.
  void addRootsOf(const std::string &Path);
  /// The module of that dotted name, loaded from the roots on demand.
  PyModule *module(const std::string &Dotted);
  /// Texts that stand for files on disk (an editor's unsaved buffers, by
  /// absolute path), also for the modules imports load.
  void setOverrides(const std::map<std::string, std::string> *Texts) {
    Overrides = Texts;
  }
  /// Where modules are looked for (the disk unless set).
  void setDisk(const PyDisk *D) { Disk = D; }
  /// A relative or absolute import target from \p From, made absolute.
  std::string absoluteImport(const PyModule &From, llvm::StringRef Target,
                             unsigned Level) const;

  /// Resolves a dotted name as written in \p M ("nn.Linear", "Attention",
  /// "torch.cuda.synchronize"), inside function \p Scope when given (its
  /// own imports first, then those of the functions around it).
  PySymbol resolve(PyModule &M, llvm::StringRef Dotted,
                   const PyFunction *Scope = nullptr);
  /// \p Dotted with its first name replaced by what \p M imports under it
  /// ("F.relu" -> "torch.nn.functional.relu"), "builtins.NAME" for an
  /// unbound single name, or "" when the first name is defined in \p M.
  std::string fullName(const PyModule &M, llvm::StringRef Dotted,
                       const PyFunction *Scope = nullptr) const;
  /// A method of \p C or of its bases.
  PyFunction *method(PyClass *C, llvm::StringRef Name, unsigned Depth = 0);
  std::vector<PyClass *> bases(PyClass *C);

  /// A nested function or lambda, indexed on first use.
  PyFunction *localFunction(PyModule *M, PyClass *Owner, TSNode Node,
                            const std::string &Display,
                            const PyFunction *Enclosing = nullptr);

  const std::deque<std::unique_ptr<PyModule>> &modules() const {
    return Modules;
  }
  unsigned filesParsed() const { return Parsed; }
  /// Modules found on disk that could not be read, one line each.
  const std::vector<std::string> &unreadableModules() const {
    return Unreadable;
  }
  unsigned long long linesParsed() const { return Lines; }

private:
  void index(PyModule &M);
  void indexClass(PyModule &M, TSNode Node);
  PyFunction *newFunction(PyModule &M, PyClass *Owner, TSNode Node,
                          bool Method = false);
  void indexImport(PyModule &M, TSNode Node,
                   std::map<std::string, std::string> &Into);
  /// An absolute dotted name: the longest prefix that is a module of the
  /// program, then its members; else an external name.
  PySymbol resolveImported(PyModule &M, const std::string &Full);

  std::deque<std::unique_ptr<PyModule>> Modules;
  std::deque<PyFunction> Functions;
  std::deque<PyClass> Classes;
  llvm::StringMap<PyModule *> ByName, ByPath;
  llvm::StringSet<> Missing;
  std::set<std::string> Roots;
  /// Adds a root of absolute imports.
  void addRoot(const std::string &Dir);
  /// The roots added since they were last indexed.
  std::vector<std::string> UnindexedRoots;
  /// Per first component of a dotted name (`pkg` of `pkg.mod`), the roots
  /// that hold `pkg/` or `pkg.py`, in the order of Roots: each root's
  /// directory is listed once, so looking a module up costs no walk over
  /// every root (thousands in a tree of many projects).
  std::map<std::string, std::vector<std::string>> RootsByHead;
  void indexNewRoots();
  /// The directories from \p Dir up to the project's top become roots.
  /// \p Dir as a root of absolute imports when it is no package (the
  /// directory of a script).
  void addScriptRoot(const std::string &Dir);
  void addProjectRoots(const std::string &Dir);
  std::map<std::string, bool> LeadsToTop; // directory -> a top above it
  std::vector<std::string> Unreadable;
  const std::map<std::string, std::string> *Overrides = nullptr;
  static inline const PyDisk TheDisk;
  const PyDisk *Disk = &TheDisk;
  std::map<unsigned long long, PyFunction *> Locals; // by node start + module
  unsigned Parsed = 0;
  unsigned long long Lines = 0;
};

/// The dotted text of an identifier/attribute chain ("torch.cuda.graph"),
/// or "" when the expression is something else.
std::string dottedName(const PySource &S, TSNode N);

} // namespace capture_lint::python

#endif // CAPTURE_LINT_PYTHON_PYPROGRAM_H
