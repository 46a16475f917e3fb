//===- NativeBindingsTest.cpp - C++ functions Python calls by name --------===//
//
// What findNativeBindings takes for a binding: the m.def / m.impl calls of
// TORCH_LIBRARY and TORCH_LIBRARY_IMPL blocks (by the TorchLibraryInit
// object naming them), those of PYBIND11_MODULE's init function, and
// `extern "C"` functions; the keys both languages compute alike, and the
// bindings a summary keeps through its JSON.
//
//===----------------------------------------------------------------------===//

#include "TestAST.h"

#include "capture_lint/NativeBindings.h"
#include "capture_lint/Summary.h"
#include "capture_lint/python/PyAnalysis.h"

#include "gtest/gtest.h"

#include <map>

using namespace capture_lint;
using namespace capture_lint::test;

namespace {

// The registration API as PyTorch's and pybind11's macros expand to it,
// written out by hand (no macros: what is recognised is the expansion).
const char *Api = R"(
namespace c10 { enum class DispatchKey { CPU, CUDA, Meta, AutogradCUDA }; }
namespace torch {
struct Library {
  enum Kind { DEF, IMPL, FRAGMENT };
  template <typename S> Library &def(S &&s) & { return *this; }
  template <typename S, typename F> Library &def(S &&s, F &&f) & { return *this; }
  template <typename N, typename F> Library &impl(N &&n, F &&f) & { return *this; }
};
namespace detail {
struct TorchLibraryInit {
  TorchLibraryInit(Library::Kind, void (*)(Library &), const char *,
                   c10::DispatchKey, const char *, unsigned);
  TorchLibraryInit(Library::Kind, void (*)(Library &), const char *, int,
                   const char *, unsigned);
};
} // namespace detail
} // namespace torch
namespace pybind11 {
struct module_ {
  template <typename F> module_ &def(const char *n, F &&f) { return *this; }
};
} // namespace pybind11
struct Tensor {};
)";

const char *Code = R"(
static Tensor step_cuda(const Tensor &x) { cudaDeviceSynchronize(); return x; }
static Tensor step_cpu(const Tensor &x) { return x; }
Tensor fused(const Tensor &x);

static void init_ops(torch::Library &m) {
  m.def("step(Tensor x) -> Tensor");
  m.def("ops::fused.out(Tensor x) -> Tensor", &fused);
}
static const torch::detail::TorchLibraryInit ops_init(
    torch::Library::DEF, &init_ops, "ops", 0, "ops.cpp", 1);

static void init_cuda(torch::Library &m) { m.impl("step", &step_cuda); }
static const torch::detail::TorchLibraryInit cuda_init(
    torch::Library::IMPL, &init_cuda, "ops", c10::DispatchKey::CUDA,
    "ops.cpp", 2);

static void init_cpu(torch::Library &m) { m.impl("step", step_cpu); }
static const torch::detail::TorchLibraryInit cpu_init(
    torch::Library::IMPL, &init_cpu, "ops", c10::DispatchKey::CPU, "ops.cpp",
    3);

// Not a registrar: no TorchLibraryInit names it.
static void unused(torch::Library &m) { m.impl("lost", &step_cuda); }

void pybind11_init_fastops(pybind11::module_ &m) {
  m.def("scale", &step_cpu);
  m.def("lazy", [](int n) { cudaDeviceSynchronize(); });
}

extern "C" int flush_all(int d) { cudaDeviceSynchronize(); return d; }
extern "C" __attribute__((visibility("default"))) int version() { return 3; }
static int not_exported() { return 0; }
)";

std::map<std::string, std::vector<const NativeBinding *>>
byKey(const std::vector<NativeBinding> &Bindings) {
  std::map<std::string, std::vector<const NativeBinding *>> Out;
  for (const NativeBinding &B : Bindings)
    Out[B.Key].push_back(&B);
  return Out;
}

} // namespace

