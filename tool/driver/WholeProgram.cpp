//===- WholeProgram.cpp - Resolve calls across translation units ----------===//

#include "WholeProgram.h"
#include "SourceText.h"
#include "llvm/Support/Path.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <set>

namespace capture_lint {

namespace {

/// The constants a call passes (parameter index, value).
using Arguments = std::vector<std::pair<unsigned, int64_t>>;

/// What a call \p Call inside a function called with \p Outer passes its
/// callee: its own constants, and the function's parameters it passes on
/// where \p Outer fixes them.
Arguments argumentsOf(const SummaryHazard &Call, const Arguments &Outer) {
  Arguments Out = Call.ConstantArgs;
  for (const auto &[Index, Param] : Call.PassedParams)
    for (const auto &[Fixed, Value] : Outer)
      if (Fixed == Param)
        Out.push_back({Index, Value});
  return Out;
}

/// The memo key of a function reached with \p Args.
std::string reachKey(const std::string &Usr, const Arguments &Args) {
  std::string Key = Usr;
  for (const auto &[Index, Value] : Args)
    Key += "|" + std::to_string(Index) + "=" + std::to_string(Value);
  return Key;
}

class Resolver {
public:
  explicit Resolver(const WholeProgramInput &In) : In(In) {
    for (const auto *List : {&In.Reported, &In.IndexOnly})
      for (const TuSummary *S : *List)
        for (const SummaryFunction &F : S->Functions)
          Index.try_emplace(F.Usr, &F); // a header's function: first wins
    for (const auto &Entry : Index)
      for (const std::string &Base : Entry.second->Overrides)
        OverridersOf[Base].push_back(Entry.second);
    for (auto &Entry : OverridersOf) // the index's order is the hash's
      llvm::sort(Entry.second,
                 [](const SummaryFunction *A, const SummaryFunction *B) {
                   return A->Usr < B->Usr;
                 });
  }

  /// The functions \p Call runs that a summary defines: an external call's
  /// callee, or for a virtual call every override the calling TU did not
  /// follow itself.
  std::vector<const SummaryFunction *> targets(const SummaryHazard &Call) {
    std::vector<const SummaryFunction *> Out;
    if (Call.Kind == "external") {
      auto It = Index.find(Call.Detail);
      if (It != Index.end())
        Out.push_back(It->second);
      return Out;
    }
    auto It = OverridersOf.find(Call.Detail);
    if (Call.Kind != "overrides" || It == OverridersOf.end())
      return Out;
    for (const SummaryFunction *F : It->second)
      if (!llvm::is_contained(Call.Followed, F->Usr))
        Out.push_back(F);
    return Out;
  }

  /// What a region's call reaches in other files. An override is named
  /// where the virtual call dispatches to it.
  std::vector<SummaryHazard> reachFromRegion(const SummaryHazard &Call) {
    std::vector<SummaryHazard> Out;
    Arguments Args = Call.Kind == "external" ? Call.ConstantArgs : Arguments();
    for (const SummaryFunction *T : targets(Call))
      for (const SummaryHazard &H : reach(T->Usr, 1, Args)) {
        Out.push_back(H);
        if (Call.Kind == "overrides")
          Out.back().Chain.insert(
              Out.back().Chain.begin(),
              {Call.Loc, "'" + Call.Api + "' runs the override '" + T->Name +
                             "' here, which another file defines"});
      }
    return Out;
  }

  bool known(const std::string &Usr) const { return Index.count(Usr); }

  /// Calls followed from a region into functions no summary defines,
  /// each callee once, at the first call seen.
  std::vector<UnfollowedCall> Unfollowed;

  void noteUnfollowed(const SummaryHazard &Call) {
    if (Call.Kind != "external")
      return; // a virtual call runs whichever overrides there are
    if (!known(Call.Detail) && UnfollowedUsrs.insert(Call.Detail).second)
      Unfollowed.push_back({Call.Api, Call.Loc.File, Call.Loc.Offset});
  }

