//===- ShapeBranch.cpp - capture-shape-branch, for Python -----------------===//
//
// Host control flow on a tensor shape inside a capture (`if x.shape[0] >
// 4:`, `for i in range(x.size(0)):`): the capture records the path taken
// now and every replay repeats it, whatever the shape: a remark, since a
// graph's tensors keep the shapes they were captured with. The walker tracks
// which values are read from shapes (PyValue::ShapeRead) and asks this
// rule at each condition and loop.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/CheckWords.h"

namespace capture_lint::python::rules {

PyHazard shapeBranch(std::string Subject, std::string ShapeRead, PySite At) {
  PyHazard H;
  H.Kind = PyHazard::Branch;
  H.Check = "capture-shape-branch";
  H.Subject = std::move(Subject);
  H.Detail = std::move(ShapeRead);
  H.Site = At;
  return H;
}

Described describeShapeBranch(const PyHazard &H) {
  MessageParts M;
  M.Subject = H.Subject;
  M.HereNote = "the branch is here";
  M.Predicate = "depends on '" + H.Detail + "' (a tensor shape)";
  M.Consequence = branchConsequence(/*DeviceValue=*/false);
  M.Fix = "capture one graph per shape bucket (pad inputs to fixed shapes), "
          "or decide on the device (torch.where, masks)";
  // A graph's tensors keep the shapes they were captured with: the branch
  // is taken the same way on every replay, right as long as the graph is
  // replayed only with inputs of those shapes (a remark, as in C++).
  return std::make_pair(Severity::Remark, M);
}

} // namespace capture_lint::python::rules
