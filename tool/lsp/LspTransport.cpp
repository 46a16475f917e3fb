//===- LspTransport.cpp - JSON-RPC messages over stdio, defensively -------===//

#include "LspTransport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace capture_lint {

using nlohmann::json;

static const char ContentLength[] = "content-length:";

/// Reads header lines up to the blank line; \p Length is the valid
/// Content-Length, if any. False at the end of the input.
bool LspReader::readHeaders(std::optional<size_t> &Length,
                            std::string &Problem) {
  bool Any = false;
  std::string Line;
  while (Pending || std::getline(In, Line)) {
    if (Pending) {
      Line = std::move(*Pending);
      Pending.reset();
    }
    llvm::StringRef L = llvm::StringRef(Line).rtrim("\r");
    if (L.empty()) {
      if (Any)
        return true;
      continue; // blank lines between frames
    }
    Any = true;
    if (!L.starts_with_insensitive(ContentLength))
      continue; // Content-Type and others
    llvm::StringRef Value = L.drop_front(sizeof ContentLength - 1).trim();
    unsigned long long N = 0;
    if (Value.getAsInteger(10, N) || Value.starts_with("+"))
      Problem = "Content-Length '" + Value.str() + "' is not a valid length";
    else if (N > MaxBodyBytes)
      Problem = "Content-Length " + Value.str() + " is more than the " +
                std::to_string(MaxBodyBytes) + " bytes a message may have";
    else
      Length = N;
  }
  return false;
}

/// Skips to the next line that starts a header with Content-Length (it may
/// follow the unread body on the same line); false at the end of input.
bool LspReader::resynchronize() {
  std::string Seen;
  char C;
  while (In.get(C)) {
    Seen += C;
    if (Seen.size() > sizeof ContentLength - 1)
      Seen.erase(0, 1);
    if (llvm::StringRef(Seen).equals_insensitive(ContentLength)) {
      std::string Rest;
      std::getline(In, Rest);
      Pending = Seen + Rest;
      return true;
    }
  }
  return false;
}

std::optional<LspFrame> LspReader::next() {
  std::optional<size_t> Length;
  std::string Problem;
  if (!readHeaders(Length, Problem))
    return std::nullopt;
  LspFrame F;
  if (!Length) {
    F.Error = ParseError;
    F.Problem =
        Problem.empty() ? "a message without a Content-Length header" : Problem;
    resynchronize();
    return F;
  }
  std::string Body(*Length, '\0');
  In.read(Body.data(), static_cast<std::streamsize>(*Length));
  if (static_cast<size_t>(In.gcount()) != *Length)
    return std::nullopt; // the input ended inside the body
  F.Message = json::parse(Body, nullptr, /*allow_exceptions=*/false);
  if (F.Message.is_discarded()) {
    F.Error = ParseError;
    F.Problem = "the message is not JSON";
  } else if (!F.Message.is_object()) {
    F.Error = InvalidRequest;
    F.Problem = "the message is not a JSON object (batches are not supported)";
  }
  return F;
}

void writeLspMessage(std::ostream &Out, const json &Msg) {
  std::string Body = Msg.dump(-1, ' ', false, json::error_handler_t::replace);
  Out << "Content-Length: " << Body.size() << "\r\n\r\n" << Body;
  Out.flush();
}

json lspErrorResponse(const json &Id, int Code, const std::string &Message) {
  return {{"jsonrpc", "2.0"},
          {"id", Id},
          {"error", {{"code", Code}, {"message", Message}}}};
}

unsigned utf16Column(const std::string &LineText, unsigned ByteColumn) {
  size_t End =
      std::min<size_t>(ByteColumn ? ByteColumn - 1 : 0, LineText.size());
  unsigned Units = 0;
  for (size_t I = 0; I < End; ++I) {
    unsigned char C = LineText[I];
    if ((C & 0xC0) == 0x80)
      continue;                 // a continuation byte
    Units += C >= 0xF0 ? 2 : 1; // four-byte sequences are surrogate pairs
  }
  return Units + 1;
}

} // namespace capture_lint