  /// What a function reaches, called with the constants \p Args, its
  /// unresolved calls followed.
  const std::vector<SummaryHazard> &
  reach(const std::string &Usr, unsigned Depth, const Arguments &Args) {
    static const std::vector<SummaryHazard> None;
    std::string Key = reachKey(Usr, Args);
    auto Done = Memo.find(Key);
    if (Done != Memo.end())
      return Done->second;
    auto It = Index.find(Usr);
    if (It == Index.end() || Depth > In.MaxCallDepth ||
        !Visiting.insert(Usr).second)
      return None;
    std::vector<SummaryHazard> Out;
    for (const SummaryHazard &H : It->second->Hazards) {
      if (!conditionsAllow(H.When, Args))
        continue; // only other values of the parameters reach it
      if (H.Kind != "external" && H.Kind != "overrides") {
        Out.push_back(H);
        continue;
      }
      if (Depth + 1 <= In.MaxCallDepth)
        noteUnfollowed(H);
      Arguments Inner =
          H.Kind == "external" ? argumentsOf(H, Args) : Arguments();
      for (const SummaryFunction *Callee : targets(H))
        follow(H, *Callee, Depth, Inner, Out);
    }
    Visiting.erase(Usr);
    return Memo[Key] = std::move(Out);
  }

private:
  /// Appends what \p Callee reaches, called by \p H, with the call's note.
  void follow(const SummaryHazard &H, const SummaryFunction &Callee,
              unsigned Depth, const Arguments &Args,
              std::vector<SummaryHazard> &Out) {
    // An external call is named as the caller wrote it; an override by its
    // own name.
    const std::string &Name = H.Kind == "external" ? H.Api : Callee.Name;
    for (const SummaryHazard &Inner : reach(Callee.Usr, Depth + 1, Args)) {
      // Bounded whichever region reached the memoized callee first.
      if (Depth + 1 + Inner.Through.size() > In.MaxCallDepth)
        continue;
      SummaryHazard C = Inner;
      std::vector<SummaryNote> Chain = H.Chain;
      Chain.push_back({H.Loc, "'" + H.Origin + "' calls '" + Name + "' here"});
      Chain.insert(Chain.end(), Inner.Chain.begin(), Inner.Chain.end());
      C.Chain = std::move(Chain);
      std::vector<std::string> Through = H.Through;
      Through.push_back(Name);
      Through.insert(Through.end(), Inner.Through.begin(), Inner.Through.end());
      C.Through = std::move(Through);
      C.ThreadRelaxed = C.ThreadRelaxed || H.ThreadRelaxed;
      Out.push_back(std::move(C));
    }
  }

  const WholeProgramInput &In;
  llvm::StringMap<const SummaryFunction *> Index;
  /// Base method USR -> the summarised methods overriding it.
  llvm::StringMap<std::vector<const SummaryFunction *>> OverridersOf;
  llvm::StringMap<std::vector<SummaryHazard>> Memo;
  std::set<std::string> Visiting;
  std::set<std::string> UnfollowedUsrs;
};

/// One finding at the region's call \p Call (or, for a call deep inside a
/// function the region runs, at that function's call site in the region)
/// for the hazard \p H that the callee reaches.
class FindingBuilder {
public:
  FindingBuilder(const SummaryUse &U, const Catalog &Cat, SourceFiles &Sources)
      : U(U), Cat(Cat), Sources(Sources),
        Region(toCaptureRegion(U.Region, Cat)), Deep(U.Call.CallSite.valid()) {}

