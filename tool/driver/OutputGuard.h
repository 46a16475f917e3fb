//===- OutputGuard.h - Outputs must never overwrite inputs ------*- C++ -*-===//
//
// `capture-lint -o a.cu a.cu` would replace the source with the report. Before
// anything is written, every output path (-o, --write-baseline,
// --export-fixes) is compared with every input the run reads: the files
// named on the command line, the files of the compile database (and the
// database itself), catalogs, the baseline and the probe report. Two paths
// are the same file when they resolve to the same inode, so a symlink or a
// hard link to an input is caught too. After the analysis the same check
// runs again with every file the run read (included headers, the .py files
// of a directory given as input, modules an analysed file imports).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_OUTPUTGUARD_H
#define CAPTURE_LINT_TOOL_OUTPUTGUARD_H

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace capture_lint {

struct RunConfig;
struct Report;

/// An output the command line asks for: the option and the path.
struct NamedOutput {
  std::string Option; // "-o", "--write-baseline", ...
  std::string Path;
};

/// Every file \p Config reads that exists before the run, plus \p Extra.
std::vector<std::string> inputsOfRun(const RunConfig &Config,
                                     const std::vector<std::string> &Extra);

/// Every file \p R says the analysis read.
std::vector<std::string> filesReadBy(const Report &R);

/// An error naming the first output that is also one of \p Inputs.
llvm::Error checkOutputsAreNotInputs(const std::vector<NamedOutput> &Outputs,
                                     const std::vector<std::string> &Inputs);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_OUTPUTGUARD_H
