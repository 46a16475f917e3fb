//===- FindingLevel.h - How the adapter shows severity ----------*- C++ -*-===//
//
// Each front door that links the clang-tidy adapter says how findings are
// emitted, by defining this constant in its own sources:
//   capture-clangd (true): each at its severity, so an editor shows errors
//     as errors; the adapter reads the suppression comments itself, since
//     clangd never lets NOLINT silence an error.
//   the clang-tidy plugin (false): errors as warnings, so NOLINT and
//     WarningsAsErrors work as clang-tidy users expect.
// Remarks stay remarks in both.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_FINDINGLEVEL_H
#define CAPTURE_LINT_TIDY_FINDINGLEVEL_H

namespace capture_lint::tidy {

extern const bool EmitFindingsAtTheirSeverity;

} // namespace capture_lint::tidy

#endif // CAPTURE_LINT_TIDY_FINDINGLEVEL_H
