//===- PyAssume.cpp - Branches decided by what the engine fixes -----------===//
//
// The "assume" section of .capture-lint.json states values the engine fixes
// while it captures (`self.max_symbols` is not None, `is_decoding` is
// true). A branch condition made only of such expressions, `not`, `and`,
// `or` and comparisons with None/True/False (`is`, `is not`, `==`, `!=`)
// is decided here, in three-valued logic: true, false, or not known (an
// expression that is not assumed, or `if x:` on an x assumed "not None").
// Expressions are matched by their text with whitespace normalised; a
// local copy of an assumed expression is not followed.
//
//===----------------------------------------------------------------------===//

#include "PyWalkerImpl.h"

namespace capture_lint::python::detail {

namespace {

using Decided = std::optional<bool>;

/// The truth of `if E:` for E assumed \p A.
Decided truthOf(Assumption::Value A) {
  if (A == Assumption::NotNone)
    return std::nullopt;
  return A == Assumption::True;
}

/// The truth of `E is C` / `E == C` for E assumed \p A and the constant
/// \p C ("None", "True" or "False").
Decided equalsConstant(Assumption::Value A, llvm::StringRef C) {
  if (C == "None")
    return A == Assumption::None;
  if (A == Assumption::NotNone)
    return std::nullopt;
  return (A == Assumption::True) == (C == "True");
}

Decided negate(Decided D) { return D ? Decided(!*D) : std::nullopt; }

Decided combine(Decided L, Decided R, bool And) {
  if (L == Decided(!And) || R == Decided(!And))
    return !And; // one false operand decides `and`, one true decides `or`
  if (L && R)
    return And;
  return std::nullopt;
}

bool isConstant(llvm::StringRef T) {
  return T == "None" || T == "True" || T == "False";
}

} // namespace

/// The source text between two sibling nodes (an operator), normalised.
std::string Walker::between(TSNode L, TSNode R) const {
  llvm::StringRef All = S.text();
  return normaliseExpression(All.slice(end(L), begin(R)));
}

const Assumption *Walker::assumptionOf(TSNode N) const {
  return Ctx.Cat.catalog().findAssumption(normaliseExpression(S.text(N)));
}

/// `E is None`, `None != E`, `E == True`, ...; not known otherwise.
std::optional<bool> Walker::assumedComparison(TSNode N) const {
  if (namedCount(N) != 2)
    return std::nullopt;
  TSNode L = stripParens(named(N, 0)), R = stripParens(named(N, 1));
  if (isConstant(S.text(L)))
    std::swap(L, R);
  const Assumption *A = assumptionOf(L);
  if (!A || !isConstant(S.text(R)))
    return std::nullopt;
  std::string Op = between(named(N, 0), named(N, 1));
  Decided Eq = equalsConstant(A->Is, S.text(R));
  if (Op == "is" || Op == "==")
    return Eq;
  if (Op == "is not" || Op == "!=")
    return negate(Eq);
  return std::nullopt;
}

std::optional<bool> Walker::assumed(TSNode Cond) const {
  if (!Active || Ctx.Cat.catalog().assumptions().empty() || isNull(Cond))
    return std::nullopt;
  TSNode N = stripParens(Cond);
  if (is(N, "not_operator"))
    return negate(assumed(field(N, "argument")));
  if (is(N, "boolean_operator")) {
    TSNode L = field(N, "left"), R = field(N, "right");
    return combine(assumed(L), assumed(R), between(L, R) == "and");
  }
  if (is(N, "comparison_operator"))
    return assumedComparison(N);
  if (const Assumption *A = assumptionOf(N))
    return truthOf(A->Is);
  return std::nullopt;
}

} // namespace capture_lint::python::detail
