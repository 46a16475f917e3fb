//===- TuConstantsTest.cpp - Values a translation unit alone decides -----===//
//
// Constant members (every constructor stores one constant, nothing else
// writes) and callers' constants (every call of a function no other file
// can call passes one constant).
//
//===----------------------------------------------------------------------===//

#include "TuConstants.h"
#include "TestAST.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "gtest/gtest.h"

using namespace capture_lint;
using namespace capture_lint::test;

namespace {

const clang::FieldDecl *field(clang::ASTUnit &AST, llvm::StringRef Class,
                              llvm::StringRef Name) {
  for (const clang::Decl *D :
       AST.getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *RD = llvm::dyn_cast<clang::CXXRecordDecl>(D))
      if (RD->getName() == Class && RD->isThisDeclarationADefinition())
        for (const clang::FieldDecl *F : RD->fields())
          if (F->getName() == Name)
            return F;
  return nullptr;
}

std::optional<int64_t> member(const std::string &Code, llvm::StringRef Class) {
  auto AST = parse(Code);
  EXPECT_TRUE(AST);
  const clang::FieldDecl *F = field(*AST, Class, "f");
  EXPECT_TRUE(F) << Class.str();
  TuConstants Constants(AST->getASTContext());
  return Constants.constantMember(F);
}

/// The value bound to parameter \p Param of \p Fn, or nullopt.
std::optional<int64_t> bound(const std::string &Code, llvm::StringRef Fn,
                             llvm::StringRef Param) {
  auto AST = parse(Code);
  EXPECT_TRUE(AST);
  const clang::FunctionDecl *FD = function(*AST, Fn);
  EXPECT_TRUE(FD) << Fn.str();
  TuConstants Constants(AST->getASTContext());
  for (const Binding &B : Constants.callerBindings(FD))
    if (B.Path.empty() && B.Param->getName() == Param)
      return B.Value;
  return std::nullopt;
}

} // namespace

TEST(TuConstants, AMemberEveryConstructorSetsToOneConstant) {
  EXPECT_EQ(member("class A { public: A() : f(false) {} A(int) : f(false) {}"
                   " private: bool f; };",
                   "A"),
            0);
  // Delegation, and copies, keep the value.
  EXPECT_EQ(member("class B { public: B() : B(1) {} B(int) : f(2) {}"
                   " B(const B &o) : f(o.f) {} private: int f; };",
                   "B"),
            2);
  // The default initializer, for defaulted and implicit constructors.
  EXPECT_EQ(
      member("class C { public: C() = default; private: int f = 3; };", "C"),
      3);
  EXPECT_EQ(member("class D2 { int f = 4; public: int g() const { return f; }"
                   " };",
                   "D2"),
            4);
}

TEST(TuConstants, NotAConstantMember) {
  // Two constructors disagree.
  EXPECT_EQ(member("class D { public: D() : f(1) {} D(int) : f(2) {}"
                   " private: int f; };",
                   "D"),
            std::nullopt);
  // A constructor defined in another file.
  EXPECT_EQ(member("class E { public: E(); private: int f = 0; };", "E"),
            std::nullopt);
  // Written after construction, or reachable through a reference.
  EXPECT_EQ(member("class F { public: F() : f(0) {} void set() { f = 1; }"
                   " private: int f; };",
                   "F"),
            std::nullopt);
  EXPECT_EQ(member("class G { public: G() : f(0) {} int &r() { return f; }"
                   " private: int f; };",
                   "G"),
            std::nullopt);
  EXPECT_EQ(
      member("class G2 { public: G2() { f = 0; } private: int f; };", "G2"),
      std::nullopt);
  // Public: any file may write it.
  EXPECT_EQ(member("struct H { H() : f(0) {} int f; };", "H"), std::nullopt);
}

TEST(TuConstants, CallersOfAStaticFunctionFixAParameter) {
  const char *Code = R"(
    static void run(int s, bool use_graph, int n) {}
    struct Net {
      Net() : graphs_(false) {}
      void step() { run(1, graphs_, 3); }
    private:
      bool graphs_;
    };
    void a(int n) { const bool off = false; run(n, off, 3); }
    void b(int n) { run(n, false, n); }
  )";
  EXPECT_EQ(bound(Code, "run", "use_graph"), 0);
  EXPECT_EQ(bound(Code, "run", "n"), std::nullopt); // b passes its own n
  EXPECT_EQ(bound(Code, "run", "s"), std::nullopt);
}

TEST(TuConstants, CallersPassTheirOwnFixedParameterOn) {
  const char *Code = R"(
    static void inner(bool g) {}
    static void outer(bool g) { inner(g); }
    void a() { outer(true); }
    void b() { outer(true); }
  )";
  EXPECT_EQ(bound(Code, "inner", "g"), 1);
}

TEST(TuConstants, CallersNotAllKnown) {
  // Visible to other files.
  EXPECT_EQ(bound("void run(bool g) {} void a() { run(false); }", "run", "g"),
            std::nullopt);
  // Its address is taken.
  EXPECT_EQ(bound("static void run(bool g) {} void a() { run(false); }"
                  " void (*p)(bool) = run;",
                  "run", "g"),
            std::nullopt);
  // The callers disagree.
  EXPECT_EQ(bound("static void run(bool g) {} void a() { run(false); }"
                  " void b() { run(true); }",
                  "run", "g"),
            std::nullopt);
  // The caller writes its parameter before passing it on.
  EXPECT_EQ(bound("static void inner(bool g) {}"
                  " static void outer(bool g) { g = !g; inner(g); }"
                  " void a() { outer(true); }",
                  "inner", "g"),
            std::nullopt);
}
