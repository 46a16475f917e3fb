//===- ApiCatalog.h - The API catalog as the probe reads it -----*- C++ -*-===//
//
// The same checks/catalog/*.json that capture-lint uses, read by the same
// library (capture_lint::Catalog), looked up by the name a runtime reports
// (cudaMalloc, cuMemAlloc_v2, cudaMemcpyAsync_ptsz). The probe asks two
// things the static analysis does not, both from the catalog's name lists:
// whether a call issues stream-ordered work (so a call that created no graph
// node ran outside the graph), and whether it is a query.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_APICATALOG_H
#define CAPTURE_PROBE_APICATALOG_H

#include "capture_lint/Catalog.h"
#include "capture_probe/Event.h"
#include <string>

namespace capture_probe {

using capture_lint::ApiEntry;

class ApiCatalog {
public:
  /// The catalog compiled into the probe (and into capture-lint).
  static ApiCatalog builtin();

  /// Adds the entries of one catalog JSON document (the format of
  /// checks/catalog/*.json). Returns false and sets \p Error (naming
  /// \p Origin, the entry and the field) if it is not a valid catalog.
  bool addJson(const std::string &Text, const std::string &Origin,
               std::string &Error);
  /// Adds a file, or every *.json in a directory.
  bool addPath(const std::string &Path, std::string &Error);

  /// The entry for a runtime-reported name, trying it as is, then without
  /// _ptsz/_ptds and _vNNNN suffixes. Null if the catalog has none.
  const ApiEntry *lookup(const std::string &Api) const;
  /// Kernel launches, copies, memsets, host functions, graph launches:
  /// calls that put work on a stream, and so create a node when captured
  /// (the catalog's stream_work_prefixes).
  bool issuesStreamWork(const std::string &Api) const;
  /// cudaStreamQuery, cuEventQuery, hipStreamQuery, ... (its queries).
  bool isQuery(const std::string &Api) const;
  /// cudaGetLastError and the like: they return an earlier call's error
  /// (the catalog's last_error_reads).
  bool readsLastError(const std::string &Api) const;

  const capture_lint::Catalog &catalog() const { return Cat; }

private:
  capture_lint::Catalog Cat;
};

/// The name without _ptsz/_ptds/_vNNNN suffixes (cuMemAlloc_v2 -> cuMemAlloc).
std::string baseApiName(const std::string &Api);

} // namespace capture_probe

#endif // CAPTURE_PROBE_APICATALOG_H
