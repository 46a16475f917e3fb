//===- SourceText.h - Offsets to lines, reading each file once --*- C++ -*-===//

#ifndef CAPTURE_LINT_TOOL_SOURCETEXT_H
#define CAPTURE_LINT_TOOL_SOURCETEXT_H

#include "Report.h"

#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <memory>

namespace capture_lint {

/// Turns (file, offset) into a line, a column and the line's text. Not
/// thread-safe: one per thread. Places given with remember() are answered
/// without reading (the link step's, from summaries); one built with
/// ReadFiles false reads no file at all, and answers what it was not told
/// with the file and offset alone.
class SourceFiles {
public:
  explicit SourceFiles(bool ReadFiles = true) : ReadFiles(ReadFiles) {}

  void remember(const SourcePlace &P) { Known[{P.File, P.Offset}] = P; }

  SourcePlace locate(const std::string &File, unsigned Offset) {
    if (auto It = Known.find({File, Offset}); It != Known.end())
      return It->second;
    SourcePlace L;
    L.File = File;
    L.Offset = Offset;
    if (!ReadFiles)
      return L;
    auto &Buf = Buffers[File];
    if (!Buf) {
      auto B = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
      if (!B)
        return L;
      Buf = std::move(*B);
    }
    llvm::StringRef Text = Buf->getBuffer();
    if (Offset > Text.size())
      return L;
    llvm::StringRef Before = Text.substr(0, Offset);
    L.Line = Before.count('\n') + 1;
    size_t LineStart = Before.rfind('\n');
    LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
    L.Column = Offset - LineStart + 1;
    size_t LineEnd = Text.find('\n', LineStart);
    L.LineText = Text.slice(LineStart, LineEnd).rtrim("\r").str();
    return L;
  }

private:
  bool ReadFiles;
  std::map<std::pair<std::string, unsigned>, SourcePlace> Known;
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Buffers;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_SOURCETEXT_H
