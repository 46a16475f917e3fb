//===- HazardConditions.cpp - Which parameter values reach a hazard -------===//
//
// Each bool or enum parameter the function reads is bound to each of its
// values in turn, and the hazards reached are compared with those reached
// unbound (HazardConditions.h).
//
//===----------------------------------------------------------------------===//

#include "capture_lint/HazardConditions.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <optional>
#include <string>

using namespace clang;

namespace capture_lint {

namespace {

/// At most this many parameters, and values of each, are tried: a
/// function's summary is computed once per value.
constexpr unsigned MaxParams = 4;
constexpr unsigned MaxValues = 16;

/// What identifies a hazard among those of one function.
std::string hazardKey(const RawHazard &H) {
  std::string Key = std::to_string(H.Kind) + "|" +
                    std::to_string(static_cast<int>(H.Check)) + "|" + H.Api +
                    "|" + H.Detail + "|" +
                    std::to_string(H.Loc.getRawEncoding()) + "|" +
                    std::to_string(H.CallSite.getRawEncoding());
  for (const std::string &T : H.Through)
    Key += "|" + T;
  return Key;
}

/// The values a parameter of type \p T can take, when there are few: a
/// bool's two, an enum's enumerators.
std::optional<std::vector<int64_t>> valuesOf(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isBooleanType())
    return std::vector<int64_t>{0, 1};
  const auto *ET = T->getAs<EnumType>();
  const EnumDecl *ED = ET ? ET->getDecl()->getDefinition() : nullptr;
  if (!ED)
    return std::nullopt;
  std::vector<int64_t> Values;
  for (const EnumConstantDecl *C : ED->enumerators()) {
    int64_t V = C->getInitVal().getExtValue();
    if (!llvm::is_contained(Values, V))
      Values.push_back(V);
  }
  if (Values.empty() || Values.size() > MaxValues)
    return std::nullopt;
  return Values;
}

/// Whether \p Body names \p P at all.
bool reads(const Stmt *Body, const ParmVarDecl *P) {
  bool Found = false;
  walkStatements(Body, [&](const Stmt *S) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == P)
      Found = true;
    return !Found;
  });
  return Found;
}

} // namespace

std::vector<std::vector<ParamCondition>>
hazardConditions(CaptureAnalyzer &Analyzer, const FunctionDecl *FD,
                 const std::vector<RawHazard> &All) {
  std::vector<std::vector<ParamCondition>> Out(All.size());
  const FunctionDecl *Def = nullptr;
  if (All.empty() || !FD->hasBody(Def) || !Def)
    return Out;
  std::map<std::string, size_t> IndexOf;
  for (size_t I = 0; I < All.size(); ++I)
    IndexOf.emplace(hazardKey(All[I]), I);
  unsigned Tried = 0;
  for (const ParmVarDecl *P : Def->parameters()) {
    auto Values = passesIntegralValue(P->getType()) ? valuesOf(P->getType())
                                                    : std::nullopt;
    if (!Values || !reads(Def->getBody(), P))
      continue;
    if (++Tried > MaxParams)
      break;
    // Which values reach each hazard.
    std::vector<std::vector<int64_t>> Reached(All.size());
    for (int64_t V : *Values)
      for (const RawHazard &H : Analyzer.calleeHazards(Def, {{P, V}}))
        if (auto It = IndexOf.find(hazardKey(H)); It != IndexOf.end())
          if (!llvm::is_contained(Reached[It->second], V))
            Reached[It->second].push_back(V);
    for (size_t I = 0; I < All.size(); ++I) {
      ParamCondition C{P->getFunctionScopeIndex(), {}};
      for (int64_t V : *Values)
        if (!llvm::is_contained(Reached[I], V))
          C.Unreached.push_back(V);
      if (!C.Unreached.empty())
        Out[I].push_back(std::move(C));
    }
  }
  return Out;
}

bool conditionsAllow(const std::vector<ParamCondition> &When,
                     const std::vector<std::pair<unsigned, int64_t>> &Args) {
  for (const ParamCondition &C : When)
    for (const auto &[Param, Value] : Args)
      if (Param == C.Param && llvm::is_contained(C.Unreached, Value))
        return false;
  return true;
}

} // namespace capture_lint
