//===- PyProgram.cpp - The modules, classes and functions analysed --------===//

#include "PyProgram.h"
#include "PyFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace capture_lint::python {

namespace path = llvm::sys::path;

std::string dottedName(const PySource &S, TSNode N) {
  N = stripParens(N);
  if (is(N, "identifier"))
    return S.text(N).str();
  if (is(N, "attribute")) {
    std::string Base = dottedName(S, field(N, "object"));
    if (Base.empty())
      return "";
    return Base + "." + S.text(field(N, "attribute")).str();
  }
  return "";
}

/// The dotted module name of a file and the directory it is relative to:
/// the directories above it that hold an __init__.py are its packages.
static std::pair<std::string, std::string> moduleNameOf(llvm::StringRef File,
                                                        const PyDisk &Disk) {
  llvm::SmallString<256> Dir(path::parent_path(File));
  std::string Name = path::stem(File).str();
  bool Init = Name == "__init__";
  if (Init)
    Name.clear();
  while (true) {
    llvm::SmallString<256> Marker(Dir);
    path::append(Marker, "__init__.py");
    if (!Disk.exists(Marker))
      break;
    std::string Pkg = path::filename(Dir).str();
    Name = Name.empty() ? Pkg : Pkg + "." + Name;
    // A copy: Parent points into Dir.
    std::string Parent = path::parent_path(Dir).str();
    if (Parent == Dir.str() || Parent.empty())
      break;
    Dir = Parent;
  }
  if (Name.empty()) // an __init__.py outside any package: its directory
    Name = path::filename(path::parent_path(File)).str();
  return {Name, std::string(Dir)};
}

PyModule *PyProgram::addFile(const std::string &Path, std::string Text,
                             bool IsInput) {
  auto Known = ByPath.find(Path);
  if (Known != ByPath.end()) {
    Known->second->IsInput |= IsInput;
    return Known->second;
  }
  auto M = std::make_unique<PyModule>();
  auto [Name, Root] = moduleNameOf(Path, *Disk);
  M->Name = Name;
  M->Root = Root;
  M->Dir = path::parent_path(Path).str();
  M->IsPackage = path::filename(Path) == "__init__.py";
  M->IsInput = IsInput;
  M->Src = std::make_unique<PySource>(Path, std::move(Text));
  ++Parsed;
  Lines += M->Src->lineCount();
  PyModule *Raw = M.get();
  Modules.push_back(std::move(M));
  ByPath[Path] = Raw;
  ByName.try_emplace(Raw->Name, Raw); // the first file of a name wins
  addRoot(Raw->Root);
  addScriptRoot(Raw->Dir);
  addProjectRoots(Raw->Dir);
  index(*Raw);
  return Raw;
}

void PyProgram::addRootsOf(const std::string &Path) {
  addRoot(moduleNameOf(Path, *Disk).second);
  addScriptRoot(path::parent_path(Path).str());
  addProjectRoots(path::parent_path(Path).str());
}

void PyProgram::addScriptRoot(const std::string &Dir) {
  // A script's directory is on sys.path when it runs; a module of a
  // package is imported through the package, and its directory is not.
  if (!Disk->exists(Dir + "/__init__.py"))
    addRoot(Dir);
}

