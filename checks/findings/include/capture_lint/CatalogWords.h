//===- CatalogWords.h - What a catalog entry does, in words -----*- C++ -*-===//
//
// The words both analyses give a call to a catalog entry in a region: the
// entry's predicate and fix, and what its behaviour in the region's mode
// means (it fails and invalidates the capture: an error; it runs once at
// capture time and is missing from the graph: a warning; it is allowed
// with a consequence: a remark). The C++ rule (rules/CatalogCall.cpp) and
// the Python one (python/lib/rules/CatalogCall.cpp) decide the behaviour;
// this says what it means.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_CATALOGWORDS_H
#define CAPTURE_LINT_CATALOGWORDS_H

#include "capture_lint/Catalog.h"
#include "capture_lint/Message.h"

#include <string>
#include <string_view>

namespace capture_lint {

/// \p M (its subject and here-note given) completed for a call to \p E
/// that behaves as \p B in a capture of mode \p Mode: the entry's
/// predicate, the consequence, the entry's fix with "{stream}" replaced by
/// \p Stream, and the severity. Nothing when the call is captured or
/// legal there.
Described describeCatalogEntry(const ApiEntry &E, Behaviour B, CaptureMode Mode,
                               MessageParts M, std::string_view Stream);

/// What follows "it fails" for a catalog entry's error: " with ERROR and
/// invalidates the capture". A catalog error may add, after "; ", what
/// happens instead where the runtime behaves differently ("... (906) on a
/// blocking capture stream; on a non-blocking one it runs now and is missing
/// from the graph"): the invalidation belongs to the first part.
std::string failurePhrase(std::string_view CatalogError);

} // namespace capture_lint

#endif // CAPTURE_LINT_CATALOGWORDS_H