  std::optional<ReportFinding> build(const SummaryHazard &H,
                                     SourcePlace &HazardAt) {
    RawHazard Raw;
    if (!toRawHazard(H, Cat, Raw))
      return std::nullopt;
    const SummaryHazard &Call = U.Call;
    Raw.ThreadRelaxed = Raw.ThreadRelaxed || Call.ThreadRelaxed;
    HazardAt = located(H.Loc);
    std::string Via =
        Deep && !Call.Through.empty() ? Call.Through.front() : Call.Api;
    auto Text = describeHazard(Raw, Region, Via,
                               llvm::sys::path::filename(HazardAt.File).str() +
                                   ":" + std::to_string(HazardAt.Line));
    if (!Text)
      return std::nullopt;
    SummaryLoc At = Deep ? Call.CallSite : Call.Loc;
    ReportFinding F;
    F.Check = H.Check;
    F.Level = Text->Level;
    F.Loc = located(At);
    F.Via = Via;
    F.HazardLoc = HazardAt;
    F.Message = Text->Message;
    F.Api = H.Kind == "api-call" && !H.Entry.empty() ? H.Entry : H.Api;
    addNotes(F, H, Text->HereNote);
    F.Mode = U.Region.Mode;
    F.Stream = U.Region.Stream;
    return F;
  }

private:
  SourcePlace located(const SummaryLoc &L) {
    return Sources.locate(L.File, L.Offset);
  }

  /// The chain from the region's call down to the hazard, then where the
  /// region begins.
  void addNotes(ReportFinding &F, const SummaryHazard &H,
                const std::string &FinalNote) {
    auto Note = [&](const SummaryLoc &L, const std::string &M) {
      F.Notes.push_back({located(L), M});
    };
    const SummaryHazard &Call = U.Call;
    if (Deep) {
      for (const SummaryNote &N : Call.Chain)
        Note(N.Loc, N.Message);
      Note(Call.Loc, "'" + Call.Origin + "' calls '" + Call.Api + "' here");
    }
    for (const SummaryNote &N : U.Bridge)
      Note(N.Loc, N.Message);
    for (const SummaryNote &N : H.Chain)
      Note(N.Loc, N.Message);
    Note(H.Loc, FinalNote);
    for (const SummaryNote &N : H.Extra)
      Note(N.Loc, N.Message);
    if (!U.Region.BeginLoc.valid())
      return;
    Note(U.Region.BeginLoc, U.Region.Headline);
    for (const SummaryNote &N : U.Region.Origin)
      Note(N.Loc, N.Message);
    F.HasRegion = true;
    F.RegionFile = U.Region.BeginLoc.File;
    F.RegionBeginLine = located(U.Region.BeginLoc).Line;
    if (U.Region.End.valid())
      F.RegionEndLine = located(U.Region.End).Line;
  }

  const SummaryUse &U;
  const Catalog &Cat;
  SourceFiles &Sources;
  CaptureRegion Region;
  bool Deep;
};

} // namespace

CrossUnitResult resolveAcrossUnits(const WholeProgramInput &In) {
  Resolver R(In);
  SourceFiles Read;
  SourceFiles &Sources = In.Sources ? *In.Sources : Read;
  CrossUnitResult Result;
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  // The region's own calls first, so a callee is named where the region
  // calls it rather than deep inside a followed function.
  for (const TuSummary *S : In.Reported)
    for (const SummaryUse &U : S->Uses)
      R.noteUnfollowed(U.Call);
  for (const TuSummary *S : In.Reported) {
    for (const SummaryUse &U : S->Uses) {
      auto Cat = In.CatalogFor(U.Region.BeginLoc.File);
      if (!Cat)
        continue;
      FindingBuilder Build(U, *Cat, Sources);
      for (const SummaryHazard &H : R.reachFromRegion(U.Call)) {
        if (!In.Enabled(H.Check))
          continue;
        SourcePlace HazardAt;
        std::optional<ReportFinding> F = Build.build(H, HazardAt);
        // One finding per call in the region and offending call: the
        // instantiations of a template reaching the same call through
        // different entry points (solve<float>, solve<double>) are one.
        if (F && Seen.insert({F->Check, F->Loc.File, F->Loc.Offset,
                              HazardAt.File + ":" +
                                  std::to_string(HazardAt.Line) + ":" + F->Api})
                     .second)
          Result.Findings.push_back(std::move(*F));
      }
    }
  }
  for (const UnfollowedCall &C : R.Unfollowed) {
    UnfollowedCall Located = C;
    SourcePlace L = Sources.locate(C.File, C.Offset);
    Located.Line = L.Line;
    Result.Unfollowed.push_back(std::move(Located));
  }
  return Result;
}

} // namespace capture_lint
