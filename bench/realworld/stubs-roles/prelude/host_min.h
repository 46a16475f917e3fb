/* nvcc's host compilation finds ::min(int, int) (crt/math_functions.hpp);
   clang's CUDA host side does not. Forced in with -include for the .cu files
   of capture-lint's roles-across-files measurement. */
#pragma once
#ifdef __cplusplus
#include <algorithm>
using std::min;
using std::max;
#endif
