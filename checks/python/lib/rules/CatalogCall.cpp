//===- CatalogCall.cpp - The catalog's checks, for Python -----------------===//
//
// capture-sync-call, -host-read, -allocation, -legacy-stream and
// -rng-state as the catalog decides them: a call to an entry of
// torch_python.json (or a function .capture-lint.json declares) is a hazard
// of the check that owns the entry's class in the registry, and what it
// does in the region's mode comes from the entry's behaviours.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/CatalogWords.h"
#include "capture_lint/CheckOwners.h"

namespace capture_lint::python::rules {

/// The Python check that owns the catalog hazard class \p C (the
/// registry's Owns column), or "".
PyHazard catalogCall(const ApiEntry *E, PySite Site, std::string Subject) {
  PyHazard H;
  H.Kind = PyHazard::ApiCall;
  H.Entry = E;
  H.Check = std::string(checkOwning(E->Class, Language::Python));
  H.Subject = std::move(Subject);
  H.Site = Site;
  return H;
}

Described describeCatalogCall(const PyHazard &H, const PyRegion &R) {
  MessageParts M;
  M.Subject = H.Subject;
  M.HereNote = llvm::StringRef(H.Subject).ends_with(")'")
                   ? H.Subject + " is called here"
                   : H.Subject + " is here";
  return describeCatalogEntry(*H.Entry, H.Entry->behaviourIn(R.Mode), R.Mode,
                              std::move(M), "the side stream");
}

} // namespace capture_lint::python::rules
