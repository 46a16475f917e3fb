//===- Catalog.cpp - Loading and validating the API catalog ---------------===//
//
// JSON is parsed with nlohmann/json. Exceptions are caught here and turned
// into error messages that name the file, the entry and the field, so no
// exception leaves the library.
//
//===----------------------------------------------------------------------===//

#include "capture_lint/Catalog.h"
#include "capture_lint/BoundedFile.h"
#include "capture_lint/JsonError.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>

using nlohmann::json;

namespace capture_lint {

/// The catalog's spelling of each value of an enum: one table per enum,
/// read both ways.
template <typename E> using NameTable = std::pair<E, const char *>;

template <typename E, size_t N>
static std::string_view nameIn(const NameTable<E> (&Table)[N], E Value,
                               const char *Otherwise) {
  for (const auto &[V, Name] : Table)
    if (V == Value)
      return Name;
  return Otherwise;
}

template <typename E, size_t N>
static std::optional<E> parseIn(const NameTable<E> (&Table)[N],
                                std::string_view S) {
  for (const auto &[V, Name] : Table)
    if (S == Name)
      return V;
  return std::nullopt;
}

static const NameTable<Hazard> HazardNames[] = {
    {Hazard::Sync, "sync"},
    {Hazard::HostRead, "host-read"},
    {Hazard::Allocation, "allocation"},
    {Hazard::LegacyStream, "legacy-stream"},
    {Hazard::ShapeQuery, "shape-query"},
    {Hazard::RngState, "rng-state"},
    {Hazard::Collective, "collective"},
    {Hazard::None, "none"},
};
// A catalog names only these; Unknown is a region's mode the analysis could
// not read.
static const NameTable<CaptureMode> ModeNames[] = {
    {CaptureMode::Global, "global"},
    {CaptureMode::ThreadLocal, "thread_local"},
    {CaptureMode::Relaxed, "relaxed"},
};
static const NameTable<Behaviour> BehaviourNames[] = {
    {Behaviour::Illegal, "illegal"}, {Behaviour::Eager, "eager"},
    {Behaviour::Note, "note"},       {Behaviour::Captured, "captured"},
    {Behaviour::Legal, "legal"},
};

std::string_view hazardName(Hazard H) { return nameIn(HazardNames, H, "none"); }
std::string_view modeName(CaptureMode M) {
  return nameIn(ModeNames, M, "unknown");
}
std::string_view behaviourName(Behaviour B) {
  return nameIn(BehaviourNames, B, "legal");
}
std::optional<Hazard> parseHazard(std::string_view S) {
  return parseIn(HazardNames, S);
}
std::optional<CaptureMode> parseMode(std::string_view S) {
  return parseIn(ModeNames, S);
}
std::optional<Behaviour> parseBehaviour(std::string_view S) {
  return parseIn(BehaviourNames, S);
}

std::string modeWords(CaptureMode M) {
  return M == CaptureMode::Unknown
             ? "unknown (not a constant; checked as global)"
             : std::string(modeName(M));
}

std::string modePhrase(CaptureMode M) {
  switch (M) {
  case CaptureMode::Global:
    return "in a global-mode capture";
  case CaptureMode::ThreadLocal:
    return "in a thread_local-mode capture";
  case CaptureMode::Relaxed:
    return "in a relaxed-mode capture";
  case CaptureMode::Unknown:
    return "in a capture whose mode is not a constant (checked as global)";
  }
  return "";
}

namespace {

/// Thrown inside this file only, caught in addDocument.
struct CatalogError {
  std::string Message;
};

/// Reads fields of one JSON object and names the culprit when one is wrong.
class EntryReader {
public:
  EntryReader(const json &Obj, std::string Where)
      : Obj(Obj), Where(std::move(Where)) {
    if (!Obj.is_object())
      fail("", "expected an object");
    for (auto It = Obj.begin(); It != Obj.end(); ++It)
      Unused.push_back(It.key());
  }

  [[noreturn]] void fail(std::string_view Field, std::string_view What) const {
    std::string Msg = Where;
    if (!Field.empty())
      Msg += ", field '" + std::string(Field) + "'";
    Msg += ": " + std::string(What);
    throw CatalogError{Msg};
  }

  std::string string(const char *Field, bool Required) {
    use(Field);
    if (!Obj.contains(Field)) {
      if (Required)
        fail(Field, "missing required field");
      return "";
    }
    const json &V = Obj.at(Field);
    if (!V.is_string())
      fail(Field, "expected a string");
    std::string S = V.get<std::string>();
    if (Required && S.empty())
      fail(Field, "must not be empty");
    return S;
  }

