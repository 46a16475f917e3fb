//===- Excludes.cpp - The inputs --exclude leaves out ---------------------===//

#include "Excludes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace capture_lint {

llvm::Expected<Excludes>
Excludes::create(const std::vector<std::string> &Globs) {
  Excludes Out;
  for (const std::string &G : Globs) {
    auto P = llvm::GlobPattern::create(G);
    if (!P)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(), "--exclude='%s' is not a glob: %s",
          G.c_str(), llvm::toString(P.takeError()).c_str());
    Out.Patterns.push_back(std::move(*P));
  }
  return Out;
}

bool Excludes::excludes(llvm::StringRef Path) const {
  if (Patterns.empty())
    return false;
  // Under the current directory, the path from there ("pkg/tests/t.py"):
  // what lies above it (a checkout under /home/u/tests) never matches.
  llvm::SmallString<256> Cwd;
  llvm::StringRef Rel = Path;
  if (!llvm::sys::fs::current_path(Cwd) && Rel.starts_with(Cwd.str())) {
    if (Rel.size() == Cwd.size())
      return false; // the current directory itself
    if (Rel[Cwd.size()] == '/')
      Rel = Rel.drop_front(Cwd.size() + 1);
  }
  Rel.consume_front("./");
  // It and every trailing part at a '/': "a/b/c.py", "b/c.py", "c.py".
  std::vector<llvm::StringRef> Forms = {Rel};
  for (size_t At = Rel.find('/'); At != llvm::StringRef::npos;
       At = Rel.find('/', At + 1))
    Forms.push_back(Rel.substr(At + 1));
  for (const llvm::GlobPattern &P : Patterns)
    for (llvm::StringRef F : Forms)
      if (!F.empty() && P.match(F))
        return true;
  return false;
}

} // namespace capture_lint
