//===- CatalogTest.cpp - Loading and validating the API catalog -----------===//

#include "capture_lint/Catalog.h"
#include "TestAST.h"
#include "capture_lint/AstUtil.h"
#include "capture_lint/ProjectConfig.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <functional>
#include <map>

using namespace capture_lint;

namespace {

std::string loadError(const std::string &Text) {
  Catalog C;
  std::string Error;
  return C.addDocument(Text, "user.json", Error) ? "" : Error;
}

TEST(Catalog, BuiltinLoadsCleanly) {
  Catalog C;
  for (const BuiltinCatalogFile &F : builtinCatalogFiles()) {
    std::string Error;
    EXPECT_TRUE(C.addDocument(F.Text, F.Name, Error)) << Error;
  }
  EXPECT_EQ(builtinCatalogFiles().size(), 6u);
  EXPECT_GT(C.apis().size(), 150u);
  EXPECT_GE(C.regions().size(), 9u);
}

TEST(Catalog, VariantsResolveToTheirEntry) {
  Catalog C;
  C.addBuiltin();
  ASSERT_TRUE(C.findApi("cuMemAlloc_v2"));
  EXPECT_EQ(C.findApi("cuMemAlloc_v2")->Name, "cuMemAlloc");
  EXPECT_EQ(C.findApi("cudaMemcpy_ptds")->Name, "cudaMemcpy");
  EXPECT_EQ(C.findApi("cudaStreamSynchronize_ptsz")->Class, Hazard::Sync);
  EXPECT_EQ(C.findApi("cublasCreate_v2")->Class, Hazard::Allocation);
  ASSERT_TRUE(C.findRegionApi("cudaStreamBeginCapture_ptsz"));
  EXPECT_EQ(C.findRegionApi("cuStreamBeginCapture_v2")->Group, "cuda-stream");
  const RegionApi *Torch =
      C.findRegionApi("at::cuda::CUDAGraph::capture_begin");
  ASSERT_TRUE(Torch);
  EXPECT_EQ(Torch->StreamArg, -1);
  EXPECT_EQ(C.findGuard("cudaStreamIsCapturing")->StatusArg, 1);
}

TEST(Catalog, MayListKnowsTheLastNameOfEveryEntryAndVariant) {
  Catalog C;
  C.addBuiltin();
  EXPECT_TRUE(C.mayList("cudaMalloc"));
  EXPECT_TRUE(C.mayList("cuMemAlloc_v2"));         // a variant
  EXPECT_TRUE(C.mayList("capture_begin"));         // at::cuda::CUDAGraph::...
  EXPECT_TRUE(C.mayList("cudaStreamIsCapturing")); // a guard
  EXPECT_FALSE(C.mayList("axpy"));
  EXPECT_FALSE(C.mayList("CUDAGraph")); // a scope, not a name
  // A project's functions (configuration or catalog) count too.
  std::string Error;
  ASSERT_TRUE(C.addDocument(
      R"({"functions": [{"name": "engine::Pool<T>::grow", "role": "safe"}]})",
      "project.json", Error))
      << Error;
  EXPECT_TRUE(C.mayList("grow"));
}

// listedName prints a qualified name only where the catalog may list it,
// and gives the same name catalogName gives there.
TEST(Catalog, ListedNameIsCatalogNameForListedFunctionsOnly) {
  auto AST = test::parse(R"(
    namespace at { namespace cuda {
      struct CUDAGraph { void capture_begin(); };
    } }
    template <typename T> struct Box { void capture_begin(); };
    void helper();
    int cudaMalloc(void **, unsigned long);
    void user() {
      at::cuda::CUDAGraph G; G.capture_begin();
      Box<int> B; B.capture_begin();
      helper();
      cudaMalloc(nullptr, 0);
    }
  )");
  ASSERT_TRUE(AST);
  const Catalog &Cat = test::builtinCatalog();
  std::map<std::string, std::string> Listed;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S)
      return;
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S))
      if (const clang::FunctionDecl *FD = directCallee(Call))
        Listed[catalogName(FD)] = listedName(FD, Cat);
    for (const clang::Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(test::function(*AST, "user")->getBody());
  EXPECT_EQ(Listed["at::cuda::CUDAGraph::capture_begin"],
            "at::cuda::CUDAGraph::capture_begin");
  EXPECT_EQ(Listed["Box::capture_begin"], "Box::capture_begin");       // not an
  EXPECT_EQ(Cat.findRegionApi(Listed["Box::capture_begin"]), nullptr); // entry
  EXPECT_EQ(Listed["helper"], "");
  EXPECT_EQ(Listed["cudaMalloc"], "cudaMalloc");
}

