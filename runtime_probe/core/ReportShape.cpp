//===- ReportShape.cpp - Every field of a probe report, checked -----------===//
//
// A report comes from another machine and another program, or a hand edit.
// Before fromJson converts it, every field it reads is checked for its type
// here, so a damaged report gives an error naming the field
// ("'captures[0].begin.seq': expected a non-negative integer, found \"7\"")
// in capture-probe and in capture-lint --confirm alike (both read reports
// through readReport). A field fromJson reads and this does not check is a
// bug: ReportTest's round trip of a report with every field keeps them
// together.
//
//===----------------------------------------------------------------------===//

#include "capture_lint/JsonShape.h"
#include "capture_probe/Report.h"

namespace capture_probe {

using capture_lint::JsonShape;
using nlohmann::json;
using T = capture_lint::JsonType;

namespace {

using Check = void (*)(JsonShape &, const json &, const std::string &);

/// If \p Key exists, an object checked by \p Each.
void objectAt(JsonShape &S, const json &J, const char *Key,
              const std::string &P, Check Each) {
  if (S.optional(J, Key, T::Object, P) && J.contains(Key))
    Each(S, J.at(Key), JsonShape::field(P, Key));
}

/// If \p Key exists, an array of objects, each checked by \p Each.
void objectsAt(JsonShape &S, const json &J, const char *Key,
               const std::string &P, Check Each) {
  if (!S.optional(J, Key, T::Array, P) || !J.contains(Key))
    return;
  for (size_t I = 0; I < J.at(Key).size(); ++I) {
    std::string EP = JsonShape::index(JsonShape::field(P, Key), I);
    if (S.is(J.at(Key)[I], T::Object, EP))
      Each(S, J.at(Key)[I], EP);
  }
}

void checkFrame(JsonShape &S, const json &J, const std::string &P) {
  for (const char *K : {"function", "module", "raw", "file"})
    S.optional(J, K, T::String, P);
  S.optional(J, "line", T::Unsigned, P);
}

void checkCall(JsonShape &S, const json &J, const std::string &P) {
  S.required(J, "seq", T::Unsigned, P);
  S.required(J, "api", T::String, P);
  S.required(J, "result", T::Int, P);
  for (const char *K :
       {"repeats", "last_seq", "thread", "stream", "event", "stack_ref"})
    S.optional(J, K, T::Unsigned, P);
  for (const char *K : {"result_name", "hazard", "expected", "effective_mode"})
    S.optional(J, K, T::String, P);
  for (const char *K :
       {"first_error", "other_thread", "reports_earlier_error", "pool_growth"})
    S.optional(J, K, T::Bool, P);
  for (const char *K : {"classes", "py_frames", "frames"})
    S.optionalArrayOf(J, K, T::String, P);
  objectAt(S, J, "site", P, checkFrame);
  objectsAt(S, J, "stack", P, checkFrame);
  objectsAt(S, J, "python_stack", P, checkFrame);
}

void checkCapture(JsonShape &S, const json &J, const std::string &P) {
  S.required(J, "id", T::Unsigned, P);
  for (const char *K : {"stream", "thread", "first_error_seq", "repeats",
                        "last_id", "calls_from", "instantiations", "updates",
                        "launches", "clean_calls_omitted"})
    S.optional(J, K, T::Unsigned, P);
  for (const char *K : {"mode", "stream_kind"})
    S.optional(J, K, T::String, P);
  for (const char *K : {"to_graph", "succeeded"})
    S.optional(J, K, T::Bool, P);
  for (const char *K : {"classes", "collectives"})
    S.optionalArrayOf(J, K, T::String, P);
  if (S.required(J, "begin", T::Object, P))
    checkCall(S, J.at("begin"), JsonShape::field(P, "begin"));
  if (S.optional(J, "end", T::Object, P, /*NullOk=*/true) &&
      J.contains("end") && !J.at("end").is_null())
    checkCall(S, J.at("end"), JsonShape::field(P, "end"));
  for (const char *K : {"fallback", "stale_free", "stale_launch"})
    objectAt(S, J, K, P, checkCall);
  objectsAt(S, J, "calls", P, checkCall);
  objectsAt(S, J, "unjoined_streams", P, checkCall);
  if (S.optional(J, "graph_nodes", T::Object, P) && J.contains("graph_nodes"))
    for (const auto &[Kind, Count] : J.at("graph_nodes").items())
      S.is(Count, T::Int,
           JsonShape::field(JsonShape::field(P, "graph_nodes"), Kind.c_str()));
}

void checkStackRow(JsonShape &S, const json &J, const std::string &P) {
  S.optionalArrayOf(J, "frames", T::String, P);
  objectsAt(S, J, "stack", P, checkFrame);
}

void checkCoverage(JsonShape &S, const json &J, const std::string &P) {
  for (const char *K :
       {"graph_launches", "kernels_in_graphs", "kernels_outside_graphs"})
    S.optional(J, K, T::Unsigned, P);
}

void checkDivergence(JsonShape &S, const json &J, const std::string &P) {
  for (const char *K :
       {"capture", "replay", "first_byte", "bytes", "differing_bytes"})
    S.optional(J, K, T::Unsigned, P);
  S.optional(J, "output", T::String, P);
}

} // namespace

std::string checkReportShape(const json &J) {
  JsonShape S;
  if (!J.is_object() || !J.contains("format") ||
      J.at("format") != "capture-probe-report")
    return "not a capture-probe report (no \"format\": "
           "\"capture-probe-report\")";
  if (!S.required(J, "version", T::Int, ""))
    return S.error();
  if (J.at("version") != 1)
    return "unsupported report version " + J.at("version").dump() +
           " (this reader reads version 1)";
  for (const char *K : {"backend", "note", "probe_version"})
    S.optional(J, K, T::String, "");
  S.optionalArrayOf(J, "program", T::String, "");
  S.optional(J, "exit_status", T::Int, "", /*NullOk=*/true);
  if (S.required(J, "captures", T::Array, ""))
    objectsAt(S, J, "captures", "", checkCapture);
  objectAt(S, J, "graph_coverage", "", checkCoverage);
  objectsAt(S, J, "divergences", "", checkDivergence);
  objectsAt(S, J, "stacks", "", checkStackRow);
  return S.error();
}

} // namespace capture_probe
