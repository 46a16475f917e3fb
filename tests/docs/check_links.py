#!/usr/bin/env python3
"""Checks that every relative link in the Markdown files under a directory
(a source tree, or an installed doc directory) points at a file or folder
that exists there (issue 14, item 7: the installed README's links).

    check_links.py DIR

Links in code (fenced blocks, `spans`), to web addresses and in-page
anchors are not checked; a link's
`#anchor` part is ignored. Prints each broken link and exits 1 if any,
2 on a usage error.
"""
import os
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")


def broken_links(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            path = os.path.join(d, name)
            fenced = False
            with open(path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if line.lstrip().startswith("```"):
                        fenced = not fenced
                    if fenced:
                        continue
                    # Code spans are not links: `kernel[grid](...)`.
                    for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                            continue
                        file_part = target.split("#", 1)[0]
                        if not os.path.exists(os.path.join(d, file_part)):
                            yield "%s:%d: %s" % (os.path.relpath(path, root), n, target)


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print(__doc__, file=sys.stderr)
        return 2
    bad = list(broken_links(sys.argv[1]))
    for b in bad:
        print("broken link: " + b)
    print("%d broken links" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