TEST(Catalog, EveryEntryCitesASource) {
  Catalog C;
  C.addBuiltin();
  for (const auto &E : C.apis())
    EXPECT_FALSE(E->Source.empty()) << E->Name;
}

TEST(Catalog, ModesAreData) {
  Catalog C;
  C.addBuiltin();
  const ApiEntry *M = C.findApi("cudaMalloc");
  EXPECT_EQ(M->behaviourIn(CaptureMode::Global), Behaviour::Illegal);
  EXPECT_EQ(M->behaviourIn(CaptureMode::Relaxed), Behaviour::Eager);
  EXPECT_EQ(M->behaviourIn(CaptureMode::Unknown), Behaviour::Illegal);
  EXPECT_EQ(C.findApi("cudaMallocAsync")->behaviourIn(CaptureMode::Global),
            Behaviour::Captured);
}

TEST(Catalog, MalformedJsonNamesTheFile) {
  std::string E = loadError("{ \"apis\": [ ");
  EXPECT_NE(E.find("catalog 'user.json': malformed JSON"), std::string::npos)
      << E;
}

TEST(Catalog, MissingFieldNamesEntryAndField) {
  std::string E = loadError(R"({"apis": [{"name": "myAlloc",
    "modes": {"global": "illegal", "thread_local": "illegal",
              "relaxed": "eager"}, "message": "m", "fix": "f",
    "source": "s"}]})");
  EXPECT_EQ(E, "catalog 'user.json': apis[0] ('myAlloc'), field 'hazard': "
               "missing required field");
}

TEST(Catalog, BadValuesAndUnknownFields) {
  std::string Base = R"({"name": "x", "hazard": "%s", "modes": {"global":
    "%s", "thread_local": "legal", "relaxed": "legal"}, "source": "s",
    "message": "m", "fix": "f"%s})";
  auto Doc = [&](const char *H, const char *G, const char *Extra) {
    char Buf[1024];
    std::snprintf(Buf, sizeof Buf, Base.c_str(), H, G, Extra);
    return std::string("{\"apis\": [") + Buf + "]}";
  };
  EXPECT_NE(
      loadError(Doc("bogus", "legal", "")).find("field 'hazard': 'bogus'"),
      std::string::npos);
  EXPECT_NE(loadError(Doc("sync", "sometimes", ""))
                .find("field 'modes', field 'global': 'sometimes'"),
            std::string::npos);
  EXPECT_NE(loadError(Doc("sync", "legal", ", \"strem_arg\": 1"))
                .find("field 'strem_arg': unknown field"),
            std::string::npos);
  EXPECT_NE(loadError(R"({"apiz": []})").find("field 'apiz'"),
            std::string::npos);
  EXPECT_EQ(loadError(Doc("sync", "illegal", "")), "");
  // Python conditions (docs/python.md) are checked when loaded.
  EXPECT_EQ(loadError(Doc("rng-state", "illegal",
                          ", \"python_when\": [\"receiver:tensor\", "
                          "\"arg0:host-data\", \"keyword:device:cuda-device\", "
                          "\"no-keyword:output_size\", \"args:1\", "
                          "\"unjoined\"]")),
            "");
  EXPECT_NE(
      loadError(Doc("sync", "illegal", ", \"python_when\": [\"args:one\"]"))
          .find("expected receiver:KIND"),
      std::string::npos);
  EXPECT_NE(loadError(Doc("sync", "illegal",
                          ", \"python_when\": [\"receiver:tensr\"]"))
                .find("field 'python_when': 'receiver:tensr': unknown value "
                      "kind 'tensr'"),
            std::string::npos);
  EXPECT_NE(
      loadError(Doc("sync", "illegal", ", \"python_when\": [\"argx:tensor\"]"))
          .find("expected receiver:KIND"),
      std::string::npos);
}

TEST(Catalog, ABadDocumentChangesNothing) {
  Catalog C;
  std::string Error;
  EXPECT_FALSE(C.addDocument(
      R"({"apis": [{"name": "a", "hazard": "sync", "modes": {"global":
      "illegal", "thread_local": "illegal", "relaxed": "illegal"},
      "message": "m", "fix": "f", "source": "s"}, {"name": "b"}]})",
      "x.json", Error));
  EXPECT_EQ(C.findApi("a"), nullptr);
}

