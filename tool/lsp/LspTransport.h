//===- LspTransport.h - JSON-RPC messages over stdio, defensively -*- C++ -*-=//
//
// The Language Server Protocol's base protocol: `Content-Length: N` headers,
// a blank line, N bytes of JSON. Editors, plugins and fuzzers send anything,
// so every malformed frame becomes a JSON-RPC error the server answers with
// while it goes on reading: a missing, non-numeric, negative or absurd
// Content-Length (the body cannot then be delimited, so reading resumes at
// the next `Content-Length:` header), a body that is not JSON (-32700), and
// one that is not a JSON object (-32600; batches are not supported).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_LSPTRANSPORT_H
#define CAPTURE_LINT_TOOL_LSPTRANSPORT_H

#include <nlohmann/json.hpp>

#include <istream>
#include <optional>
#include <ostream>
#include <string>

namespace capture_lint {

/// JSON-RPC error codes.
enum LspError : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
};

/// One frame read: a message, or what was wrong with it.
struct LspFrame {
  nlohmann::json Message; // an object when Error is 0
  int Error = 0;
  std::string Problem; // for Error
};

class LspReader {
public:
  explicit LspReader(std::istream &In) : In(In) {}

  /// The next frame; nothing at the end of the input.
  std::optional<LspFrame> next();

  /// No body is larger (an editor's document is far smaller).
  static constexpr size_t MaxBodyBytes = 256u << 20;

private:
  bool readHeaders(std::optional<size_t> &Length, std::string &Problem);
  bool resynchronize();

  std::istream &In;
  /// A header line already read while resynchronizing.
  std::optional<std::string> Pending;
};

/// Writes \p Msg framed; bytes that are not UTF-8 become U+FFFD.
void writeLspMessage(std::ostream &Out, const nlohmann::json &Msg);

/// A JSON-RPC error response (id null when the request's id is unknown).
nlohmann::json lspErrorResponse(const nlohmann::json &Id, int Code,
                                const std::string &Message);

/// The UTF-16 code units before byte column \p ByteColumn (1-based) of
/// \p LineText, plus one: LSP positions count UTF-16 units.
unsigned utf16Column(const std::string &LineText, unsigned ByteColumn);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_LSPTRANSPORT_H
