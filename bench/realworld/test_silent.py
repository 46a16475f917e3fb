"""Tests of silent.py: which missed insertions silent.json explains."""

import unittest

import silent

LISTED = {
    "exit src/a.cu:10": "begin in main: leaving main ends the process",
    "dangling-local src/b.cu:20": "the graph is destroyed unlaunched",
}


class SilentTest(unittest.TestCase):
    def test_key_leaves_out_the_region(self):
        self.assertEqual(
            silent.key_of("exit src/a.cu:10 (begin region in main)"),
            "exit src/a.cu:10")

    def test_listed_misses_are_silent_and_others_unexplained(self):
        quiet, unexplained = silent.split(LISTED, [
            "exit src/a.cu:10 (begin region in main)",
            "exit src/a.cu:11 (begin region in run)",
            "dangling-local src/b.cu:20 (begin region at src/b.cu:19 in f)"])
        self.assertEqual([item for item, _ in quiet], [
            "exit src/a.cu:10 (begin region in main)",
            "dangling-local src/b.cu:20 (begin region at src/b.cu:19 in f)"])
        self.assertEqual(unexplained,
                         ["exit src/a.cu:11 (begin region in run)"])

    def test_a_listed_insertion_found_is_reported(self):
        placed = {"exit src/a.cu:10", "dangling-local src/b.cu:20"}
        self.assertEqual(
            silent.now_found(LISTED, placed,
                             ["exit src/a.cu:10 (begin region in main)"]),
            ["dangling-local src/b.cu:20"])

    def test_a_listed_insertion_not_placed_is_not_found(self):
        self.assertEqual(silent.now_found(LISTED, set(), []), [])


if __name__ == "__main__":
    unittest.main()