  std::vector<std::string> strings(const char *Field) {
    use(Field);
    std::vector<std::string> Out;
    if (!Obj.contains(Field))
      return Out;
    const json &V = Obj.at(Field);
    if (!V.is_array())
      fail(Field, "expected an array of strings");
    for (const json &E : V) {
      if (!E.is_string() || E.get<std::string>().empty())
        fail(Field, "expected an array of non-empty strings");
      Out.push_back(E.get<std::string>());
    }
    return Out;
  }

  std::optional<long> integer(const char *Field, long Min, long Max) {
    use(Field);
    if (!Obj.contains(Field) || Obj.at(Field).is_null())
      return std::nullopt;
    const json &V = Obj.at(Field);
    if (!V.is_number_integer())
      fail(Field, "expected an integer");
    long N = V.get<long>();
    if (N < Min || N > Max)
      fail(Field, "out of range [" + std::to_string(Min) + ", " +
                      std::to_string(Max) + "]");
    return N;
  }

  /// A field of any JSON type, or null when absent.
  const json *any(const char *Field) {
    use(Field);
    return Obj.contains(Field) ? &Obj.at(Field) : nullptr;
  }

  const json *object(const char *Field) {
    use(Field);
    if (!Obj.contains(Field) || Obj.at(Field).is_null())
      return nullptr;
    if (!Obj.at(Field).is_object())
      fail(Field, "expected an object");
    return &Obj.at(Field);
  }

  /// Unknown fields are errors: a typo must not silently drop knowledge.
  void finish() {
    // --export-catalog annotates entries with where they came from; accept
    // those so an exported catalog loads again.
    use("family");
    use("file");
    if (!Unused.empty())
      fail(Unused.front(), "unknown field");
  }

  const std::string &where() const { return Where; }

private:
  void use(const char *Field) {
    Unused.erase(std::remove(Unused.begin(), Unused.end(), Field),
                 Unused.end());
  }