void PyProgram::addProjectRoots(const std::string &Dir) {
  // An absolute import names packages from a root on sys.path, most often
  // the project's top, its src/, or a directory between the top and the
  // file, also where the file's own directory is no package (a namespace
  // package): every directory from the file's up to the project's top that
  // is no package itself, and the top's src/, is a root. A package's
  // directory (it has an __init__.py) is imported through its parent, never
  // put on sys.path (pytest's rootdir insertion stops below it too): its
  // subpackages do not shadow installed ones (`thunder/torch/` is
  // `thunder.torch`, and `import torch` in thunder/ is PyTorch).
  llvm::SmallString<256> Abs(Dir);
  if (Disk->makeAbsolute(Abs))
    return;
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::vector<std::string> Chain;
  std::string At(Abs);
  bool Top = false;
  for (unsigned Up = 0; Up < 12 && !At.empty(); ++Up) {
    if (auto Known = LeadsToTop.find(At); Known != LeadsToTop.end()) {
      Top = Known->second; // walked from here before
      break;
    }
    Chain.push_back(At);
    if ((Top = Disk->isProjectTop(At)))
      break;
    std::string Parent = path::parent_path(At).str();
    if (Parent == At)
      break;
    At = Parent;
  }
  for (const std::string &D : Chain) {
    LeadsToTop[D] = Top;
    if (Top && !Disk->exists(D + "/__init__.py"))
      addRoot(D);
  }
  // The top's src/ (the src layout: src/pkg/...) when the file is not in it.
  if (Top && !Chain.empty() && Disk->isProjectTop(Chain.back()) &&
      Disk->isDirectory(Chain.back() + "/src"))
    addRoot(Chain.back() + "/src");
}

void PyProgram::addRoot(const std::string &Dir) {
  if (Roots.insert(Dir).second)
    UnindexedRoots.push_back(Dir);
}

void PyProgram::indexNewRoots() {
  std::vector<std::string> New;
  New.swap(UnindexedRoots);
  for (const std::string &Root : New) {
    std::set<std::string> Heads;
    for (const std::string &Entry : Disk->list(Root)) {
      llvm::StringRef Name = path::filename(Entry);
      Heads.insert(Name.str());
      if (Name.ends_with(".py"))
        Heads.insert(Name.drop_back(3).str());
    }
    for (const std::string &Head : Heads) {
      std::vector<std::string> &List = RootsByHead[Head];
      List.insert(std::lower_bound(List.begin(), List.end(), Root), Root);
    }
  }
}

PyModule *PyProgram::module(const std::string &Dotted) {
  auto It = ByName.find(Dotted);
  if (It != ByName.end())
    return It->second;
  if (Missing.count(Dotted))
    return nullptr;
  std::string Rel = Dotted;
  std::replace(Rel.begin(), Rel.end(), '.', '/');
  std::string Head = Dotted.substr(0, Dotted.find('.'));
  indexNewRoots();
  auto WithHead = RootsByHead.find(Head);
  // A copy: loading a module may add roots.
  std::vector<std::string> RootList;
  if (WithHead != RootsByHead.end())
    RootList = WithHead->second;
  for (const std::string &Root : RootList) {
    for (const char *Suffix : {".py", "/__init__.py"}) {
      std::string Candidate = Root + "/" + Rel + Suffix;
      auto Open = Overrides
                      ? Overrides->find(Candidate)
                      : std::map<std::string, std::string>::const_iterator();
      bool IsOpen = Overrides && Open != Overrides->end();
      if (!IsOpen && !Disk->exists(Candidate))
        continue;
      llvm::Expected<std::string> Text =
          IsOpen ? llvm::Expected<std::string>(Open->second)
                 : Disk->read(Candidate);
      if (IsOpen && Text)
        normalizeLineEndings(*Text);
      if (!Text) {
        Unreadable.push_back(llvm::toString(Text.takeError()) + ": module '" +
                             Dotted + "' not followed into");
        continue;
      }
      PyModule *M = addFile(Candidate, std::move(*Text), false);
      ByName[Dotted] = M;
      return M;
    }
  }
  Missing.insert(Dotted);
  return nullptr;
}

std::string PyProgram::absoluteImport(const PyModule &From,
                                      llvm::StringRef Target,
                                      unsigned Level) const {
  if (Level == 0)
    return Target.str();
  llvm::StringRef Base = From.Name;
  if (!From.IsPackage)
    Base = Base.rsplit('.').first == Base ? "" : Base.rsplit('.').first;
  for (unsigned I = 1; I < Level; ++I)
    Base = Base.contains('.') ? Base.rsplit('.').first : "";
  if (Base.empty())
    return Target.str();
  return Target.empty() ? Base.str() : (Base + "." + Target).str();
}

