//===- DanglingBuffer.cpp - capture-dangling-buffer, for Python -----------===//
//
// Locals, freed buffers and rebound tensors that a graph outlives. A captured
// kernel argument or copy keeps the address it was given, and every launch of
// the graph uses it again; a local buffer that dies when the capturing function
// returns, a buffer freed before a later launch, or a tensor rebound before a
// replay leaves the graph reading and writing memory that now belongs to
// something else, silently.
//
// TODO: record danglingBuffer from the walker where it sees the code it
// judges (PyWalker*.cpp), and call describeDanglingBuffer from ruleVerdict() in
// PyAnalysis.cpp, with a PyHazard form of its own.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace capture_lint::python::rules {

PyHazard danglingBuffer(std::string Subject, PySite At) {
  PyHazard H;
  H.Check = "capture-dangling-buffer";
  H.Subject = std::move(Subject);
  H.Site = At;
  return H; // TODO: its form and details
}

Described describeDanglingBuffer(const PyHazard &H, const PyRegion &R) {
  (void)H;
  (void)R;
  return std::nullopt; // TODO: its words
}

} // namespace capture_lint::python::rules