  const json &Obj;
  std::string Where;
  std::vector<std::string> Unused;
};

std::string entryWhere(std::string_view Origin, std::string_view Section,
                       size_t Index, const json &Obj) {
  std::string W = "catalog '" + std::string(Origin) +
                  "': " + std::string(Section) + "[" + std::to_string(Index) +
                  "]";
  for (const char *Key : {"name", "expr"})
    if (Obj.is_object() && Obj.contains(Key) && Obj.at(Key).is_string()) {
      W += " ('" + Obj.at(Key).get<std::string>() + "')";
      break;
    }
  return W;
}

/// An {"index", "any_of"} object (when_arg, unless_arg_type, unless_called).
std::optional<ArgCondition> readCondition(EntryReader &R, const char *Field) {
  const json *W = R.object(Field);
  if (!W)
    return std::nullopt;
  EntryReader WR(*W, R.where() + ", field '" + Field + "'");
  ArgCondition C;
  auto Index = WR.integer("index", 0, 64);
  if (!Index)
    WR.fail("index", "missing required field");
  C.Index = static_cast<unsigned>(*Index);
  C.AnyOf = WR.strings("any_of");
  if (C.AnyOf.empty())
    WR.fail("any_of", "missing required field");
  WR.finish();
  return C;
}

/// An entry's behaviour per mode, from the object at \p Field.
void readModes(const EntryReader &R, const json &Modes, const char *Field,
               std::array<Behaviour, 3> &Out) {
  EntryReader MR(Modes, R.where() + ", field '" + Field + "'");
  const char *Keys[] = {"global", "thread_local", "relaxed"};
  for (int I = 0; I < 3; ++I) {
    std::string B = MR.string(Keys[I], true);
    auto Beh = parseBehaviour(B);
    if (!Beh)
      MR.fail(Keys[I],
              "'" + B +
                  "' is not one of illegal, eager, note, captured, legal");
    Out[I] = *Beh;
  }
  MR.finish();
}

/// The stream argument of an entry: where it is, and what leaving it out
/// means.
StreamArg readStreamArg(const EntryReader &R, const json &S) {
  EntryReader SR(S, R.where() + ", field 'stream_arg'");
  StreamArg A;
  auto Index = SR.integer("index", 0, 64);
  if (!Index)
    SR.fail("index", "missing required field");
  A.Index = static_cast<unsigned>(*Index);
  std::string Def = SR.string("default", false);
  if (!Def.empty() && Def != "legacy" && Def != "none")
    SR.fail("default", "'" + Def + "' is not one of legacy, none");
  A.DefaultIsLegacy = Def != "none";
  SR.finish();
  return A;
}

/// The argument positions and conditions that narrow an entry to the
/// harmful form of a call.
void readArguments(EntryReader &R, ApiEntry &E) {
  if (auto K = R.integer("copy_kind_arg", 0, 64))
    E.CopyKindArg = static_cast<unsigned>(*K);
  if (auto D = R.integer("copy_dst_arg", 0, 64))
    E.CopyDstArg = static_cast<unsigned>(*D);
  if (auto H = R.integer("host_pointer_arg", 0, 64))
    E.HostPointerArg = static_cast<unsigned>(*H);
  if (auto N = R.integer("null_arg", 0, 64))
    E.NullArg = static_cast<unsigned>(*N);
  E.WhenArg = readCondition(R, "when_arg");
  E.UnlessArgType = readCondition(R, "unless_arg_type");
  E.UnlessCalled = readCondition(R, "unless_called");
  if (auto V = R.integer("until_cuda", 1000, 1000000))
    E.UntilCuda = static_cast<int>(*V);
  E.PythonWhen = R.strings("python_when");
  for (const std::string &C : E.PythonWhen) {
    std::string Why;
    if (!isValidPythonCondition(C, Why))
      R.fail("python_when", "'" + C + "': " + Why);
  }
}

std::unique_ptr<ApiEntry> readApi(EntryReader &R) {
  auto E = std::make_unique<ApiEntry>();
  E->Name = R.string("name", true);
  E->Variants = R.strings("variants");
  E->Display = R.string("display", false);
  if (E->Display.empty())
    E->Display = E->Name;
  std::string H = R.string("hazard", true);
  auto Class = parseHazard(H);
  if (!Class)
    R.fail("hazard", "'" + H +
                         "' is not one of sync, host-read, allocation, "
                         "legacy-stream, shape-query, rng-state, none");
  E->Class = *Class;
  // What the call does per mode: "modes", and for a call given a stream
  // that is not the capturing one, "other_stream_modes".
  if (const json *Modes = R.object("modes"))
    readModes(R, *Modes, "modes", E->Modes);
  else
    R.fail("modes", "missing required field");
  if (const json *Other = R.object("other_stream_modes")) {
    E->OtherStreamModes.emplace();
    readModes(R, *Other, "other_stream_modes", *E->OtherStreamModes);
  }
  E->Error = R.string("error", false);
  if (const json *S = R.object("stream_arg"))
    E->Stream = readStreamArg(R, *S);
  readArguments(R, *E);
  E->Message = R.string("message", E->Class != Hazard::None);
  E->Fix = R.string("fix",
                    E->Class != Hazard::None && E->Class != Hazard::ShapeQuery);
  E->Source = R.string("source", true);
  R.finish();
  return E;
}

/// \p S split at the first \p Sep: (S, "") when there is none.
std::pair<std::string_view, std::string_view> split(std::string_view S,
                                                    char Sep) {
  size_t At = S.find(Sep);
  if (At == std::string_view::npos)
    return {S, std::string_view()};
  return {S.substr(0, At), S.substr(At + 1)};
}

bool isNumber(std::string_view S) {
  return !S.empty() && S.size() < 10 &&
         std::all_of(
             S.begin(), S.end(), [](char C) { return C >= '0' && C <= '9'; });
}

} // namespace

bool isValidPythonCondition(std::string_view C, std::string &Why) {
  static const char *Kinds[] = {"tensor",      "cpu-tensor", "host-data",
                                "cuda-device", "cpu-device", "stream",
                                "event"};
  auto IsKind = [&](std::string_view K) {
    for (const char *Known : Kinds)
      if (K == Known)
        return true;
    Why = "unknown value kind '" + std::string(K) +
          "' (expected tensor, cpu-tensor, host-data, cuda-device, "
          "cpu-device, stream, event)";
    return false;
  };
  if (C == "unjoined")
    return true;
  auto [What, Rest] = split(C, ':');
  if (What == "receiver")
    return IsKind(Rest);
  if (What == "args" && isNumber(Rest)) // before argN
    return true;
  if (What != "args" && What.substr(0, 3) == "arg" && isNumber(What.substr(3)))
    return IsKind(Rest);
  if (What == "no-keyword" && !Rest.empty() &&
      Rest.find(':') == std::string_view::npos)
    return true;

  if (What == "keyword") {
    auto [Name, Kind] = split(Rest, ':');
    if (!Name.empty())
      return IsKind(Kind);
  }
  Why = "expected receiver:KIND, argN:KIND, keyword:NAME:KIND, "
        "no-keyword:NAME, args:N or unjoined";
  return false;
}

namespace {

std::unique_ptr<RegionApi> readRegion(EntryReader &R, const json &Obj) {
  auto E = std::make_unique<RegionApi>();
  E->Name = R.string("name", true);
  E->Variants = R.strings("variants");
  std::string Role = R.string("role", true);
  if (Role == "begin")
    E->Kind = RegionApi::Begin;
  else if (Role == "end")
    E->Kind = RegionApi::End;
  else if (Role == "destroy")
    E->Kind = RegionApi::Destroy;
  else
    R.fail("role", "'" + Role + "' is not one of begin, end, destroy");
  E->Group = R.string("group", true);
  if (Obj.contains("stream_arg") && Obj.at("stream_arg").is_string()) {
    std::string Arg = R.string("stream_arg", false);
    if (Arg != "object" && Arg != "none")
      R.fail("stream_arg", "expected an index, \"object\" or \"none\"");
    E->StreamArg =
        Arg == "object" ? RegionApi::ObjectArg : RegionApi::NoStreamArg;
  } else if (auto S = R.integer("stream_arg", 0, 64)) {
    E->StreamArg = static_cast<int>(*S);
  } else {
    R.fail("stream_arg",
           "missing required field (an index, \"object\" or \"none\")");
  }
  if (auto M = R.integer("mode_arg", 0, 64))
    E->ModeArg = static_cast<unsigned>(*M);
  std::string Def = R.string("default_mode", false);
  if (!Def.empty()) {
    auto M = parseMode(Def);
    if (!M)
      R.fail("default_mode",
             "'" + Def + "' is not one of global, thread_local, relaxed");
    E->DefaultMode = *M;
  }
  E->Source = R.string("source", true);
  R.finish();
  return E;
}

std::unique_ptr<GuardApi> readGuard(EntryReader &R) {
  auto E = std::make_unique<GuardApi>();
  E->Name = R.string("name", true);
  E->Variants = R.strings("variants");
  if (auto S = R.integer("status_arg", -1, 64))
    E->StatusArg = static_cast<int>(*S);
  else
    R.fail("status_arg", "missing required field (-1 for the return value)");
  E->NoneValues = R.strings("none_values");
  if (E->NoneValues.empty())
    R.fail("none_values", "missing required field");
  E->Source = R.string("source", true);
  R.finish();
  return E;
}

std::unique_ptr<FunctionNote> readFunction(EntryReader &R) {
  auto E = std::make_unique<FunctionNote>();
  E->Name = R.string("name", true);
  std::string Role = R.string("role", true);
  auto K = parseFunctionRole(Role);
  if (!K)
    R.fail("role", "'" + Role +
                       "' is not one of captured, safe, wrapper, "
                       "capture-predicate, synchronizes, allocates, "
                       "reads-back");
  E->Kind = *K;
  auto Arg = R.integer("argument", 0, 64);
  if (E->Kind == FunctionNote::Wrapper && !Arg)
    R.fail("argument", "missing required field (the index of the callable "
                       "parameter the wrapper runs under capture)");
  if (E->Kind != FunctionNote::Wrapper && Arg)
    R.fail("argument", "only a wrapper takes an argument index");
  E->Argument = Arg ? static_cast<unsigned>(*Arg) : 0;
  E->Source = R.string("source", false);
  R.finish();
  return E;
}

/// true, false, null, "None" or "not None".
Assumption::Value readAssumedValue(EntryReader &R) {
  const json *Field = R.any("value");
  if (!Field)
    R.fail("value", "missing required field (true, false, null, \"None\" "
                    "or \"not None\")");
  const json &V = *Field;
  if (V.is_boolean())
    return V.get<bool>() ? Assumption::True : Assumption::False;
  if (V.is_null() || (V.is_string() && V.get<std::string>() == "None"))
    return Assumption::None;
  if (V.is_string() && V.get<std::string>() == "not None")
    return Assumption::NotNone;
  R.fail("value", "'" + V.dump() +
                      "' is not true, false, null, \"None\" or \"not None\"");
}

std::unique_ptr<Assumption> readAssumption(EntryReader &R, const json &) {
  auto E = std::make_unique<Assumption>();
  E->Expr = normaliseExpression(R.string("expr", true));
  if (E->Expr.empty())
    R.fail("expr", "must not be empty");
  E->Is = readAssumedValue(R);
  E->Source = R.string("source", true);
  R.finish();
  return E;
}

/// The last component of a qualified name, template arguments left out:
/// what Catalog::mayList tests.
std::string lastName(std::string_view Name) {
  std::string Plain = withoutTemplateArguments(Name);
  size_t Colons = Plain.rfind("::");
  return Colons == std::string::npos ? Plain : Plain.substr(Colons + 2);
}

} // namespace

namespace {
/// The entries of one catalog document, read and validated before any is
/// added: a bad file changes nothing.
struct DocumentEntries {
  std::vector<std::unique_ptr<ApiEntry>> Apis;
  std::vector<std::unique_ptr<RegionApi>> Regions;
  std::vector<std::unique_ptr<GuardApi>> Guards;
  std::vector<std::unique_ptr<FunctionNote>> Functions;
  std::vector<std::unique_ptr<Assumption>> Assumptions;
  std::array<std::vector<std::string>, NumNameLists> Lists;
};

/// The "name_lists" section: an object whose keys name lists and whose
/// values are arrays of names.
void readNameLists(const json &Doc, std::string_view Origin,
                   DocumentEntries &Out) {
  if (!Doc.contains("name_lists"))
    return;
  const json &Lists = Doc.at("name_lists");
  EntryReader R(Lists, "catalog '" + std::string(Origin) + "': name_lists");
  for (auto It = Lists.begin(); It != Lists.end(); ++It) {
    std::optional<NameList> L = parseNameList(It.key());
    if (!L) {
      std::string Known;
      for (size_t I = 0; I < NumNameLists; ++I)
        Known += (I ? ", " : "") + std::string(nameListName(NameList(I)));
      R.fail(It.key(), "unknown name list (expected " + Known + ")");
    }
    Out.Lists[size_t(*L)] = R.strings(It.key().c_str());
  }
}

/// Reads the section \p Name of \p Doc with \p Read into \p Out; each
/// entry gets the document's family unless it names its own.
template <typename ReadFn, typename T>
void readSection(const json &Doc, const EntryReader &Top,
                 std::string_view Origin, const std::string &Family,
                 const char *Name, ReadFn Read,
                 std::vector<std::unique_ptr<T>> &Out) {
  const json *Arr = Doc.contains(Name) ? &Doc.at(Name) : nullptr;
  if (!Arr)
    return;
  if (!Arr->is_array())
    Top.fail(Name, "expected an array");
  for (size_t I = 0; I < Arr->size(); ++I) {
    const json &Obj = (*Arr)[I];
    EntryReader R(Obj, entryWhere(Origin, Name, I, Obj));
    auto E = Read(R, Obj);
    E->Family = Obj.contains("family") && Obj.at("family").is_string()
                    ? Obj.at("family").get<std::string>()
                    : Family;
    E->File = std::string(Origin);
    Out.push_back(std::move(E));
  }
}

/// Every entry of \p Doc; throws CatalogError or json::exception.
DocumentEntries readDocument(const json &Doc, std::string_view Origin) {
  DocumentEntries Out;
  EntryReader Top(Doc, "catalog '" + std::string(Origin) + "'");
  for (auto It = Doc.begin(); It != Doc.end(); ++It) {
    std::string_view K = It.key();
    if (K != "family" && K != "description" && K != "apis" && K != "regions" &&
        K != "guards" && K != "functions" && K != "assume" &&
        K != "name_lists" && K != "$schema")
      Top.fail(K, "unknown top-level field (expected family, description, "
                  "apis, regions, guards, functions, assume, name_lists)");
  }
  std::string Family = Top.string("family", false);
  Top.string("description", false);
  readSection(
      Doc, Top, Origin, Family, "apis",
      [](EntryReader &R, const json &) { return readApi(R); }, Out.Apis);
  readSection(
      Doc, Top, Origin, Family, "regions",
      [](EntryReader &R, const json &Obj) { return readRegion(R, Obj); },
      Out.Regions);
  readSection(
      Doc, Top, Origin, Family, "guards",
      [](EntryReader &R, const json &) { return readGuard(R); }, Out.Guards);
  readSection(
      Doc, Top, Origin, Family, "functions",
      [](EntryReader &R, const json &) { return readFunction(R); },
      Out.Functions);
  readSection(Doc, Top, Origin, Family, "assume", readAssumption,
              Out.Assumptions);
  readNameLists(Doc, Origin, Out);
  return Out;
}
} // namespace

void Catalog::noteLastName(std::string_view Name) {
  std::string Last = lastName(Name);
  if (LastNames.count(Last))
    return;
  LastNameStore.push_back(std::move(Last));
  LastNames.insert(LastNameStore.back());
}

template <typename T>
void Catalog::index(std::unordered_map<std::string_view, T *> &Map, T *E) {
  Map[E->Name] = E;
  noteLastName(E->Name);
  for (const std::string &V : E->Variants) {
    Map[V] = E;
    noteLastName(V);
  }
}

template <>
void Catalog::index(std::unordered_map<std::string_view, FunctionNote *> &Map,
                    FunctionNote *E) {
  Map[E->Name] = E;
  noteLastName(E->Name);
}

template <>
void Catalog::index(std::unordered_map<std::string_view, Assumption *> &Map,
                    Assumption *E) {
  Map[E->Expr] = E;
}

/// \p Origin's entries, read and validated; an error message instead when
/// the document is not a valid catalog.
static std::optional<DocumentEntries> parseDocument(std::string_view Text,
                                                    std::string_view Origin,
                                                    std::string &Error) {
  json Doc;
  try {
    Doc = json::parse(Text.begin(), Text.end());
  } catch (const json::exception &E) { // out_of_range too: 1e999
    Error = "catalog '" + std::string(Origin) +
            "': malformed JSON: " + jsonErrorMessage(E);
    return std::nullopt;
  }
  try {
    return readDocument(Doc, Origin);
  } catch (const CatalogError &E) {
    Error = E.Message;
  } catch (const json::exception &E) {
    Error = "catalog '" + std::string(Origin) + "': " + jsonErrorMessage(E);
  }
  return std::nullopt;
}

bool Catalog::addDocument(std::string_view Text, std::string_view Origin,
                          std::string &Error) {
  std::optional<DocumentEntries> New = parseDocument(Text, Origin, Error);
  if (!New)
    return false;
  for (auto &E : New->Apis) {
    index(ApiByName, E.get());
    Apis.push_back(std::move(E));
  }
  for (auto &E : New->Regions) {
    index(RegionByName, E.get());
    Regions.push_back(std::move(E));
  }
  for (auto &E : New->Guards) {
    index(GuardByName, E.get());
    Guards.push_back(std::move(E));
  }
  for (auto &E : New->Functions) {
    index(FunctionByName, E.get());
    Functions.push_back(std::move(E));
  }
  for (auto &E : New->Assumptions) {
    index(AssumptionByExpr, E.get());
    Assumptions.push_back(std::move(E));
  }
  for (size_t L = 0; L < NumNameLists; ++L)
    Lists[L].insert(New->Lists[L].begin(), New->Lists[L].end());
  return true;
}

bool Catalog::addFile(const std::string &Path, std::string &Error) {
  // A catalog may be named in a shared .clang-tidy or config: never block on
  // a FIFO or read a device until memory runs out.
  constexpr uint64_t MaxCatalogBytes = 64u << 20;
  std::string Text, Why;
  if (!readBoundedFile(Path, MaxCatalogBytes, Text, Why)) {
    Error = "catalog " + Why;
    return false;
  }
  return addDocument(Text, Path, Error);
}

void Catalog::addBuiltin() {
  for (const BuiltinCatalogFile &F : builtinCatalogFiles()) {
    // The build validates the built-in files (see tests), so an error here
    // is a packaging bug; report it rather than abort.
    std::string Error;
    if (!addDocument(F.Text, F.Name, Error))
      std::fprintf(stderr, "capture-lint: internal error in built-in %s\n",
                   Error.c_str());
  }
}

const ApiEntry *Catalog::findApi(std::string_view Name) const {
  auto It = ApiByName.find(Name);
  return It == ApiByName.end() ? nullptr : It->second;
}

const RegionApi *Catalog::findRegionApi(std::string_view Name) const {
  auto It = RegionByName.find(Name);
  return It == RegionByName.end() ? nullptr : It->second;
}

const GuardApi *Catalog::findGuard(std::string_view Name) const {
  auto It = GuardByName.find(Name);
  return It == GuardByName.end() ? nullptr : It->second;
}

const FunctionNote *Catalog::findFunction(std::string_view Name) const {
  auto It = FunctionByName.find(Name);
  return It == FunctionByName.end() ? nullptr : It->second;
}

const Assumption *Catalog::findAssumption(std::string_view Expr) const {
  auto It = AssumptionByExpr.find(Expr);
  return It == AssumptionByExpr.end() ? nullptr : It->second;
}

std::string_view assumedValueName(Assumption::Value V) {
  switch (V) {
  case Assumption::True:
    return "true";
  case Assumption::False:
    return "false";
  case Assumption::None:
    return "None";
  case Assumption::NotNone:
    return "not None";
  }
  return "true";
}

static bool wordChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
}