void PyProgram::indexImport(PyModule &M, TSNode Node,
                            std::map<std::string, std::string> &Into) {
  const PySource &S = *M.Src;
  if (is(Node, "import_statement")) {
    for (TSNode N : namedChildren(Node)) {
      if (is(N, "aliased_import")) {
        Into[S.text(field(N, "alias")).str()] = S.text(field(N, "name")).str();
      } else if (is(N, "dotted_name")) {
        llvm::StringRef Full = S.text(N);
        std::string First = Full.split('.').first.str();
        Into[First] = First; // `import a.b` binds a
      }
    }
    return;
  }
  // import_from_statement
  TSNode ModNode = field(Node, "module_name");
  std::string Target;
  unsigned Level = 0;
  if (is(ModNode, "relative_import")) {
    for (TSNode C : namedChildren(ModNode)) {
      if (is(C, "import_prefix"))
        Level = unsigned(S.text(C).count('.'));
      else
        Target = S.text(C).str();
    }
  } else {
    Target = S.text(ModNode).str();
  }
  std::string Abs = absoluteImport(M, Target, Level);
  for (TSNode N : namedChildren(Node)) {
    if (ts_node_eq(N, ModNode))
      continue;
    std::string Name, Alias;
    if (is(N, "aliased_import")) {
      Name = S.text(field(N, "name")).str();
      Alias = S.text(field(N, "alias")).str();
    } else if (is(N, "dotted_name")) {
      Name = Alias = S.text(N).str();
    } else {
      continue;
    }
    Into[Alias] = Abs.empty() ? Name : Abs + "." + Name;
  }
}

/// Whether \p N is inside a lambda below \p Body.
static bool insideLambda(TSNode N, TSNode Body) {
  for (TSNode P = ts_node_parent(N); !isNull(P) && !ts_node_eq(P, Body);
       P = ts_node_parent(P))
    if (is(P, "lambda"))
      return true;
  return false;
}

/// A `self.NAME = EXPR` initialiser of \p C's field, in any method.
static void noteAttrInit(PyClass &C, const PySource &S, TSNode Assignment) {
  TSNode L = field(Assignment, "left"), R = field(Assignment, "right");
  if (is(L, "attribute") && S.text(field(L, "object")) == "self" && !isNull(R))
    C.AttrInits[S.text(field(L, "attribute")).str()].push_back(R);
}

PyFunction *PyProgram::newFunction(PyModule &M, PyClass *Owner, TSNode Node,
                                   bool Method) {
  Functions.emplace_back();
  PyFunction &F = Functions.back();
  F.Module = &M;
  F.Owner = Owner;
  F.Node = Node;
  F.Name = M.Src->text(field(Node, "name")).str();
  F.Display = Owner ? Owner->Name + "." + F.Name : F.Name;
  F.QualName = (Owner ? Owner->QualName : M.Name) + "." + F.Name;
  // A generator (a @contextmanager body): any yield outside nested defs
  // and lambdas. The names its own import statements bind (`import torch`
  // in a test function), in the function's scope. The functions defined in
  // it, and the calls it makes. In a method (not a function nested in one),
  // the fields it initialises.
  TSNode Body = field(Node, "body");
  visitNamedWithParent(Body, [&](TSNode N, TSNode Parent) {
    llvm::StringRef K = kind(N);
    if (K == "call") {
      F.Calls.push_back(N);
      if (is(Parent, "expression_statement"))
        F.StatementCalls.push_back(N.id);
    } else if (K == "with_statement")
      F.Withs.push_back(N);
    else if (K == "yield" && !insideLambda(N, Body))
      F.IsGenerator = true;
    else if (K == "function_definition")
      F.NestedDefs.push_back(N);
    else if (K == "import_statement" || K == "import_from_statement")
      indexImport(M, N, F.Imports);
    else if (Method && K == "assignment")
      noteAttrInit(*Owner, *M.Src, N);
    return K == "function_definition" || K == "class_definition"
               ? VisitNext::Skip
               : VisitNext::Into;
  });
  std::sort(F.StatementCalls.begin(), F.StatementCalls.end());
  return &F;
}

