//===- PathFacts.h - What the program proves about a region --*- C++ -*-===//
//
// A capture region runs only where the program let it begin, and what the
// program checked on the way there still holds inside it:
//
//   validate(opts);              // if (opts.graphs && opts.blocking == 3)
//                                //   abort();
//   if (opts.graphs) begin(s);   // opts.graphs holds in the region, so
//   step(opts, s);               // opts.blocking == 3 does not: step()'s
//                                // `if (o.blocking == 3) sync(s);` is dead
//
//   bool use = graph_compatible(net);  // return !net.has_host_ops;
//   if (use) begin(s);                 // net.has_host_ops is false here
//
// A fact is the value of an expression over one variable (a parameter or a
// local): the variable itself (a constant argument, Path empty) or an atom
// written relative to it, `$.blocking==3`, `$.has_host_ops`, `$.ok()`.
// Facts come from the condition a begin runs under, from the predicate a
// capture flag was computed with, and from validation calls before the
// begin (a callee whose `if (C)` leads to abort, exit or throw proves !C);
// they follow calls into callees by their arguments (translate).
//
// Simplifying assumptions: the variables are not written between the check
// and the region; atoms compare a path with an integer constant or test it
// as a truth value; a clause `!(A && B)` yields !B once A is known.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PATHFACTS_H
#define CAPTURE_LINT_PATHFACTS_H

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
class ValueDecl;
} // namespace clang

namespace capture_lint {

/// One fact: \p Param's value (Path empty), or the truth (0 or 1) of the
/// atom Path written relative to it (`$.blocking==3`).
struct Binding {
  const clang::ValueDecl *Param = nullptr;
  int64_t Value = 0;
  std::string Path;
  bool operator<(const Binding &O) const {
    return std::tie(Param, Path, Value) < std::tie(O.Param, O.Path, O.Value);
  }
  bool operator==(const Binding &O) const {
    return Param == O.Param && Path == O.Path && Value == O.Value;
  }
};

/// What a function is analysed for: constant arguments and facts about
/// expressions over its parameters (or, for a region, over the variables
/// of the function that begins it).
using ParamBindings = std::vector<Binding>;

/// Adds to \p Out what \p Cond having the value \p Value says about atoms:
/// `A && B` true gives both, `A || B` false gives both false, `!A` flips.
void addConditionFacts(const clang::Expr *Cond, bool Value,
                       const clang::ASTContext &Ctx, ParamBindings &Out);

/// The value \p Cond has under \p Facts, when they decide it.
std::optional<bool> evaluateWith(const clang::Expr *Cond,
                                 const ParamBindings &Facts,
                                 const clang::ASTContext &Ctx);

/// Facts that hold after \p Call returns: a callee whose body tests
/// `if (C)` with an abort, exit or throw under it proves !C (given in the
/// caller's variables; with \p Known, a clause `!(A && B)` whose A is known
/// yields !B).
void addValidationFacts(const clang::CallExpr *Call,
                        const clang::ASTContext &Ctx,
                        const ParamBindings &Known, ParamBindings &Out);

/// For a local bool initialised with a call to a predicate (`bool use =
/// graph_compatible(net);` whose body is `return E;`): adds the facts E
/// having \p Value gives, in the caller's variables.
void addPredicateFacts(const clang::Expr *Cond, bool Value,
                       const clang::ASTContext &Ctx, ParamBindings &Out);

/// Drops the path facts about variables \p Body writes (assigns, increments
/// or takes the address of, themselves or a member): a loop counter tested
/// at the begin does not keep its value through the region.
void dropWrittenFacts(ParamBindings &Facts, const clang::Stmt *Body);

/// The path facts of \p Facts about the caller's variables, as facts about
/// \p Callee's parameters where \p Call passes a path of such a variable
/// (`step(opts, s)`: `$.blocking==3` about opts becomes one about step's
/// first parameter). Constant arguments are not included.
ParamBindings translateFacts(const ParamBindings &Facts,
                             const clang::CallExpr *Call,
                             const clang::FunctionDecl *Callee,
                             const clang::ASTContext &Ctx);

} // namespace capture_lint

#endif // CAPTURE_LINT_PATHFACTS_H
