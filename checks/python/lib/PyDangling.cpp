//===- PyDangling.cpp - Captured inputs rebound before a replay -----------===//
//
// The walker's part of capture-dangling-buffer: when a region of the
// function closes, the tensors it read that existed before it are its
// inputs; an assignment after it that rebinds one (`x = batch`, `self.x =
// batch`) and a later replay of the same graph in the function make the
// rule's hazard (rules/DanglingBuffer.cpp), a finding of that region.
//
//===----------------------------------------------------------------------===//

#include "PyWalkerImpl.h"

#include "llvm/ADT/STLExtras.h"

namespace capture_lint::python::detail {

/// Whether \p N is the target of an assignment (written, not read).
static bool assignedTo(TSNode N) {
  TSNode P = ts_node_parent(N);
  return is(P, "assignment") && ts_node_eq(field(P, "left"), N);
}

void Walker::noteCapturedInputs(unsigned EndOffset) {
  if (Summary || !Fn || Active->Begin.Src != &S)
    return;
  CapturedInputs In{ActiveIndex, Active->Graph, {}};
  unsigned From = Active->Begin.Offset;
  visitNamed(Fn->Node, [&](TSNode N) {
    if (end(N) <= From || begin(N) >= EndOffset)
      return VisitNext::Skip;
    bool Name = is(N, "identifier") && nameReference(N);
    bool SelfAttr = is(N, "attribute") && S.text(field(N, "object")) == "self";
    if ((!Name && !SelfAttr) || begin(N) < From || assignedTo(N))
      return SelfAttr ? VisitNext::Skip : VisitNext::Into;
    std::string Text = S.text(N).str();
    auto Before = VarsAtBegin.find(Text);
    bool Tensor =
        Name ? Before != VarsAtBegin.end() && Before->second.tensor()
             : Fn->Owner &&
                   selfAttribute(Fn->Owner, S.text(field(N, "attribute")).str())
                       .tensor();
    if (Tensor)
      In.Names.try_emplace(Text, PySite{&S, begin(N)});
    return SelfAttr ? VisitNext::Skip : VisitNext::Into;
  });
  if (!In.Names.empty() && !In.Graph.empty())
    Captured.push_back(std::move(In));
}

void Walker::noteRebinding(TSNode N) {
  if (Active || Captured.empty())
    return;
  std::string Target = S.text(field(N, "left")).str();
  for (size_t I = 0; I < Captured.size(); ++I)
    if (Captured[I].Names.count(Target))
      Rebound.push_back({I, Target, {&S, begin(N)}});
}

void Walker::checkReplay(TSNode N, const std::string &Graph) {
  if (Active || Rebound.empty())
    return;
  for (const Rebinding &R : Rebound) {
    const CapturedInputs &In = Captured[R.Input];
    if (In.Graph != Graph)
      continue;
    PyHazard H = rules::reboundInput(R.Name, Graph, R.At, In.Names.at(R.Name),
                                     {&S, begin(N)});
    std::vector<PyHazard> &Hazards = Regions[In.Region].Hazards;
    bool Known = llvm::any_of(Hazards, [&](const PyHazard &K) {
      return K.Kind == PyHazard::Rebound && K.Site.Offset == R.At.Offset;
    });
    if (!Known)
      Hazards.push_back(std::move(H));
  }
}

} // namespace capture_lint::python::detail
