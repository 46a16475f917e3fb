//===- OutputJoin.cpp - clangd's messages and capture-clangd's own --------===//

#include "OutputJoin.h"
#include "FrameIo.h"

#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <thread>
#include <unistd.h>

namespace capture_lint {

namespace {

std::mutex Lock;
int Editor = STDOUT_FILENO; // where whole frames go
std::thread Copier;

/// clangd's frames, whole, to the editor; past anything unframed, the rest
/// as it comes.
void copyFrames(int From) {
  FdReader In(From);
  for (;;) {
    RawFrame F = readFrame(In);
    if (F.Ended)
      break;
    {
      std::lock_guard<std::mutex> Guard(Lock);
      if (!writeAll(Editor, F.Headers + F.Body))
        break;
    }
    if (!F.Framed) {
      std::string Chunk;
      while (In.chunk(Chunk)) {
        std::lock_guard<std::mutex> Guard(Lock);
        if (!writeAll(Editor, Chunk))
          break;
      }
      break;
    }
  }
  ::close(From);
}

} // namespace

void joinStandardOutput() {
  int Pipe[2];
  if (::pipe(Pipe) != 0)
    return;
  int Real = ::dup(STDOUT_FILENO);
  if (Real < 0 || ::dup2(Pipe[1], STDOUT_FILENO) < 0) {
    ::close(Pipe[0]);
    ::close(Pipe[1]);
    if (Real >= 0)
      ::close(Real);
    return;
  }
  ::close(Pipe[1]);
  Editor = Real;
  Copier = std::thread(copyFrames, Pipe[0]);
}

void sendToEditor(const nlohmann::json &Msg) {
  std::string Body =
      Msg.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::lock_guard<std::mutex> Guard(Lock);
  writeAll(Editor, frameOf(Body));
}

void finishStandardOutput() {
  if (!Copier.joinable())
    return;
  llvm::outs().flush();
  ::close(STDOUT_FILENO); // the pipe's last writer: the copier sees its end
  Copier.join();
}

} // namespace capture_lint