std::string normaliseExpression(std::string_view Text) {
  std::string Out;
  bool Space = false;
  for (char C : Text) {
    if (std::isspace(static_cast<unsigned char>(C))) {
      Space = true;
      continue;
    }
    if (Space && !Out.empty() && wordChar(Out.back()) && wordChar(C))
      Out += ' ';
    Out += C;
    Space = false;
  }
  return Out;
}

static const NameTable<FunctionNote::Role> FunctionRoleNames[] = {
    {FunctionNote::Captured, "captured"},
    {FunctionNote::Safe, "safe"},
    {FunctionNote::Wrapper, "wrapper"},
    {FunctionNote::CapturePredicate, "capture-predicate"},
    {FunctionNote::Synchronizes, "synchronizes"},
    {FunctionNote::Allocates, "allocates"},
    {FunctionNote::ReadsBack, "reads-back"},
};

std::string_view functionRoleName(FunctionNote::Role R) {
  return nameIn(FunctionRoleNames, R, "");
}

std::string withoutTemplateArguments(std::string_view Name) {
  std::string Out;
  int Depth = 0;
  for (char C : Name) {
    if (C == '<')
      ++Depth;
    else if (C == '>')
      Depth = Depth > 0 ? Depth - 1 : 0;
    else if (Depth == 0)
      Out += C;
  }
  return Out;
}

