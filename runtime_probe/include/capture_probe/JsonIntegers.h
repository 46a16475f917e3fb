//===- JsonIntegers.h - No fractions in probe files ---------- -*- C++ -*-===//
//
// The probe's event logs and reports hold integers only. nlohmann::json
// converts a floating-point value to an integer field with a plain cast, which
// is undefined for values out of range (1e30 into a uint64_t), so readers of
// these files first check that no number in the document is fractional.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_JSONINTEGERS_H
#define CAPTURE_PROBE_JSONINTEGERS_H

#include <nlohmann/json.hpp>

#include <string>

namespace capture_probe {

/// Finds the first floating-point number in \p J. Returns false and sets
/// \p Where to its path ("captures[0].begin.seq") when there is one.
bool integersOnly(const nlohmann::json &J, std::string &Where);

} // namespace capture_probe

#endif // CAPTURE_PROBE_JSONINTEGERS_H
