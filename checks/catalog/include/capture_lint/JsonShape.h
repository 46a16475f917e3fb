//===- JsonShape.h - Checking a JSON document's fields before use -*- C++ -*-=//
//
// nlohmann::json throws (or silently converts) when a field has the wrong
// type. Readers of untrusted documents check each field first with these
// helpers, which name the first field that does not fit by its path
// ("captures[2].begin.seq: expected an unsigned integer, found \"x\"").
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_JSONSHAPE_H
#define CAPTURE_LINT_JSONSHAPE_H

#include <nlohmann/json.hpp>

#include <string>

namespace capture_lint {

enum class JsonType {
  String,
  Bool,
  Unsigned, // a non-negative integer
  Int,      // an integer that fits in int
  Object,
  Array,
};

/// Collects the first mismatch; every check after it passes trivially, so
/// a reader checks all its fields and looks at ok() once.
class JsonShape {
public:
  bool ok() const { return Error.empty(); }
  const std::string &error() const { return Error; }

  /// \p J (found at \p Path) must have type \p T.
  bool is(const nlohmann::json &J, JsonType T, const std::string &Path);
  /// \p Obj must be an object whose \p Key exists and has type \p T.
  bool required(const nlohmann::json &Obj, const char *Key, JsonType T,
                const std::string &Path);
  /// If \p Key exists (and, when \p NullOk, is not null), it has type \p T.
  bool optional(const nlohmann::json &Obj, const char *Key, JsonType T,
                const std::string &Path, bool NullOk = false);
  /// If \p Key exists, it is an array whose elements all have type \p T.
  bool optionalArrayOf(const nlohmann::json &Obj, const char *Key, JsonType T,
                       const std::string &Path);

  /// "a.b", "a[3]", for paths in messages.
  static std::string field(const std::string &Path, const char *Key);
  static std::string index(const std::string &Path, size_t I);

private:
  bool fail(const std::string &Path, const std::string &Why);
  std::string Error;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_JSONSHAPE_H
