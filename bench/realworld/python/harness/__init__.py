"""The Python real-code evaluation's harness: region discovery without
capture-lint (project, regions, chains), hazard insertion (inject), running
capture-lint (lint), the per-repository report and baseline (report), and
the verdicts over the findings (precision)."""
