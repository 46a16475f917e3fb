"""Prints the fenced code block of a Markdown file whose first line is
FIRST_LINE, so a test runs a recipe exactly as the docs show it.

  doc_block.py DOC FIRST_LINE
"""
import sys


def main():
    doc, first = sys.argv[1], sys.argv[2]
    block, found = None, None
    for line in open(doc, encoding="utf-8"):
        line = line.rstrip("\n")
        if block is None and line.startswith("```"):
            block = []
        elif block is not None and line.startswith("```"):
            if block and block[0] == first:
                found = block
                break
            block = None
        elif block is not None:
            block.append(line)
    if found is None:
        sys.exit("doc_block.py: %s has no code block starting '%s'"
                 % (doc, first))
    print("\n".join(found))


if __name__ == "__main__":
    main()
