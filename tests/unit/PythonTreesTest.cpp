//===- PythonTreesTest.cpp - Parse trees' memory and the call-site scan ---===//

#include "PyCallSites.h"
#include "PySource.h"
#include "TreeArena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

using namespace capture_lint::python;

namespace {
/// The calls a walk of the whole tree finds whose callee, parentheses
/// stripped, is `Name` or `X.Name`, in the walk's order: what the scan
/// must agree with.
std::vector<TSNode> walkedCalls(const PySource &S, llvm::StringRef Name) {
  std::vector<TSNode> Out;
  visitNamed(S.root(), [&](TSNode N) {
    if (is(N, "call")) {
      TSNode Callee = stripParens(field(N, "function"));
      if (is(Callee, "attribute"))
        Callee = field(Callee, "attribute");
      if (is(Callee, "identifier") && S.text(Callee) == Name)
        Out.push_back(N);
    }
    return VisitNext::Into;
  });
  return Out;
}

std::vector<std::string> texts(const PySource &S,
                               const std::vector<TSNode> &Nodes) {
  std::vector<std::string> Out;
  for (TSNode N : Nodes)
    Out.push_back(S.text(N).str());
  return Out;
}
} // namespace

TEST(PyCallSites, FindsWhatAWalkFindsInTheWalksOrder) {
  PySource S("m.py", "r = Runner(x)\n"
                     "q = pkg.Runner(y)\n"
                     "p = (Runner)(z)\n"
                     "o = f(Runner  # a comment\n"
                     "      (w))\n"
                     "n = Runner \\\n"
                     "    (v)\n"
                     "s = \"Runner(not a call)\"  # Runner(nor this)\n"
                     "t = Runner.method(u)\n"
                     "u = Runner(Runner(a)).Runner(b)\n"
                     "Runners(c)\n"
                     "class Runner: pass\n");
  PyCallSites Sites(S);
  std::vector<TSNode> Found = Sites.callsNamed("Runner");
  EXPECT_EQ(texts(S, Found), texts(S, walkedCalls(S, "Runner")));
  EXPECT_EQ(Found.size(), 8u);
  // The enclosing call first, as a walk meets them.
  EXPECT_EQ(S.text(Found[5]), "Runner(Runner(a)).Runner(b)");
  EXPECT_EQ(S.text(Found[6]), "Runner(Runner(a))");
  EXPECT_EQ(texts(S, Sites.callsNamed("method")),
            std::vector<std::string>{"Runner.method(u)"});
  EXPECT_TRUE(Sites.callsNamed("absent").empty());
}

TEST(PyCallSites, NumbersAndLongerNamesAreNotTheName) {
  PySource S("m.py", "x = 1e5(2)\nxRunner(1)\nRunner_(2)\n_Runner(3)\n");
  PyCallSites Sites(S);
  EXPECT_TRUE(Sites.callsNamed("Runner").empty());
  EXPECT_TRUE(Sites.callsNamed("e5").empty());
}

TEST(TreeArena, BlocksAreAlignedAndOnlyTheLastGrowsOrShrinks) {
  TreeArena A;
  char *P = static_cast<char *>(A.allocate(24));
  char *Q = static_cast<char *>(A.allocate(8));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(P) % 16, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(Q) % 16, 0u);
  EXPECT_FALSE(A.growLast(P, 24, 64)); // Q follows it
  EXPECT_TRUE(A.growLast(Q, 8, 100));
  A.releaseLast(Q, 100);
  EXPECT_EQ(A.allocate(8), Q); // its space is taken again
  A.releaseLast(P, 24);        // not the last: stays
  EXPECT_NE(A.allocate(8), P);
}

TEST(TreeArena, LargeTreesParseAndOutliveTheParse) {
  std::string Text;
  for (int I = 0; I < 20000; ++I)
    Text += "def f" + std::to_string(I) + "(x):\n    return g(x, [1, 2])\n";
  PySource S("big.py", Text);
  EXPECT_FALSE(S.hasErrors());
  unsigned Defs = 0;
  for (TSNode N : namedChildren(S.root())) // a cursor, after the parse
    Defs += is(N, "function_definition");
  EXPECT_EQ(Defs, 20000u);
  PySource Broken("bad.py", "def f(:\n  return None, *(None,) * 2\n");
  EXPECT_TRUE(Broken.hasErrors());
}
