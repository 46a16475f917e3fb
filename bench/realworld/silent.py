"""Inserted hazards the check is rightly silent on, with the reason read
for each (silent.json). The insertion harnesses place an exit, a fork or a
local buffer after every region's begin, and some of those places are no
hazard at all: an early exit from main ends the process, a throw that
unwinds a guard ending the capture leaves nothing open, a graph destroyed
unlaunched reads no dead buffer. A miss listed here, with the reason a
reader checked in the source, is rightly silent; any other miss is
unexplained, and the report counts both. A listed miss that is now found
is printed too: the reason is out of date, or the check now reports a
place that is no hazard (a false finding to read).

silent.json: {repository: {"KIND FILE:LINE": reason}}, KIND being `exit`,
`fork` or a checkinserts kind (`dangling-local`, `host-update`, ...), FILE
and LINE the insertion's, as the baseline's `not_found` lists them."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SILENT = os.path.join(HERE, "silent.json")


def load(path=SILENT):
    """{repository: {key: reason}}."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def key_of(item):
    """The key of a `not_found` item: its kind and file:line, without the
    region's description after them."""
    return " ".join(item.split(" ")[:2])


def split(listed, missed):
    """(rightly silent [(item, reason)], unexplained [item]) of one
    repository's missed insertions."""
    silent, unexplained = [], []
    for item in missed:
        reason = listed.get(key_of(item))
        if reason:
            silent.append((item, reason))
        else:
            unexplained.append(item)
    return silent, unexplained


def now_found(listed, placed_keys, missed):
    """Listed keys of insertions placed in this run and found by it."""
    missing = {key_of(m) for m in missed}
    return sorted(k for k in listed if k in placed_keys and k not in missing)
