//===- ReportTest.cpp - Report JSON round trip and summary ----------------===//

#include "capture_probe/Report.h"
#include "capture_probe/CaptureTracker.h"
#include <chrono>
#include <cstdio>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace capture_probe;

namespace {
ProbeReport sampleReport() {
  std::vector<Event> Ev(4);
  Ev[0].Seq = 1;
  Ev[0].Kind = EventKind::BeginCapture;
  Ev[0].Api = "cudaStreamBeginCapture";
  Ev[0].Stream = 7;
  Ev[0].NonBlocking = false;
  Ev[1].Seq = 2;
  Ev[1].Api = "cudaMalloc";
  Ev[1].Result = 900;
  Ev[1].ResultName = "cudaErrorStreamCaptureUnsupported";
  Ev[1].Frames = {"/x/prog+0x1234"};
  Ev[2].Seq = 3;
  Ev[2].Api = "cudaLaunchKernel";
  Ev[2].Result = 901;
  Ev[3].Seq = 4;
  Ev[3].Kind = EventKind::EndCapture;
  Ev[3].Api = "cudaStreamEndCapture";
  Ev[3].Stream = 7;
  Ev[3].Result = 901;
  ProbeReport R;
  R.Backend = "cuda";
  R.Program = {"./prog", "--flag"};
  R.ExitStatus = 0;
  R.Captures = trackCaptures(Ev, ApiCatalog::builtin());
  SourceFrame F;
  F.Function = "step()";
  F.File = "/src/step.cu";
  F.Line = 12;
  F.Module = "/x/prog";
  F.Raw = "/x/prog+0x1234";
  R.Captures[0].Calls[0].Site = F;
  R.Captures[0].Calls[0].Stack = {F};
  R.Divergences.push_back({1, 2, "out", 4, 16, 3});
  CallRecord Free, Launch;
  Free.Api = "cudaFree";
  Free.Node = "kernel node 1 of 1 (scale), argument 2";
  Launch.Api = "cudaGraphLaunch";
  R.Captures[0].StaleFree = Free;
  R.Captures[0].StaleLaunch = Launch;
  return R;
}
} // namespace

TEST(Report, RoundTripsThroughJson) {
  ProbeReport R = sampleReport();
  nlohmann::json J = toJson(R);
  EXPECT_EQ(J["format"], "capture-probe-report");
  ProbeReport Back;
  std::string Error;
  ASSERT_TRUE(fromJson(nlohmann::json::parse(J.dump()), Back, Error)) << Error;
  EXPECT_EQ(toJson(Back), J);
  ASSERT_EQ(Back.Captures.size(), 1u);
  const CallRecord &M = Back.Captures[0].Calls[0];
  EXPECT_TRUE(M.FirstError);
  ASSERT_TRUE(M.Site.has_value());
  EXPECT_EQ(M.Site->Line, 12u);
  EXPECT_EQ(Back.Divergences[0].DifferingBytes, 3u);
  EXPECT_TRUE(Back.allClasses().count(classes::Divergence));
  ASSERT_TRUE(Back.Captures[0].StaleFree.has_value());
  EXPECT_EQ(Back.Captures[0].StaleFree->Node,
            "kernel node 1 of 1 (scale), argument 2");
  EXPECT_EQ(J["captures"][0]["stale_free"]["node"],
            "kernel node 1 of 1 (scale), argument 2");
}

// Each distinct stack is written once and named by the calls that share it;
// a report from before the table (stacks written in the calls) still reads.
TEST(Report, SharedStacksAreWrittenOnce) {
  ProbeReport R = sampleReport();
  CallRecord Again = R.Captures[0].Calls[0];
  Again.Seq = 9;
  R.Captures[0].Calls.push_back(Again);
  nlohmann::json J = toJson(R);
  ASSERT_EQ(J["stacks"].size(), 1u);
  EXPECT_EQ(J["captures"][0]["calls"][0]["stack_ref"], 0);
  EXPECT_EQ(J["captures"][0]["calls"].back()["stack_ref"], 0);
  EXPECT_FALSE(J["captures"][0]["calls"][0].contains("stack"));
  ProbeReport Back;
  std::string Error;
  ASSERT_TRUE(fromJson(J, Back, Error)) << Error;
  EXPECT_EQ(Back.Captures[0].Calls.back().Stack[0].Line, 12u);
  EXPECT_EQ(Back.Captures[0].Calls.back().Frames,
            std::vector<std::string>{"/x/prog+0x1234"});

  nlohmann::json Inline = J;
  nlohmann::json &Call = Inline["captures"][0]["calls"][0];
  Call.erase("stack_ref");
  Call["stack"] = J["stacks"][0]["stack"];
  Call["frames"] = J["stacks"][0]["frames"];
  ASSERT_TRUE(fromJson(Inline, Back, Error)) << Error;
  EXPECT_EQ(Back.Captures[0].Calls[0].Stack[0].File, "/src/step.cu");

  J["captures"][0]["calls"][0]["stack_ref"] = 5u;
  EXPECT_FALSE(fromJson(J, Back, Error));
  EXPECT_NE(Error.find("'stack_ref' 5 names no row of 'stacks' (1 rows)"),
            std::string::npos)
      << Error;
}

