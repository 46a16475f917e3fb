//===- ShapeBranch.cpp - capture-shape-branch -----------------------------===//
//
// A branch whose condition depends on a tensor shape or a value read back
// from the device: the capture records only the path taken now, and every
// replay repeats it. On a device value that is a warning; on a shape, which
// a graph's tensors keep, a remark. What depends on a shape or device value
// is ShapeTaint.cpp's work.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/CheckWords.h"

#include "capture_lint/ShapeTaint.h"

#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace capture_lint::rules {

/// The condition of a branching statement and its kind ("if", ...).
static std::pair<const Expr *, const char *> conditionOf(const Stmt *S) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return {If->getCond(), "if"};
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return {Sw->getCond(), "switch"};
  if (const auto *For = dyn_cast<ForStmt>(S))
    return {For->getCond(), "for"};
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return {While->getCond(), "while"};
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return {Do->getCond(), "do-while"};
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    return {CO->getCond(), "?:"};
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
    return {Range->getRangeInit(), "range-for"};
  return {nullptr, nullptr};
}

std::optional<RawHazard> shapeBranch(const Stmt *S, const ShapeTaint &Taint) {
  auto [Cond, Kind] = conditionOf(S);
  if (!Cond)
    return std::nullopt;
  auto Src = Taint.dependency(Cond);
  if (!Src)
    return std::nullopt;
  RawHazard H;
  H.Kind = RawHazard::Branch;
  H.Check = CheckKind::ShapeBranch;
  H.Api = Src->What;
  H.Detail = Kind;
  H.Origin = Src->DeviceValue ? "device" : "shape";
  H.Loc = S->getBeginLoc();
  if (Src->VarLoc.isValid())
    H.Extra.push_back({Src->VarLoc, Src->What + " gets its value from " +
                                        Src->VarOrigin + " here"});
  return H;
}

Described describeShapeBranch(const RawHazard &H) {
  MessageParts M;
  M.Subject = "'" + H.Detail + "' condition";
  M.HereNote = "the branch is here";
  M.Predicate = "depends on " + H.Api +
                (H.Origin == "device" ? " (a value read back from the device)"
                                      : " (a tensor shape)");
  M.Consequence = branchConsequence(H.Origin == "device");
  M.Fix = H.Origin == "device"
              ? "read the value before the capture begins and capture one "
                "graph per value, or decide on the device (a device-side "
                "predicate, or a conditional graph node)"
              : "capture one graph per shape bucket (pad inputs to fixed "
                "shapes), or decide on the device (a device-side predicate, "
                "or a conditional graph node)";
  // A graph's tensors keep the shapes they were captured with: a branch on
  // a shape is taken the same way on every replay of that graph, right as
  // long as the graph is replayed only with inputs of those shapes (a
  // remark); a branch on a value read back from the device is wrong as soon
  // as the value changes (a warning).
  return std::make_pair(
      H.Origin == "device" ? Severity::Warning : Severity::Remark, M);
}

} // namespace capture_lint::rules
