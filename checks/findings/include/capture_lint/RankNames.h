//===- RankNames.h - Names that hold a process's rank -----------*- C++ -*-===//
//
// capture-collective decides that a condition depends on the rank from the
// names it reads, in both languages: one of a name's words is "rank".
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_RANKNAMES_H
#define CAPTURE_LINT_RANKNAMES_H

#include <string_view>

namespace capture_lint {

/// Whether one of \p Name's words (split at '_' and where a lower-case
/// letter meets an upper-case one) is "rank", in any case: rank,
/// local_rank, myRank, get_rank, RANK; not nranks or num_ranks, a count
/// that is the same on every rank.
bool namesRank(std::string_view Name);

} // namespace capture_lint

#endif // CAPTURE_LINT_RANKNAMES_H
