//===- NativeJoin.cpp - Python capture regions into C++ -------------------===//

#include "NativeJoin.h"
#include "capture_lint/NativeBindings.h"

#include <map>

namespace capture_lint {

namespace {

/// The bindings a CUDA tensor's call may dispatch to, by name.
std::multimap<std::string, const SummaryBinding *>
bindingsByName(const std::vector<const TuSummary *> &Summaries) {
  std::multimap<std::string, const SummaryBinding *> Out;
  for (const TuSummary *S : Summaries)
    for (const SummaryBinding &B : S->Bindings)
      if (!B.Usr.empty() && runsOnCudaTensors(B.DispatchKey))
        Out.insert({B.Key, &B});
  return Out;
}

SummaryLoc remembered(const SourcePlace &P, SourceFiles &Places) {
  Places.remember(P);
  return {P.File, P.Offset};
}

/// The region of \p C, as a C++ region use describes one.
SummaryRegion regionOf(const python::PyNativeCall &C, SourceFiles &Places) {
  SummaryRegion R;
  R.Mode = C.Mode;
  R.Stream = C.Stream;
  R.Headline = C.Headline;
  R.BeginLoc = remembered(C.RegionBegin, Places);
  R.End = remembered(C.RegionEnd, Places);
  return R;
}

/// The call \p C makes, to the function \p B binds: at the region's call
/// of the first function on the way when it is made further down.
SummaryHazard callOf(const python::PyNativeCall &C, const SummaryBinding &B,
                     SourceFiles &Places) {
  SummaryHazard Call;
  Call.Kind = "external";
  Call.Detail = B.Usr;
  Call.Api = C.Callee;
  Call.Loc = remembered(C.At, Places);
  if (C.Steps.empty())
    return Call;
  Call.CallSite = remembered(C.Steps.front().first, Places);
  for (size_t I = 1; I < C.Steps.size(); ++I)
    Call.Chain.push_back({remembered(C.Steps[I].first, Places),
                          "call to '" + C.Steps[I].second + "' here"});
  for (const auto &[At, Callee] : C.Steps)
    Call.Through.push_back(Callee);
  Call.Origin = C.Steps.back().second;
  return Call;
}

/// Where the call \p C enters the C++ function \p B binds.
std::string bridgeNote(const python::PyNativeCall &C, const SummaryBinding &B) {
  std::string Runs = B.Name.empty() ? "the lambda" : "'" + B.Name + "'";
  if (B.DispatchKey.empty() && B.How == "extern \"C\"")
    return "'" + C.Callee + "' runs " + Runs +
           ", the C function a library built from this file exports";
  return "'" + C.Callee + "' runs " + Runs + ", which " + B.How + " binds here";
}

} // namespace

std::set<std::string>
boundNames(const std::vector<const TuSummary *> &Summaries) {
  std::set<std::string> Names;
  for (const auto &[Name, B] : bindingsByName(Summaries))
    Names.insert(Name);
  return Names;
}

TuSummary nativeUses(const std::vector<python::PyNativeCall> &Calls,
                     const std::vector<const TuSummary *> &Summaries,
                     SourceFiles &Places) {
  auto Bound = bindingsByName(Summaries);
  TuSummary Out;
  for (const python::PyNativeCall &C : Calls) {
    auto [First, Last] = Bound.equal_range(C.Key);
    for (auto It = First; It != Last; ++It) {
      const SummaryBinding &B = *It->second;
      SummaryUse U;
      U.Region = regionOf(C, Places);
      U.Call = callOf(C, B, Places);
      U.Bridge.push_back({B.Loc, bridgeNote(C, B)});
      Out.Uses.push_back(std::move(U));
    }
  }
  return Out;
}

} // namespace capture_lint
