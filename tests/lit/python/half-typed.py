# A file being edited: the parser recovers, and the parts that parse still
# get findings.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
# RUN: %capture-lint --quiet --report-only %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
# WARN: capture-lint: warning: {{.*}}half-typed.py:11: does not parse completely; the parts that do are analysed
import torch


def broken(x):
    return x +


def capture(g, x):
    with torch.cuda.graph(g):
        y = x.softmax(-1)
        n = y.item()
        # CHECK: half-typed.py:[[@LINE-1]]:13: error: 'y.item()' copies a device value to the host
        z = torch.
