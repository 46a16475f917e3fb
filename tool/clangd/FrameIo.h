//===- FrameIo.h - LSP frames on raw file descriptors -----------*- C++ -*-===//
//
// capture-clangd sits on both of clangd's standard streams: a thread copies
// the editor's messages into clangd (StdinFilter.cpp) and one copies
// clangd's messages out to the editor (OutputJoin.cpp). Both read
// `Content-Length` frames from a file descriptor and write them whole.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_CLANGD_FRAMEIO_H
#define CAPTURE_LINT_TOOL_CLANGD_FRAMEIO_H

#include <string>

namespace capture_lint {

/// Buffered reads from a file descriptor.
class FdReader {
public:
  explicit FdReader(int Fd) : Fd(Fd) {}

  /// One header line with its line ending; false at the end of the input.
  bool line(std::string &Out);
  /// \p N bytes appended to \p Out; false when the input ended first.
  bool bytes(size_t N, std::string &Out);
  /// Whatever is buffered, then raw reads; false at the end of the input.
  bool chunk(std::string &Out);

private:
  bool get(char &C);
  bool fill();

  int Fd;
  std::string Buf;
  size_t Pos = 0;
};

/// One frame as read: its header lines as they came, and its body.
struct RawFrame {
  std::string Headers, Body;
  /// The headers ended in a blank line with a usable Content-Length and the
  /// whole body followed. When false, Headers (and Body) hold what was read
  /// and the stream cannot be framed from here on.
  bool Framed = false;
  /// The input ended before anything of this frame was read.
  bool Ended = false;
};

/// Reads the next frame from \p In.
RawFrame readFrame(FdReader &In);

/// Writes all of \p Bytes; false when the descriptor is gone.
bool writeAll(int Fd, const std::string &Bytes);

/// \p Body with its `Content-Length` header.
std::string frameOf(const std::string &Body);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_CLANGD_FRAMEIO_H
