"""Writes a source file nested deeper than clang's parser can take on an
ordinary stack (clang++-19 itself dies on these with SIGSEGV):

  deep_nesting.py KIND N OUT
    macro-args  N nested macro arguments: int v = F(F(F(...1...)));
    unary       N unary minus operators in one expression
"""
import sys

kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if kind == "macro-args":
    text = "#define F(x) x\nint v = " + "F(" * n + "1" + ")" * n + ";\n"
elif kind == "unary":
    text = "int v = " + "-" * n + "1;\n"
else:
    sys.exit("unknown kind " + kind)
open(out, "w").write(text)
