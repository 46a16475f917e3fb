//===- CaptureSettings.h - The options of the capture analysis --*- C++ -*-===//
//
// The one reader of the capture checks' options, as clang-tidy configuration
// spells them (`CheckOptions:` in `.clang-tidy`, `--config`), for every front
// door: the clang-tidy adapter reads them per check, the CLI once per
// translation unit.
//   CaptureCatalog   extra catalog files, ';'-separated (a check's own, else
//                    the global one)
//   MaxCallDepth     1 to 64 (a check's own, else the global one)
//   capture-shape-branch.ShapeFunctions, .TensorClasses   ';'-separated
// An invalid value or catalog is an error that names it: the checks do not
// run, and every front door reports the error at the top of the file.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_CAPTURESETTINGS_H
#define CAPTURE_LINT_CAPTURESETTINGS_H

#include "capture_lint/Analysis.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace capture_lint {

class Catalog;

/// The value of the configuration option \p Key ("MaxCallDepth",
/// "capture-sync-call.MaxCallDepth"), when set.
using OptionLookup =
    llvm::function_ref<std::optional<std::string>(llvm::StringRef Key)>;

struct CaptureSettings {
  AnalysisOptions Analysis;
  /// CaptureCatalog's files, as written.
  std::vector<std::string> CatalogFiles;
  /// Why the checks cannot run ("invalid MaxCallDepth ..."), or "".
  std::string Error;
};

/// The options that apply to check \p Check ("capture-x"), or, when
/// \p Check is empty, to the one analysis that all checks share: there a
/// global value wins, else the first check's own value in the registry's
/// order.
CaptureSettings readCaptureSettings(OptionLookup Lookup,
                                    llvm::StringRef Check = "");

/// The catalog for the translation unit of \p MainFile (absolute): the
/// built-in one, the nearest `.capture-lint.json` above it and
/// \p S.CatalogFiles. Null when \p S.Error is set: by a bad option before,
/// or by the catalog (which then says why).
std::shared_ptr<const Catalog> loadCatalogFor(llvm::StringRef MainFile,
                                              CaptureSettings &S);

} // namespace capture_lint

#endif // CAPTURE_LINT_CAPTURESETTINGS_H
