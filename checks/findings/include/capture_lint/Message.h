//===- Message.h - The words of a finding, for both languages ---*- C++ -*-===//
//
// Every check of both analyses words a hazard the same way: a rule fills
// the parts (what the hazard is, what happens to it under capture, the
// fix) and describe() joins them into the one message a finding carries,
// directly ("'cudaMalloc' allocates ...: in a global-mode capture it fails
// ...; <fix>") or through a call ("call to 'f' reaches 'cudaMalloc'
// (k.cu:12), which allocates ..."), and as a remark when the path to the
// hazard turns on a value the analysis cannot see. No LLVM or tree-sitter
// types.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_MESSAGE_H
#define CAPTURE_LINT_MESSAGE_H

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace capture_lint {

enum class Severity { Error, Warning, Remark };
/// "error", "warning", "remark".
std::string_view severityName(Severity S);
/// The severity \p Name names, if any.
std::optional<Severity> parseSeverity(std::string_view Name);

/// What a rule says of one hazard in one region.
struct MessageParts {
  std::string Subject;     // "'cudaMalloc'", "'if' condition 'n > 4'"
  std::string Predicate;   // "allocates device memory"
  std::string Consequence; // "in a global-mode capture it fails ..."
  std::string Fix;
  /// The note at the hazard when the finding is reported at the call that
  /// reaches it ("'cudaMalloc' is called here").
  std::string HereNote;
};

/// A rule's verdict on a hazard in a region: its severity and words, or
/// nothing when the hazard is harmless there.
using Described = std::optional<std::pair<Severity, MessageParts>>;

/// How the reported place reaches the hazard.
struct Reach {
  /// The function called in the region that reaches the hazard; empty
  /// when the hazard is in the region itself.
  std::string Via;
  /// Where the hazard is, when reached through Via ("kernels.cu:12").
  std::string Where;
  /// A condition the path to the hazard is taken under, on a value the
  /// analysis cannot see ("'self.cache is None' is true"): the capture
  /// may never take it, so the finding is a remark.
  std::string OnlyWhen;
};

/// A finding's severity and text.
struct FindingText {
  Severity Level = Severity::Warning;
  std::string Message;
  std::string HereNote;
};

/// The one place a finding's message is composed.
std::optional<FindingText> describe(const Described &D, const Reach &R);

/// \p Fix with the catalog's "{stream}" placeholder replaced by \p Stream.
std::string withStream(std::string Fix, std::string_view Stream);

} // namespace capture_lint

#endif // CAPTURE_LINT_MESSAGE_H
