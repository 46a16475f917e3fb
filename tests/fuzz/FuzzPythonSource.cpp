//===- FuzzPythonSource.cpp - The Python front end on any text ------------===//
//
// The input is a Python source (an editor's unsaved buffer, a generated or
// damaged file), analysed with the built-in catalog as capture-lint and its
// language server analyse one: through PythonGuard, so nesting deeper than
// the analysis stack is a reported error, not a crash. Every finding and
// note must point into the text.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "PythonGuard.h"

#include "capture_lint/ProjectConfig.h"

using namespace capture_lint;

static void requireInside(const SourcePlace &L, size_t Size) {
  fuzz::require(L.Offset <= Size && L.Line >= 1 && L.Column >= 1);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string File = fuzz::scratchDir() + "/model.py";
  static const std::shared_ptr<const Catalog> Cat = [] {
    auto C = effectiveCatalog(File, {});
    if (!C)
      abort();
    return *C;
  }();
  python::PyOptions Opts;
  // The text as an unsaved buffer: nothing on disk is read for it.
  Opts.Overrides[File] =
      std::string(reinterpret_cast<const char *>(Data), Size);
  python::PyResult R = analyzePythonGuarded({File}, *Cat, Opts);
  for (const Finding &F : R.Findings) {
    requireInside(F.Loc, Size);
    requireInside(F.HazardLoc, Size);
    for (const FindingNote &N : F.Notes)
      requireInside(N.Loc, Size);
  }
  return 0;
}
