//===- PythonDiagnostics.h - Findings of a .py document as LSP -*- C++ -*-===//
//
// What both language servers publish for a Python document: the findings of
// the Python analysis over the editor's unsaved texts, as the array of a
// textDocument/publishDiagnostics (severities as clangd gives them, notes as
// related information, UTF-16 positions). `capture-lint --lsp` serves it on
// its own; capture-clangd serves it beside clangd's C++ diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_PYTHONDIAGNOSTICS_H
#define CAPTURE_LINT_TOOL_PYTHONDIAGNOSTICS_H

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace capture_lint {

/// How a Python document is analysed (the CLI's options, or the nearest
/// pyproject.toml's [tool.capture-lint] for capture-clangd).
struct PythonLspSettings {
  std::vector<std::string> Catalogs;
  std::string ChecksGlob = "capture-*";
  unsigned MaxCallDepth = 8;
};

/// The diagnostics of the document at \p Path (absolute), with \p Open
/// (path to text) standing for the files on disk the analysis reads.
nlohmann::json pythonDiagnostics(const std::string &Path,
                                 const std::map<std::string, std::string> &Open,
                                 const PythonLspSettings &Settings);

/// The settings for \p Path under capture-clangd: the nearest
/// pyproject.toml's [tool.capture-lint] at or above its folder; a problem
/// with that file is returned in \p Error (and the defaults are used).
PythonLspSettings pythonSettingsFor(const std::string &Path,
                                    std::string &Error);

/// A diagnostic at the start of the document saying \p Message (an error
/// that stopped the analysis of the document).
nlohmann::json documentError(const std::string &Message);

/// The path of a `file://` URI (percent-escapes decoded); "" for another
/// scheme.
std::string pathOfUri(const std::string &Uri);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_PYTHONDIAGNOSTICS_H
