//===- WorkerStacks.cpp - Large stacks for capture-clangd's workers -------===//
//
// clangd parses on worker threads created with an 8 MB stack, and clang's
// parser recurses once per nesting level: an editor buffer with 3,000
// nested macro arguments overflows it and the whole server dies under the
// editor. clangd's thread creation is not configurable, so capture-clangd
// defines pthread_attr_setstacksize itself (an executable's definition comes
// before libc's for every library): requests of 8 MB or more, clangd's
// worker size, get 64 MB; smaller requests are left alone. The default for
// threads created without a size is raised the same way in main().
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <dlfcn.h>
#include <pthread.h>

namespace {
constexpr size_t WorkerRequest = size_t(8) << 20;
constexpr size_t WorkerStack = size_t(64) << 20;
} // namespace

extern "C" int pthread_attr_setstacksize(pthread_attr_t *Attr, size_t Size) {
  using Setter = int (*)(pthread_attr_t *, size_t);
  static const Setter Real =
      reinterpret_cast<Setter>(dlsym(RTLD_NEXT, "pthread_attr_setstacksize"));
  if (!Real)
    return 0; // keeps the default; never happens with glibc
  return Real(Attr,
              Size >= WorkerRequest && Size < WorkerStack ? WorkerStack : Size);
}

/// Called from main() before clangd starts any thread.
void useLargeWorkerStacks() {
  pthread_attr_t Attr;
  if (pthread_attr_init(&Attr) != 0)
    return;
  if (pthread_attr_setstacksize(&Attr, WorkerStack) == 0)
    pthread_setattr_default_np(&Attr);
  pthread_attr_destroy(&Attr);
}
