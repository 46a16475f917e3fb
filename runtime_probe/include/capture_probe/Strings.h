//===- Strings.h - Small string helpers shared by the probe -----*- C++ -*-===//

#ifndef CAPTURE_PROBE_STRINGS_H
#define CAPTURE_PROBE_STRINGS_H

#include <string>
#include <vector>

namespace capture_probe {

/// The pieces of \p S between \p Sep characters, empty pieces included
/// ("a::b" on ':' gives "a", "", "b").
std::vector<std::string> split(const std::string &S, char Sep);

/// Names files in Dir whose names end with \p Suffix, sorted, as Dir/name.
std::vector<std::string> filesEndingWith(const std::string &Dir,
                                         const std::string &Suffix);

} // namespace capture_probe

#endif // CAPTURE_PROBE_STRINGS_H
