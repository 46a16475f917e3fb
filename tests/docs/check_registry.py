#!/usr/bin/env python3
"""Checks that every check in the registry (checks/registry/Checks.def) has
what a check needs, and that nothing lists a check the registry does not:

  - its docs page, docs/checks/NAME.md, opening with its title `# NAME`
    and holding each `## ` section once (a damaged edit that repeats or
    loses sections shows), and no page without a row;
  - for a C++ check, a lit fixture tests/lit/checks/STEM.{cu,cpp,hip} that
    expects a diagnostic (a CHECK line with error:, warning: or remark:);
  - for a Python check, such a fixture tests/lit/python/STEM.py, and its row
    in docs/python.md's table;
  - its row in the README's table of checks, with the registry's text;
  - for a C++ check, its row in the table atop checks/core/lib/rules/Rules.h
    naming its rule files, each of which exists there; for a Python check,
    the same in checks/python/lib/rules/;
  - every check name the Python analysis emits is a Python row.

STEM is NAME without "capture-". Prints one line per problem and exits 1
when there is any, else prints the number of checks and exits 0.

  tests/docs/check_registry.py ROOT
"""
import os
import re
import sys

ROW = re.compile(
    r'CAPTURE_CHECK\((\w+),\s*"(capture-[a-z-]+)",\s*([01]),\s*([01]),\s*'
    r'(\w+),\s*(\w+),(.*?)\)\s*$', re.S | re.M)


def arguments(text):
    """The string arguments of a row: adjacent literals joined, as C++
    joins them (a long text is split over lines)."""
    args = []
    for tok in re.finditer(r'"((?:[^"\\]|\\.)*)"|,', text):
        if tok.group(0) == ",":
            args.append("")
        elif args:
            args[-1] += tok.group(1).replace('\\"', '"')
        else:
            args.append(tok.group(1).replace('\\"', '"'))
    return [a for a in args if a]


def rows(root):
    path = os.path.join(root, "checks", "registry", "Checks.def")
    with open(path) as f:
        text = f.read()
    out = []
    for m in ROW.finditer(text):
        args = arguments(m.group(7))
        out.append({"kind": m.group(1), "name": m.group(2),
                    "cpp": m.group(3) == "1", "python": m.group(4) == "1",
                    "owns": m.group(5), "severity": m.group(6),
                    "finds": args[-1] if args else ""})
    return out


def read(root, *parts):
    path = os.path.join(root, *parts)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        return f.read()


EXPECTS = re.compile(r"CHECK[-A-Z]*:.*\b(error|warning|remark):")


RULE_ROW = re.compile(r"^//\s+(capture-[a-z-]+(?:,\s*capture-[a-z-]+)*)"
                      r"\s+(\S.*)$")


def rule_files(root, *rules_dir):
    """{check name: [rule files]} from the table atop ROOT/RULES_DIR/Rules.h
    (a row's files may go on in the lines below it)."""
    text = read(root, *rules_dir, "Rules.h") or ""
    out, last = {}, None
    for line in text.split("\n"):
        if not line.startswith("//"):
            break
        m = RULE_ROW.match(line)
        if m:
            last = [n.strip() for n in m.group(1).split(",")]
            files = re.findall(r"(\w+\.cpp)", m.group(2))
        elif last and re.match(r"^//\s{10,}\S", line):
            files = re.findall(r"(\w+\.cpp)", line)
        else:
            last = None
            continue
        for n in last:
            out.setdefault(n, []).extend(files)
    return out


def missing_rules(root, name, rules, rules_dir):
    """What is missing of NAME's rule files in RULES_DIR."""
    where = "/".join(rules_dir)
    files = rules.get(name, [])
    if not files:
        return [f"{name}: no row in the table of rule files atop "
                f"{where}/Rules.h"]
    return [f"{name}: its rule file {where}/{fn} does not exist"
            for fn in files if read(root, *rules_dir, fn) is None]


def expects_diagnostic(text):
    return bool(text and EXPECTS.search(text))


def page_problems(name, page):
    """What is wrong with the shape of check NAME's docs page."""
    out = []
    if not page.startswith(f"# {name}\n"):
        out.append(f"docs/checks/{name}.md: does not open with '# {name}'")
    sections = re.findall(r"^## (.+)$", page, re.M)
    for title in sorted({t for t in sections if sections.count(t) > 1}):
        out.append(f"docs/checks/{name}.md: section '## {title}' appears "
                   f"{sections.count(title)} times")
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    checks = rows(root)
    problems = []
    if not checks:
        problems.append("checks/registry/Checks.def: no CAPTURE_CHECK rows")
    names = {c["name"] for c in checks}
    readme = read(root, "README.md") or ""
    python_doc = read(root, "docs", "python.md") or ""
    cpp_rules_dir = ("checks", "core", "lib", "rules")
    py_rules_dir = ("checks", "python", "lib", "rules")
    rules = rule_files(root, *cpp_rules_dir)
    py_rules = rule_files(root, *py_rules_dir)
    for c in checks:
        name, stem = c["name"], c["name"][len("capture-"):]
        page = read(root, "docs", "checks", name + ".md")
        if page is None:
            problems.append(f"{name}: no docs page docs/checks/{name}.md")
        else:
            problems += page_problems(name, page)
        if c["cpp"]:
            fixtures = [read(root, "tests", "lit", "checks", stem + ext)
                        for ext in (".cu", ".cpp", ".hip")]
            if not any(expects_diagnostic(f) for f in fixtures):
                problems.append(
                    f"{name}: no C++ fixture tests/lit/checks/{stem}.cu "
                    f"(or .cpp, .hip) expecting a diagnostic")
            problems += missing_rules(root, name, rules, cpp_rules_dir)
        if c["python"]:
            fixture = read(root, "tests", "lit", "python", stem + ".py")
            if not expects_diagnostic(fixture):
                problems.append(f"{name}: no Python fixture "
                                f"tests/lit/python/{stem}.py expecting a "
                                f"diagnostic")
            problems += missing_rules(root, name, py_rules, py_rules_dir)
            if f"[{name}](checks/{name}.md)" not in python_doc:
                problems.append(f"{name}: no row in docs/python.md's table")
        row = f"| [{name}](docs/checks/{name}.md) | {c['finds']} |"
        if row not in readme:
            problems.append(f"{name}: the README's table lacks the row {row}")
    pages = os.listdir(os.path.join(root, "docs", "checks"))
    for page in sorted(pages):
        if page.endswith(".md") and page[:-3] not in names:
            problems.append(f"docs/checks/{page}: no registry row")
    for m in re.finditer(r"\| \[(capture-[a-z-]+)\]\(docs/checks/", readme):
        if m.group(1) not in names:
            problems.append(f"README.md: {m.group(1)} has no registry row")
    python_src = os.path.join(root, "checks", "python")
    emitted = set()
    for dirpath, _, files in os.walk(python_src):
        for fn in files:
            if fn.endswith((".cpp", ".h")):
                text = read(dirpath, fn) or ""
                emitted.update(re.findall(r'"(capture-[a-z-]+)"', text))
    for name in sorted(emitted):
        row = next((c for c in checks if c["name"] == name), None)
        if not row or not row["python"]:
            problems.append(f"checks/python emits {name}, which is no "
                            f"Python row of the registry")
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"registry: {len(checks)} checks, each with its docs page, "
          f"fixtures, rule files and README row")
    return 0


if __name__ == "__main__":
    sys.exit(main())
