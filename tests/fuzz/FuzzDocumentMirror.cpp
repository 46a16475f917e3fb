//===- FuzzDocumentMirror.cpp - capture-clangd's copy of open documents ---===//
//
// The input is a session of messages an editor sends capture-clangd, one
// JSON value per line: opens, changes with any ranges and texts, closes,
// anything. Following them must never crash or hang, a repaired change is
// always the whole text the mirror now holds, and every position maps to
// an offset inside its text.
//
//===----------------------------------------------------------------------===//

#include "DocumentMirror.h"
#include "FuzzSupport.h"

#include <sstream>

using namespace capture_lint;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::istringstream In(
      std::string(reinterpret_cast<const char *>(Data), Size));
  DocumentMirror Mirror;
  std::string Line;
  while (std::getline(In, Line)) {
    json Msg = json::parse(Line, nullptr, /*allow_exceptions=*/false);
    std::string Warning;
    std::optional<json> Fixed = Mirror.observe(Msg, Warning);
    if (!Fixed)
      continue;
    fuzz::require(!Warning.empty());
    const json &Changes = (*Fixed)["params"]["contentChanges"];
    fuzz::require(Changes.is_array() && Changes.size() == 1);
    std::string Uri = (*Fixed)["params"]["textDocument"]["uri"];
    fuzz::require(Mirror.text(Uri) == Changes[0]["text"].get<std::string>());
  }
  // Positions from the input's first bytes, against the input as text.
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  long long L = Size > 0 ? Data[0] % 8 - 1 : 0;
  long long C = Size > 1 ? Data[1] % 64 - 1 : 0;
  size_t Offset = 0;
  offsetOfPosition(Text, L, C, Offset);
  fuzz::require(Offset <= Text.size());
  return 0;
}
