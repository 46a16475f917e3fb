//===- SummaryCache.cpp - Per-TU results on disk --------------------------===//

#include "SummaryCache.h"
#include "SafeWrite.h"
#include "UnitJson.h"
#include "UnitPaths.h"
#include "capture_lint/BoundedRead.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace capture_lint {

/// Bumped whenever what the analysis produces changes shape or meaning.
static constexpr const char *CacheFormat = "capture-lint-unit 8";
/// No entry this tool writes comes near this; a bigger file is not one.
static constexpr uint64_t MaxEntryBytes = 256u << 20;
/// Nor does a source or header the compiler reads.
static constexpr uint64_t MaxDependencyBytes = 1024u << 20;

/// \p Text with \p Root written as a placeholder (no relative path reads
/// alike, so `-I/top/include` and a relative `-Iinclude` stay apart).
static std::string rootAsPlaceholder(llvm::StringRef Text,
                                     llvm::StringRef Root) {
  Root = Root.rtrim('/');
  if (Root.empty())
    return Text.str();
  std::string Out;
  for (size_t At; (At = Text.find(Root)) != llvm::StringRef::npos;) {
    Out += Text.take_front(At).str() + "${ROOT}";
    Text = Text.drop_front(At + Root.size());
  }
  return Out + Text.str();
}

std::string SummaryCache::key(llvm::StringRef File,
                              const std::vector<std::string> &CommandLine,
                              llvm::StringRef Directory,
                              llvm::StringRef Settings, llvm::StringRef Root) {
  std::string Text = std::string(CacheFormat) + '\0' +
                     rootAsPlaceholder(File, Root) + '\0' +
                     rootAsPlaceholder(Directory, Root) + '\0' +
                     rootAsPlaceholder(Settings, Root);
  for (const std::string &A : CommandLine)
    Text += '\0' + rootAsPlaceholder(A, Root);
  return llvm::sys::path::filename(File).str() + "-" + contentHash(Text);
}

std::optional<FileSnapshot> SummaryCache::snapshot(const std::string &Path) {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Snapshots.find(Path);
    if (It != Snapshots.end())
      return It->second;
  }
  // An entry names these files: a FIFO or a device there is "changed".
  std::optional<FileSnapshot> S = snapshotNow(Path, MaxDependencyBytes);
  std::lock_guard<std::mutex> Lock(Mutex);
  Snapshots[Path] = S;
  return S;
}

/// The entry as store() writes it for \p Key, with \p Deps as given and
/// without its digest.
static json entryJson(const std::string &Key, const UnitResult &U, json Deps) {
  json Findings = json::array();
  for (const ReportFinding &F : U.Findings)
    Findings.push_back(findingJson(F));
  json Errors = json::array();
  for (const ReportError &E : U.Errors)
    Errors.push_back(errorJson(E));
  return {{"format", CacheFormat},       {"key", Key},
          {"deps", std::move(Deps)},     {"findings", std::move(Findings)},
          {"errors", std::move(Errors)}, {"summary", toJson(U.Summary)}};
}

