//===- ScanTestModule.cpp - A library loaded after the first scan ---------===//
//
// EntryPointScanTest loads this after scanning what was loaded before: a
// table of pointers to a function of its own in its writable data, as a
// library loaded late (Triton's compiled launchers) holds driver entry
// points.
//
//===----------------------------------------------------------------------===//

extern "C" int scanTestSynchronize(void *Stream) { return Stream ? 700 : 0; }

extern "C" {
void *ScanTestModuleTable[2] = {reinterpret_cast<void *>(&scanTestSynchronize),
                                nullptr};
}