TEST(Report, RejectsWhatIsNotAReport) {
  ProbeReport R;
  std::string Error;
  EXPECT_FALSE(
      fromJson(nlohmann::json::parse(R"({"captures": []})"), R, Error));
  EXPECT_NE(Error.find("not a capture-probe report"), std::string::npos);
  EXPECT_FALSE(
      fromJson(nlohmann::json::parse(
                   R"({"format": "capture-probe-report", "version": 9})"),
               R, Error));
  EXPECT_NE(Error.find("version"), std::string::npos);
  EXPECT_FALSE(fromJson(nlohmann::json::parse(
                            R"({"format": "capture-probe-report", "version": 1,
                                "captures": [{"id": "x"}]})"),
                        R, Error));
  EXPECT_EQ(Error, "'captures[0].id': expected a non-negative integer, "
                   "found \"x\"");
  EXPECT_FALSE(fromJson(nlohmann::json::parse(
                            R"({"format": "capture-probe-report", "version": 1,
                                "captures": [{"id": 1e30}]})"),
                        R, Error));
  EXPECT_NE(Error.find("'captures[0].id': expected a non-negative integer"),
            std::string::npos)
      << Error;
  // Every field fromJson reads is checked first: a wrong type deep in a
  // field capture-lint's old shape check did not know is named too.
  EXPECT_FALSE(fromJson(nlohmann::json::parse(
                            R"({"format": "capture-probe-report", "version": 1,
                                "captures": [{"id": 1, "begin": {"seq": 1,
                                "api": "a", "result": 0}, "stale_free":
                                {"seq": 2, "api": "cudaFree", "result": 0,
                                 "python_stack": [{"line": "7"}]}}]})"),
                        R, Error));
  EXPECT_EQ(Error, "'captures[0].stale_free.python_stack[0].line': expected "
                   "a non-negative integer, found \"7\"");
  EXPECT_FALSE(fromJson(
      nlohmann::json::parse(R"({"format": 7, "version": 1.5})"), R, Error));
  EXPECT_NE(Error.find("not a capture-probe report"), std::string::npos);
  EXPECT_FALSE(readReport("/no/such/report.json", R, Error));
}

TEST(Report, ReadsOnlyRegularFiles) {
  // capture-probe show on a directory aborted, on a FIFO it blocked
  // (issue 24, item 6).
  std::string Base =
      testing::TempDir() + "/special." + std::to_string(getpid());
  std::string Dir = Base + ".dir.json", Fifo = Base + ".fifo.json";
  ASSERT_EQ(mkdir(Dir.c_str(), 0755), 0);
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0644), 0);
  ProbeReport R;
  std::string Error;
  EXPECT_FALSE(readReport(Dir, R, Error));
  EXPECT_EQ(Error, "'" + Dir + "' is a directory, not a regular file");
  EXPECT_FALSE(readReport(Fifo, R, Error));
  EXPECT_EQ(Error, "'" + Fifo + "' is a FIFO, not a regular file");
  rmdir(Dir.c_str());
  std::remove(Fifo.c_str());
}

TEST(Report, ADeepDocumentIsCheckedInLinearTime) {
  // A path string per node made a 100,000-deep unknown field take seconds;
  // the path of the first fraction is still named.
  constexpr size_t Depth = 200000;
  std::string Text = R"({"format": "capture-probe-report", "version": 1,
                         "captures": [], "x": )" +
                     std::string(Depth, '[') + "1.5" + std::string(Depth, ']') +
                     "}";
  nlohmann::json J = nlohmann::json::parse(Text);
  auto Start = std::chrono::steady_clock::now();
  ProbeReport R;
  std::string Error;
  EXPECT_FALSE(fromJson(J, R, Error));
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(5));
  EXPECT_EQ(Error.substr(0, 7), "'x[0][0");
  EXPECT_EQ(Error.size(), 1 + 1 + 3 * Depth + 19);
}

TEST(Report, SummaryNamesTheFirstErrorAndItsSite) {
  std::string S = summarize(sampleReport());
  EXPECT_NE(S.find("capture 1 (global mode, blocking stream"),
            std::string::npos)
      << S;
  EXPECT_NE(
      S.find("cudaMalloc -> cudaErrorStreamCaptureUnsupported (900) "
             "[allocation, error, first error] at /src/step.cu:12 in step()"),
      std::string::npos)
      << S;
  EXPECT_NE(S.find("divergence: replay 2 of capture 1"), std::string::npos);
}
