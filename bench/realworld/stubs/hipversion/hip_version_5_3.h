// Forced in with -include: this machine's HIP headers (Debian's 5.2) are
// older than what the evaluated code supports; rocSPARSE compiles its graph
// tests only for HIP >= 5.3. The real header is read first (its include
// guard then keeps it from being read again), and the version is raised.
#include <hip/hip_version.h>
#undef HIP_VERSION_MINOR
#define HIP_VERSION_MINOR 3
