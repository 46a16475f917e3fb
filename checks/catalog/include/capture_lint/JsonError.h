//===- JsonError.h - A JSON parse error as users should read it -*- C++ -*-===//
//
// nlohmann::json's exceptions read "[json.exception.parse_error.101] parse
// error at line 1, column 18: ...": the bracketed id is the library's, not
// something a user can act on. Messages about users' files drop it.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_JSONERROR_H
#define CAPTURE_LINT_JSONERROR_H

#include <exception>
#include <string>

namespace capture_lint {

/// \p E's message without the JSON library's "[json.exception.*] " id.
inline std::string jsonErrorMessage(const std::exception &E) {
  std::string M = E.what();
  if (M.rfind("[json.exception.", 0) == 0)
    if (size_t Close = M.find("] "); Close != std::string::npos)
      M.erase(0, Close + 2);
  return M;
}

} // namespace capture_lint

#endif // CAPTURE_LINT_JSONERROR_H
