//===- ApiCatalog.h - The API catalog as the probe reads it -----*- C++ -*-===//
//
// The same checks/catalog/*.json that capture-lint uses, reduced to what a
// runtime observation needs: for an API name as the runtime reports it
// (cudaMalloc, cuMemAlloc_v2, cudaMemcpyAsync_ptsz), its family, hazard and
// expected behaviour per capture mode. The probe adds two facts the static
// catalog has no use for: whether a call issues stream-ordered work (so a
// call that created no graph node ran outside the graph), and whether it is
// a query.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_APICATALOG_H
#define CAPTURE_PROBE_APICATALOG_H

#include "capture_probe/Event.h"
#include <map>
#include <string>

namespace capture_probe {

struct ApiInfo {
  std::string Name;   // the catalog's name (cudaMalloc for cudaMalloc_v3020)
  std::string Family; // cuda-runtime, cuda-driver, hip, ...
  std::string Hazard; // sync, allocation, host-read, none
  std::map<std::string, std::string> Modes; // mode -> illegal/eager/...
  std::string Error; // what the catalog says it fails with
  std::string Fix;

  /// The catalog's behaviour in \p M ("" when the catalog does not say).
  std::string behaviour(CaptureMode M) const;
};

class ApiCatalog {
public:
  /// The catalog compiled into the probe.
  static ApiCatalog builtin();

  /// Adds the entries of one catalog JSON document (the format of
  /// checks/catalog/*.json). Returns false and sets \p Error (naming
  /// \p Origin) if it is not a catalog.
  bool addJson(const std::string &Text, const std::string &Origin,
               std::string &Error);
  /// Adds a file, or every *.json in a directory.
  bool addPath(const std::string &Path, std::string &Error);

  /// The entry for a runtime-reported name, trying it as is, then without
  /// _ptsz/_ptds and _vNNNN suffixes. Null if the catalog has none.
  const ApiInfo *lookup(const std::string &Api) const;

  size_t size() const { return Entries.size(); }

private:
  std::map<std::string, ApiInfo> Entries; // by name and by every variant
};

/// The name without _ptsz/_ptds/_vNNNN suffixes (cuMemAlloc_v2 -> cuMemAlloc).
std::string baseApiName(const std::string &Api);
/// Kernel launches, copies, memsets, host functions, graph launches:
/// calls that put work on a stream, and so create a node when captured.
bool issuesStreamWork(const std::string &Api);
/// cudaStreamQuery, cuEventQuery, hipStreamQuery, ...
bool isQuery(const std::string &Api);

} // namespace capture_probe

#endif // CAPTURE_PROBE_APICATALOG_H