static TSNode definitionOf(TSNode N) {
  if (is(N, "decorated_definition"))
    return field(N, "definition");
  return N;
}

void PyProgram::indexClass(PyModule &M, TSNode Node) {
  const PySource &S = *M.Src;
  Classes.emplace_back();
  PyClass &C = Classes.back();
  C.Module = &M;
  C.Node = Node;
  C.Name = S.text(field(Node, "name")).str();
  C.QualName = M.Name + "." + C.Name;
  TSNode Supers = field(Node, "superclasses");
  for (TSNode Child : namedChildren(Supers))
    if (!is(Child, "keyword_argument"))
      C.BaseExprs.push_back(Child);
  TSNode Body = field(Node, "body");
  for (TSNode Child : namedChildren(Body)) {
    TSNode D = definitionOf(Child);
    if (!is(D, "function_definition"))
      continue;
    PyFunction *F = newFunction(M, &C, D, /*Method=*/true);
    C.Methods[F->Name] = F;
  }
  M.Classes[C.Name] = &C;
}

void PyProgram::index(PyModule &M) {
  TSNode Root = M.Src->root();
  // Top-level statements, and those inside top-level if/try (guarded
  // imports, `if TYPE_CHECKING:`).
  std::vector<TSNode> Stmts;
  for (TSNode Child : namedChildren(Root))
    Stmts.push_back(Child);
  for (size_t I = 0; I < Stmts.size(); ++I) {
    TSNode N = Stmts[I];
    llvm::StringRef K = kind(N);
    if (K == "if_statement" || K == "try_statement" || K == "block" ||
        K == "else_clause" || K == "except_clause" || K == "finally_clause" ||
        K == "elif_clause") {
      for (TSNode Child : namedChildren(N))
        Stmts.push_back(Child);
      continue;
    }
    TSNode D = definitionOf(N);
    if (is(D, "function_definition")) {
      PyFunction *F = newFunction(M, nullptr, D);
      M.Functions[F->Name] = F;
    } else if (is(D, "class_definition")) {
      indexClass(M, D);
    } else if (K == "import_statement" || K == "import_from_statement") {
      indexImport(M, N, M.Imports);
    } else if (K == "expression_statement" && namedCount(N) == 1 &&
               is(named(N, 0), "assignment")) {
      TSNode A = named(N, 0);
      TSNode L = field(A, "left"), R = field(A, "right");
      if (is(L, "identifier") && !isNull(R))
        M.Globals[M.Src->text(L).str()] = R;
    }
  }
}

PySymbol PyProgram::resolve(PyModule &M, llvm::StringRef Dotted,
                            const PyFunction *Scope) {
  PySymbol Sym;
  if (Dotted.empty())
    return Sym;
  auto [Head, Rest] = Dotted.split('.');
  for (const PyFunction *F = Scope; F; F = F->Enclosing)
    if (auto I = F->Imports.find(Head.str()); I != F->Imports.end())
      return resolveImported(M, Rest.empty() ? I->second
                                             : I->second + "." + Rest.str());
  // Names of this module first.
  if (Rest.empty()) {
    if (auto F = M.Functions.find(Head.str()); F != M.Functions.end()) {
      Sym.Function = F->second;
      return Sym;
    }
    if (auto C = M.Classes.find(Head.str()); C != M.Classes.end()) {
      Sym.Class = C->second;
      return Sym;
    }
  } else if (auto C = M.Classes.find(Head.str()); C != M.Classes.end()) {
    if (!Rest.contains('.'))
      Sym.Function = method(C->second, Rest);
    return Sym;
  }
  std::string Full;
  if (auto I = M.Imports.find(Head.str()); I != M.Imports.end())
    Full = Rest.empty() ? I->second : I->second + "." + Rest.str();
  else if (M.Globals.count(Head.str()) || M.Functions.count(Head.str()))
    return Sym;
  else
    Full = "builtins." + Dotted.str();
  return resolveImported(M, Full);
}

