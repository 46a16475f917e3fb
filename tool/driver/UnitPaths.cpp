//===- UnitPaths.cpp - Every file path a unit's result holds --------------===//

#include "UnitPaths.h"

#include "llvm/Support/Path.h"

namespace capture_lint {

namespace {

using LocFn = llvm::function_ref<void(SummaryLoc &)>;

void eachLoc(std::vector<SummaryNote> &Notes, LocFn F) {
  for (SummaryNote &N : Notes)
    F(N.Loc);
}

void eachLoc(SummaryHazard &H, LocFn F) {
  F(H.Loc);
  F(H.CallSite);
  eachLoc(H.Chain, F);
  eachLoc(H.Extra, F);
}

void eachLoc(SummaryCapture &C, LocFn F) {
  F(C.BeginLoc);
  eachLoc(C.Chain, F);
}

} // namespace

void eachSummaryLoc(TuSummary &S, LocFn F) {
  for (SummaryFunction &Fn : S.Functions)
    for (SummaryHazard &H : Fn.Hazards)
      eachLoc(H, F);
  for (SummaryUse &Use : S.Uses) {
    F(Use.Region.BeginLoc);
    eachLoc(Use.Region.Origin, F);
    F(Use.Region.End);
    eachLoc(Use.Call, F);
    eachLoc(Use.Bridge, F);
  }
  for (SummaryBinding &B : S.Bindings)
    F(B.Loc);
  for (SummaryRole &R : S.Roles)
    eachRoleLoc(R, F);
}

void eachRoleLoc(SummaryRole &R, LocFn F) {
  if (R.Opens)
    eachLoc(*R.Opens, F);
  for (SummaryWrap &W : R.Wraps) {
    eachLoc(W.Capture, F);
    F(W.InvokeLoc);
  }
}

void eachUnitPath(UnitResult &U, llvm::function_ref<void(std::string &)> F) {
  for (ReportFinding &R : U.Findings) {
    F(R.Loc.File);
    F(R.HazardLoc.File);
    F(R.RegionFile);
    for (FindingNote &N : R.Notes)
      F(N.Loc.File);
    for (TextEdit &E : R.Fixes)
      F(E.File);
  }
  for (ReportError &E : U.Errors)
    F(E.Loc.File);
  eachSummaryLoc(U.Summary, [&](SummaryLoc &L) { F(L.File); });
}

std::string relativeToRoot(llvm::StringRef Path, llvm::StringRef Root) {
  Root = Root.rtrim('/');
  if (Root.empty() || !Path.starts_with(Root))
    return Path.str();
  llvm::StringRef Rest = Path.drop_front(Root.size());
  if (Rest.empty())
    return ".";
  if (Rest.front() != '/')
    return Path.str(); // /a/projx is not under /a/proj
  return Rest.drop_front().str();
}

std::string underRoot(llvm::StringRef Path, llvm::StringRef Root) {
  if (Path.empty() || llvm::sys::path::is_absolute(Path))
    return Path.str();
  if (Path == ".")
    return Root.str();
  llvm::SmallString<256> Full(Root);
  llvm::sys::path::append(Full, Path);
  return std::string(Full);
}

} // namespace capture_lint
