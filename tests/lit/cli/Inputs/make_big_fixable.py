"""make_big_fixable.py FIXABLE OUT N: OUT holds FIXABLE's function N times
(run0 ... runN-1), so analysing it takes long enough for something to happen
to the file meanwhile."""
import sys

text = open(sys.argv[1]).read()
start = text.index("void run")
body = text[start:]
with open(sys.argv[2], "w") as out:
    out.write(text[:start])
    for k in range(int(sys.argv[3])):
        out.write(body.replace("void run", "void run%d" % k))
