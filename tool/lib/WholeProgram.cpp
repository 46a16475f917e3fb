//===- WholeProgram.cpp - Resolve calls across translation units ----------===//

#include "WholeProgram.h"
#include "SourceText.h"
#include "llvm/Support/Path.h"

#include "llvm/ADT/StringMap.h"

#include <set>

namespace capture_lint {

namespace {

class Resolver {
public:
  explicit Resolver(const WholeProgramInput &In) : In(In) {
    for (const auto *List : {&In.Reported, &In.IndexOnly})
      for (const TuSummary *S : *List)
        for (const SummaryFunction &F : S->Functions)
          Index.try_emplace(F.Usr, &F); // a header's function: first wins
  }

  /// What a function reaches, its unresolved calls followed.
  const std::vector<SummaryHazard> &reach(const std::string &Usr,
                                          unsigned Depth) {
    static const std::vector<SummaryHazard> None;
    auto Done = Memo.find(Usr);
    if (Done != Memo.end())
      return Done->second;
    auto It = Index.find(Usr);
    if (It == Index.end() || Depth > In.MaxCallDepth ||
        !Visiting.insert(Usr).second)
      return None;
    std::vector<SummaryHazard> Out;
    for (const SummaryHazard &H : It->second->Hazards) {
      if (H.Kind != "external") {
        Out.push_back(H);
        continue;
      }
      for (const SummaryHazard &Inner : reach(H.Detail, Depth + 1)) {
        // Bounded whichever region reached the memoized callee first.
        if (Depth + 1 + Inner.Through.size() > In.MaxCallDepth)
          continue;
        SummaryHazard C = Inner;
        std::vector<SummaryNote> Chain = H.Chain;
        Chain.push_back(
            {H.Loc, "'" + H.Origin + "' calls '" + H.Api + "' here"});
        Chain.insert(Chain.end(), Inner.Chain.begin(), Inner.Chain.end());
        C.Chain = std::move(Chain);
        std::vector<std::string> Through = H.Through;
        Through.push_back(H.Api);
        Through.insert(Through.end(), Inner.Through.begin(),
                       Inner.Through.end());
        C.Through = std::move(Through);
        C.ThreadRelaxed = C.ThreadRelaxed || H.ThreadRelaxed;
        Out.push_back(std::move(C));
      }
    }
    Visiting.erase(Usr);
    return Memo[Usr] = std::move(Out);
  }

private:
  const WholeProgramInput &In;
  llvm::StringMap<const SummaryFunction *> Index;
  llvm::StringMap<std::vector<SummaryHazard>> Memo;
  std::set<std::string> Visiting;
};

} // namespace

std::vector<ReportFinding> resolveAcrossUnits(const WholeProgramInput &In) {
  Resolver R(In);
  SourceFiles Sources;
  std::vector<ReportFinding> Out;
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  auto Located = [&](const SummaryLoc &L) {
    return Sources.locate(L.File, L.Offset);
  };
  for (const TuSummary *S : In.Reported) {
    for (const SummaryUse &U : S->Uses) {
      const SummaryHazard &Call = U.Call;
      auto Cat = In.CatalogFor(U.Region.BeginLoc.File);
      if (!Cat)
        continue;
      CaptureRegion Region = toCaptureRegion(U.Region, *Cat);
      bool Deep = Call.CallSite.valid();
      SummaryLoc At = Deep ? Call.CallSite : Call.Loc;
      std::string Via =
          Deep && !Call.Through.empty() ? Call.Through.front() : Call.Api;
      for (const SummaryHazard &H : R.reach(Call.Detail, 1)) {
        RawHazard Raw;
        if (!toRawHazard(H, *Cat, Raw))
          continue;
        Raw.ThreadRelaxed = Raw.ThreadRelaxed || Call.ThreadRelaxed;
        ReportLocation HazardAt = Located(H.Loc);
        auto Text =
            describeHazard(Raw, Region, Via,
                           llvm::sys::path::filename(HazardAt.File).str() +
                               ":" + std::to_string(HazardAt.Line));
        if (!Text || !In.Enabled(H.Check))
          continue;
        ReportFinding F;
        F.Check = H.Check;
        F.Severity = severityName(Text->Level).str();
        F.Loc = Located(At);
        F.Offset = At.Offset;
        F.Message = Text->Message;
        F.Api = H.Kind == "api-call" && !H.Entry.empty() ? H.Entry : H.Api;
        auto Note = [&](const SummaryLoc &L, const std::string &M) {
          F.Notes.push_back({Located(L), M});
        };
        if (Deep) {
          for (const SummaryNote &N : Call.Chain)
            Note(N.Loc, N.Message);
          Note(Call.Loc, "'" + Call.Origin + "' calls '" + Call.Api + "' here");
        }
        for (const SummaryNote &N : H.Chain)
          Note(N.Loc, N.Message);
        Note(H.Loc, Text->FinalNote);
        for (const SummaryNote &N : H.Extra)
          Note(N.Loc, N.Message);
        if (U.Region.BeginLoc.valid()) {
          Note(U.Region.BeginLoc, U.Region.Headline);
          for (const SummaryNote &N : U.Region.Origin)
            Note(N.Loc, N.Message);
          F.HasRegion = true;
          F.RegionFile = U.Region.BeginLoc.File;
          F.RegionBeginLine = Located(U.Region.BeginLoc).Line;
          if (U.Region.End.valid())
            F.RegionEndLine = Located(U.Region.End).Line;
        }
        F.Mode = U.Region.Mode;
        F.Stream = U.Region.Stream;
        // One finding per call in the region and offending call: the
        // instantiations of a template reaching the same call through
        // different entry points (solve<float>, solve<double>) are one.
        if (Seen.insert({F.Check, F.Loc.File, F.Offset,
                         HazardAt.File + ":" + std::to_string(HazardAt.Line) +
                             ":" + F.Api})
                .second)
          Out.push_back(std::move(F));
      }
    }
  }
  return Out;
}

} // namespace capture_lint
