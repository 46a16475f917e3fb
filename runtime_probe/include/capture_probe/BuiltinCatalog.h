//===- BuiltinCatalog.h - The catalog in the probe ----------- -*- C++ -*-===//
//
// checks/catalog/*.json, embedded at build time by cmake/EmbedCatalog.cmake
// (FLAVOR=probe), so the probe classifies calls exactly as capture-lint does.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_BUILTINCATALOG_H
#define CAPTURE_PROBE_BUILTINCATALOG_H

#include <cstddef>

namespace capture_probe {

struct BuiltinCatalogFile {
  const char *Name;
  const char *Text;
};

const BuiltinCatalogFile *builtinCatalogFiles(std::size_t &Count);

} // namespace capture_probe

#endif // CAPTURE_PROBE_BUILTINCATALOG_H
