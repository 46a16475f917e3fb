//===- CheckWords.h - What a check says in both languages -------*- C++ -*-===//
//
// The words of a check that do not depend on the language: each language's
// rule file fills the rest (its fix, how it quotes the code). No LLVM or
// tree-sitter types.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_CHECKWORDS_H
#define CAPTURE_LINT_CHECKWORDS_H

#include "capture_lint/Message.h"

#include <string>

namespace capture_lint {

/// capture-frozen-host-value: \p State ("'self.step'", quoted), updated on
/// the host in the region, reaches \p Work ("kernel launch 'k'") through
/// the local \p Through ("" when directly). The fix is the rule's.
MessageParts frozenHostValueWords(const std::string &State,
                                  const std::string &Through,
                                  const std::string &Work);

/// capture-shape-branch: what a branch on a shape or value does.
std::string branchConsequence(bool DeviceValue);

/// capture-unended-on-error: what leaving a capture open does, with the
/// error names of \p Runtime ("cuda" or "hip").
std::string unendedConsequence(const std::string &Runtime);

/// capture-collective: the collective \p Name ("'ncclAllReduce'", quoted)
/// made only where the branch on the rank \p Cond holds, or \p Loop: as
/// many times as a loop on the rank with condition \p Cond repeats.
MessageParts unevenCollectiveWords(const std::string &Name,
                                   const std::string &Cond, bool Loop);
} // namespace capture_lint

#endif // CAPTURE_LINT_CHECKWORDS_H
