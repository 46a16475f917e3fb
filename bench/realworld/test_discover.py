#!/usr/bin/env python3
"""Unit tests of the text-only region discovery and hazard insertion
(python3 -m unittest discover -s bench/realworld -p 'test_*.py')."""

import os
import shutil
import tempfile
import unittest

import checkinserts
import discover
import insert
import plan as planner

SOURCE = r'''
#include <cuda_runtime.h>
#define CHECK(x) do { if ((x) != cudaSuccess) abort(); } while (0)
// cudaStreamBeginCapture(s, m) in a comment
#if 0
void dead(cudaStream_t s) { cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); }
#endif
const char *text = "cudaStreamBeginCapture(";
void helper2() { }
void helper(int n) { helper2(); }
void opener(cudaStream_t s) {
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
}
void closer(cudaStream_t s, cudaGraph_t *g) { cudaStreamEndCapture(s, g); }
void plain(cudaStream_t s, bool use) {
  cudaGraph_t g;
  if (use)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  helper(1);
  if (use) cudaStreamEndCapture(s, &g);
}
void wrapped(cudaStream_t s) {
  cudaGraph_t g;
  opener(s);
  helper(2);
  closer(s, &g);
}
bool cond(cudaStream_t s) {
  cudaGraph_t g;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return false;
  cudaStreamEndCapture(s, &g);
  return true;
}
struct Guard {
  Guard(cudaStream_t s) : s_(s) { cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); }
  ~Guard() { cudaGraph_t g; cudaStreamEndCapture(s_, &g); }
  cudaStream_t s_;
};
void raii(cudaStream_t s) {
  {
    Guard guard(s);
    helper(3);
  }
}
void checkedEnd(cudaStream_t s) {
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  helper(4);
  CHECK(cudaStreamEndCapture(s, &g))
  helper(5);
}
'''


class DiscoverTest(unittest.TestCase):
    """Regions, roles and insertion points on one small file."""

    @classmethod
    def setUpClass(cls):
        """Writes the file and discovers its regions."""
        cls.root = tempfile.mkdtemp()
        with open(os.path.join(cls.root, "a.cu"), "w") as f:
            f.write(SOURCE)
        cls.index = discover.RepoIndex(cls.root, discover.catalog_apis())
        cls.index.find_roles()
        cls.regions, cls.left_out = discover.find_regions(cls.index, "a.cu")
        cls.scan = cls.index.scan("a.cu")

    @classmethod
    def tearDownClass(cls):
        """Removes the file."""
        shutil.rmtree(cls.root)

    def line_of(self, text):
        """The 1-based line of the first line holding text."""
        return SOURCE.split("\n").index(next(
            l for l in SOURCE.split("\n") if text in l)) + 1

    def region(self, func):
        """The one region in func."""
        found = [r for r in self.regions if r.func.name == func]
        self.assertEqual(len(found), 1, found)
        return found[0]

    def test_roles(self):
        """Openers, closers and RAII constructors are found."""
        self.assertEqual(self.index.roles["opener"],
                         {discover.Role("open", "cuda-stream")})
        self.assertEqual(self.index.roles["closer"],
                         {discover.Role("close", "cuda-stream")})
        self.assertIn("Guard", self.index.raii)

    def test_regions(self):
        """Every region kind is found; comments, strings and #if 0 are not."""
        kinds = sorted((r.func.name, r.kind) for r in self.regions)
        self.assertEqual(kinds, [("Guard", "opener-tail"),
                                 ("checkedEnd", "begin"),
                                 ("cond", "begin"),
                                 ("opener", "opener-tail"),
                                 ("plain", "begin"),
                                 ("raii", "raii"),
                                 ("wrapped", "opener-call")])

    def test_unbraced_body_is_wrapped(self):
        """An unbraced if body gets braces around begin and hazard."""
        point = insert.after_begin(self.scan, self.region("plain"))
        self.assertEqual(point.wrap_line, point.line)
        self.assertEqual(point.line, self.line_of(
            "    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);"))

    def test_begin_in_condition(self):
        """A begin in an if condition: the hazard follows the whole if."""
        point = insert.after_begin(self.scan, self.region("cond"))
        self.assertEqual(point.line, self.line_of("    return false;"))
        self.assertIsNone(point.wrap_line)

    def test_callee_chain(self):
        """Calls below the region are followed to depth 2 here."""
        active = {"a.cu": set(range(1, 200))}
        finder = discover.CalleeFinder(self.index, active)
        r = self.region("wrapped")
        chain = finder.chain(self.scan, r.index, r.end_index, (r.func,))
        self.assertEqual([f.name for f in chain], ["helper", "helper2"])

    def test_edits_keep_lines(self):
        """Hazards go on existing lines; the column is reported."""
        r = self.region("plain")
        point = insert.after_begin(self.scan, r)
        path = os.path.join(self.root, "b.cu")
        shutil.copy(os.path.join(self.root, "a.cu"), path)
        edits = [e._replace(file="b.cu") for e in
                 insert.edits_for(point, "cudaDeviceSynchronize();", 7)]
        where = insert.apply_edits(path, edits)
        with open(path) as f:
            lines = f.read().split("\n")
        self.assertEqual(len(lines), len(SOURCE.split("\n")))
        line, col = where[7]
        self.assertTrue(lines[line - 1][col - 1:].startswith(
            "cudaDeviceSynchronize(); }"))
        self.assertIn("{ cudaStreamBeginCapture", lines[line - 1])

    def test_unchecked_end(self):
        """The check macro around an end is blanked (same columns) and the
        `;` its statement lacks is added: the status is discarded."""
        plan = planner.Plan()
        plan.regions = [self.region("checkedEnd")]
        plan.scans = self.index.scans
        edits = checkinserts.unchecked_end(plan, 0)
        self.assertEqual(len(edits), 3)
        path = os.path.join(self.root, "c.cu")
        shutil.copy(os.path.join(self.root, "a.cu"), path)
        where = insert.apply_edits(path, [e._replace(file="c.cu")
                                          for e in edits])
        with open(path) as f:
            lines = f.read().split("\n")
        line = self.line_of("  CHECK(cudaStreamEndCapture(s, &g))")
        self.assertEqual(lines[line - 1],
                         "       (cudaStreamEndCapture(s, &g));")
        self.assertEqual(where[(0, "unchecked-end")][0], line)

    def test_hazard_by_group(self):
        """The hazard follows the region's API group."""
        self.assertEqual(planner.hazard_stmt(["-x", "cuda"], "hip-stream"),
                         "hipDeviceSynchronize();")
        self.assertEqual(planner.hazard_stmt(["-x", "hip"], "torch-graph"),
                         "hipDeviceSynchronize();")


if __name__ == "__main__":
    unittest.main()
