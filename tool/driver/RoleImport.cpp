//===- RoleImport.cpp - Which roles each TU takes from other TUs ----------===//

#include "RoleImport.h"

#include <map>
#include <set>

namespace capture_lint {

std::vector<std::shared_ptr<const RoleImports>>
roleImportsFor(const std::vector<const TuSummary *> &Analysed,
               const std::vector<const TuSummary *> &Known) {
  std::map<std::string, const SummaryRole *> ByUsr;
  for (const TuSummary *S : Known)
    for (const SummaryRole &R : S->Roles)
      ByUsr.emplace(R.Usr, &R); // the first definition seen, as a linker
  std::vector<std::shared_ptr<const RoleImports>> Out(Analysed.size());
  if (ByUsr.empty())
    return Out;
  for (size_t I = 0; I < Analysed.size(); ++I) {
    auto Imports = std::make_shared<RoleImports>();
    for (const std::string &Usr : Analysed[I]->Bodiless)
      if (auto It = ByUsr.find(Usr); It != ByUsr.end())
        Imports->emplace(Usr, *It->second);
    if (!Imports->empty())
      Out[I] = std::move(Imports);
  }
  return Out;
}

std::vector<std::string>
bodilessNowhereDefined(const std::vector<const TuSummary *> &Analysed,
                       const std::vector<const TuSummary *> &Known) {
  std::set<std::string> Defined, Seen;
  for (const TuSummary *S : Known)
    for (const SummaryFunction &F : S->Functions)
      Defined.insert(F.Usr);
  std::vector<std::string> Names;
  for (const TuSummary *S : Analysed)
    for (const std::string &Usr : S->Bodiless)
      if (!Defined.count(Usr) && Seen.insert(Usr).second)
        Names.push_back(usrDisplayName(Usr));
  return Names;
}

std::string usrDisplayName(llvm::StringRef Usr) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Usr.split('#').first.split(Parts, '@');
  std::string Name;
  for (size_t I = 0; I + 1 < Parts.size(); ++I)
    if (llvm::is_contained({"N", "S", "C", "F", "U"}, Parts[I]))
      Name += (Name.empty() ? "" : "::") + Parts[++I].str();
  return Name.empty() ? Usr.str() : Name;
}

std::string importsKey(const RoleImports *Imports) {
  if (!Imports)
    return "";
  std::string Key = "\nimports:";
  for (const auto &[Usr, Role] : *Imports)
    Key += toJson(Role).dump(-1, ' ', false,
                             nlohmann::json::error_handler_t::replace) +
           '\n';
  return Key;
}

} // namespace capture_lint
