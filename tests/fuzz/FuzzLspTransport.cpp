//===- FuzzLspTransport.cpp - The language server's message reader --------===//
//
// The input is what an editor (or anything else) writes to capture-lint
// --lsp: framed or not, JSON or not. Reading must never crash, hang or
// stop early: every frame is a message (a JSON object) or an error the
// server answers, and what the server writes back reads as frames again.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "LspTransport.h"

#include <sstream>

using namespace capture_lint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::istringstream In(
      std::string(reinterpret_cast<const char *>(Data), Size));
  LspReader Reader(In);
  std::ostringstream Out;
  unsigned Frames = 0;
  while (std::optional<LspFrame> F = Reader.next()) {
    fuzz::require(++Frames <= Size + 1); // each frame consumes input
    if (F->Error) {
      fuzz::require(!F->Problem.empty());
      writeLspMessage(Out, lspErrorResponse(nullptr, F->Error, F->Problem));
    } else {
      fuzz::require(F->Message.is_object());
      writeLspMessage(Out, F->Message);
    }
  }
  // The replies frame and parse back one for one.
  std::istringstream Back(Out.str());
  LspReader Again(Back);
  unsigned Read = 0;
  while (std::optional<LspFrame> F = Again.next()) {
    fuzz::require(F->Error == 0);
    ++Read;
  }
  fuzz::require(Read == Frames);
  return 0;
}