std::optional<FunctionNote::Role> parseFunctionRole(std::string_view S) {
  return parseIn(FunctionRoleNames, S);
}

static const NameTable<NameList> NameListNames[] = {
#define NAME_LIST(Enumerator, Key) {NameList::Enumerator, Key},
#include "capture_lint/NameLists.def"
};
static_assert(std::size(NameListNames) == NumNameLists);

std::string_view nameListName(NameList L) {
  return nameIn(NameListNames, L, "");
}

std::optional<NameList> parseNameList(std::string_view S) {
  return parseIn(NameListNames, S);
}

bool Catalog::listedAsPrefix(NameList L, std::string_view Name) const {
  const auto &List = Lists[size_t(L)];
  // The longest candidate prefix sorts at or before Name; walk back over
  // the names that sort before it and share its first character.
  for (auto It = List.upper_bound(Name); It != List.begin();) {
    --It;
    if (Name.substr(0, It->size()) == *It)
      return true;
    if (It->empty() || Name.empty() || (*It)[0] != Name[0])
      break;
  }
  return false;
}

std::vector<std::string> Catalog::beginNames() const {
  std::vector<std::string> Names;
  for (const auto &R : Regions) {
    if (R->Kind != RegionApi::Begin)
      continue;
    Names.push_back(R->Name);
    Names.insert(Names.end(), R->Variants.begin(), R->Variants.end());
  }
  return Names;
}