/// The digest of an entry: a hash of everything in it but the digest.
static std::string digestOf(const json &Entry) {
  return contentHash(
      Entry.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string SummaryCache::seal(llvm::StringRef Entry, const std::string &Key) {
  json J = json::parse(Entry.begin(), Entry.end(), nullptr,
                       /*allow_exceptions=*/false);
  if (!J.is_object())
    return "";
  J.erase("digest");
  J["key"] = Key;
  J["digest"] = digestOf(J);
  return J.dump(-1, ' ', false, json::error_handler_t::replace);
}

/// Whether every fix of \p U lands in a file \p U depends on.
static bool fixesStayInDeps(const UnitResult &U) {
  for (const ReportFinding &F : U.Findings)
    for (const TextEdit &R : F.Fixes)
      if (!U.Deps.count(R.File))
        return false;
  return true;
}

/// The entry in \p J, if it is for \p Key, intact, and every file it
/// depends on is unchanged.
std::optional<UnitResult> SummaryCache::fromJson(json J,
                                                 const std::string &Key) {
  if (!J.is_object() || !J.contains("format") ||
      J.at("format") != CacheFormat || !J.contains("key") ||
      J.at("key") != Key || !J.contains("digest") || !J.contains("deps") ||
      !J.at("deps").is_array())
    return std::nullopt;
  json Digest = J.at("digest");
  J.erase("digest");
  if (Digest != digestOf(J))
    return std::nullopt; // edited by hand
  UnitResult U;
  for (const json &Entry : J.at("findings")) {
    std::optional<ReportFinding> F = findingFrom(Entry);
    if (!F)
      return std::nullopt; // a damaged entry is a miss
    U.Findings.push_back(std::move(*F));
  }
  for (const json &E : J.at("errors"))
    U.Errors.push_back(errorFrom(E));
  U.Summary = tuSummaryFromJson(J.at("summary"));
  // Well-formed JSON with the wrong shape (`"functions": null`, a negative
  // line) would be read as something else: trust an entry only if writing
  // back what was read gives the entry again.
  if (entryJson(Key, U, J.at("deps")) != J)
    return std::nullopt;
  // Read as written (relative to the root); used under this run's root.
  for (const json &D : J.at("deps")) {
    if (!D.is_array() || D.size() != 2)
      return std::nullopt;
    std::string File = underRoot(D.at(0).get<std::string>(), Root);
    auto Now = snapshot(File);
    if (!Now || Now->Hash != D.at(1).get<std::string>())
      return std::nullopt; // changed or gone
    U.Deps[File] = *Now;
  }
  eachUnitPath(U, [&](std::string &P) { P = underRoot(P, Root); });
  if (!fixesStayInDeps(U))
    return std::nullopt;
  return U;
}

std::optional<UnitResult> SummaryCache::load(const std::string &Key) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Key + ".json");
  // Not a regular file (a FIFO, a link to a device) or absurdly big: a miss.
  auto Text = readRegularFile(std::string(Path), MaxEntryBytes);
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return std::nullopt;
  }
  try {
    return fromJson(json::parse(*Text), Key);
  } catch (const json::exception &) {
    return std::nullopt; // a damaged entry is a miss, and is rewritten
  }
}

std::vector<UnitResult> SummaryCache::loadAll() {
  std::vector<UnitResult> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (!Name.ends_with(".json"))
      continue;
    std::string Key = Name.drop_back(5).str();
    if (std::optional<UnitResult> U = load(Key))
      Out.push_back(std::move(*U));
  }
  return Out;
}

llvm::Error SummaryCache::store(const std::string &Key, const UnitResult &U) {
  json Deps = json::array();
  for (const auto &[D, Read] : U.Deps) {
    // Not a file on disk (a virtual buffer the compiler made up): nothing
    // to compare later.
    if (!llvm::sys::fs::is_regular_file(D))
      continue;
    // The text the analysis read, else what is there now.
    std::optional<FileSnapshot> S = Read;
    if (S->Hash.empty())
      S = snapshot(D);
    if (!S || S->Changed)
      return llvm::Error::success(); // unreadable now: do not cache
    Deps.push_back({relativeToRoot(D, Root), S->Hash});
  }
  UnitResult Relative = U;
  eachUnitPath(Relative, [&](std::string &P) { P = relativeToRoot(P, Root); });
  json J = entryJson(Key, Relative, std::move(Deps));
  J["digest"] = digestOf(J);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC,
                                   "cannot create the cache directory '%s': %s",
                                   Dir.c_str(), EC.message().c_str());
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Key + ".json");
  return writeFileSafely(std::string(Path),
                         J.dump(-1, ' ', false, json::error_handler_t::replace),
                         WriteKind::Private);
}

} // namespace capture_lint
