//===- FunctionRoles.h - What a user function does to captures --*- C++ -*-===//
//
// Real code rarely keeps BeginCapture and EndCapture in one function. A
// function's role says what a call to it does to capture regions, so that
// the region finder in its callers can treat the call like a catalog entry:
//
//  - an opener leaves a capture begun (Runner::begin, a RAII guard's
//    constructor, start_recording());
//  - a closer ends a capture it did not begin (Runner::end, the guard's
//    destructor);
//  - a wrapper runs one of its callable parameters between a begin and an
//    end (capture_graph(stream, [&] { ... }));
//  - a capture predicate returns whether the stream is capturing
//    (is_capturing(stream)), so `if (is_capturing(s)) return;` is a guard;
//  - annotations (capture_lint/annotations.h) and the "functions" section of
//    .capture-lint.json add roles that bodies cannot show: a body that always
//    runs under capture, a function vouched safe, a function that
//    synchronizes, allocates or reads back.
//
// Roles come from bodies (computed by CaptureAnalyzer, memoized per
// translation unit), from annotations and from the catalog.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_FUNCTIONROLES_H
#define CAPTURE_LINT_FUNCTIONROLES_H

#include "capture_lint/Catalog.h"

#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class CallExpr;
class FunctionDecl;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace capture_lint {

struct DiagNote {
  clang::SourceLocation Loc;
  std::string Message;
};

/// A capture some call leaves begun (or runs a callable under), described at
/// the begin call at the bottom of the chain.
struct OpenedCapture {
  const RegionApi *Api = nullptr;
  CaptureMode Mode = CaptureMode::Global;
  /// When Mode is unknown because the opener passes one of its parameters
  /// as the mode: that parameter's index (the caller's argument decides).
  std::optional<unsigned> ModeParam;
  /// When the begin's stream is one of the opener's parameters: its index
  /// (the caller's argument is the stream it captures).
  std::optional<unsigned> StreamParam;
  std::string Stream;             // as written at the begin call
  clang::SourceLocation BeginLoc; // the begin call itself
  std::vector<DiagNote> Chain;    // from the function down to the begin
  /// What the opener returns where it leaves the capture open, when every
  /// such return is the same constant (`return true;`): a caller's test
  /// that its result is something else is a test that it failed.
  std::optional<int64_t> ResultWhenOpen;
};

/// A parameter that a wrapper invokes while its capture is active.
struct WrappedParam {
  unsigned Index = 0;
  OpenedCapture Capture;
  clang::SourceLocation InvokeLoc; // where the wrapper calls it
  /// The wrapper's own call of the parameter, when this TU shows it: its
  /// constant arguments reach the callable (`fun(p, n, false)`).
  const clang::CallExpr *Invoke = nullptr;
};

struct FunctionRole {
  std::optional<OpenedCapture> Opens;
  const RegionApi *Closes = nullptr; // the end call at the bottom
  /// A closer that launches a graph before it returns (tiny-cuda-nn's
  /// capture guard ends, instantiates or updates, and launches): where it
  /// ends a capture, the graph runs.
  bool LaunchesGraph = false;
  std::vector<WrappedParam> Wraps;
  /// Set for a capture predicate: what it returns while capturing.
  std::optional<bool> TrueWhenCapturing;
  /// From an annotation or the catalog's "functions" section.
  bool Captured = false;
  bool Safe = false;
  const ApiEntry *Declared = nullptr; // declared to synchronize, ...
  /// Ends the caller's capture and begins it again before returning
  /// (neither opener nor closer: its begin is no unended region).
  bool PausesAndResumes = false;
  std::string DeclaredBy; // "annotation" or the config file

  bool any() const {
    return Opens || Closes || !Wraps.empty() || TrueWhenCapturing || Captured ||
           Safe || Declared || PausesAndResumes;
  }
};

/// Answers role queries; the region finder and the guard recognizer ask.
class RoleOracle {
public:
  virtual ~RoleOracle() = default;
  /// Null when the function has no role (or its role is being computed).
  virtual const FunctionRole *roleOf(const clang::FunctionDecl *FD) = 0;
  /// Whether \p V is a capture registry: a static container that a capture
  /// opener fills after its begin, so it is not empty while that capture is
  /// active (StaticState.h).
  virtual bool isCaptureRegistry(const clang::VarDecl *V) {
    (void)V;
    return false;
  }
  /// For a call without a single known target (a held callable, a function
  /// pointer): the role every target it may run shares as a closer, or
  /// null (`f()` in a scope guard's destructor, given a lambda that ends
  /// the capture).
  virtual const FunctionRole *indirectCloser(const clang::CallExpr *Call) {
    (void)Call;
    return nullptr;
  }
  /// For a local guard object whose destructor runs a callable it holds:
  /// the role every callable its construction gave it shares as a closer,
  /// or null (`auto g = graph.capture_guard(s);`, which returns
  /// `ScopeGuard{[=] { cudaStreamEndCapture(s, &g); }}`, whatever other
  /// guards of the class hold).
  virtual const FunctionRole *guardCloser(const clang::VarDecl *V) {
    (void)V;
    return nullptr;
  }
  /// Whether \p V is a capture flag: a bool (a member or a static) that a
  /// function beginning a capture sets to true (`capturing_ = true;` in
  /// Recorder::start), so it holds while that capture is active and
  /// `if (capturing_)` or a predicate returning it is a guard.
  virtual bool isCaptureFlag(const clang::ValueDecl *V) {
    (void)V;
    return false;
  }
};

/// The annotation strings capture_lint/annotations.h expands to.
namespace annotation {
constexpr const char *Prefix = "capture_lint::";
constexpr const char *Captured = "capture_lint::captured";
constexpr const char *Safe = "capture_lint::safe";
constexpr const char *Synchronizes = "capture_lint::synchronizes";
constexpr const char *Allocates = "capture_lint::allocates";
constexpr const char *ReadsBack = "capture_lint::reads_back";
constexpr const char *CapturePredicate = "capture_lint::capture_predicate";
constexpr const char *WrapperPrefix = "capture_lint::wrapper=";
} // namespace annotation

} // namespace capture_lint

#endif // CAPTURE_LINT_FUNCTIONROLES_H
