//===- Symbolizer.h - Return addresses to function, file, line --*- C++ -*-===//
//
// Frames are recorded in-process as "module+0xoffset" (backtrace + dladdr;
// dladdr names no static function). This turns them into function, file and
// line with addr2line (or llvm-symbolizer's addr2line mode), one process per
// module, and picks the frames that are user code: not the probe, CUPTI,
// the CUDA driver or runtime, HIP, libc or libstdc++.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_SYMBOLIZER_H
#define CAPTURE_PROBE_SYMBOLIZER_H

#include "capture_probe/InductorSources.h"
#include "capture_probe/Report.h"
#include <map>
#include <string>
#include <vector>

namespace capture_probe {

class Symbolizer {
public:
  /// \p Tool: the addr2line-compatible program; empty picks addr2line,
  /// then llvm-addr2line-19, from PATH.
  explicit Symbolizer(std::string Tool = "");

  /// Resolves a batch of raw frames. Unresolvable frames keep Raw and the
  /// module; Function is then "??".
  void resolve(const std::vector<std::string> &RawFrames);
  /// The innermost source frame of a return address.
  SourceFrame frame(const std::string &Raw) const;
  /// All source frames of a return address: the functions inlined there,
  /// innermost first, then the function that contains them.
  std::vector<SourceFrame> frames(const std::string &Raw) const;

  /// Fills Site and Stack of every call in \p R from its raw frames.
  void symbolize(ProbeReport &R);
  /// Python frames in Inductor's generated code are mapped back to the
  /// user's lines with \p S (what the probe's Python hook recorded).
  void setInductorSources(InductorSources S) { Inductor = std::move(S); }

  /// True for frames of the runtime itself, whatever the program.
  static bool isRuntimeFrame(const SourceFrame &F);

private:
  /// Raw frames of one module and their offsets in it.
  using ModuleFrames = std::vector<std::pair<std::string, uint64_t>>;
  using FramesByModule = std::map<std::string, ModuleFrames>;
  /// Caches each of \p RawFrames not seen yet as itself (function "??");
  /// returns those that name a module, by module.
  FramesByModule cacheRawFrames(const std::vector<std::string> &RawFrames);
  /// Caches the frames [Start, End) of \p Frames (in \p Module) as
  /// addr2line -a -f -i printed them (\p Lines): a group per address.
  void cacheGroups(const std::string &Module, const ModuleFrames &Frames,
                   size_t Start, size_t End,
                   const std::vector<std::string> &Lines);
  bool definesKernel(const SourceFrame &F);

  std::string Tool;
  InductorSources Inductor;
  std::map<std::string, bool> KernelLines;
  std::map<std::string, std::vector<SourceFrame>> Cache;
};

/// nvcc's intermediate file "tmpxft_<ids>_<stem>.cudafe1.cpp" (what a
/// program built without host line info names) as the source "<stem>.cu";
/// any other name unchanged.
std::string sourceOfIntermediate(const std::string &File);

/// Python frames recorded as "file:line:function", as source frames.
std::vector<SourceFrame> pythonFrames(const std::vector<std::string> &Raw);

/// Splits "module+0xoffset"; false if malformed.
bool splitRawFrame(const std::string &Raw, std::string &Module,
                   uint64_t &Offset);

} // namespace capture_probe

#endif // CAPTURE_PROBE_SYMBOLIZER_H
