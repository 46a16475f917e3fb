//===- CompileDatabaseCheck.cpp - A database's shape, checked first -------===//

#include "CompileDatabaseCheck.h"
#include "capture_lint/BoundedRead.h"
#include "capture_lint/JsonShape.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace capture_lint {

using nlohmann::json;

/// Databases of the largest projects are tens of MB.
static constexpr uint64_t MaxDatabaseBytes = 1024u << 20;

static std::string checkEntry(const json &E, size_t I) {
  JsonShape S;
  std::string Where = "entry " + std::to_string(I);
  if (E.is_object() && E.contains("file") && E.at("file").is_string())
    Where += " ('" + E.at("file").get<std::string>() + "')";
  std::string P = JsonShape::index("", I);
  S.required(E, "directory", JsonType::String, P);
  S.required(E, "file", JsonType::String, P);
  S.optional(E, "command", JsonType::String, P);
  S.optionalArrayOf(E, "arguments", JsonType::String, P);
  S.optional(E, "output", JsonType::String, P);
  if (!S.ok())
    return Where + ": " + S.error();
  if (!E.contains("command") && !E.contains("arguments"))
    return Where + ": has neither 'command' nor 'arguments'";
  std::string Dir = E.at("directory").get<std::string>();
  if (!llvm::sys::path::is_absolute(Dir))
    return Where + ": 'directory' is the relative path '" + Dir +
           "'; a compile database needs absolute directories";
  return "";
}

std::string checkCompileDatabaseText(llvm::StringRef Text) {
  json J = json::parse(Text.begin(), Text.end(), nullptr,
                       /*allow_exceptions=*/false);
  if (J.is_discarded())
    return "not valid JSON";
  if (!J.is_array())
    return "expected an array of entries, found " +
           std::string(J.is_object() ? "an object" : J.type_name());
  for (size_t I = 0; I < J.size(); ++I) {
    std::string Problem = checkEntry(J[I], I);
    if (!Problem.empty())
      return Problem;
  }
  return "";
}

std::string checkCompileDatabase(const std::string &Path) {
  auto Text = readRegularFile(Path, MaxDatabaseBytes);
  if (!Text)
    return llvm::toString(Text.takeError());
  std::string Problem = checkCompileDatabaseText(*Text);
  return Problem.empty() ? "" : "'" + Path + "': " + Problem;
}

std::string problemWithDirectory(llvm::StringRef Directory) {
  llvm::sys::fs::file_status St;
  if (std::error_code EC = llvm::sys::fs::status(Directory, St))
    return "its compile database directory '" + Directory.str() +
           "' cannot be used: " + EC.message();
  if (St.type() != llvm::sys::fs::file_type::directory_file)
    return "its compile database directory '" + Directory.str() +
           "' is not a directory";
  return "";
}

} // namespace capture_lint
