//===- DlsymInterposerTest.cpp - Which dlsym slots get the wrapper --------===//
//
// A slot bound to the C library's dlsym or dlvsym gets the wrapper; one
// bound to another definition (an interposer of dlsym) and other functions
// do not. The wrappers at work are in EntryPointScanTest.
//
//===----------------------------------------------------------------------===//

#include "DlsymInterposer.h"
#include <dlfcn.h>
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

void *otherDlsym(void *, const char *) { return nullptr; }

TEST(DlsymInterposerTest, WrapsOnlyTheCLibrarysLookups) {
  EXPECT_TRUE(isLookupFunction("dlsym"));
  EXPECT_TRUE(isLookupFunction("dlvsym"));
  EXPECT_FALSE(isLookupFunction("dlopen"));
#if defined(__x86_64__) || defined(__aarch64__)
  void *Runtime = lookupWrapper("dlsym", reinterpret_cast<void *>(&dlsym),
                                /*ByRuntime=*/true);
  void *Others = lookupWrapper("dlsym", reinterpret_cast<void *>(&dlsym),
                               /*ByRuntime=*/false);
  ASSERT_NE(Runtime, nullptr);
  ASSERT_NE(Others, nullptr);
  EXPECT_NE(Runtime, Others);
  EXPECT_NE(Runtime, reinterpret_cast<void *>(&dlsym));
  EXPECT_NE(lookupWrapper("dlvsym", reinterpret_cast<void *>(&dlvsym), false),
            nullptr);
  // A wrapper is not wrapped again.
  EXPECT_EQ(lookupWrapper("dlsym", Others, false), nullptr);
#endif
  EXPECT_EQ(
      lookupWrapper("dlsym", reinterpret_cast<void *>(&otherDlsym), false),
      nullptr);
  EXPECT_EQ(lookupWrapper("dlopen", reinterpret_cast<void *>(&dlopen), false),
            nullptr);
}

} // namespace
