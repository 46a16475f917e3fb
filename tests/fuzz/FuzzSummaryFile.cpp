//===- FuzzSummaryFile.cpp - capture-lint link's summaries from disk ------===//
//
// The input is written as a summary file and read as `capture-lint link`
// and `--import-roles` read one (readSummaryFile): anything that is not a
// summary of this format and version, or is damaged, must be an error
// naming the file (never a crash or a hang), and a summary that is read
// must write back (summaryFileText) to one that reads again the same.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "SummaryFile.h"

using namespace capture_lint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Path = fuzz::writeScratch("input.sum", Data, Size);
  std::string Root = fuzz::scratchDir();
  auto Read = readSummaryFile(Path, Root);
  if (!Read) {
    std::string Why = llvm::toString(Read.takeError());
    fuzz::require(Why.find("input.sum") != std::string::npos);
    return 0;
  }
  std::string Text = summaryFileText(*Read, Root);
  std::string Again = fuzz::writeScratch(
      "again.sum", reinterpret_cast<const uint8_t *>(Text.data()), Text.size());
  auto Back = readSummaryFile(Again, Root);
  fuzz::require(static_cast<bool>(Back));
  fuzz::require(Back->Source == Read->Source &&
                Back->Unit.Findings.size() == Read->Unit.Findings.size() &&
                Back->Unit.Summary.Functions.size() ==
                    Read->Unit.Summary.Functions.size());
  return 0;
}
