//===- KindDispatch.cpp - Allocations one branch of a kind switch makes ---===//

#include "KindDispatch.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace capture_lint {

namespace {
using Branch = llvm::SmallVector<const Stmt *, 4>;

/// The statements of each case of a switch, a case's label chain
/// (`case A: case B: s`) and the statements after it up to the next label.
llvm::SmallVector<Branch, 8> casesOf(const SwitchStmt *Switch) {
  llvm::SmallVector<Branch, 8> Cases;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Switch->getBody());
  if (!Body)
    return Cases;
  for (const Stmt *S : Body->body()) {
    if (const auto *Label = dyn_cast<SwitchCase>(S)) {
      Cases.emplace_back();
      const Stmt *Sub = Label->getSubStmt();
      while (const auto *Inner = dyn_cast_or_null<SwitchCase>(Sub))
        Sub = Inner->getSubStmt();
      Cases.back().push_back(Sub);
    } else if (!Cases.empty()) {
      Cases.back().push_back(S);
    }
  }
  return Cases;
}

/// Every call in a branch, lambdas' bodies left out.
void callsIn(const Branch &B, llvm::SmallVectorImpl<const CallExpr *> &Out) {
  for (const Stmt *Root : B)
    walkStatements(Root, [&](const Stmt *S) {
      if (const auto *Call = dyn_cast<CallExpr>(S))
        Out.push_back(Call);
      return !isa<LambdaExpr>(S);
    });
}

const ApiEntry *allocationEntry(const CallExpr *Call, const Catalog &Cat) {
  const FunctionDecl *FD = directCallee(Call);
  const ApiEntry *E = FD ? Cat.findApi(listedName(FD, Cat)) : nullptr;
  return E && E->Class == Hazard::Allocation ? E : nullptr;
}

void collect(llvm::ArrayRef<Branch> Branches, const Catalog &Cat,
             llvm::DenseSet<const CallExpr *> &Out) {
  llvm::SmallVector<llvm::SmallVector<const CallExpr *, 8>, 8> Calls;
  bool AnyCaptured = false;
  for (const Branch &B : Branches) {
    Calls.emplace_back();
    callsIn(B, Calls.back());
    for (const CallExpr *C : Calls.back())
      if (const ApiEntry *E = allocationEntry(C, Cat))
        AnyCaptured |=
            E->behaviourIn(CaptureMode::Global) == Behaviour::Captured;
  }
  if (!AnyCaptured)
    return;
  for (const auto &BranchCalls : Calls)
    for (const CallExpr *C : BranchCalls)
      if (const ApiEntry *E = allocationEntry(C, Cat))
        if (E->behaviourIn(CaptureMode::Global) != Behaviour::Captured)
          Out.insert(C);
}
} // namespace

llvm::DenseSet<const CallExpr *>
allocationsBesideCapturedForm(const Stmt *Body, const Catalog &Cat) {
  llvm::DenseSet<const CallExpr *> Out;
  walkStatements(Body, [&](const Stmt *S) {
    if (const auto *Switch = dyn_cast<SwitchStmt>(S))
      collect(casesOf(Switch), Cat, Out);
    else if (const auto *If = dyn_cast<IfStmt>(S); If && If->getElse())
      collect({Branch{If->getThen()}, Branch{If->getElse()}}, Cat, Out);
    return true;
  });
  return Out;
}

} // namespace capture_lint
