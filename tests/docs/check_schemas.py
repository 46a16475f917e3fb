#!/usr/bin/env python3
"""Checks the JSON Schemas in checks/schemas/ against the files they
describe and against the C++ readers (issue 25, item 5):

  catalog.schema.json   every built-in catalog (checks/catalog/*.json), every
                        catalog and .capture-lint.json under tests/, the fuzz
                        seeds of the catalog reader, and the catalog
                        `capture-lint --export-catalog` writes: the schema
                        accepts exactly the files the reader accepts
                        (`capture-lint --catalog FILE --list-checks`).

                        Mutations of valid files (a required field removed,
                        an unknown field added, a value of the wrong type or
                        out of its set or range) must be rejected by both.

  probe-report.schema.json
                        the reports in the tests (tests/lit/cli/Inputs/confirm)
                        and, given CAPTURE_PROBE, one it writes for a synthetic
                        run (captures, repeats, eager work): each is valid; the
                        probe-report fuzz seeds that capture-probe refuses
                        (`capture-probe show`) are invalid.

  cache-entry.schema.json
                        every cache entry `capture-lint -p` writes for the
                        whole-program tests' inputs (tests/lit/cli/Inputs:
                        wholeprogram, constants-across, overrides, roles).

  summary-file.schema.json
                        every summary `capture-lint summarize` writes for
                        those inputs' sources.

  event-log.schema.json given CAPTURE_PROBE: every line of a log the probe's
                        own writer wrote (capture-probe-unittests beside it,
                        one event of each kind with every field) and of the
                        synthetic log bench/probe_reader.py writes for the
                        probe's benchmark.

Prints one line per file ("ok", or what disagrees) and exits 1 on any
disagreement.

  tests/docs/check_schemas.py ROOT CAPTURE_LINT [CAPTURE_PROBE]
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


def schema_verdict(validator, path):
    """(accepted, why) by the schema."""
    try:
        with open(path, "rb") as f:
            doc = json.loads(f.read().decode("utf-8"),
                             parse_constant=lambda c: float("nan"))
    except (ValueError, UnicodeDecodeError) as e:
        return False, "not JSON (%s)" % str(e)[:80]
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        return False, "/".join(str(p) for p in e.path) + ": " + e.message[:100]
    return True, ""


def reader_verdict(binary, path):
    """(accepted, why) by capture-lint's catalog reader."""
    proc = subprocess.run([binary, "--catalog", path, "--list-checks"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return proc.returncode == 0, proc.stderr.decode(errors="replace")[:160]


def mutations(doc):
    """(what, mutated document) pairs: each entry kind's first entry broken
    one way at a time."""
    import copy
    out = []

    def variant(what, section, change):
        d = copy.deepcopy(doc)
        if d.get(section):
            change(d[section][0])
            out.append((section + ": " + what, d))

    for section, required in (("apis", ["name", "hazard", "modes", "source"]),
                              ("regions", ["name", "role", "group",
                                           "source"]),
                              ("guards", ["name", "status_arg", "none_values",
                                          "source"]),
                              ("functions", ["name", "role"]),
                              ("assume", ["expr", "value", "source"])):
        for field in required:
            variant("without " + field, section,
                    lambda e, f=field: e.pop(f, None))
        variant("an unknown field", section,
                lambda e: e.__setitem__("colour", "blue"))
        variant("a number for the name", section,
                lambda e: e.__setitem__("name" if "name" in e else "expr", 7))
    variant("an unknown hazard", "apis",
            lambda e: e.__setitem__("hazard", "sometimes"))
    variant("an unknown behaviour", "apis",
            lambda e: e["modes"].__setitem__("relaxed", "maybe"))
    variant("a stream index out of range", "apis",
            lambda e: e.__setitem__("stream_arg", {"index": 65}))
    variant("an unknown role", "regions",
            lambda e: e.__setitem__("role", "pause"))
    variant("a status index below -1", "guards",
            lambda e: e.__setitem__("status_arg", -2))
    variant("an empty variant", "apis",
            lambda e: e.__setitem__("variants", [""]))
    d = copy.deepcopy(doc)
    d["colour"] = "blue"
    out.append(("an unknown top-level field", d))
    return out


def check_reports(root, probe, tmp):
    """Probe reports against probe-report.schema.json: the number of
    disagreements."""
    with open(os.path.join(root, "checks", "schemas",
                           "probe-report.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    expect = [(f, True) for f in sorted(glob.glob(os.path.join(
        root, "tests", "lit", "cli", "Inputs", "confirm", "*.json")))]
    if probe:
        written = os.path.join(tmp, "written-report.json")
        subprocess.run([probe, "run", "--quiet", "--report", written, "--",
                        sys.executable,
                        os.path.join(root, "bench", "probe_reader.py"),
                        "--write-log", "2000", "--mix", "captures"],
                       check=True)
        expect.append((written, True))
        for seed in sorted(glob.glob(os.path.join(
                root, "tests", "fuzz", "corpus", "probe-report", "*"))):
            shown = subprocess.run([probe, "show", seed],
                                   stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
            expect.append((seed, shown.returncode == 0))
    bad = 0
    for path, valid in expect:
        name = os.path.relpath(path, root) if path.startswith(root) \
            else "a report capture-probe run wrote"
        ours, why = schema_verdict(validator, path)
        if ours == valid:
            print("ok   %s (%s)" % (name, "valid" if ours else "invalid"))
            continue
        bad += 1
        print("DIFF %s: the schema %s it%s" % (
            name, "accepts" if ours else "rejects",
            "" if ours else " (" + why + ")"))
    print("%d probe reports, %d disagreements" % (len(expect), bad))
    return bad


def said_invalid(validator, path, name):
    """Prints the schema's verdict on the file at PATH (named NAME): 1 when
    it rejects it, else 0."""
    ours, why = schema_verdict(validator, path)
    if ours:
        print("ok   %s (valid)" % name)
        return 0
    print("DIFF %s: the schema rejects it (%s)" % (name, why))
    return 1


def check_cache_entries(root, binary, tmp):
    """The entries a -p run writes, against cache-entry.schema.json: the
    number of invalid ones."""
    with open(os.path.join(root, "checks", "schemas",
                           "cache-entry.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    inputs = os.path.join(root, "tests", "lit", "cli", "Inputs")
    mock = os.path.join(root, "tests", "Inputs", "mock")
    bad = checked = 0
    for project in ("wholeprogram", "constants-across", "overrides",
                    "roles"):
        template = os.path.join(inputs, project, "compile_commands.json.in")
        if not os.path.isfile(template):
            continue
        work = os.path.join(tmp, "cache-" + project)
        import shutil
        shutil.copytree(os.path.join(inputs, project), work)
        with open(template) as f:
            db = f.read().replace("@DIR@", work).replace("@MOCK@", mock)
        with open(os.path.join(work, "compile_commands.json"), "w") as f:
            f.write(db)
        subprocess.run([binary, "--quiet", "-p", work],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for entry in sorted(glob.glob(os.path.join(
                work, ".capture-lint-cache", "*.json"))):
            checked += 1
            bad += said_invalid(validator, entry, "cache entry %s/%s" % (
                project, os.path.basename(entry)))
    print("%d cache entries, %d invalid" % (checked, bad))
    return bad if checked else 1


def check_summary_files(root, binary, tmp):
    """The summaries `summarize` writes for the whole-program tests'
    sources, against summary-file.schema.json (whose $refs go into
    cache-entry.schema.json): the number of invalid ones."""
    schemas = os.path.join(root, "checks", "schemas")
    with open(os.path.join(schemas, "summary-file.schema.json")) as f:
        schema = json.load(f)
    with open(os.path.join(schemas, "cache-entry.schema.json")) as f:
        entry = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    try:  # jsonschema >= 4.18 resolves $refs through `referencing`
        import referencing
        import referencing.jsonschema
        registry = referencing.Registry().with_resource(
            entry["$id"], referencing.jsonschema.DRAFT7.create_resource(entry))
        validator = jsonschema.Draft7Validator(schema, registry=registry)
    except ImportError:  # Debian 12's jsonschema 4.10
        resolver = jsonschema.RefResolver.from_schema(
            schema, store={entry["$id"]: entry})
        validator = jsonschema.Draft7Validator(schema, resolver=resolver)
    inputs = os.path.join(root, "tests", "lit", "cli", "Inputs")
    flags = ["-x", "cuda", "-nocudainc", "-nocudalib",
             "--cuda-gpu-arch=sm_70", "-std=c++17", "-isystem",
             os.path.join(root, "tests", "Inputs", "mock", "cuda")]
    bad = checked = 0
    for project in ("wholeprogram", "constants-across", "overrides",
                    "roles"):
        for source in sorted(glob.glob(os.path.join(inputs, project,
                                                    "*.cu"))):
            out = os.path.join(tmp, "summary-%s-%s.sum" % (
                project, os.path.basename(source)))
            subprocess.run([binary, "summarize", "--quiet", source, "-o",
                            out, "--root", os.path.join(inputs, project),
                            "--"] + flags, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            checked += 1
            bad += said_invalid(validator, out, "summary of %s/%s" % (
                project, os.path.basename(source)))
    print("%d summaries, %d invalid" % (checked, bad))
    return bad if checked else 1


def check_event_logs(root, probe, tmp):
    """Event logs against event-log.schema.json, line by line: the number of
    invalid lines."""
    with open(os.path.join(root, "checks", "schemas",
                           "event-log.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    written = os.path.join(tmp, "written-events.jsonl")
    unittests = os.path.join(os.path.dirname(probe), "tests",
                             "capture-probe-unittests")
    subprocess.run([unittests, "--gtest_filter=EventLog.WritesEveryKindAndField"],
                   env=dict(os.environ, CAPTURE_PROBE_EVENT_SAMPLE=written),
                   stdout=subprocess.DEVNULL, check=True)
    synthetic = os.path.join(tmp, "synthetic-events.jsonl")
    subprocess.run([sys.executable, os.path.join(root, "bench",
                                                 "probe_reader.py"),
                    "--write-log", "300", "--mix", "eager,captures"],
                   env=dict(os.environ, CAPTURE_PROBE_LOG=synthetic),
                   check=True)
    bad = 0
    for name, path in (("the probe's writer", written),
                       ("bench/probe_reader.py's synthetic log", synthetic)):
        lines = open(path).read().splitlines()
        invalid = []
        for n, line in enumerate(lines, 1):
            errors = list(validator.iter_errors(json.loads(line)))
            if errors:
                invalid.append("line %d: %s: %s" % (
                    n, "/".join(str(p) for p in errors[0].path),
                    errors[0].message[:100]))
        bad += len(invalid)
        print("%s  %s: %d lines%s" % ("ok " if not invalid else "BAD", name,
                                       len(lines),
                                       "".join("\n  " + i for i in invalid)))
    print("event logs, %d invalid lines" % bad)
    return bad


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    root, binary = sys.argv[1], sys.argv[2]
    probe = sys.argv[3] if len(sys.argv) == 4 else None
    with open(os.path.join(root, "checks", "schemas",
                           "catalog.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)

    files = sorted(glob.glob(os.path.join(root, "checks", "catalog",
                                          "*.json")))
    files += sorted(glob.glob(os.path.join(root, "tests", "**",
                                           ".capture-lint.json"),
                              recursive=True))
    files += sorted(glob.glob(os.path.join(root, "tests", "lit", "**",
                                           "*catalog*.json"), recursive=True))
    files += sorted(glob.glob(os.path.join(root, "tests", "fuzz", "corpus",
                                           "catalog", "*")))
    files = [f for f in files if "/Output/" not in f]
    with tempfile.TemporaryDirectory() as tmp:
        exported = os.path.join(tmp, "exported-catalog.json")
        with open(exported, "w") as f:
            subprocess.run([binary, "--export-catalog"], stdout=f, check=True)
        files.append(exported)
        bad = 0
        for path in files:
            name = os.path.relpath(path, root) if path != exported \
                else "capture-lint --export-catalog"
            ours, why = schema_verdict(validator, path)
            theirs, said = reader_verdict(binary, path)
            if ours == theirs:
                print("ok   %s (%s)" % (name,
                                        "valid" if ours else "invalid"))
                continue
            bad += 1
            print("DIFF %s: the schema %s it%s; the reader %s it%s" % (
                name, "accepts" if ours else "rejects",
                "" if ours else " (" + why + ")",
                "accepts" if theirs else "rejects",
                "" if theirs else " (" + said.strip() + ")"))
        # Broken variants of valid files: both must reject every one.
        sources = [f for f in files if f.endswith("cuda_runtime.json") or
                   f.endswith("torch_python.json") or
                   f.endswith(".capture-lint.json")]
        checked = 0
        for source in sources:
            with open(source) as f:
                doc = json.load(f)
            for what, mutated in mutations(doc):
                path = os.path.join(tmp, "mutated.json")
                with open(path, "w") as f:
                    json.dump(mutated, f)
                ours, _ = schema_verdict(validator, path)
                theirs, _ = reader_verdict(binary, path)
                checked += 1
                if ours or theirs:
                    bad += 1
                    print("DIFF %s, %s: the schema %s it, the reader %s it" %
                          (os.path.relpath(source, root), what,
                           "accepts" if ours else "rejects",
                           "accepts" if theirs else "rejects"))
        print("%d broken variants of %d files, each rejected by both" %
              (checked, len(sources)) if not bad else "")
        print("%d files, %d disagreements" % (len(files), bad))
        bad += check_reports(root, probe, tmp)
        bad += check_cache_entries(root, binary, tmp)
        bad += check_summary_files(root, binary, tmp)
        if probe:
            bad += check_event_logs(root, probe, tmp)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
