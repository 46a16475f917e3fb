//===- HostRead.cpp - capture-host-read: reads of captured copies ---------===//
//
// Besides the catalog's read-back calls (CatalogCall.cpp), the host reading
// memory that a captured device-to-host copy fills: during capture the copy
// has not run, and replays do not re-run the host code that reads it.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/ApiMatch.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/Expr.h"

using namespace clang;

namespace capture_lint::rules {

std::optional<RawHazard> pendingHostRead(const Stmt *S, const FlowState &St,
                                         const Catalog &Cat) {
  if (St.PendingHostCopies.empty())
    return std::nullopt;
  const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
  if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
    return std::nullopt;
  const Expr *Sub = Cast->getSubExpr()->IgnoreParens();
  const ValueDecl *V = accessedDeclOf(Sub);
  if (!V || !St.PendingHostCopies.count(V))
    return std::nullopt;
  // Reading the pointer itself (to pass it on) is not reading the data.
  if (namesDecl(Sub, V) &&
      (V->getType()->isPointerType() || V->getType()->isArrayType()))
    return std::nullopt;
  const CallExpr *Copy = nullptr;
  for (const auto &P : St.PendingCopyCalls)
    if (P.first == V)
      Copy = P.second;
  RawHazard H;
  H.Kind = RawHazard::PendingRead;
  H.Check = CheckKind::HostRead;
  const ApiEntry *E = Copy ? matchApi(Copy, Cat) : nullptr;
  H.Entry = E;
  H.Api = E ? E->Display : "copy";
  H.Detail = V->getNameAsString();
  H.Loc = Sub->getBeginLoc();
  if (Copy)
    H.Extra.push_back({callLoc(Copy), "the copy into '" + H.Detail +
                                          "' is captured here; it runs only "
                                          "when the graph is replayed"});
  return H;
}

Described describePendingHostRead(const RawHazard &H) {
  MessageParts M;
  M.Subject = "host read of '" + H.Detail + "'";
  M.HereNote = "'" + H.Detail + "' is read here";
  M.Predicate = "sees memory that the captured '" + H.Api +
                "' writes only when the graph is replayed";
  M.Consequence = "during capture the copy has not run, and replays do not "
                  "re-run this host code";
  M.Fix = "keep the value on the device, or read it after the graph launch "
          "and a synchronize";
  return std::make_pair(Severity::Warning, M);
}

} // namespace capture_lint::rules
