//===- Baseline.cpp - Adopting capture-lint on code with old findings -----===//

#include "Baseline.h"
#include "Utf8.h"

#include "capture_lint/BoundedRead.h"
#include "capture_lint/JsonError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include <nlohmann/json.hpp>

#include <map>
#include <tuple>

namespace capture_lint {

using nlohmann::json;

namespace {

using Key = std::tuple<std::string, std::string, std::string, std::string>;

std::string baseDir(const std::string &BaselinePath) {
  llvm::SmallString<256> Dir(BaselinePath);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  llvm::sys::path::remove_dots(Dir, true);
  return std::string(Dir);
}

/// A message without the "(file.cu:12)" that says where a reached call is,
/// so that a finding stays old when lines move in the callee's file too.
std::string withoutLocations(const std::string &Message) {
  static const llvm::Regex Where(" \\([^() ]+:[0-9]+\\)");
  std::string Out = Message;
  while (Where.match(Out))
    Out = Where.sub("", Out);
  return Out;
}

/// As the baseline holds it: valid UTF-8 (a Latin-1 byte in the line's
/// comment is U+FFFD there), so an unchanged finding matches.
Key keyOf(const ReportFinding &F, const std::string &Dir) {
  return {F.Check, validUtf8(relativeTo(F.Loc.File, Dir)),
          validUtf8(llvm::StringRef(F.Loc.LineText).trim()),
          withoutLocations(validUtf8(F.Message))};
}

} // namespace

std::string relativeTo(const std::string &File, const std::string &Dir) {
  llvm::StringRef F(File);
  if (!Dir.empty() && F.starts_with(Dir) && F.size() > Dir.size() &&
      llvm::sys::path::is_separator(F[Dir.size()]))
    return F.substr(Dir.size() + 1).str();
  return File;
}

std::string stableFindingKey(const ReportFinding &F, const std::string &Dir) {
  Key K = keyOf(F, Dir);
  return std::get<0>(K) + '\0' + std::get<1>(K) + '\0' + std::get<2>(K) + '\0' +
         std::get<3>(K);
}

std::string baselineJson(const Report &R, const std::string &Path) {
  std::string Dir = baseDir(Path);
  std::map<Key, unsigned> Counts;
  for (const ReportFinding &F : R.Findings)
    ++Counts[keyOf(F, Dir)];
  json Entries = json::array();
  for (const auto &[K, N] : Counts)
    Entries.push_back({{"check", std::get<0>(K)},
                       {"file", std::get<1>(K)},
                       {"code", std::get<2>(K)},
                       {"message", std::get<3>(K)},
                       {"count", N}});
  json Doc = {{"capture-lint-baseline", 1}, {"findings", std::move(Entries)}};
  return Doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

llvm::Expected<unsigned> applyBaseline(Report &R, const std::string &Path) {
  constexpr uint64_t MaxBaselineBytes = 256u << 20;
  auto Text = readRegularFile(Path, MaxBaselineBytes);
  if (!Text)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "baseline %s",
                                   llvm::toString(Text.takeError()).c_str());
  std::map<Key, unsigned> Counts;
  try {
    json Doc = json::parse(*Text);
    if (!Doc.is_object() || !Doc.contains("capture-lint-baseline") ||
        !Doc.contains("findings") || !Doc["findings"].is_array())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "baseline '%s': not a capture-lint baseline (write one with "
          "--write-baseline)",
          Path.c_str());
    for (const json &E : Doc["findings"])
      Counts[{E.at("check").get<std::string>(), E.at("file").get<std::string>(),
              E.at("code").get<std::string>(),
              withoutLocations(E.at("message").get<std::string>())}] +=
          E.at("count").get<unsigned>();
  } catch (const json::exception &E) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "baseline '%s': %s", Path.c_str(),
                                   jsonErrorMessage(E).c_str());
  }
  std::string Dir = baseDir(Path);
  unsigned Removed = 0;
  std::vector<ReportFinding> Kept;
  for (ReportFinding &F : R.Findings) {
    auto It = Counts.find(keyOf(F, Dir));
    if (It != Counts.end() && It->second > 0) {
      --It->second;
      ++Removed;
      continue;
    }
    Kept.push_back(std::move(F));
  }
  R.Findings = std::move(Kept);
  return Removed;
}

} // namespace capture_lint
