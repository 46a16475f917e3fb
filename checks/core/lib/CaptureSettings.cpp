//===- CaptureSettings.cpp - The options of the capture analysis ----------===//

#include "capture_lint/CaptureSettings.h"
#include "capture_lint/Catalog.h"
#include "capture_lint/ProjectConfig.h"

#include "llvm/ADT/StringExtras.h"

namespace capture_lint {

/// \p Option's value: \p Check's own, else the global one; with no check,
/// the global one, else the first check's own.
static std::optional<std::string> localOrGlobal(OptionLookup Lookup,
                                                llvm::StringRef Check,
                                                llvm::StringRef Option) {
  if (!Check.empty())
    if (auto Own = Lookup((Check + "." + Option).str()))
      return Own;
  if (auto Global = Lookup(Option))
    return Global;
  if (Check.empty())
    for (unsigned K = 0; K < NumCheckKinds; ++K)
      if (auto Own = Lookup(
              (checkName(static_cast<CheckKind>(K)) + "." + Option).str()))
        return Own;
  return std::nullopt;
}

CaptureSettings readCaptureSettings(OptionLookup Lookup,
                                    llvm::StringRef Check) {
  CaptureSettings S;
  if (auto Catalogs = localOrGlobal(Lookup, Check, "CaptureCatalog"))
    S.CatalogFiles = splitCatalogList(*Catalogs);
  if (auto Depth = localOrGlobal(Lookup, Check, "MaxCallDepth")) {
    unsigned N = 0;
    if (llvm::StringRef(*Depth).trim().getAsInteger(10, N) || N == 0 || N > 64)
      S.Error = "invalid MaxCallDepth '" + *Depth +
                "' in the clang-tidy configuration: expected a number "
                "between 1 and 64; the capture checks did not run";
    else
      S.Analysis.MaxCallDepth = N;
  }
  if (auto Names = Lookup("capture-shape-branch.ShapeFunctions"))
    S.Analysis.ShapeFunctions = splitCatalogList(*Names);
  if (auto Names = Lookup("capture-shape-branch.TensorClasses"))
    S.Analysis.TensorClasses = splitCatalogList(*Names);
  return S;
}

std::shared_ptr<const Catalog> loadCatalogFor(llvm::StringRef MainFile,
                                              CaptureSettings &S) {
  if (!S.Error.empty())
    return nullptr; // a bad option: the checks do not run
  auto Loaded = effectiveCatalog(MainFile, S.CatalogFiles);
  if (Loaded)
    return *Loaded;
  S.Error = "invalid capture catalog: " + llvm::toString(Loaded.takeError()) +
            "; the capture checks did not run";
  return nullptr;
}

} // namespace capture_lint
