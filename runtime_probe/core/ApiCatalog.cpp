//===- ApiCatalog.cpp - Reading the API catalog for the probe -------------===//

#include "capture_probe/ApiCatalog.h"
#include "capture_probe/BoundedFile.h"
#include "capture_probe/BuiltinCatalog.h"
#include <dirent.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

namespace capture_probe {

using nlohmann::json;

std::string ApiInfo::behaviour(CaptureMode M) const {
  auto It = Modes.find(modeName(M));
  return It == Modes.end() ? "" : It->second;
}

ApiCatalog ApiCatalog::builtin() {
  ApiCatalog C;
  size_t N = 0;
  const BuiltinCatalogFile *Files = builtinCatalogFiles(N);
  for (size_t I = 0; I < N; ++I) {
    std::string Error;
    // The build embeds only files capture-lint's own loader accepts.
    C.addJson(Files[I].Text, Files[I].Name, Error);
  }
  return C;
}

bool ApiCatalog::addJson(const std::string &Text, const std::string &Origin,
                         std::string &Error) {
  json Doc = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Doc.is_discarded() || !Doc.is_object()) {
    Error = Origin + ": not a JSON object";
    return false;
  }
  std::map<std::string, ApiInfo> Added;
  try {
    std::string Family = Doc.value("family", "");
    if (!Doc.contains("apis"))
      return true; // a catalog of regions or guards only
    for (const json &A : Doc.at("apis")) {
      ApiInfo Info;
      Info.Name = A.at("name").get<std::string>();
      Info.Family = Family;
      Info.Hazard = A.value("hazard", "none");
      if (A.contains("modes"))
        Info.Modes = A["modes"].get<std::map<std::string, std::string>>();
      Info.Error = A.value("error", "");
      Info.Fix = A.value("fix", "");
      Added[Info.Name] = Info;
      if (A.contains("variants"))
        for (const json &V : A["variants"])
          Added[V.get<std::string>()] = Info;
    }
  } catch (const json::exception &Ex) {
    Error = Origin + ": not an API catalog: " + Ex.what();
    return false;
  }
  for (auto &KV : Added)
    Entries[KV.first] = std::move(KV.second);
  return true;
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
  for (const std::string &F : Files) {
    // A FIFO or a link to /dev/zero among the catalogs is an error, not a
    // block; no catalog comes near 64 MB.
    std::string Text;
    if (!readRegularFile(F, 64u << 20, Text, Error))
      return false;
    if (!addJson(Text, F, Error))
      return false;
  }
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

const ApiInfo *ApiCatalog::lookup(const std::string &Api) const {
  auto It = Entries.find(Api);
  if (It != Entries.end())
    return &It->second;
  It = Entries.find(baseApiName(Api));
  return It == Entries.end() ? nullptr : &It->second;
}

static bool startsWith(const std::string &S, const char *Prefix) {
  return S.rfind(Prefix, 0) == 0;
}

bool issuesStreamWork(const std::string &Api) {
  std::string B = baseApiName(Api);
  for (const char *P :
       {"cudaLaunch", "__cudaLaunch", "cuLaunch", "cudaMemcpy", "cudaMemset",
        "cuMemcpy", "cuMemsetD", "cudaMemPrefetch", "cuMemPrefetch",
        "cudaGraphLaunch", "cuGraphLaunch", "hipLaunch", "hipModuleLaunch",
        "hipExtLaunch", "hipExtModuleLaunch", "hipMemcpy", "hipMemset",
        "hipMemPrefetch", "hipGraphLaunch"})
    if (startsWith(B, P))
      return true;
  return false;
}

bool isQuery(const std::string &Api) {
  std::string B = baseApiName(Api);
  return B == "cudaStreamQuery" || B == "cudaEventQuery" ||
         B == "cuStreamQuery" || B == "cuEventQuery" || B == "hipStreamQuery" ||
         B == "hipEventQuery";
}

} // namespace capture_probe
