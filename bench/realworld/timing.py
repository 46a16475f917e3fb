"""--timing: capture-lint against clang++-19 -fsyntax-only, CPU time, and
(--against BINARY) against another capture-lint binary, side by side."""

import subprocess

from common import CLANG, child_cpu_seconds, essential_flags, run_lint


def time_clang(root, path, flags, binary):
    """CPU seconds and exit status of clang++-19 -fsyntax-only."""
    cmd = [CLANG, "-fsyntax-only"] + flags + essential_flags(flags, binary)
    cmd.append(path)
    start = child_cpu_seconds()
    proc = subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    return child_cpu_seconds() - start, proc.returncode


def time_pair(args, root, entry, flags):
    """Best of --repeat runs of capture-lint, of clang++ and (--against) of
    the baseline binary, interleaved so that load from other work hits all
    alike. Returns (lint, clang, clang's status, baseline or None)."""
    best_lint = best_clang = best_base = float("inf")
    crc = 0
    for _ in range(args.repeat):
        _, _, lint = run_lint(args.binary, root, entry["path"], flags,
                              entry.get("with", []))
        if args.against:
            _, _, base = run_lint(args.against, root, entry["path"], flags,
                                  entry.get("with", []))
            best_base = min(best_base, base)
        ct, crc = time_clang(root, entry["path"], flags, args.binary)
        for other in entry.get("with", []):
            ct += time_clang(root, other, flags, args.binary)[0]
        best_lint, best_clang = min(best_lint, lint), min(best_clang, ct)
    return best_lint, best_clang, crc, (best_base if args.against else None)
