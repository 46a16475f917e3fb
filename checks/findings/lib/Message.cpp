//===- Message.cpp - The words of a finding, for both languages ----------===//

#include "capture_lint/Message.h"

namespace capture_lint {

std::string_view severityName(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Remark:
    return "remark";
  }
  return "warning";
}

std::optional<Severity> parseSeverity(std::string_view Name) {
  for (Severity S : {Severity::Error, Severity::Warning, Severity::Remark})
    if (severityName(S) == Name)
      return S;
  return std::nullopt;
}

std::optional<FindingText> describe(const Described &D, const Reach &R) {
  if (!D)
    return std::nullopt;
  const MessageParts &M = D->second;
  FindingText T;
  T.Level = D->first;
  T.HereNote = M.HereNote;
  if (!R.Via.empty())
    T.Message = "call to '" + R.Via + "' reaches " + M.Subject +
                (R.Where.empty() ? "" : " (" + R.Where + ")") + ", which " +
                M.Predicate;
  else
    T.Message = M.Subject + " " + M.Predicate;
  std::string Consequence = M.Consequence;
  if (!R.OnlyWhen.empty()) {
    T.Level = Severity::Remark;
    T.Message += ", on a path taken only when " + R.OnlyWhen +
                 " (a value not known statically)";
    if (!Consequence.empty())
      Consequence = "if the capture takes that path, " + Consequence;
  }
  if (!Consequence.empty())
    T.Message += ": " + Consequence;
  if (!M.Fix.empty())
    T.Message += "; " + M.Fix;
  return T;
}

std::string withStream(std::string Fix, std::string_view Stream) {
  if (size_t At = Fix.find("{stream}"); At != std::string::npos)
    Fix.replace(At, 8, Stream);
  return Fix;
}

} // namespace capture_lint
