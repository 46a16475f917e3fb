//===- InductorSources.cpp - Inductor's generated code, back to the user --===//

#include "capture_probe/InductorSources.h"
#include "capture_probe/Symbolizer.h"
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace capture_probe {

namespace {

std::vector<std::string> splitLines(const std::string &Text) {
  std::vector<std::string> Out;
  std::istringstream In(Text);
  for (std::string L; std::getline(In, L);)
    Out.push_back(L);
  return Out;
}

size_t indentOf(const std::string &L) {
  size_t I = L.find_first_not_of(' ');
  return I == std::string::npos ? L.size() : I;
}

/// The names of a source-nodes comment, or false if \p L is none.
bool sourceNodes(const std::string &L, std::vector<std::string> &Names) {
  static const char *const Heads[] = {"# Topologically Sorted Source Nodes: [",
                                      "# Source Nodes: ["};
  size_t At = indentOf(L);
  for (const char *Head : Heads) {
    std::string H = Head;
    if (L.compare(At, H.size(), H) != 0)
      continue;
    size_t Close = L.find(']', At + H.size());
    if (Close == std::string::npos)
      return false;
    std::string List = L.substr(At + H.size(), Close - At - H.size());
    Names.clear();
    for (size_t S = 0; S <= List.size();) {
      size_t E = List.find(',', S);
      if (E == std::string::npos)
        E = List.size();
      std::string N = List.substr(S, E - S);
      N.erase(0, N.find_first_not_of(' '));
      N.erase(N.find_last_not_of(' ') + 1);
      if (!N.empty())
        Names.push_back(N);
      S = E + 1;
    }
    return true;
  }
  return false;
}

/// The partition a line calls ("self.partitions[3](" -> 3), or -1.
int calledPartition(const std::string &L) {
  static const std::string Call = "self.partitions[";
  size_t At = L.find(Call);
  if (At == std::string::npos)
    return -1;
  size_t End = L.find("](", At);
  if (End == std::string::npos)
    return -1;
  std::string N = L.substr(At + Call.size(), End - At - Call.size());
  if (N.empty() || N.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  return std::stoi(N);
}

/// Every source-nodes comment's names in function \p Def's body.
std::vector<std::string> namesInFunction(const std::vector<std::string> &Lines,
                                         const std::string &Def) {
  std::vector<std::string> Out, Names;
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (Lines[I].compare(0, Def.size(), Def) != 0)
      continue;
    for (size_t J = I + 1; J < Lines.size(); ++J) {
      const std::string &L = Lines[J];
      if (!L.empty() && indentOf(L) == 0)
        break; // the function ended
      if (sourceNodes(L, Names))
        Out.insert(Out.end(), Names.begin(), Names.end());
    }
    break;
  }
  return Out;
}

} // namespace

std::vector<std::string> sourceNodesAt(const std::string &Text, unsigned Line) {
  std::vector<std::string> Lines = splitLines(Text), Names;
  if (Line == 0 || Line > Lines.size())
    return {};
  const std::string &Here = Lines[Line - 1];
  int Partition = calledPartition(Here);
  if (Partition >= 0)
    return namesInFunction(Lines,
                           "def partition_" + std::to_string(Partition) + "(");
  size_t Indent = indentOf(Here);
  // A buffer allocated for the kernel that follows: that kernel's nodes.
  if (Here.find("= empty_strided") != std::string::npos)
    for (size_t I = Line; I < Lines.size() && indentOf(Lines[I]) >= Indent; ++I)
      if (sourceNodes(Lines[I], Names))
        return Names;
  for (size_t I = Line - 1; I-- > 0;) {
    const std::string &L = Lines[I];
    if (sourceNodes(L, Names))
      return Names;
    bool Def = L.compare(indentOf(L), 4, "def ") == 0;
    if (Def && indentOf(L) < Indent)
      break; // the start of the line's function
  }
  return {};
}

void InductorSources::addLines(const std::string &Text) {
  for (const std::string &L : splitLines(Text)) {
    nlohmann::json J = nlohmann::json::parse(L, nullptr, false);
    if (!J.is_object() || !J.contains("generated") ||
        !J["generated"].is_string() || !J.contains("nodes") ||
        !J["nodes"].is_object())
      continue;
    auto &Map = Nodes[J["generated"].get<std::string>()];
    for (auto It = J["nodes"].begin(); It != J["nodes"].end(); ++It)
      if (It.value().is_string())
        Map[It.key()] = It.value().get<std::string>();
  }
}

void InductorSources::addGenerated(const std::string &Path,
                                   const std::string &Text) {
  Texts[Path] = Text;
}

const std::string *InductorSources::text(const std::string &Path) {
  auto It = Texts.find(Path);
  if (It == Texts.end()) {
    std::ifstream In(Path);
    std::optional<std::string> T;
    if (In) {
      std::ostringstream S;
      S << In.rdbuf();
      T = S.str();
    }
    It = Texts.emplace(Path, std::move(T)).first;
  }
  return It->second ? &*It->second : nullptr;
}

std::optional<SourceFrame> InductorSources::userFrame(const SourceFrame &F) {
  auto Map = Nodes.find(F.File);
  const std::string *T = Map == Nodes.end() ? nullptr : text(F.File);
  if (!T)
    return std::nullopt;
  for (const std::string &Name : sourceNodesAt(*T, F.Line)) {
    auto Loc = Map->second.find(Name);
    if (Loc == Map->second.end())
      continue;
    std::vector<SourceFrame> User = pythonFrames({Loc->second});
    if (User.empty())
      continue;
    SourceFrame Out = User.front();
    Out.Module = InductorModule;
    Out.Raw = F.Raw;
    return Out;
  }
  return std::nullopt;
}

} // namespace capture_probe