TEST(Catalog, UserEntriesOverrideBuiltin) {
  Catalog C;
  C.addBuiltin();
  std::string Error;
  ASSERT_TRUE(C.addDocument(
      R"({"apis": [{"name": "cudaMalloc", "hazard": "allocation", "modes":
      {"global": "legal", "thread_local": "legal", "relaxed": "legal"},
      "message": "m", "fix": "f", "source": "our allocator hook"}]})",
      "mine.json", Error))
      << Error;
  EXPECT_EQ(C.findApi("cudaMalloc")->behaviourIn(CaptureMode::Global),
            Behaviour::Legal);
}

TEST(Catalog, ExportLoadsAgainUnchanged) {
  Catalog C;
  C.addBuiltin();
  std::string Json = C.toJson();
  Catalog Again;
  std::string Error;
  ASSERT_TRUE(Again.addDocument(Json, "export.json", Error)) << Error;
  ASSERT_EQ(Again.apis().size(), C.apis().size());
  for (size_t I = 0; I < C.apis().size(); ++I) {
    const ApiEntry &A = *C.apis()[I], &B = *Again.apis()[I];
    EXPECT_EQ(A.Name, B.Name);
    EXPECT_EQ(A.Variants, B.Variants);
    EXPECT_EQ(A.Modes, B.Modes);
    EXPECT_EQ(A.Class, B.Class);
    EXPECT_EQ(A.Family, B.Family);
    EXPECT_EQ(A.Message, B.Message);
  }
  EXPECT_EQ(Again.regions().size(), C.regions().size());
  EXPECT_EQ(Again.guards().size(), C.guards().size());
}

TEST(Catalog, AssumptionsAreNormalisedAndOverridden) {
  EXPECT_EQ(normaliseExpression(" attn_metadata . is_decoding\n"),
            "attn_metadata.is_decoding");
  EXPECT_EQ(normaliseExpression("not   x"), "not x");
  EXPECT_EQ(normaliseExpression("a [ 0 ] . b"), "a[0].b");
  Catalog C;
  std::string Error;
  ASSERT_TRUE(C.addDocument(
      R"({"assume": [{"expr": "self . n", "value": "not None", "source": "s"},
      {"expr": "flag", "value": true, "source": "s"}]})",
      "a.json", Error))
      << Error;
  ASSERT_TRUE(C.addDocument(
      R"({"assume": [{"expr": "flag", "value": false, "source": "t"}]})",
      "b.json", Error))
      << Error;
  ASSERT_TRUE(C.findAssumption("self.n"));
  EXPECT_EQ(C.findAssumption("self.n")->Is, Assumption::NotNone);
  EXPECT_EQ(C.findAssumption("flag")->Is, Assumption::False);
  EXPECT_EQ(C.findAssumption("flag")->File, "b.json");
  Catalog Again;
  ASSERT_TRUE(Again.addDocument(C.toJson(), "export.json", Error)) << Error;
  EXPECT_EQ(Again.assumptions().size(), 2u);
  EXPECT_EQ(Again.findAssumption("self.n")->Is, Assumption::NotNone);
  EXPECT_EQ(Again.findAssumption("flag")->Is, Assumption::False);
}

TEST(Catalog, BadAssumptionsNameEntryAndField) {
  EXPECT_NE(loadError(R"({"assume": [{"expr": "x", "value": 1,
      "source": "s"}]})")
                .find("assume[0] ('x'), field 'value': '1' is not true"),
            std::string::npos);
  EXPECT_NE(loadError(R"({"assume": [{"expr": " ", "value": true,
      "source": "s"}]})")
                .find("field 'expr': must not be empty"),
            std::string::npos);
  EXPECT_NE(loadError(R"({"assume": [{"expr": "x", "value": null}]})")
                .find("field 'source': missing required field"),
            std::string::npos);
}

TEST(ProjectConfig, FoundByWalkingUp) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cl-config", Dir));
  std::string Sub = std::string(Dir) + "/a/b";
  ASSERT_FALSE(llvm::sys::fs::create_directories(Sub));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(std::string(Dir) + "/.capture-lint.json", EC);
    OS << R"({"apis": [{"name": "myPoolAlloc", "hazard": "allocation",
      "modes": {"global": "illegal", "thread_local": "illegal",
      "relaxed": "eager"}, "message": "allocates from our pool",
      "fix": "allocate before capture", "source": "team knowledge"}]})";
  }
  EXPECT_EQ(findProjectConfig(Sub + "/x.cu"),
            std::string(Dir) + "/.capture-lint.json");
  auto Cat = effectiveCatalog(Sub + "/x.cu", {});
  ASSERT_TRUE(!!Cat);
  EXPECT_TRUE((*Cat)->findApi("myPoolAlloc"));
  EXPECT_TRUE((*Cat)->findApi("cudaMalloc"));
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