TEST(NativeBindings, OperatorsModulesAndCFunctions) {
  auto AST = parse(std::string(Api) + Code);
  ASSERT_TRUE(AST);
  std::vector<NativeBinding> Found = findNativeBindings(AST->getASTContext());
  auto Keys = byKey(Found);
  // m.def without a function binds nothing; the CUDA and the CPU kernel of
  // "step" are both bindings, told apart by their dispatch keys.
  ASSERT_EQ(Keys["torch.ops.ops.step"].size(), 2u);
  std::set<std::string> DispatchKeys;
  for (const NativeBinding *B : Keys["torch.ops.ops.step"])
    DispatchKeys.insert(B->DispatchKey);
  EXPECT_EQ(DispatchKeys, (std::set<std::string>{"CPU", "CUDA"}));
  // The namespace a schema names, and no overload in the key.
  ASSERT_EQ(Keys["torch.ops.ops.fused"].size(), 1u);
  EXPECT_EQ(Keys["torch.ops.ops.fused"].front()->How, "TORCH_LIBRARY(ops)");
  EXPECT_EQ(Keys.count("torch.ops.ops.lost"), 0u);
  ASSERT_EQ(Keys["fastops.scale"].size(), 1u);
  EXPECT_EQ(Keys["fastops.scale"].front()->How, "PYBIND11_MODULE(fastops)");
  ASSERT_EQ(Keys["fastops.lazy"].size(), 1u);
  EXPECT_TRUE(llvm::isa<clang::CXXMethodDecl>(
      Keys["fastops.lazy"].front()->Function)); // the lambda's operator()
  EXPECT_EQ(Keys["extern-c:flush_all"].size(), 1u);
  EXPECT_EQ(Keys["extern-c:version"].size(), 1u);
  EXPECT_EQ(Keys.count("extern-c:not_exported"), 0u);
}

TEST(NativeBindings, OnlyKernelsCudaTensorsReach) {
  EXPECT_TRUE(runsOnCudaTensors(""));
  EXPECT_TRUE(runsOnCudaTensors("CUDA"));
  EXPECT_TRUE(runsOnCudaTensors("AutogradCUDA"));
  EXPECT_TRUE(runsOnCudaTensors("CompositeImplicitAutograd"));
  EXPECT_TRUE(runsOnCudaTensors("Autograd"));
  EXPECT_FALSE(runsOnCudaTensors("CPU"));
  EXPECT_FALSE(runsOnCudaTensors("Meta"));
}

TEST(NativeBindings, PythonComputesTheSameKeys) {
  EXPECT_EQ(python::nativeCallKey("torch.ops.ops.step"), "torch.ops.ops.step");
  EXPECT_EQ(python::nativeCallKey("torch.ops.ops.step.default"),
            "torch.ops.ops.step");
  EXPECT_EQ(python::nativeCallKey("pkg._C.scale"), "_C.scale");
  EXPECT_EQ(python::nativeCallKey("scale"), "");
  EXPECT_EQ(python::nativeLibraryKey("flush_all"), "extern-c:flush_all");
}

TEST(NativeBindings, SummariesKeepThemThroughJson) {
  auto AST = parse(std::string(Api) + Code);
  ASSERT_TRUE(AST);
  TuSummary S = summarizeTranslationUnit(AST->getASTContext(), builtinCatalog(),
                                         {}, "/src");
  // The static kernels are summarised because they are bound.
  bool StepCuda = false;
  for (const SummaryFunction &F : S.Functions)
    StepCuda = StepCuda || F.Name == "step_cuda";
  EXPECT_TRUE(StepCuda);
  TuSummary Back = tuSummaryFromJson(toJson(S));
  ASSERT_EQ(Back.Bindings.size(), S.Bindings.size());
  for (size_t I = 0; I < S.Bindings.size(); ++I) {
    EXPECT_EQ(Back.Bindings[I].Key, S.Bindings[I].Key);
    EXPECT_EQ(Back.Bindings[I].Usr, S.Bindings[I].Usr);
    EXPECT_EQ(Back.Bindings[I].DispatchKey, S.Bindings[I].DispatchKey);
    EXPECT_EQ(Back.Bindings[I].Loc.Offset, S.Bindings[I].Loc.Offset);
  }
}
