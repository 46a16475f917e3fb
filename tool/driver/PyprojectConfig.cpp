//===- PyprojectConfig.cpp - [tool.capture-lint] of pyproject -------------===//

#include "PyprojectConfig.h"

#include "capture_lint/BoundedRead.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace capture_lint {

namespace {

/// Reads the values of one table, line by line.
class TableReader {
public:
  TableReader(llvm::StringRef Path) : Path(Path) {}

  llvm::Error error(unsigned Line, const llvm::Twine &Why) const {
    return llvm::createStringError(std::errc::invalid_argument,
                                   "%s:%u: [tool.capture-lint]: %s",
                                   Path.str().c_str(), Line, Why.str().c_str());
  }

  /// A quoted string at the start of \p V (consumed), or an error.
  llvm::Expected<std::string> string(llvm::StringRef &V, unsigned Line) const {
    V = V.ltrim();
    if (V.empty() || (V.front() != '"' && V.front() != '\''))
      return error(Line,
                   "expected a quoted string at '" + V.take_front(20) + "'");
    char Quote = V.front();
    size_t End = V.find(Quote, 1);
    if (End == llvm::StringRef::npos)
      return error(Line, "unterminated string");
    std::string S = V.slice(1, End).str();
    if (Quote == '"' && S.find('\\') != std::string::npos)
      return error(Line, "escapes in strings are not read; use '...'");
    V = V.drop_front(End + 1);
    return S;
  }

  /// `[ "a", 'b', ]`, possibly over several lines (\p More gives them).
  llvm::Expected<std::vector<std::string>>
  array(llvm::StringRef V, unsigned Line,
        llvm::function_ref<bool(llvm::StringRef &, unsigned &)> More) const {
    std::vector<std::string> Out;
    const unsigned Start = Line;
    V = V.ltrim();
    if (!V.consume_front("["))
      return error(Line, "expected an array of strings ([\"...\"])");
    while (true) {
      V = stripComment(V).ltrim();
      if (V.consume_front("]"))
        return stripComment(V).trim().empty()
                   ? llvm::Expected<std::vector<std::string>>(std::move(Out))
                   : error(Line, "text after the array");
      if (V.empty()) {
        if (!More(V, Line))
          return error(Start, "unterminated array");
        continue;
      }
      auto S = string(V, Line);
      if (!S)
        return S.takeError();
      Out.push_back(std::move(*S));
      V = V.ltrim();
      V.consume_front(",");
    }
  }

  static llvm::StringRef stripComment(llvm::StringRef V) {
    // A '#' outside quotes starts a comment.
    char Quote = 0;
    for (size_t I = 0; I < V.size(); ++I) {
      if (Quote) {
        if (V[I] == Quote)
          Quote = 0;
      } else if (V[I] == '"' || V[I] == '\'') {
        Quote = V[I];
      } else if (V[I] == '#') {
        return V.take_front(I);
      }
    }
    return V;
  }

private:
  llvm::StringRef Path;
};

} // namespace

llvm::Expected<PyprojectConfig> parsePyprojectConfig(llvm::StringRef Text,
                                                     llvm::StringRef Path) {
  PyprojectConfig C;
  TableReader R(Path);
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  bool In = false;
  for (unsigned I = 0; I < Lines.size(); ++I) {
    unsigned Line = I + 1;
    llvm::StringRef L = TableReader::stripComment(Lines[I]).trim();
    if (L.starts_with("[")) {
      In = L == "[tool.capture-lint]";
      if (In)
        C.Path = Path.str();
      continue;
    }
    if (!In || L.empty())
      continue;
    auto [Key, Value] = L.split('=');
    Key = Key.trim();
    Value = Value.trim();
    if (Value.empty())
      return R.error(Line, "expected 'key = value'");
    auto More = [&](llvm::StringRef &V, unsigned &At) {
      if (I + 1 >= Lines.size())
        return false;
      V = Lines[++I];
      At = I + 1;
      return true;
    };
    if (Key == "exclude" || Key == "catalog") {
      auto A = R.array(Value, Line, More);
      if (!A)
        return A.takeError();
      for (std::string &S : *A) {
        if (Key == "catalog" && !llvm::sys::path::is_absolute(S)) {
          llvm::SmallString<256> P(llvm::sys::path::parent_path(Path));
          llvm::sys::path::append(P, S);
          S = std::string(P);
        }
        (Key == "exclude" ? C.Exclude : C.Catalogs).push_back(std::move(S));
      }
    } else if (Key == "checks") {
      auto S = R.string(Value, Line);
      if (!S)
        return S.takeError();
      C.Checks = std::move(*S);
    } else if (Key == "max-call-depth") {
      unsigned N = 0;
      if (Value.getAsInteger(10, N) || N == 0 || N > 64)
        return R.error(Line, "max-call-depth: expected a number between 1 "
                             "and 64, not '" +
                                 Value + "'");
      C.MaxCallDepth = N;
    } else {
      return R.error(Line, "unknown key '" + Key +
                               "' (expected exclude, checks, max-call-depth "
                               "or catalog)");
    }
  }
  return C;
}

llvm::Expected<PyprojectConfig> findPyprojectConfig(llvm::StringRef Dir) {
  llvm::SmallString<256> At(Dir);
  llvm::sys::fs::make_absolute(At);
  while (!At.empty()) {
    llvm::SmallString<256> File(At);
    llvm::sys::path::append(File, "pyproject.toml");
    if (llvm::sys::fs::is_regular_file(File)) {
      auto Text = readRegularFile(std::string(File), 16 << 20);
      if (!Text)
        return Text.takeError();
      auto C = parsePyprojectConfig(*Text, File);
      if (!C || !C->Path.empty())
        return C;
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(At);
    if (Parent == At)
      break;
    At = Parent;
  }
  return PyprojectConfig();
}

} // namespace capture_lint
