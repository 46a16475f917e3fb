//===- RuleText.h - Phrases the checks' rules share ------------*- C++ -*-===//
//
// A finding's message is composed from parts (subject, predicate, what
// happens under capture, the fix) so that it reads well directly and
// through a call ("call to 'f' reaches 'cudaMalloc', which ..."). Each rule
// file fills the parts for its check; these are the phrases several share.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_RULES_RULETEXT_H
#define CAPTURE_LINT_RULES_RULETEXT_H

#include "capture_lint/Analysis.h"
#include "capture_lint/RegionFinder.h"

#include <optional>
#include <string>
#include <utility>

namespace capture_lint::rules {

using capture_lint::Described;    // Message.h
using capture_lint::MessageParts; // Message.h
using capture_lint::modePhrase;   // Catalog.h
/// "stream 's'", "graph 'g'", or "the stream" when it has no name.
std::string streamPhrase(const CaptureRegion &R);
/// A finding of \p Check, an error, at \p Loc about region \p R: its
/// message, the note where the capture begins, and the region's facts.
ClangFinding regionFinding(CheckKind Check, const CaptureRegion &R,
                           clang::SourceLocation Loc, std::string Message,
                           const clang::ASTContext &Ctx);
/// Whether the region is begun by a HIP API.
bool isHipRegion(const CaptureRegion &R);
/// The error a legacy-stream use fails with in \p R's runtime.
std::string implicitError(const CaptureRegion &R);

} // namespace capture_lint::rules

#endif // CAPTURE_LINT_RULES_RULETEXT_H
