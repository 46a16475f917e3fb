//===- ProbeReportReader.cpp - Reading a probe report for --confirm -------===//

#include "ProbeReportReader.h"
#include "JsonShape.h"
#include "capture_lint/BoundedRead.h"

namespace capture_lint {

using nlohmann::json;
using T = JsonType;

namespace {

/// Reports of real runs are a few MB at most.
constexpr uint64_t MaxReportBytes = 512u << 20;

void checkFrame(JsonShape &S, const json &J, const std::string &P) {
  S.is(J, T::Object, P);
  for (const char *K : {"function", "module", "raw", "file"})
    S.optional(J, K, T::String, P);
  S.optional(J, "line", T::Unsigned, P);
}

void checkCall(JsonShape &S, const json &J, const std::string &P) {
  S.required(J, "seq", T::Unsigned, P);
  S.optional(J, "thread", T::Unsigned, P);
  S.required(J, "api", T::String, P);
  S.required(J, "result", T::Int, P);
  for (const char *K : {"result_name", "hazard", "expected", "effective_mode"})
    S.optional(J, K, T::String, P);
  S.optional(J, "stream", T::Unsigned, P);
  S.optionalArrayOf(J, "classes", T::String, P);
  S.optional(J, "first_error", T::Bool, P);
  S.optional(J, "other_thread", T::Bool, P);
  if (S.ok() && J.contains("site"))
    checkFrame(S, J.at("site"), JsonShape::field(P, "site"));
  if (S.optional(J, "stack", T::Array, P) && J.contains("stack"))
    for (size_t I = 0; I < J.at("stack").size(); ++I)
      checkFrame(S, J.at("stack")[I],
                 JsonShape::index(JsonShape::field(P, "stack"), I));
  S.optionalArrayOf(J, "frames", T::String, P);
}

void checkCapture(JsonShape &S, const json &J, const std::string &P) {
  S.required(J, "id", T::Unsigned, P);
  S.optional(J, "stream", T::Unsigned, P);
  S.optional(J, "thread", T::Unsigned, P);
  S.optional(J, "mode", T::String, P);
  S.optional(J, "to_graph", T::Bool, P);
  S.optional(J, "stream_kind", T::String, P);
  if (S.required(J, "begin", T::Object, P))
    checkCall(S, J.at("begin"), JsonShape::field(P, "begin"));
  if (S.optional(J, "end", T::Object, P, /*NullOk=*/true) &&
      J.contains("end") && !J.at("end").is_null())
    checkCall(S, J.at("end"), JsonShape::field(P, "end"));
  S.optional(J, "succeeded", T::Bool, P);
  if (S.optional(J, "graph_nodes", T::Object, P) && J.contains("graph_nodes"))
    for (const auto &[Kind, Count] : J.at("graph_nodes").items())
      S.is(Count, T::Int,
           JsonShape::field(JsonShape::field(P, "graph_nodes"), Kind.c_str()));
  S.optionalArrayOf(J, "classes", T::String, P);
  S.optional(J, "first_error_seq", T::Unsigned, P);
  if (S.optional(J, "calls", T::Array, P) && J.contains("calls"))
    for (size_t I = 0; I < J.at("calls").size(); ++I) {
      std::string CP = JsonShape::index(JsonShape::field(P, "calls"), I);
      if (S.is(J.at("calls")[I], T::Object, CP))
        checkCall(S, J.at("calls")[I], CP);
    }
}

void checkDivergence(JsonShape &S, const json &J, const std::string &P) {
  S.is(J, T::Object, P);
  for (const char *K : {"capture", "replay"})
    S.optional(J, K, T::Unsigned, P);
  S.optional(J, "output", T::String, P);
  for (const char *K : {"first_byte", "bytes", "differing_bytes"})
    S.optional(J, K, T::Unsigned, P);
}

} // namespace

std::string checkProbeReportShape(const json &J) {
  JsonShape S;
  if (!J.is_object() || !J.contains("format") ||
      J.at("format") != "capture-probe-report")
    return "not a capture-probe report (no \"format\": "
           "\"capture-probe-report\")";
  if (!S.required(J, "version", T::Int, ""))
    return S.error();
  if (J.at("version") != 1)
    return "unsupported report version " + J.at("version").dump() +
           " (this capture-lint reads version 1)";
  S.optional(J, "backend", T::String, "");
  S.optionalArrayOf(J, "program", T::String, "");
  S.optional(J, "exit_status", T::Int, "", /*NullOk=*/true);
  S.optional(J, "note", T::String, "");
  if (S.required(J, "captures", T::Array, ""))
    for (size_t I = 0; I < J.at("captures").size(); ++I) {
      std::string P = JsonShape::index("captures", I);
      if (S.is(J.at("captures")[I], T::Object, P))
        checkCapture(S, J.at("captures")[I], P);
    }
  if (S.optional(J, "divergences", T::Array, "") && J.contains("divergences"))
    for (size_t I = 0; I < J.at("divergences").size(); ++I)
      checkDivergence(S, J.at("divergences")[I],
                      JsonShape::index("divergences", I));
  return S.error();
}

std::string readProbeReport(const std::string &Path,
                            capture_probe::ProbeReport &Out) {
  auto Text = readRegularFile(Path, MaxReportBytes);
  if (!Text)
    return llvm::toString(Text.takeError());
  json J = json::parse(*Text, nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded())
    return "'" + Path + "' is not valid JSON";
  std::string Problem = checkProbeReportShape(J);
  if (Problem.empty() && !capture_probe::fromJson(J, Out, Problem) &&
      Problem.empty())
    Problem = "malformed report";
  if (!Problem.empty())
    return "'" + Path + "': " + Problem;
  return "";
}

} // namespace capture_lint
