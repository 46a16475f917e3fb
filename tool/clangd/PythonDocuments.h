//===- PythonDocuments.h - capture-clangd's Python side ---------*- C++ -*-===//
//
// One server for both languages: an editor that starts capture-clangd for
// Python files too gets the Python analysis's findings for them, as
// `capture-lint --lsp` publishes them. Messages about a `.py` document never
// reach clangd (it would parse Python as C++): after each open or change,
// every open Python document is analysed again (the analysis follows calls
// into the package's other files, open ones as the editor holds them) on a
// thread of its own, and published between clangd's messages; a request about
// it is answered with null (no hover, no symbols), which every LSP method
// allows.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_CLANGD_PYTHONDOCUMENTS_H
#define CAPTURE_LINT_TOOL_CLANGD_PYTHONDOCUMENTS_H

#include <nlohmann/json.hpp>

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace capture_lint {

class PythonDocuments {
public:
  /// \p Send writes one message to the editor.
  explicit PythonDocuments(std::function<void(const nlohmann::json &)> Send);
  ~PythonDocuments();

  /// Handles \p Msg when it concerns a Python document, with \p Text the
  /// document's text after it (from DocumentMirror; nothing after a close).
  /// False when \p Msg is not about one and goes on to clangd.
  bool take(const nlohmann::json &Msg, const std::string *Text);

  /// Waits until every open document's latest text is published (tests).
  void drain();

private:
  void analyse();

  std::function<void(const nlohmann::json &)> Send;
  std::mutex Lock;
  std::condition_variable Wake, Idle;
  std::map<std::string, std::string> Open;  // path to text
  std::map<std::string, std::string> UriOf; // path to URI
  std::set<std::string> Pending;            // paths to analyse
  bool Busy = false, Stopping = false;
  std::thread Worker;
};

/// Whether \p Msg names a document (params.textDocument.uri) that is a
/// Python file; its path in \p Path.
bool aboutPythonDocument(const nlohmann::json &Msg, std::string &Path);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_CLANGD_PYTHONDOCUMENTS_H
