//===- DocumentMirror.cpp - Open documents as clangd holds them -----------===//

#include "DocumentMirror.h"

namespace capture_lint {

using nlohmann::json;

/// UTF-16 code units of the UTF-8 sequence led by \p Lead, and its bytes.
static void unitsOf(unsigned char Lead, unsigned &Units, unsigned &Bytes) {
  Bytes = Lead < 0x80         ? 1
          : (Lead >> 5) == 6  ? 2
          : (Lead >> 4) == 14 ? 3
          : (Lead >> 3) == 30 ? 4
                              : 1; // a stray byte: one unit
  Units = Bytes == 4 ? 2 : 1;
}

bool offsetOfPosition(const std::string &Text, long long Line,
                      long long Character, size_t &Offset) {
  if (Line < 0 || Character < 0) {
    Offset = 0;
    return false;
  }
  size_t Start = 0;
  for (long long L = 0; L < Line; ++L) {
    size_t Newline = Text.find('\n', Start);
    if (Newline == std::string::npos) {
      Offset = Text.size(); // a line past the end
      return false;
    }
    Start = Newline + 1;
  }
  size_t End = Text.find('\n', Start);
  if (End == std::string::npos)
    End = Text.size();
  size_t At = Start;
  long long Seen = 0;
  while (Seen < Character && At < End) {
    unsigned Units, Bytes;
    unitsOf(static_cast<unsigned char>(Text[At]), Units, Bytes);
    At = std::min(At + Bytes, End);
    Seen += Units;
  }
  Offset = At;
  return Seen >= Character; // else past the line's end
}

std::optional<std::string> DocumentMirror::text(const std::string &Uri) const {
  auto It = Texts.find(Uri);
  if (It == Texts.end())
    return std::nullopt;
  return It->second;
}

/// A position's line and character, or nothing when they are not integers.
static bool readPosition(const json &P, long long &Line, long long &Char) {
  if (!P.is_object() || !P.contains("line") || !P.contains("character") ||
      !P["line"].is_number_integer() || !P["character"].is_number_integer())
    return false;
  Line = P["line"].get<long long>();
  Char = P["character"].get<long long>();
  return true;
}

std::optional<json> DocumentMirror::change(const json &Msg,
                                           std::string &Warning) {
  const json &Params = Msg["params"];
  if (!Params.contains("textDocument") || !Params.contains("contentChanges") ||
      !Params["textDocument"].is_object() ||
      !Params["contentChanges"].is_array())
    return std::nullopt; // malformed: clangd answers it
  const json &Doc = Params["textDocument"];
  if (!Doc.contains("uri") || !Doc["uri"].is_string())
    return std::nullopt;
  auto It = Texts.find(Doc["uri"].get<std::string>());
  if (It == Texts.end())
    return std::nullopt;
  std::string Text = It->second;
  bool Repaired = false;
  for (const json &C : Params["contentChanges"]) {
    if (!C.is_object() || !C.contains("text") || !C["text"].is_string())
      return std::nullopt;
    if (!C.contains("range")) {
      Text = C["text"].get<std::string>();
      continue;
    }
    const json &R = C["range"];
    long long SL, SC, EL, EC;
    if (!R.is_object() || !R.contains("start") || !R.contains("end") ||
        !readPosition(R["start"], SL, SC) || !readPosition(R["end"], EL, EC))
      return std::nullopt;
    size_t Begin, End;
    bool Valid = offsetOfPosition(Text, SL, SC, Begin);
    Valid &= offsetOfPosition(Text, EL, EC, End);
    if (End < Begin) {
      std::swap(Begin, End);
      Valid = false;
    }
    if (!Valid && !Repaired)
      Warning = "a change to " + It->first + " at line " + std::to_string(SL) +
                ", character " + std::to_string(SC) + " to line " +
                std::to_string(EL) + ", character " + std::to_string(EC) +
                " lies outside the document: applied clamped to it";
    Repaired |= !Valid;
    Text.replace(Begin, End - Begin, C["text"].get<std::string>());
  }
  It->second = Text;
  if (!Repaired)
    return std::nullopt;
  json Fixed = Msg;
  Fixed["params"]["contentChanges"] = json::array({{{"text", Text}}});
  return Fixed;
}

std::optional<json> DocumentMirror::observe(const json &Msg,
                                            std::string &Warning) {
  if (!Msg.is_object() || !Msg.contains("method") ||
      !Msg["method"].is_string() || !Msg.contains("params") ||
      !Msg["params"].is_object())
    return std::nullopt;
  const std::string Method = Msg["method"].get<std::string>();
  const json &Params = Msg["params"];
  auto Uri = [&]() -> std::optional<std::string> {
    if (!Params.contains("textDocument") ||
        !Params["textDocument"].is_object() ||
        !Params["textDocument"].contains("uri") ||
        !Params["textDocument"]["uri"].is_string())
      return std::nullopt;
    return Params["textDocument"]["uri"].get<std::string>();
  };
  if (Method == "textDocument/didOpen") {
    auto U = Uri();
    const json &Doc = Params.value("textDocument", json());
    if (U && Doc.contains("text") && Doc["text"].is_string())
      Texts[*U] = Doc["text"].get<std::string>();
    return std::nullopt;
  }
  if (Method == "textDocument/didClose") {
    if (auto U = Uri())
      Texts.erase(*U);
    return std::nullopt;
  }
  if (Method == "textDocument/didChange")
    return change(Msg, Warning);
  return std::nullopt;
}

} // namespace capture_lint
