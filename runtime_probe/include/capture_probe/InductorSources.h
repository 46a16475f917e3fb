//===- InductorSources.h - Inductor's generated code, back to the user --*-===//
//
// Under torch.compile, the Python frame nearest a CUDA call is often in the
// module Inductor generated (/tmp/torchinductor_<user>/xx/c<hash>.py): a
// `call` or `partition_N` function that launches kernels. Inductor writes,
// above each launch, the FX nodes it computes:
//
//   # Topologically Sorted Source Nodes: [h, sigmoid, h_1], Original ATen: ...
//
// (older releases: "# Source Nodes: [...]"), and a call of a partition
// (self.partitions[0](args)) runs every node of partition_0. Node names are
// those of Dynamo's FX graph, whose nodes carry the user's stack; the probe's
// Python hook writes, for each generated module it sees loaded while a graph
// is compiled, the user's file:line of each node (a ".inductor" file beside
// the event logs). This maps a generated frame to the user's line, keeping
// the generated location in the frame's raw text.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_INDUCTORSOURCES_H
#define CAPTURE_PROBE_INDUCTORSOURCES_H

#include "capture_probe/Report.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capture_probe {

/// The source-node names that line \p Line (1-based) of generated module
/// \p Text computes: those of the nearest source-nodes comment above it in
/// its function, or, for a line that calls partition N, those of every
/// source-nodes comment in partition_N, in order. Empty when none.
std::vector<std::string> sourceNodesAt(const std::string &Text, unsigned Line);

/// The Module of a frame mapped back from generated code.
inline constexpr const char *InductorModule = "inductor";

class InductorSources {
public:
  /// Reads the hook's JSON lines: {"generated": PATH, "nodes": {NAME:
  /// "file:line:function"}}; malformed lines are skipped.
  void addLines(const std::string &Text);
  /// Registers a generated module's text directly (tests), instead of
  /// reading PATH when a frame asks for it.
  void addGenerated(const std::string &Path, const std::string &Text);
  bool empty() const { return Nodes.empty(); }

  /// The user's frame for \p F when it is in a generated module the hook
  /// recorded and its line computes a node with a known location: File,
  /// Line, Function the user's, Module InductorModule, Raw unchanged (the
  /// generated location).
  std::optional<SourceFrame> userFrame(const SourceFrame &F);

private:
  const std::string *text(const std::string &Path);

  std::map<std::string, std::map<std::string, std::string>> Nodes;
  std::map<std::string, std::optional<std::string>> Texts;
};

} // namespace capture_probe

#endif // CAPTURE_PROBE_INDUCTORSOURCES_H
