//===- Utf8.cpp - Text from sources as valid UTF-8 ------------------------===//

#include "Utf8.h"

#include "llvm/Support/ConvertUTF.h"

namespace capture_lint {

std::string validUtf8(llvm::StringRef Text) {
  auto *Begin = reinterpret_cast<const llvm::UTF8 *>(Text.begin());
  auto *End = reinterpret_cast<const llvm::UTF8 *>(Text.end());
  if (llvm::isLegalUTF8String(&Begin, End))
    return Text.str();
  std::string Out;
  Out.reserve(Text.size() + 8);
  for (auto *P = reinterpret_cast<const llvm::UTF8 *>(Text.begin()); P < End;) {
    unsigned Len = llvm::getNumBytesForUTF8(*P);
    if (Len <= unsigned(End - P) && llvm::isLegalUTF8Sequence(P, P + Len)) {
      Out.append(reinterpret_cast<const char *>(P), Len);
      P += Len;
    } else {
      Out += "\xEF\xBF\xBD"; // U+FFFD
      ++P;
    }
  }
  return Out;
}

} // namespace capture_lint
