//===- JsonShape.cpp - Checking a JSON document's fields before use -------===//

#include "capture_lint/JsonShape.h"

#include <climits>

namespace capture_lint {

using nlohmann::json;

namespace {

const char *describe(JsonType T) {
  switch (T) {
  case JsonType::String:
    return "a string";
  case JsonType::Bool:
    return "true or false";
  case JsonType::Unsigned:
    return "a non-negative integer";
  case JsonType::Int:
    return "an integer";
  case JsonType::Object:
    return "an object";
  case JsonType::Array:
    return "an array";
  }
  return "?";
}

bool fits(const json &J, JsonType T) {
  switch (T) {
  case JsonType::String:
    return J.is_string();
  case JsonType::Bool:
    return J.is_boolean();
  case JsonType::Unsigned:
    return J.is_number_unsigned();
  case JsonType::Int:
    if (J.is_number_unsigned())
      return J.get<uint64_t>() <= uint64_t(INT_MAX);
    return J.is_number_integer() && J.get<int64_t>() >= INT_MIN &&
           J.get<int64_t>() <= INT_MAX;
  case JsonType::Object:
    return J.is_object();
  case JsonType::Array:
    return J.is_array();
  }
  return false;
}

/// A short rendering of what was found instead.
std::string found(const json &J) {
  if (J.is_object())
    return "an object";
  if (J.is_array())
    return "an array";
  std::string S = J.dump();
  if (S.size() > 40)
    S = S.substr(0, 37) + "...";
  return S;
}

} // namespace

std::string JsonShape::field(const std::string &Path, const char *Key) {
  return Path.empty() ? Key : Path + "." + Key;
}

std::string JsonShape::index(const std::string &Path, size_t I) {
  return Path + "[" + std::to_string(I) + "]";
}

bool JsonShape::fail(const std::string &Path, const std::string &Why) {
  if (Error.empty())
    Error = (Path.empty() ? std::string("the document") : "'" + Path + "'") +
            ": " + Why;
  return false;
}

bool JsonShape::is(const json &J, JsonType T, const std::string &Path) {
  if (!ok())
    return false;
  if (fits(J, T))
    return true;
  return fail(Path,
              std::string("expected ") + describe(T) + ", found " + found(J));
}

bool JsonShape::required(const json &Obj, const char *Key, JsonType T,
                         const std::string &Path) {
  if (!ok() || !is(Obj, JsonType::Object, Path))
    return false;
  if (!Obj.contains(Key))
    return fail(field(Path, Key),
                std::string("missing (expected ") + describe(T) + ")");
  return is(Obj.at(Key), T, field(Path, Key));
}

bool JsonShape::optional(const json &Obj, const char *Key, JsonType T,
                         const std::string &Path, bool NullOk) {
  if (!ok() || !is(Obj, JsonType::Object, Path))
    return false;
  if (!Obj.contains(Key) || (NullOk && Obj.at(Key).is_null()))
    return true;
  return is(Obj.at(Key), T, field(Path, Key));
}

bool JsonShape::optionalArrayOf(const json &Obj, const char *Key, JsonType T,
                                const std::string &Path) {
  if (!optional(Obj, Key, JsonType::Array, Path) || !Obj.contains(Key))
    return ok();
  const json &A = Obj.at(Key);
  for (size_t I = 0; I < A.size(); ++I)
    if (!is(A[I], T, index(field(Path, Key), I)))
      return false;
  return true;
}

} // namespace capture_lint
