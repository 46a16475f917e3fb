//===- DocumentMirror.h - Open documents as clangd holds them ---*- C++ -*-===//
//
// clangd drops a document for good when one textDocument/didChange names a
// range outside it (a line past the end, a UTF-16 character past a line's
// end): every later change is ignored and the file gets no diagnostics until
// the editor reopens it. capture-clangd keeps its own copy of each open
// document, applying the same changes, and repairs such a change before
// clangd sees it: positions are clamped into the document the way editors'
// own text models validate them, and the change is sent as the whole text
// that results, so clangd and the editor stay in step.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_CLANGD_DOCUMENTMIRROR_H
#define CAPTURE_LINT_TOOL_CLANGD_DOCUMENTMIRROR_H

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace capture_lint {

class DocumentMirror {
public:
  /// Follows didOpen, didChange and didClose. Returns the message to send
  /// on instead of \p Msg when it had to be repaired, with \p Warning
  /// saying what was wrong; nothing when \p Msg goes on unchanged.
  std::optional<nlohmann::json> observe(const nlohmann::json &Msg,
                                        std::string &Warning);

  /// The mirrored text of \p Uri (for tests); nothing when not open.
  std::optional<std::string> text(const std::string &Uri) const;

private:
  std::optional<nlohmann::json> change(const nlohmann::json &Msg,
                                       std::string &Warning);

  std::map<std::string, std::string> Texts; // by URI
};

/// The byte offset in \p Text of an LSP position (0-based line, UTF-16
/// character). Returns false when the position lies outside \p Text;
/// \p Offset is then the nearest offset inside it (the end of the line, or
/// of the text).
bool offsetOfPosition(const std::string &Text, long long Line,
                      long long Character, size_t &Offset);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_CLANGD_DOCUMENTMIRROR_H
