//===- Report.cpp - The checks' descriptions and shared report helpers ----===//

#include "Report.h"

namespace capture_lint {

unsigned Report::failingFindings() const {
  unsigned N = 0;
  for (const ReportFinding &F : Findings)
    if (F.Level != Severity::Remark)
      ++N;
  return N + unsigned(Missed.size());
}

llvm::ArrayRef<CheckInfo> allChecks() {
  static const CheckInfo Checks[] = {
#define CAPTURE_CHECK(Kind, Name, Cpp, Python, Owns, Severity, Summary, Why,   \
                      Fix, Finds)                                              \
  {Name, Summary, Why, Fix, #Severity},
#include "Checks.def"
#undef CAPTURE_CHECK
  };
  return Checks;
}

void Report::addFinding(ReportFinding F) {
  if (FindingKeys.insert({F.Check, F.Loc.File, F.Loc.Offset, F.Message}).second)
    Findings.push_back(std::move(F));
}

} // namespace capture_lint