PySymbol PyProgram::resolveImported(PyModule &M, const std::string &Full) {
  PySymbol Sym;
  // The longest prefix that is a module of the program, then its members.
  llvm::StringRef F = Full;
  for (size_t Dot = F.size(); Dot != llvm::StringRef::npos;
       Dot = Dot == 0 ? llvm::StringRef::npos : F.rfind('.', Dot - 1)) {
    llvm::StringRef ModName = F.substr(0, Dot);
    if (ModName.starts_with("builtins"))
      break;
    PyModule *Target = module(ModName.str());
    if (!Target)
      continue;
    llvm::StringRef Member = Dot < F.size() ? F.substr(Dot + 1) : "";
    if (Member.empty()) {
      Sym.Module = Target;
      return Sym;
    }
    if (Target == &M)
      break;
    PySymbol Inner = resolve(*Target, Member);
    if (Inner.Module || Inner.Class || Inner.Function)
      return Inner;
    break;
  }
  Sym.External = Full;
  return Sym;
}

std::string PyProgram::fullName(const PyModule &M, llvm::StringRef Dotted,
                                const PyFunction *Scope) const {
  auto [Head, Rest] = Dotted.split('.');
  for (const PyFunction *F = Scope; F; F = F->Enclosing)
    if (auto I = F->Imports.find(Head.str()); I != F->Imports.end())
      return Rest.empty() ? I->second : I->second + "." + Rest.str();
  if (auto I = M.Imports.find(Head.str()); I != M.Imports.end())
    return Rest.empty() ? I->second : I->second + "." + Rest.str();
  if (M.Functions.count(Head.str()) || M.Classes.count(Head.str()) ||
      M.Globals.count(Head.str()))
    return "";
  return "builtins." + Dotted.str();
}

std::vector<PyClass *> PyProgram::bases(PyClass *C) {
  std::vector<PyClass *> Out;
  for (TSNode B : C->BaseExprs) {
    std::string Name = dottedName(*C->Module->Src, B);
    if (Name.empty())
      continue;
    PySymbol S = resolve(*C->Module, Name);
    if (S.Class && S.Class != C)
      Out.push_back(S.Class);
  }
  return Out;
}

PyFunction *PyProgram::method(PyClass *C, llvm::StringRef Name,
                              unsigned Depth) {
  if (!C || Depth > 8)
    return nullptr;
  if (auto It = C->Methods.find(Name.str()); It != C->Methods.end())
    return It->second;
  for (PyClass *B : bases(C))
    if (PyFunction *F = method(B, Name, Depth + 1))
      return F;
  return nullptr;
}

PyFunction *PyProgram::localFunction(PyModule *M, PyClass *Owner, TSNode Node,
                                     const std::string &Display,
                                     const PyFunction *Enclosing) {
  unsigned long long Key = (reinterpret_cast<uintptr_t>(M) << 20) ^
                           begin(Node) ^
                           (static_cast<unsigned long long>(end(Node)) << 40);
  auto It = Locals.find(Key);
  if (It != Locals.end()) {
    if (!It->second->Enclosing)
      It->second->Enclosing = Enclosing;
    return It->second;
  }
  PyFunction *F;
  if (is(Node, "function_definition")) {
    F = newFunction(*M, Owner, Node);
  } else {
    Functions.emplace_back();
    F = &Functions.back();
    F->Module = M;
    F->Owner = Owner;
    F->Node = Node;
    F->Name = "lambda";
    F->QualName = M->Name + ".<lambda>";
  }
  F->Display = Display;
  F->Enclosing = Enclosing;
  Locals[Key] = F;
  return F;
}

} // namespace capture_lint::python
