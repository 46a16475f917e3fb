//===- Suppressions.cpp - Comments that silence findings ------------------===//
//
// Each line's comments are read once; the directives become ranges of
// lines with the checks they silence (Suppressions.h).
//
//===----------------------------------------------------------------------===//

#include "capture_lint/Suppressions.h"

#include <algorithm>
#include <cctype>

namespace capture_lint {

namespace {

std::string_view trimLeft(std::string_view S) {
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.front())))
    S.remove_prefix(1);
  return S;
}

std::string_view trim(std::string_view S) {
  S = trimLeft(S);
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.back())))
    S.remove_suffix(1);
  return S;
}

bool consume(std::string_view &S, std::string_view Prefix) {
  if (S.substr(0, Prefix.size()) != Prefix)
    return false;
  S.remove_prefix(Prefix.size());
  return true;
}

/// The names in "a, b, c" (empty parts dropped).
std::vector<std::string> splitNames(std::string_view List) {
  std::vector<std::string> Out;
  while (!List.empty()) {
    size_t Comma = List.find(',');
    std::string_view Part = trim(List.substr(0, Comma));
    if (!Part.empty())
      Out.emplace_back(Part);
    if (Comma == std::string_view::npos)
      break;
    List.remove_prefix(Comma + 1);
  }
  return Out;
}

/// Whether \p Names (empty: every check) covers \p Check.
bool covers(const std::vector<std::string> &Names, std::string_view Check) {
  if (Names.empty())
    return true;
  for (const std::string &N : Names) {
    std::string_view Pattern = N;
    if (Pattern == Check || Pattern == "*")
      return true;
    if (!Pattern.empty() && Pattern.back() == '*' &&
        Check.substr(0, Pattern.size() - 1) ==
            Pattern.substr(0, Pattern.size() - 1))
      return true;
  }
  return false;
}

} // namespace

Suppressions::Suppressions(std::string_view Text, std::string_view Comment) {
  unsigned Line = 1;
  while (true) {
    size_t End = Text.find('\n');
    std::string_view L = Text.substr(0, End);
    if (Comment == "//") {
      // As clang-tidy reads them: a NOLINT anywhere on the line (in a
      // `/* */` comment, after other words of a `//` one).
      for (size_t At = L.find("NOLINT"); At != std::string_view::npos;
           At = L.find("NOLINT", At + 1))
        directive(Line, L.substr(At));
    } else {
      for (size_t At = L.find(Comment); At != std::string_view::npos;
           At = L.find(Comment, At + Comment.size()))
        directive(Line, trimLeft(L.substr(At + Comment.size())));
    }
    if (End == std::string_view::npos)
      break;
    Text.remove_prefix(End + 1);
    ++Line;
  }
  for (const Range &R : Open)
    Problems.push_back({R.First, "NOLINTBEGIN without a matching NOLINTEND "
                                 "silences nothing"});
  Open.clear();
}

void Suppressions::directive(unsigned Line, std::string_view C) {
  // The directive and its optional list: `NOLINT(a, b)`, `noqa: a, b`.
  std::vector<std::string> Names;
  auto List = [&](std::string_view Rest) {
    if (!consume(Rest, "("))
      return;
    Names = splitNames(Rest.substr(0, Rest.find(')')));
  };
  std::string_view Rest = C;
  if (consume(Rest, "noqa")) {
    Rest = trimLeft(Rest);
    if (consume(Rest, ":"))
      Names = splitNames(Rest.substr(0, Rest.find('#')));
    Ranges.push_back({Line, Line, Names});
    return;
  }
  if (consume(Rest, "NOLINTNEXTLINE")) {
    List(Rest);
    Ranges.push_back({Line + 1, Line + 1, Names});
    return;
  }
  if (consume(Rest, "NOLINTBEGIN")) {
    List(Rest);
    Open.push_back({Line, 0, Names});
    return;
  }
  if (consume(Rest, "NOLINTEND")) {
    List(Rest);
    // The innermost open range with the same list.
    auto It = std::find_if(Open.rbegin(), Open.rend(),
                           [&](const Range &R) { return R.Names == Names; });
    if (It == Open.rend()) {
      Problems.push_back(
          {Line, "NOLINTEND without a matching NOLINTBEGIN silences nothing"});
      return;
    }
    Range R = *It;
    Open.erase(std::next(It).base());
    R.Last = Line;
    Ranges.push_back(std::move(R));
    return;
  }
  if (consume(Rest, "NOLINT")) {
    List(Rest);
    Ranges.push_back({Line, Line, Names});
  }
}

bool Suppressions::suppressed(unsigned Line, std::string_view Check) const {
  for (const Range &R : Ranges)
    if (Line >= R.First && Line <= R.Last && covers(R.Names, Check))
      return true;
  return false;
}

} // namespace capture_lint
