//===- Utf8.h - Text from sources as valid UTF-8 ----------------*- C++ -*-===//
//
// Sources are bytes: a Latin-1 comment ("// caf\xe9") on a finding's line
// lands in the line text a report, a baseline and a cache entry keep. JSON
// cannot hold such bytes, so every JSON writer replaces them (nlohmann's
// error_handler_t::replace), and whatever compares a finding with one read
// back from JSON (a baseline) compares both as valid UTF-8, made here.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_UTF8_H
#define CAPTURE_LINT_TOOL_UTF8_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace capture_lint {

/// \p Text with each byte that does not start a well-formed UTF-8 sequence
/// replaced by U+FFFD (as JSON output writes it); valid text is unchanged.
std::string validUtf8(llvm::StringRef Text);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_UTF8_H
