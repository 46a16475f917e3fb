//===- FrameIo.cpp - LSP frames on raw file descriptors -------------------===//

#include "FrameIo.h"

#include <cctype>
#include <cerrno>
#include <unistd.h>

namespace capture_lint {

bool FdReader::line(std::string &Out) {
  Out.clear();
  char C;
  while (get(C)) {
    Out += C;
    if (C == '\n' || Out.size() > 4096)
      return true;
  }
  return !Out.empty();
}

bool FdReader::bytes(size_t N, std::string &Out) {
  char C;
  for (size_t I = 0; I < N; ++I) {
    if (!get(C))
      return false;
    Out += C;
  }
  return true;
}

bool FdReader::chunk(std::string &Out) {
  Out.clear();
  if (Pos < Buf.size()) {
    Out = Buf.substr(Pos);
    Pos = Buf.size();
    return true;
  }
  return fill() && chunk(Out);
}

bool FdReader::get(char &C) {
  if (Pos == Buf.size() && !fill())
    return false;
  C = Buf[Pos++];
  return true;
}

bool FdReader::fill() {
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

std::string frameOf(const std::string &Body) {
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

/// The value of a `Content-Length:` header line, or -1.
static long long contentLength(const std::string &Line) {
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

RawFrame readFrame(FdReader &In) {
  constexpr long long MaxBody = 256ll << 20;
  RawFrame F;
  long long Length = -1;
  std::string Line;
  bool Ended = false;
  while (!(Ended = !In.line(Line))) {
    F.Headers += Line;
    if (long long N = contentLength(Line); N >= 0)
      Length = N;
    if (Line == "\r\n" || Line == "\n")
      break;
    if (Line.find(':') == std::string::npos) {
      Length = -1; // not a header: not framed as expected
      break;
    }
  }
  F.Ended = Ended && F.Headers.empty();
  if (Ended || Length < 0 || Length > MaxBody)
    return F;
  F.Framed = In.bytes(size_t(Length), F.Body);
  return F;
}

} // namespace capture_lint