static json modesJson(const std::array<Behaviour, 3> &Modes) {
  return {{"global", std::string(behaviourName(Modes[0]))},
          {"thread_local", std::string(behaviourName(Modes[1]))},
          {"relaxed", std::string(behaviourName(Modes[2]))}};
}

static json conditionJson(const ArgCondition &C) {
  return json{{"index", C.Index}, {"any_of", C.AnyOf}};
}

/// Where an entry comes from: its source, family and file.
template <typename T> static void addOrigin(json &J, const T &E) {
  J["source"] = E.Source;
  J["family"] = E.Family;
  J["file"] = E.File;
}

/// An API entry as its catalog file writes it (the fields the reader reads).
static json apiJson(const ApiEntry &E) {
  json J;
  J["name"] = E.Name;
  if (!E.Variants.empty())
    J["variants"] = E.Variants;
  if (E.Display != E.Name)
    J["display"] = E.Display;
  J["hazard"] = std::string(hazardName(E.Class));
  J["modes"] = modesJson(E.Modes);
  if (E.OtherStreamModes)
    J["other_stream_modes"] = modesJson(*E.OtherStreamModes);
  if (!E.Error.empty())
    J["error"] = E.Error;
  if (E.Stream)
    J["stream_arg"] = {
        {"index", E.Stream->Index},
        {"default", E.Stream->DefaultIsLegacy ? "legacy" : "none"}};
  if (E.CopyKindArg)
    J["copy_kind_arg"] = *E.CopyKindArg;
  if (E.CopyDstArg)
    J["copy_dst_arg"] = *E.CopyDstArg;
  if (E.WhenArg)
    J["when_arg"] = conditionJson(*E.WhenArg);
  if (E.HostPointerArg)
    J["host_pointer_arg"] = *E.HostPointerArg;
  if (E.NullArg)
    J["null_arg"] = *E.NullArg;
  if (E.UnlessArgType)
    J["unless_arg_type"] = conditionJson(*E.UnlessArgType);
  if (E.UnlessCalled)
    J["unless_called"] = conditionJson(*E.UnlessCalled);
  if (E.UntilCuda)
    J["until_cuda"] = *E.UntilCuda;
  if (!E.PythonWhen.empty())
    J["python_when"] = E.PythonWhen;
  if (!E.Message.empty())
    J["message"] = E.Message;
  if (!E.Fix.empty())
    J["fix"] = E.Fix;
  addOrigin(J, E);
  return J;
}

