//===- OutputJoin.h - clangd's and capture-clangd's messages ---*- C++ -*-===//
//
// capture-clangd answers some messages itself (diagnostics of Python
// documents) while clangd writes its own to standard output from other
// threads. So that no message is cut into another, clangd writes into a
// pipe and a thread copies its frames, one whole frame at a time, to the
// editor; capture-clangd's messages go out under the same lock.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_CLANGD_OUTPUTJOIN_H
#define CAPTURE_LINT_TOOL_CLANGD_OUTPUTJOIN_H

#include <nlohmann/json.hpp>

namespace capture_lint {

/// Puts the pipe in place of standard output (left alone when it cannot be
/// made: messages are then written straight to it).
void joinStandardOutput();

/// Sends \p Msg to the editor, framed, between clangd's messages.
void sendToEditor(const nlohmann::json &Msg);

/// Copies what clangd still wrote, then returns (at the end of main).
void finishStandardOutput();

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_CLANGD_OUTPUTJOIN_H
