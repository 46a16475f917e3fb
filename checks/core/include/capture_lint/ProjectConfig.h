//===- ProjectConfig.h - The effective catalog for a source file -*- C++ -*-=//
//
// The catalog that applies to a file is the built-in one, then the files
// named with --catalog (the CaptureCatalog check option), then the nearest
// .capture-lint.json found by walking up from the file's directory. A
// .capture-lint.json has the same schema as a catalog file. Catalogs are
// loaded once per distinct combination and shared between threads.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PROJECTCONFIG_H
#define CAPTURE_LINT_PROJECTCONFIG_H

#include "capture_lint/Catalog.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace capture_lint {

constexpr const char *ProjectConfigName = ".capture-lint.json";

/// The nearest .capture-lint.json above \p File (its directory included),
/// or an empty string.
std::string findProjectConfig(llvm::StringRef File);

/// Splits a CaptureCatalog option value ("a.json;b.json").
std::vector<std::string> splitCatalogList(llvm::StringRef List);

/// The effective catalog for \p File. Errors name the catalog file, the
/// entry and the field.
llvm::Expected<std::shared_ptr<const Catalog>>
effectiveCatalog(llvm::StringRef File,
                 const std::vector<std::string> &ExtraCatalogs);

} // namespace capture_lint

#endif // CAPTURE_LINT_PROJECTCONFIG_H
