//===- FuzzProbeReport.cpp - Probe reports for capture-lint --confirm -----===//
//
// The input is a probe report. capture-lint --confirm reads it and gives
// verdicts to a few findings; a malformed report must be an error naming the
// problem, never an abort, and one that passes the shape check must convert
// (fromJson's own exception handler is a backstop this target keeps unused).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "Report.h"
#include "capture_probe/Report.h"

using namespace capture_lint;

static Report sampleFindings() {
  Report R;
  ReportFinding F;
  F.Check = "capture-sync-call";
  F.Loc.File = "/src/app/region.cu";
  F.Loc.Line = 7;
  F.HasRegion = true;
  F.RegionFile = "/src/app/region.cu";
  F.RegionBeginLine = 5;
  F.Notes.push_back({{"/src/app/logs.cu", 0, 3, 1, ""}, "called here"});
  R.Findings.push_back(F);
  F.Check = "capture-host-read";
  F.Loc.Line = 9;
  R.Findings.push_back(F);
  F.HasRegion = false;
  R.Findings.push_back(F);
  return R;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  nlohmann::json J = nlohmann::json::parse(Data, Data + Size, nullptr,
                                           /*allow_exceptions=*/false);
  if (!J.is_discarded() && capture_probe::checkReportShape(J).empty()) {
    capture_probe::ProbeReport P;
    std::string Error;
    fuzz::require(capture_probe::fromJson(J, P, Error));
  }
  std::string Path = fuzz::writeScratch("report.json", Data, Size);
  Report R = sampleFindings();
  std::string Error = confirmWithProbe(R, Path);
  fuzz::require(Error.empty() == R.Confirmed);
  return 0;
}
