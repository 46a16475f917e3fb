//===- ApiCatalog.cpp - Looking up runtime calls in the API catalog -------===//

#include "capture_probe/ApiCatalog.h"
#include <algorithm>
#include <dirent.h>
#include <sys/stat.h>

namespace capture_probe {

ApiCatalog ApiCatalog::builtin() {
  ApiCatalog C;
  C.Cat.addBuiltin();
  return C;
}

bool ApiCatalog::addJson(const std::string &Text, const std::string &Origin,
                         std::string &Error) {
  return Cat.addDocument(Text, Origin, Error);
}

bool ApiCatalog::addPath(const std::string &Path, std::string &Error) {
  struct stat St;
  if (stat(Path.c_str(), &St) != 0) {
    Error = Path + ": no such file or directory";
    return false;
  }
  std::vector<std::string> Files;
  if (S_ISDIR(St.st_mode)) {
    DIR *D = opendir(Path.c_str());
    if (!D) {
      Error = Path + ": cannot list directory";
      return false;
    }
    while (dirent *Ent = readdir(D)) {
      std::string Name = Ent->d_name;
      if (Name.size() > 5 && Name.compare(Name.size() - 5, 5, ".json") == 0)
        Files.push_back(Path + "/" + Name);
    }
    closedir(D);
    std::sort(Files.begin(), Files.end());
  } else {
    Files.push_back(Path);
  }
  // A FIFO or a link to /dev/zero among the catalogs is an error, not a
  // block (the library reads them bounded).
  for (const std::string &F : Files)
    if (!Cat.addFile(F, Error))
      return false;
  return true;
}

std::string baseApiName(const std::string &Api) {
  std::string S = Api;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const char *Suffix : {"_ptsz", "_ptds"}) {
      size_t L = std::char_traits<char>::length(Suffix);
      if (S.size() > L && S.compare(S.size() - L, L, Suffix) == 0) {
        S.resize(S.size() - L);
        Changed = true;
      }
    }
    size_t U = S.rfind("_v");
    if (U != std::string::npos && U > 0 && U + 2 < S.size() &&
        S.find_first_not_of("0123456789", U + 2) == std::string::npos) {
      S.resize(U);
      Changed = true;
    }
  }
  return S;
}

const ApiEntry *ApiCatalog::lookup(const std::string &Api) const {
  if (const ApiEntry *E = Cat.findApi(Api))
    return E;
  return Cat.findApi(baseApiName(Api));
}

bool ApiCatalog::issuesStreamWork(const std::string &Api) const {
  return Cat.listedAsPrefix(capture_lint::NameList::StreamWorkPrefixes,
                            baseApiName(Api));
}

bool ApiCatalog::isQuery(const std::string &Api) const {
  return Cat.listed(capture_lint::NameList::Queries, baseApiName(Api));
}

bool ApiCatalog::readsLastError(const std::string &Api) const {
  return Cat.listed(capture_lint::NameList::LastErrorReads, baseApiName(Api));
}

} // namespace capture_probe
