//===- capture_lint/annotations.h - Tell capture-lint about your code -----===//
//
// Macros that mark functions for capture-lint. Under clang (and so under
// capture-lint, clang-tidy and clangd) they expand to
// [[clang::annotate(...)]]; under other compilers (nvcc with gcc, hipcc
// without clang) to nothing, so the header costs nothing in a build.
//
// Put a macro in front of a function's declaration or definition:
//
//   CAPTURE_LINT_CAPTURED void Model::forward(const Batch &b);
//
//   CAPTURE_LINT_CAPTURED     the body always runs under stream capture
//                             (the forward() of a graphed module): it is
//                             checked as a global-mode region.
//   CAPTURE_LINT_SAFE         vouched safe: regions that call it do not
//                             look inside (it guards itself, or only runs
//                             its hazards when not capturing).
//   CAPTURE_LINT_SYNCHRONIZES calls to it in a region are reported like
//   CAPTURE_LINT_ALLOCATES    cudaStreamSynchronize, cudaMalloc or a
//   CAPTURE_LINT_READS_BACK   device-to-host read (for code whose body
//                             capture-lint cannot see: another library).
//   CAPTURE_LINT_CAPTURE_PREDICATE
//                             returns true while the stream is capturing:
//                             `if (f(s)) return;` guards what follows.
//   CAPTURE_LINT_WRAPPER(N)   runs its argument N (0-based; a lambda,
//                             function or std::function) under a capture
//                             it begins: the callable's body is a region.
//
// Each has an equivalent in .capture-lint.json, for code you cannot edit:
//   "functions": [{"name": "Model::forward", "role": "captured"},
//                 {"name": "run_graphed", "role": "wrapper", "argument": 1}]
// (roles: captured, safe, synchronizes, allocates, reads-back,
// capture-predicate, wrapper). See docs/regions.md.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_ANNOTATIONS_H
#define CAPTURE_LINT_ANNOTATIONS_H

#if defined(__clang__) && !defined(CAPTURE_LINT_NO_ANNOTATIONS)
#define CAPTURE_LINT_ANNOTATE_(what) [[clang::annotate(what)]]
#else
#define CAPTURE_LINT_ANNOTATE_(what)
#endif

#define CAPTURE_LINT_CAPTURED CAPTURE_LINT_ANNOTATE_("capture_lint::captured")
#define CAPTURE_LINT_SAFE CAPTURE_LINT_ANNOTATE_("capture_lint::safe")
#define CAPTURE_LINT_SYNCHRONIZES                                              \
  CAPTURE_LINT_ANNOTATE_("capture_lint::synchronizes")
#define CAPTURE_LINT_ALLOCATES CAPTURE_LINT_ANNOTATE_("capture_lint::allocates")
#define CAPTURE_LINT_READS_BACK                                                \
  CAPTURE_LINT_ANNOTATE_("capture_lint::reads_back")
#define CAPTURE_LINT_CAPTURE_PREDICATE                                         \
  CAPTURE_LINT_ANNOTATE_("capture_lint::capture_predicate")
#define CAPTURE_LINT_WRAPPER(N)                                                \
  CAPTURE_LINT_ANNOTATE_("capture_lint::wrapper=" #N)

#endif // CAPTURE_LINT_ANNOTATIONS_H
