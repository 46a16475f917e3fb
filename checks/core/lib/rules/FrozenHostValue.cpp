//===- FrozenHostValue.cpp - capture-frozen-host-value --------------------===//
//
// Host state the region updates (a step counter, a cursor) passed to work
// the graph records: the graph keeps the value it had at capture time, and
// replays do not run the host update, so every replay passes the same
// value. Which host state a region updates is FrozenValues.cpp's work.
//
//===----------------------------------------------------------------------===//

#include "../FrozenValues.h"
#include "Rules.h"

#include "capture_lint/CheckWords.h"

#include "clang/AST/Expr.h"

using namespace clang;

namespace capture_lint::rules {

/// A stream handle (cudaStream_t, hipStream_t, CUstream), by type.
static bool isStreamHandle(const Expr *E) {
  QualType T = E->IgnoreParenImpCasts()->getType();
  const RecordDecl *RD =
      T->isPointerType() ? T->getPointeeType()->getAsRecordDecl() : nullptr;
  return RD && RD->getIdentifier() &&
         (RD->getName() == "CUstream_st" || RD->getName() == "ihipStream_t");
}

bool passesStream(const CallExpr *Call) {
  return llvm::any_of(Call->arguments(), isStreamHandle);
}

std::optional<RawHazard> frozenArgument(const CallExpr *Call,
                                        llvm::StringRef Work,
                                        FrozenValues &Frozen) {
  for (const Expr *Arg : Call->arguments()) {
    if (isStreamHandle(Arg))
      continue;
    auto C = Frozen.carriedBy(Arg);
    if (!C)
      continue;
    RawHazard H;
    H.Kind = RawHazard::FrozenArg;
    H.Check = CheckKind::FrozenHostValue;
    H.Api = Work.str();
    H.Detail = C->State;
    H.Origin = C->Carrier;
    H.Loc = Arg->getBeginLoc();
    H.Extra.push_back({C->UpdateLoc, "'" + C->State +
                                         "' is updated here, on the host; "
                                         "replays do not run this update"});
    if (!C->Carrier.empty())
      H.Extra.push_back({C->CarrierLoc, "'" + C->Carrier +
                                            "' takes its value from '" +
                                            C->State + "' here"});
    return H; // one finding per launch
  }
  return std::nullopt;
}

Described describeFrozenArgument(const RawHazard &H) {
  MessageParts M = frozenHostValueWords("'" + H.Detail + "'", H.Origin, H.Api);
  M.Fix = "keep the counter in device memory and update it with a kernel "
          "inside the graph, or set the node's parameters before each "
          "launch (cudaGraphExecKernelNodeSetParams)";
  return std::make_pair(Severity::Warning, M);
}

} // namespace capture_lint::rules
