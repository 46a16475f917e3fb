//===- DocumentMirrorTest.cpp - capture-clangd's copy of open documents ---===//
//
// LSP positions count UTF-16 units per line; a change outside the document
// is applied clamped into it and sent on as the whole text (issue 24, item
// 13); valid changes and malformed messages go on untouched.
//
//===----------------------------------------------------------------------===//

#include "DocumentMirror.h"
#include <gtest/gtest.h>

using namespace capture_lint;
using nlohmann::json;

namespace {

json open(const std::string &Text) {
  return {{"method", "textDocument/didOpen"},
          {"params",
           {{"textDocument", {{"uri", "file:///a.cu"}, {"text", Text}}}}}};
}

json change(int SL, int SC, int EL, int EC, const std::string &Text) {
  json Range = {{"start", {{"line", SL}, {"character", SC}}},
                {"end", {{"line", EL}, {"character", EC}}}};
  return {{"method", "textDocument/didChange"},
          {"params",
           {{"textDocument", {{"uri", "file:///a.cu"}, {"version", 2}}},
            {"contentChanges", {{{"range", Range}, {"text", Text}}}}}}};
}

} // namespace

TEST(DocumentMirror, PositionsCountUtf16UnitsAndClampIntoTheText) {
  // "é" is 2 bytes and 1 unit, the emoji 4 bytes and 2 units.
  std::string T = "a\xC3\xA9z\n\xF0\x9F\x98\x80x\nlast";
  size_t Off;
  EXPECT_TRUE(offsetOfPosition(T, 0, 2, Off));
  EXPECT_EQ(Off, 3u); // after "aé"
  EXPECT_TRUE(offsetOfPosition(T, 1, 2, Off));
  EXPECT_EQ(Off, 9u); // after the emoji
  EXPECT_TRUE(offsetOfPosition(T, 1, 3, Off));
  EXPECT_EQ(Off, 10u);
  EXPECT_FALSE(offsetOfPosition(T, 0, 9, Off));
  EXPECT_EQ(Off, 4u); // the end of line 0, before its newline
  EXPECT_FALSE(offsetOfPosition(T, 7, 0, Off));
  EXPECT_EQ(Off, T.size());
  EXPECT_TRUE(offsetOfPosition(T, 2, 4, Off));
  EXPECT_EQ(Off, T.size());
  EXPECT_FALSE(offsetOfPosition(T, -1, 0, Off));
}

TEST(DocumentMirror, ValidChangesAreFollowedAndPassedOn) {
  DocumentMirror M;
  std::string W;
  EXPECT_FALSE(M.observe(open("one\ntwo\n"), W));
  EXPECT_FALSE(M.observe(change(1, 0, 1, 3, "TWO"), W));
  EXPECT_EQ(M.text("file:///a.cu"), std::optional<std::string>("one\nTWO\n"));
  EXPECT_TRUE(W.empty());
}

TEST(DocumentMirror, AChangeOutsideTheDocumentBecomesTheWholeText) {
  DocumentMirror M;
  std::string W;
  M.observe(open("one\ntwo\n"), W);
  auto Fixed = M.observe(change(0, 50, 0, 60, "!"), W);
  ASSERT_TRUE(Fixed);
  const json &Changes = (*Fixed)["params"]["contentChanges"];
  ASSERT_EQ(Changes.size(), 1u);
  EXPECT_FALSE(Changes[0].contains("range"));
  EXPECT_EQ(Changes[0]["text"], "one!\ntwo\n");
  EXPECT_NE(W.find("line 0, character 50"), std::string::npos) << W;
  // A reversed range is the text between its ends.
  W.clear();
  Fixed = M.observe(change(1, 0, 0, 4, ""), W);
  ASSERT_TRUE(Fixed);
  EXPECT_EQ((*Fixed)["params"]["contentChanges"][0]["text"], "one!two\n");
  EXPECT_EQ(M.text("file:///a.cu"), std::optional<std::string>("one!two\n"));
}

TEST(DocumentMirror, MalformedAndUnknownMessagesGoOnUntouched) {
  DocumentMirror M;
  std::string W;
  EXPECT_FALSE(M.observe(json("not an object"), W));
  EXPECT_FALSE(M.observe({{"method", 7}}, W));
  EXPECT_FALSE(M.observe(change(0, 50, 0, 60, "x"), W)); // never opened
  M.observe(open("abc"), W);
  json Bad = change(0, 0, 0, 1, "x");
  Bad["params"]["contentChanges"][0]["range"]["start"]["line"] = "zero";
  EXPECT_FALSE(M.observe(Bad, W)); // clangd answers it
  M.observe({{"method", "textDocument/didClose"},
             {"params", {{"textDocument", {{"uri", "file:///a.cu"}}}}}},
            W);
  EXPECT_FALSE(M.text("file:///a.cu"));
  EXPECT_TRUE(W.empty());
}
