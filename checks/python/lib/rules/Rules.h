//===- Rules.h - One rule file per check, for Python ------------*- C++ -*-===//
//
// Each Python check's rule lives in its own file here and holds what makes
// a hazard of that check, what it says about it in a region's mode
// (severity and message parts, Message.h) and the note at the hazard. The
// walker (PyWalker*.cpp) is the traversal: it tracks values, finds regions
// and follows calls, and asks the rules for hazards; PyAnalysis.cpp turns
// them into findings through describe(). The catalog decides what the
// catalog checks report; CatalogWords.h says what its behaviours mean in
// both languages. The C++ rules are in checks/core/lib/rules/.
//
//   capture-sync-call           CatalogCall.cpp
//   capture-host-read           CatalogCall.cpp
//   capture-allocation          CatalogCall.cpp
//   capture-legacy-stream       CatalogCall.cpp
//   capture-unjoined-stream     UnjoinedStream.cpp
//   capture-frozen-host-value   FrozenHostValue.cpp
//   capture-shape-branch        ShapeBranch.cpp
//   capture-rng-state           CatalogCall.cpp
//   capture-unended-on-error    UnendedOnError.cpp
//   capture-collective          CatalogCall.cpp, Collective.cpp
//   capture-dangling-buffer     DanglingBuffer.cpp
//   capture-host-side-effect    HostSideEffect.cpp
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_RULES_RULES_H
#define CAPTURE_LINT_PYTHON_RULES_RULES_H

#include "../PyWalker.h"

#include "capture_lint/Message.h"

namespace capture_lint::python::rules {

/// A call to catalog entry \p E at \p Site, quoted as \p Subject: a hazard
/// of the check that owns the entry's class.
PyHazard catalogCall(const ApiEntry *E, PySite Site, std::string Subject);
Described describeCatalogCall(const PyHazard &H, const PyRegion &R);

/// A stream forked into the capture (`with torch.cuda.stream(s):`) and not
/// joined back before it ends.
std::optional<PyHazard> unjoinedStream(const ApiEntry *StreamEntry,
                                       const std::string &Stream, PySite Fork);
Described describeUnjoinedStream(const PyHazard &H, const PyRegion &R);

/// Host control flow (\p Subject: "'if' condition 'n > 4'", "'for' loop
/// over ...") on \p ShapeRead, a tensor shape.
PyHazard shapeBranch(std::string Subject, std::string ShapeRead, PySite At);
Described describeShapeBranch(const PyHazard &H);

/// Host state the region updates, passed to captured work (the detection
/// is the walker's, in FrozenHostValue.cpp).
Described describeFrozenArgument(const PyHazard &H);

/// A capture begun by capture_begin and ended at \p End (written
/// \p EndText) in the same function: left open by \p Exits (the returns and
/// raises between them outside `try` blocks), or, with none, by any
/// exception when the end is not in a finally block.
std::optional<PyHazard> unendedOnError(const std::vector<PyExit> &Exits,
                                       bool EndInFinally, PySite End,
                                       std::string EndText);
Described describeUnendedOnError(const PyHazard &H, const PyRegion &R);

/// capture-collective: the collective call \p Subject ("'dist.all_reduce(
/// x)'") at \p At, made only where the branch on the rank \p Cond (at
/// \p Branch) holds, or as often as a loop on the rank repeats (\p Loop).
PyHazard unevenCollective(std::string Subject, std::string Cond, bool Loop,
                          PySite At, PySite Branch);
Described describeUnevenCollective(const PyHazard &H);

/// capture-dangling-buffer: \p Name, a tensor the capture read at
/// \p ReadAt (it existed before the capture), rebound at \p At before a
/// replay of graph \p Graph at \p ReplayAt.
PyHazard reboundInput(const std::string &Name, const std::string &Graph,
                      PySite At, PySite ReadAt, PySite ReplayAt);
Described describeReboundInput(const PyHazard &H);
/// capture-dangling-buffer: \p Name, a tensor the function allocated at
/// \p MadeAt and the capture into \p Graph read at \p ReadAt, that nothing
/// keeps when the function returns, while the graph is kept (at \p KeptAt
/// when that is not where the capture names it).
PyHazard droppedInput(const std::string &Name, const std::string &Graph,
                      const std::string &Function, PySite ReadAt, PySite MadeAt,
                      std::optional<PySite> KeptAt);
Described describeDroppedInput(const PyHazard &H);

/// capture-host-side-effect (HostSideEffect.cpp)
/// \p Update (as written, "'self.step += 1'") updates \p Subject
/// ("'self.step'") at \p At.
PyHazard hostSideEffect(std::string Subject, std::string Update, PySite At);
Described describeHostSideEffect(const PyHazard &H);

} // namespace capture_lint::python::rules

#endif // CAPTURE_LINT_PYTHON_RULES_RULES_H
