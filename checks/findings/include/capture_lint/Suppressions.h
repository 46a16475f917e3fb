//===- Suppressions.h - Comments that silence findings ----------*- C++ -*-===//
//
// The one suppression parser for both languages (`//` comments in C++ and
// CUDA, `#` in Python):
//   NOLINT / NOLINT(capture-x, ...)          the line it is on
//   NOLINTNEXTLINE / NOLINTNEXTLINE(...)     the next line
//   NOLINTBEGIN / NOLINTBEGIN(...) ... NOLINTEND / NOLINTEND(...)
//                                            the lines between, both included
//   noqa / noqa: capture-x, ...              the line it is on (ruff's and
//                                            flake8's spelling, for Python)
// A list names checks or globs (`capture-*`, `*`); no list means every check.
// In C++ (`//`), a NOLINT counts anywhere on its line, as clang-tidy reads
// it (`/* NOLINT */`, `// why: ... NOLINT`); in Python, right after a `#`.
// A NOLINTBEGIN without its NOLINTEND (or the other way round) suppresses
// nothing and is reported, as clang-tidy does. No LLVM or tree-sitter types.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_SUPPRESSIONS_H
#define CAPTURE_LINT_SUPPRESSIONS_H

#include <string>
#include <string_view>
#include <vector>

namespace capture_lint {

class Suppressions {
public:
  /// Reads the comments of \p Text, whose comments begin with \p Comment
  /// ("//" or "#").
  Suppressions(std::string_view Text, std::string_view Comment);

  /// Whether a finding of \p Check on 1-based \p Line is silenced.
  bool suppressed(unsigned Line, std::string_view Check) const;

  /// Unmatched NOLINTBEGIN and NOLINTEND comments: 1-based line, message.
  struct Problem {
    unsigned Line;
    std::string Message;
  };
  const std::vector<Problem> &problems() const { return Problems; }

private:
  /// Lines [First, Last] silenced for the checks \p Names (all when empty).
  struct Range {
    unsigned First, Last;
    std::vector<std::string> Names;
  };
  void directive(unsigned Line, std::string_view Comment);

  std::vector<Range> Ranges;
  std::vector<Range> Open; // NOLINTBEGINs waiting for their end
  std::vector<Problem> Problems;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_SUPPRESSIONS_H