static json regionJson(const RegionApi &E) {
  json J;
  J["name"] = E.Name;
  if (!E.Variants.empty())
    J["variants"] = E.Variants;
  J["role"] = E.Kind == RegionApi::Begin ? "begin"
              : E.Kind == RegionApi::End ? "end"
                                         : "destroy";
  J["group"] = E.Group;
  if (E.StreamArg == RegionApi::ObjectArg)
    J["stream_arg"] = "object";
  else if (E.StreamArg == RegionApi::NoStreamArg)
    J["stream_arg"] = "none";
  else
    J["stream_arg"] = E.StreamArg;
  if (E.ModeArg)
    J["mode_arg"] = *E.ModeArg;
  if (E.Kind == RegionApi::Begin)
    J["default_mode"] = std::string(modeName(E.DefaultMode));
  addOrigin(J, E);
  return J;
}

static json guardJson(const GuardApi &E) {
  json J;
  J["name"] = E.Name;
  if (!E.Variants.empty())
    J["variants"] = E.Variants;
  J["status_arg"] = E.StatusArg;
  J["none_values"] = E.NoneValues;
  addOrigin(J, E);
  return J;
}

static json functionJson(const FunctionNote &E) {
  json J;
  J["name"] = E.Name;
  J["role"] = std::string(functionRoleName(E.Kind));
  if (E.Kind == FunctionNote::Wrapper)
    J["argument"] = E.Argument;
  if (!E.Source.empty())
    J["source"] = E.Source;
  J["family"] = E.Family;
  J["file"] = E.File;
  return J;
}

