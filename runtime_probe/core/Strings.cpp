//===- Strings.cpp - Small string helpers shared by the probe -------------===//

#include "capture_probe/Strings.h"
#include <algorithm>
#include <dirent.h>

namespace capture_probe {

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out(1);
  for (char C : S)
    if (C == Sep)
      Out.emplace_back();
    else
      Out.back() += C;
  return Out;
}

std::vector<std::string> filesEndingWith(const std::string &Dir,
                                         const std::string &Suffix) {
  std::vector<std::string> Out;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D)) {
      std::string N = E->d_name;
      if (N.size() > Suffix.size() &&
          N.compare(N.size() - Suffix.size(), Suffix.size(), Suffix) == 0)
        Out.push_back(Dir + "/" + N);
    }
    closedir(D);
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

} // namespace capture_probe
