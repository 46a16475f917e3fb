//===- ImportTestModule.cpp - Imports and lookups the scan redirects ------===//
//
// Loaded by EntryPointScanTest after its first scan, linked with -z lazy
// against the stand-in driver (ImportTestDriver.cpp): a driver function
// imported and not yet called (its slot still holds this module's PLT
// code), and dlsym and dlvsym called from here, in a handle and relative to
// this module.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>
#include <dlfcn.h>

extern "C" {
CUresult importTestQuery(CUevent Event) { return cuEventQuery(Event); }

void *importTestLookup(void *Handle, const char *Name) {
  return dlsym(Handle, Name);
}
void *importTestLookupVersioned(void *Handle, const char *Name) {
  // The stand-in driver's version (ImportTestDriver.map).
  return dlvsym(Handle, Name, "CAPTURE_TEST_1.0");
}
void *importTestLookupNext(const char *Name) { return dlsym(RTLD_NEXT, Name); }
void *importTestLookupDefault(const char *Name) {
  return dlsym(RTLD_DEFAULT, Name);
}

int importTestShadowed() { return 1; }
}