static json assumptionJson(const Assumption &E) {
  json J;
  J["expr"] = E.Expr;
  if (E.Is == Assumption::True || E.Is == Assumption::False)
    J["value"] = E.Is == Assumption::True;
  else
    J["value"] = std::string(assumedValueName(E.Is));
  addOrigin(J, E);
  return J;
}

std::string Catalog::toJson() const {
  json Doc;
  Doc["description"] = "The effective capture-lint catalog: built-in files "
                       "plus user catalogs, later entries overriding earlier "
                       "ones of the same name.";
  // Each entry once: the one its name finds (later files override).
  json ApisJ = json::array(), RegionsJ = json::array(), GuardsJ = json::array(),
       FunctionsJ = json::array(), AssumeJ = json::array();
  for (const auto &E : Apis)
    if (findApi(E->Name) == E.get())
      ApisJ.push_back(apiJson(*E));
  for (const auto &E : Regions)
    if (findRegionApi(E->Name) == E.get())
      RegionsJ.push_back(regionJson(*E));
  for (const auto &E : Guards)
    if (findGuard(E->Name) == E.get())
      GuardsJ.push_back(guardJson(*E));
  for (const auto &E : Functions)
    if (findFunction(E->Name) == E.get())
      FunctionsJ.push_back(functionJson(*E));
  for (const auto &E : Assumptions)
    if (findAssumption(E->Expr) == E.get())
      AssumeJ.push_back(assumptionJson(*E));
  if (!FunctionsJ.empty())
    Doc["functions"] = std::move(FunctionsJ);
  if (!AssumeJ.empty())
    Doc["assume"] = std::move(AssumeJ);
  json ListsJ = json::object();
  for (const auto &[L, Name] : NameListNames)
    if (!Lists[size_t(L)].empty())
      ListsJ[Name] = Lists[size_t(L)];
  if (!ListsJ.empty())
    Doc["name_lists"] = std::move(ListsJ);
  Doc["regions"] = std::move(RegionsJ);
  Doc["guards"] = std::move(GuardsJ);
  Doc["apis"] = std::move(ApisJ);
  return Doc.dump(2) + "\n";
}

} // namespace capture_lint
