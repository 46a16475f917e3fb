//===- StdinFilter.cpp - Messages to clangd pass through DocumentMirror ---===//
//
// clangd reads LSP messages from standard input. Before clangd starts,
// capture-clangd puts a pipe in its place and a thread that copies the
// editor's messages into it, frame by frame, through DocumentMirror, so a
// change outside a document reaches clangd repaired. Everything else goes on
// byte for byte; input that cannot be framed (no usable Content-Length) is
// passed on untouched from there on, for clangd to answer as it would.
// Messages about a Python document go to the Python side instead
// (PythonDocuments.h), which answers them itself; `initialize` may point
// clangd at a translated copy of an nvcc project's database
// (ClangReadyDatabase.h).
//
// It also ends the process soon after the editor is done: on `exit` clangd
// waits for the parses still running (seconds on a CUDA file), while the
// editor waits for the server to go. Half a second
// after the filter passes `exit` on, the process exits with the status LSP
// gives (0 after `shutdown`, 1 without), whatever is still parsing.
//
//===----------------------------------------------------------------------===//

#include "ClangReadyDatabase.h"
#include "DocumentMirror.h"
#include "FrameIo.h"
#include "OutputJoin.h"
#include "PythonDocuments.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

using namespace capture_lint;

std::atomic<bool> ShutdownSeen{false};

/// Ends the process half a second from now, unless clangd is gone first:
/// its answers are written by then, and nothing it still parses matters.
void exitSoon() {
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    std::fflush(stdout);
    std::_Exit(ShutdownSeen ? 0 : 1);
  }).detach();
}

/// Notes `shutdown`; true for `exit`.
bool isExit(const nlohmann::json &Msg) {
  if (!Msg.is_object() || !Msg.contains("method") || !Msg["method"].is_string())
    return false;
  const std::string &Method = Msg["method"].get_ref<const std::string &>();
  if (Method == "shutdown")
    ShutdownSeen = true;
  return Method == "exit";
}

/// The document text \p Msg leaves in \p Mirror, for the Python side:
/// none after a close.
const std::string *textAfter(const nlohmann::json &Msg,
                             const DocumentMirror &Mirror, std::string &Text) {
  const nlohmann::json &Doc = Msg["params"]["textDocument"];
  std::optional<std::string> T = Mirror.text(Doc["uri"].get<std::string>());
  if (!T)
    return nullptr;
  Text = std::move(*T);
  return &Text;
}

/// The method of \p Msg; "" when it has none.
std::string methodOf(const nlohmann::json &Msg) {
  if (!Msg.is_object() || !Msg.contains("method") || !Msg["method"].is_string())
    return "";
  return Msg["method"].get<std::string>();
}

/// `initialize` pointed at a translated copy of an nvcc project's database
/// (ClangReadyDatabase.h), which each open writes again if it changed.
std::optional<nlohmann::json> watchDatabase(const nlohmann::json &Msg,
                                            ClangReadyDatabase &Database) {
  std::string Method = methodOf(Msg), Log;
  std::optional<nlohmann::json> Changed;
  if (Method == "initialize")
    Changed = Database.initialize(Msg, Log);
  else if (Method == "textDocument/didOpen")
    Database.refresh(Log);
  if (!Log.empty())
    std::fprintf(stderr, "capture-clangd: %s\n", Log.c_str());
  return Changed;
}

void copyThroughMirror(int From, int To, ClangReadyDatabase *Database) {
  std::unique_ptr<ClangReadyDatabase> Owned(Database);
  FdReader In(From);
  DocumentMirror Mirror;
  PythonDocuments Python(sendToEditor);
  for (;;) {
    RawFrame F = readFrame(In);
    if (F.Ended)
      break;
    if (!F.Framed) {
      // Unframed input: pass the rest on as it comes.
      std::string Chunk;
      if (!writeAll(To, F.Headers + F.Body))
        break;
      while (In.chunk(Chunk) && writeAll(To, Chunk)) {
      }
      break;
    }
    nlohmann::json Msg =
        nlohmann::json::parse(F.Body, nullptr, /*allow_exceptions=*/false);
    std::string Warning, Path, Text;
    std::optional<nlohmann::json> Fixed = Mirror.observe(Msg, Warning);
    if (!Warning.empty())
      std::fprintf(stderr, "capture-clangd: %s\n", Warning.c_str());
    bool Exit = isExit(Msg);
    if (aboutPythonDocument(Msg, Path) &&
        Python.take(Msg, textAfter(Msg, Mirror, Text)))
      continue;
    if (auto Pointed = watchDatabase(Msg, *Database))
      Fixed = std::move(Pointed);
    std::string Out =
        Fixed ? frameOf(Fixed->dump(-1, ' ', false,
                                    nlohmann::json::error_handler_t::replace))
              : F.Headers + F.Body;
    if (!writeAll(To, Out))
      break;
    if (Exit)
      exitSoon();
  }
  ::close(To);
}

} // namespace

/// Puts the filter between the editor and clangd's standard input. Leaves
/// standard input alone when the pipe cannot be made. \p Argv0 and
/// \p UserNamedDatabase are for ClangReadyDatabase.
void filterStandardInput(const char *Argv0, bool UserNamedDatabase) {
  int Pipe[2];
  if (::pipe(Pipe) != 0)
    return;
  int Editor = ::dup(STDIN_FILENO);
  if (Editor < 0 || ::dup2(Pipe[0], STDIN_FILENO) < 0) {
    ::close(Pipe[0]);
    ::close(Pipe[1]);
    if (Editor >= 0)
      ::close(Editor);
    return;
  }
  ::close(Pipe[0]);
  std::thread(copyThroughMirror, Editor, Pipe[1],
              new ClangReadyDatabase(Argv0, UserNamedDatabase))
      .detach();
}
