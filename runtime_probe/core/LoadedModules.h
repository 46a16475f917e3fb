//===- LoadedModules.h - Return addresses as "module+0xoffset" -*- C++ -*-===//
//
// The loaded modules' address ranges, read with dl_iterate_phdr: a binary
// search per frame instead of dladdr's symbol lookup (which made events
// twenty times dearer). Rebuilt when an address falls outside every range
// (a library loaded since). Internal to the probe's core.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_LOADEDMODULES_H
#define CAPTURE_PROBE_LOADEDMODULES_H

#include "capture_probe/InProcess.h" // moduleGeneration
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace capture_probe {

class LoadedModules {
public:
  /// Appends "module+0xoffset" for each address to \p Out, leaving out
  /// those no module holds and the probe's, CUPTI's and the driver's (never
  /// the call site). One lock for the whole stack.
  void describe(const uintptr_t *Addrs, int N, std::vector<std::string> &Out);

private:
  struct Range {
    uintptr_t Start, End, Base;
    size_t Module;
  };
  struct Module {
    std::string Path;
    bool Skip;
  };
  const Range *lookup(uintptr_t Addr) const;
  void rebuild();

  std::mutex Lock;
  std::vector<Range> Ranges;
  std::vector<Module> Modules;
};

/// The process's map (never destroyed: used from callbacks until exit).
LoadedModules &loadedModules();

} // namespace capture_probe

#endif // CAPTURE_PROBE_LOADEDMODULES_H
