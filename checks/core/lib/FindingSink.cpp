//===- FindingSink.cpp - Structured findings for the CLI ------------------===//

#include "capture_lint/FindingSink.h"

namespace capture_lint {

static thread_local FindingSink *CurrentSink = nullptr;

FindingSink *FindingSink::current() { return CurrentSink; }
void FindingSink::setCurrent(FindingSink *S) { CurrentSink = S; }

} // namespace capture_lint
