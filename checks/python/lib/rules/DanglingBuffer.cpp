//===- DanglingBuffer.cpp - capture-dangling-buffer, for Python -----------===//
//
// A tensor a capture read that existed before it (a static input), rebound
// to a new tensor (`x = batch`) after the capture and before a replay in
// the same function. The graph keeps the old tensor's address: the replay
// reads the old tensor, not the new value, and once nothing holds the old
// tensor the caching allocator gives its memory to the next allocation, so
// the replay reads whatever is written there. The walker notes each
// region's inputs and the rebindings after it (PyDangling.cpp); this rule
// words them.
//
//
// And a tensor the capturing function allocated itself (a factory, not a
// parameter) that the capture read, where the graph is kept beyond the
// function and the tensor is not: when the function returns, the caching
// allocator takes the tensor's memory back and hands it to the next
// allocation, which every replay then reads or overwrites.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace capture_lint::python::rules {

/// A hazard of this check about the captured input \p Name of \p Graph.
static PyHazard inputHazard(PyHazard::Form Kind, const std::string &Name,
                            const std::string &Graph, PySite At) {
  PyHazard H;
  H.Kind = Kind;
  H.Check = "capture-dangling-buffer";
  H.Subject = "'" + Name + "'";
  H.Detail = Graph;
  H.Site = At;
  return H;
}

PyHazard reboundInput(const std::string &Name, const std::string &Graph,
                      PySite At, PySite ReadAt, PySite ReplayAt) {
  PyHazard H = inputHazard(PyHazard::Rebound, Name, Graph, At);
  H.Extra.push_back({ReadAt, "the capture reads '" + Name + "' here"});
  H.Extra.push_back({ReplayAt, "'" + Graph + "' is replayed here"});
  return H;
}

Described describeReboundInput(const PyHazard &H) {
  MessageParts M;
  M.Subject = H.Subject;
  M.Predicate = "is rebound to a new tensor here, after the capture into '" +
                H.Detail + "' read it and before a replay";
  M.Consequence =
      "the graph keeps the old tensor's address, so the replay reads the old "
      "tensor, not the new value, and once nothing holds the old tensor the "
      "caching allocator gives its memory to the next allocation, which the "
      "replay then reads";
  M.Fix = "copy the new value into the captured tensor (" +
          H.Subject.substr(1, H.Subject.size() - 2) +
          ".copy_(...)) instead of rebinding the name";
  return std::make_pair(Severity::Error, M);
}

PyHazard droppedInput(const std::string &Name, const std::string &Graph,
                      const std::string &Function, PySite ReadAt, PySite MadeAt,
                      std::optional<PySite> KeptAt) {
  PyHazard H = inputHazard(PyHazard::Dropped, Name, Graph, ReadAt);
  H.Through = Function;
  H.Extra.push_back({MadeAt, "'" + Name + "' is allocated here"});
  if (KeptAt)
    H.Extra.push_back(
        {*KeptAt, "'" + Graph + "' is kept beyond '" + Function + "' here"});
  return H;
}

Described describeDroppedInput(const PyHazard &H) {
  std::string Name = H.Subject.substr(1, H.Subject.size() - 2);
  MessageParts M;
  M.Subject = H.Subject;
  M.Predicate = "is read by the capture into '" + H.Detail +
                "', which is kept beyond '" + H.Through +
                "', but nothing keeps '" + Name + "', which '" + H.Through +
                "' allocated";
  M.Consequence =
      "the graph keeps its address; when '" + H.Through +
      "' returns, the caching allocator takes the memory back and gives it "
      "to the next allocation, which every replay then reads or overwrites, "
      "silently";
  M.Fix = "keep '" + Name +
          "' alive as long as the graph: store it where the graph is kept "
          "(an attribute beside it, the same container entry)";
  return std::make_pair(Severity::Error, M);
}

} // namespace capture_lint::python::rules
