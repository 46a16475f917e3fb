//===- StdinFilter.cpp - Messages to clangd pass through DocumentMirror ---===//
//
// clangd reads LSP messages from standard input. Before clangd starts,
// capture-clangd puts a pipe in its place and a thread that copies the
// editor's messages into it, frame by frame, through DocumentMirror, so a
// change outside a document reaches clangd repaired. Everything else goes on
// byte for byte; input that cannot be framed (no usable Content-Length) is
// passed on untouched from there on, for clangd to answer as it would.
//
// It also ends the process soon after the editor is done: on `exit` clangd
// waits for the parses still running (seconds on a CUDA file), while the
// editor waits for the server to go. Half a second
// after the filter passes `exit` on, the process exits with the status LSP
// gives (0 after `shutdown`, 1 without), whatever is still parsing.
//
//===----------------------------------------------------------------------===//

#include "DocumentMirror.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

using capture_lint::DocumentMirror;

/// Buffered reads from a file descriptor.
class FdReader {
public:
  explicit FdReader(int Fd) : Fd(Fd) {}

  /// One header line with its line ending; false at the end of the input.
  bool line(std::string &Out) {
    Out.clear();
    char C;
    while (get(C)) {
      Out += C;
      if (C == '\n' || Out.size() > 4096)
        return true;
    }
    return !Out.empty();
  }
  /// Up to \p N bytes appended to \p Out; false when the input ended first.
  bool bytes(size_t N, std::string &Out) {
    char C;
    for (size_t I = 0; I < N; ++I) {
      if (!get(C))
        return false;
      Out += C;
    }
    return true;
  }
  /// Whatever is buffered, then raw reads.
  bool chunk(std::string &Out) {
    Out.clear();
    if (Pos < Buf.size()) {
      Out = Buf.substr(Pos);
      Pos = Buf.size();
      return true;
    }
    return fill() && chunk(Out);
  }

private:
  bool get(char &C) {
    if (Pos == Buf.size() && !fill())
      return false;
    C = Buf[Pos++];
    return true;
  }
  bool fill() {
    char Tmp[65536];
    for (;;) {
      ssize_t N = ::read(Fd, Tmp, sizeof Tmp);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return false;
      Buf.assign(Tmp, size_t(N));
      Pos = 0;
      return true;
    }
  }

  int Fd;
  std::string Buf;
  size_t Pos = 0;
};

bool writeAll(int Fd, const std::string &Bytes) {
  size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t N = ::write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += size_t(N);
  }
  return true;
}

/// The value of a `Content-Length:` header line, or -1.
long long contentLength(const std::string &Line) {
  static const std::string Name = "content-length:";
  if (Line.size() < Name.size())
    return -1;
  for (size_t I = 0; I < Name.size(); ++I)
    if (std::tolower(static_cast<unsigned char>(Line[I])) != Name[I])
      return -1;
  try {
    size_t Used = 0;
    long long N = std::stoll(Line.substr(Name.size()), &Used);
    return N >= 0 ? N : -1;
  } catch (...) {
    return -1;
  }
}

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

void copyThroughMirror(int From, int To) {
  constexpr long long MaxBody = 256ll << 20;
  FdReader In(From);
  DocumentMirror Mirror;
  std::string Line, Headers, Body;
  for (;;) {
    // Headers up to the blank line.
    Headers.clear();
    long long Length = -1;
    bool Ended = false;
    while (!(Ended = !In.line(Line))) {
      Headers += Line;
      if (long long N = contentLength(Line); N >= 0)
        Length = N;
      if (Line == "\r\n" || Line == "\n")
        break;
      if (Line.find(':') == std::string::npos) {
        Length = -1; // not a header: not framed as the filter expects
        break;
      }
    }
    if (Ended || Length < 0 || Length > MaxBody) {
      // Unframed input: pass the rest on as it comes.
      if (!writeAll(To, Headers))
        break;
      while (!Ended && In.chunk(Line) && writeAll(To, Line)) {
      }
      break;
    }
    Body.clear();
    bool Whole = In.bytes(size_t(Length), Body);
    std::string Warning;
    std::optional<nlohmann::json> Fixed;
    bool Exit = false;
    if (Whole) {
      nlohmann::json Msg =
          nlohmann::json::parse(Body, nullptr, /*allow_exceptions=*/false);
      Fixed = Mirror.observe(Msg, Warning);
      Exit = isExit(Msg);
    }
    if (!Warning.empty())
      std::fprintf(stderr, "capture-clangd: %s\n", Warning.c_str());
    if (Fixed) {
      std::string Out =
          Fixed->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      Headers = "Content-Length: " + std::to_string(Out.size()) + "\r\n\r\n";
      Body = std::move(Out);
    }
    if (!writeAll(To, Headers + Body) || !Whole)
      break;
    if (Exit)
      exitSoon();
  }
  ::close(To);
}

} // namespace

/// Puts the filter between the editor and clangd's standard input. Leaves
/// standard input alone when the pipe cannot be made.
void filterStandardInput() {
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
  std::thread(copyThroughMirror, Editor, Pipe[1]).detach();
}
