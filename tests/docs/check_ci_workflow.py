#!/usr/bin/env python3
"""Runs docs/ci.md's GitHub Actions workflow ("The CI lint step") as a
runner would, on examples/decode_loop in a fresh directory (issue 27,
item 7: the copy-paste workflow failed at configure).

The workflow's YAML is parsed and its steps checked against what this test
can run: actions/checkout (a copy of examples/decode_loop), `run:` steps
(bash -e, as GitHub runs them, with RUNNER_TEMP, GITHUB_WORKSPACE and a
bare PATH; GITHUB_ENV and GITHUB_PATH apply to the later steps as on
GitHub) and github/codeql-action/upload-sarif (not run: its SARIF file is
checked).

The install step must run tool/action/install.sh with a CUDA version (the
action's script: one package list). It runs as written, but with `none` for
the CUDA version, since NVIDIA's apt repository is not reachable here (that
part runs only on GitHub; this machine's CUDA stands in), and with
capture-lint cloned from REPO_ROOT's committed HEAD instead of the
placeholder URL. The build step runs as written with a stand-in ninja first
on its PATH: where build.sh builds capture-lint, the stand-in lists the
commands that would build it (`ninja -t commands`, which fails on an
unknown target) and puts the capture-lint of TOOLS_DIR where the build
would. With CAPTURE_LINT_FULL_WORKFLOW_TEST=1 the real ninja builds it
(many minutes).

The later steps run as written, after the doc's --write-baseline command:
each exits 0, the SARIF file is valid SARIF 2.1.0 with results, and the
--format=github variant prints nothing. Then, with a baseline that records
nothing, the baseline step and the variant exit 1 and the variant prints
::error/::warning lines.

    check_ci_workflow.py [--keep] REPO_ROOT TOOLS_DIR

Needs root or sudo (apt-get), Debian's packages and the npm registry; skips
(exit 77) without root or sudo. Prints one line per step and exits 1 naming
the culprit when a check fails, 2 on a usage error. --keep leaves the
directory it ran in.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time

try:
    import yaml
except ImportError:
    sys.exit("check_ci_workflow.py: needs python3-yaml")

DOC = "docs/ci.md"
SECTION = "## The CI lint step"
PLACEHOLDER = "https://example.org/your-mirror/capture-lint"
# install.sh's CUDA_VERSION argument, quoted or not.
INSTALL = re.compile(
    r"""(tool/action/install\.sh["']?[ \t]+)(["']?)([\w.-]+)\2""")
BARE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
STEP_KEYS = {"name", "run", "uses", "with", "shell"}
CHECKOUT = "actions/checkout@"
UPLOAD = "github/codeql-action/upload-sarif@"
USAGE = "usage: check_ci_workflow.py [--keep] REPO_ROOT TOOLS_DIR"
FULL = os.environ.get("CAPTURE_LINT_FULL_WORKFLOW_TEST") == "1"

# The build step's ninja, unless FULL: a call that builds capture-lint lists
# the commands that would build it, then puts the already built capture-lint
# where they would; other calls go to the real ninja.
NINJA_STAND_IN = """#!/usr/bin/env bash
set -euo pipefail
real=$(PATH=${PATH#"$(dirname "$0"):"} command -v ninja)
case " $* " in
  *" capture-lint "*) ;;
  *) exec "$real" "$@" ;; # CMake's own calls: --version, compile checks
esac
dir=. targets=()
while [ $# -gt 0 ]; do
  case $1 in
    -C) dir=$2; shift 2 ;;
    -j | -l | -k) shift 2 ;;
    -j* | -l* | -k*) shift ;;
    -*) echo "ninja stand-in: option $1 is not known here" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
commands=$("$real" -C "$dir" -t commands "${targets[@]}")
grep -q -- "-o tool/capture-lint/capture-lint " <<<"$commands" || {
  echo "ninja stand-in: no command links tool/capture-lint/capture-lint" >&2
  exit 1
}
mkdir -p "$dir/tool/capture-lint"
ln -sf "@PREBUILT@" "$dir/tool/capture-lint/capture-lint"
echo "ninja stand-in: $(wc -l <<<"$commands") commands would build" \\
  "${targets[*]}; the built @PREBUILT@ stands in"
"""


class Failure(Exception):
    pass


def fenced_blocks(path):
    """(line number, info string, text) of each fenced block in the CI lint
    step section of a Markdown file."""
    out, current, inside = [], None, False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("## "):
                inside = line.strip() == SECTION
            elif current is None and inside and line.startswith("```"):
                current = (n, line[3:].strip(), [])
            elif current is not None and line.strip() == "```":
                out.append((current[0], current[1], "".join(current[2])))
                current = None
            elif current is not None:
                current[2].append(line)
    return out


def doc_parts(root):
    """The workflow, the --format=github variant's steps and the
    --write-baseline command of the doc's CI lint step section."""
    workflow = variant = write_baseline = None
    for line, info, text in fenced_blocks(os.path.join(root, DOC)):
        where = f"{DOC}:{line}"
        if info == "yaml":
            try:
                data = yaml.safe_load(textwrap.dedent(text))
            except yaml.YAMLError as e:
                raise Failure(f"{where}: the YAML does not parse: {e}")
            if isinstance(data, dict) and "jobs" in data:
                workflow = (where, data)
            elif isinstance(data, list):
                variant = (where, data)
        elif info == "sh" and "--write-baseline" in text:
            write_baseline = next(l for l in text.splitlines()
                                  if "--write-baseline" in l)
    for name, part in (("workflow (a yaml block with jobs:)", workflow),
                       ("--format=github steps (a yaml list)", variant),
                       ("--write-baseline command (an sh block)",
                        write_baseline)):
        if part is None:
            raise Failure(f"{DOC}: '{SECTION}' has no {name}")
    return workflow, variant, write_baseline


def install_sh_packages(root):
    """The apt packages tool/action/install.sh installs (its arrays)."""
    with open(os.path.join(root, "tool/action/install.sh")) as f:
        text = f.read()
    found = re.findall(r"^\w+_PACKAGES=\(([^)]*)\)", text, re.M)
    return {p for group in found for p in group.split()} | {"npm"}


def step_problems(i, step):
    """What in one step this test cannot run as written."""
    label = f"step {i + 1} ({step.get('name') or step.get('uses') or 'run'})"
    out = [f"{label}: {k} is not emulated here"
           for k in sorted(set(step) - STEP_KEYS)]
    uses = step.get("uses", "")
    if uses and not uses.startswith((CHECKOUT, UPLOAD)):
        out.append(f"{label}: uses {uses}, which this test cannot run")
    if step.get("shell", "bash") != "bash":
        out.append(f"{label}: shell {step['shell']} is not bash")
    if "${{" in step.get("run", ""):
        out.append(f"{label}: a ${{{{ }}}} expression in run: (use the "
                   "runner's variables, $RUNNER_TEMP and the like)")
    return out


def workflow_problems(root, steps):
    """Why the steps would not install and build capture-lint as the action
    does, or could not be run here."""
    out = [p for i, s in enumerate(steps) for p in step_problems(i, s)]
    runs = "\n".join(s.get("run", "") for s in steps)
    if PLACEHOLDER not in runs:
        out.append(f"no step clones capture-lint from {PLACEHOLDER}")
    match = INSTALL.search(runs)
    if not match:
        out.append("no step runs tool/action/install.sh CUDA_VERSION (the "
                   "action's install step, with the CUDA headers and nvcc)")
    elif match.group(3) == "none":
        out.append("install.sh is given CUDA 'none': a stock runner has no "
                   "CUDA, and the doc says its headers are needed")
    if "tool/action/build.sh" not in runs:
        out.append("no step runs tool/action/build.sh")
    for line in re.findall(r"apt-get install.*", runs.replace("\\\n", " ")):
        missing = install_sh_packages(root) - set(line.split())
        if missing:
            out.append("the apt-get install line lacks what install.sh "
                       f"installs: {' '.join(sorted(missing))}")
    if not any(s.get("uses", "").startswith(UPLOAD) for s in steps):
        out.append(f"no {UPLOAD} step")
    return out


class Runner:
    """A job's state between steps, as a GitHub runner keeps it."""

    def __init__(self, top, root, tools_dir):
        self.top = top
        self.root = root
        self.workspace = os.path.join(top, "workspace")
        self.path = []
        self.count = 0
        self.stand_in = os.path.join(top, "stand-in")
        for d in ("home", "runner-temp", "workspace", "stand-in"):
            os.makedirs(os.path.join(top, d))
        with open(os.path.join(self.stand_in, "ninja"), "w") as f:
            f.write(NINJA_STAND_IN.replace(
                "@PREBUILT@", os.path.join(tools_dir, "capture-lint")))
        os.chmod(os.path.join(self.stand_in, "ninja"), 0o755)
        self.env = {"HOME": os.path.join(top, "home"), "LANG": "C.UTF-8",
                    "CI": "true", "GITHUB_ACTIONS": "true",
                    "RUNNER_OS": "Linux",
                    "RUNNER_TEMP": os.path.join(top, "runner-temp"),
                    "GITHUB_WORKSPACE": self.workspace}
        for k in ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY",
                  "HTTPS_PROXY", "NO_PROXY"):
            if k in os.environ:
                self.env[k] = os.environ[k]

    def run(self, label, script, expect=0, stand_in=False, timeout=600):
        """Runs a step's script; returns its output. Applies what it wrote
        to GITHUB_ENV and GITHUB_PATH to the later steps."""
        self.count += 1
        files = {k: os.path.join(self.top, f"{k.lower()}.{self.count}")
                 for k in ("GITHUB_ENV", "GITHUB_PATH")}
        for path in files.values():
            open(path, "w").close()
        script_file = os.path.join(self.top, f"step.{self.count}.sh")
        with open(script_file, "w") as f:
            f.write(script)
        path = ([self.stand_in] if stand_in else []) + self.path
        env = dict(self.env, **files, PATH=":".join(path + [BARE_PATH]))
        start = time.monotonic()
        try:
            proc = subprocess.run(["bash", "-e", script_file],
                                  cwd=self.workspace, env=env,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure(f"{label}: still running after {timeout} s")
        output = proc.stdout.decode(errors="replace")
        took = time.monotonic() - start
        if proc.returncode != expect:
            tail = "\n".join(output.splitlines()[-40:])
            raise Failure(f"{label}: exit {proc.returncode}, expected "
                          f"{expect}; the script:\n{script}\noutput:\n{tail}")
        print(f"ok   {label} (exit {expect}, {took:.0f} s)", flush=True)
        self.apply(files)
        return output

    def apply(self, files):
        with open(files["GITHUB_PATH"]) as f:
            for line in f.read().splitlines():
                if line.strip():
                    self.path.insert(0, line.strip())
        with open(files["GITHUB_ENV"]) as f:
            for line in f.read().splitlines():
                if "<<" in line.split("=")[0]:
                    raise Failure(f"GITHUB_ENV: multi-line {line} is not "
                                  "emulated here")
                if "=" in line:
                    k, v = line.split("=", 1)
                    self.env[k] = v


def localized(script, root, notes):
    """A run: script with the placeholder clone made local and CUDA
    'none' (NVIDIA's repository is not reachable here)."""
    script = script.replace(PLACEHOLDER, "file://" + root)

    def none(m):
        notes.append(f"install.sh {m.group(3)} run as install.sh none "
                     "(NVIDIA's repository is not reachable here)")
        return m.group(1) + "none"
    return INSTALL.sub(none, script)


def check_sarif(root, path):
    """A SARIF 2.1.0 report with results."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        raise Failure(f"the SARIF step's {path}: {e}")
    try:
        import jsonschema
    except ImportError:
        jsonschema = None
    if jsonschema:
        with open(os.path.join(
                root, "tests/Inputs/schemas/sarif-schema-2.1.0.json")) as f:
            schema = json.load(f)
        try:
            jsonschema.validate(report, schema)
        except jsonschema.ValidationError as e:
            raise Failure(f"{path} is not valid SARIF 2.1.0: {e.message}")
    results = sum(len(r.get("results", [])) for r in report.get("runs", []))
    if report.get("version") != "2.1.0" or not results:
        raise Failure(f"{path}: expected SARIF 2.1.0 with results (the "
                      f"example has findings), got version "
                      f"{report.get('version')} and {results} results")
    print(f"ok   {os.path.basename(path)}: SARIF 2.1.0, {results} results")


def annotations(output):
    return [l for l in output.splitlines() if l.startswith("::")]


def empty_baseline(path):
    """Rewrites a baseline so that it records no finding."""
    with open(path) as f:
        baseline = json.load(f)
    baseline["findings"] = []
    with open(path, "w") as f:
        json.dump(baseline, f)


def run_workflow(runner, root, steps, write_baseline):
    gates, sarif = [], None
    for i, step in enumerate(steps):
        label = f"step {i + 1}: {step.get('name') or step.get('uses')}"
        uses, script = step.get("uses", ""), step.get("run", "")
        if uses.startswith(CHECKOUT):
            shutil.copytree(os.path.join(root, "examples/decode_loop"),
                            runner.workspace, dirs_exist_ok=True)
            print(f"ok   {label} (examples/decode_loop)")
        elif uses.startswith(UPLOAD):
            sarif = os.path.join(runner.workspace, step["with"]["sarif_file"])
            check_sarif(root, sarif)
        elif "--baseline" in script:
            if not gates:
                runner.run(f"the doc's '{write_baseline}'", write_baseline)
            gates.append((label, script))
            runner.run(label, script)
        else:
            notes = []
            script = localized(script, root, notes)
            build = "tool/action/build.sh" in script
            out = runner.run(label, script, stand_in=build and not FULL,
                             timeout=7200 if build and FULL else 600)
            for line in notes + (out.strip().splitlines()[-2:] if build
                                 else []):
                print("     " + line)
    if not gates or sarif is None:
        raise Failure("no step runs capture-lint --baseline, or none uploads "
                      "SARIF")
    return gates


def check_gates(runner, gates, variant_steps):
    """The baseline steps and the --format=github variant pass on the
    baseline just written and fail on one that records nothing."""
    variant = [("--format=github variant: " + (s.get("name") or "run"),
                s["run"]) for s in variant_steps]
    for label, script in variant:
        found = annotations(runner.run(label, script))
        if found:
            raise Failure(f"{label}: annotations despite the baseline: "
                          f"{found[0]}")
    empty_baseline(os.path.join(runner.workspace, "capture-baseline.json"))
    for label, script in gates:
        runner.run(f"{label}, with an empty baseline", script, expect=1)
    for label, script in variant:
        found = annotations(runner.run(f"{label}, with an empty baseline",
                                       script, expect=1))
        if not all(re.match(r"::(error|warning) file=", l) for l in found) \
                or not found:
            raise Failure(f"{label}: expected ::error/::warning lines, got "
                          f"{found[:2]}")
        print(f"     {len(found)} annotations")


def runnable_doc(root):
    """The doc's workflow steps, --format=github steps and --write-baseline
    command, once they are what this test can run."""
    (where, workflow), (_, variant), write_baseline = doc_parts(root)
    jobs = list(workflow["jobs"].values())
    if len(jobs) != 1 or not str(jobs[0].get("runs-on")).startswith(
            "ubuntu-"):
        raise Failure(f"{where}: expected one job on an ubuntu runner")
    steps = jobs[0].get("steps", [])
    problems = workflow_problems(root, steps) + [
        p for i, s in enumerate(variant) for p in step_problems(i, s)]
    if problems:
        raise Failure(f"{where}: the workflow:\n  " + "\n  ".join(problems))
    print(f"ok   {where}: {len(steps)} steps this test can run"
          f"{'' if FULL else ' (the build: ninja -t commands)'}")
    return steps, variant, write_baseline


def main(argv):
    keep = "--keep" in argv
    args = [a for a in argv[1:] if a != "--keep"]
    if len(args) != 2 or not os.path.isfile(
            os.path.join(args[1], "capture-lint")):
        print(USAGE, file=sys.stderr)
        return 2
    root, tools_dir = (os.path.abspath(a) for a in args)
    if not os.path.exists(os.path.join(root, ".git")):
        print(f"check_ci_workflow.py: {root} is not a git checkout (the "
              "workflow clones it)", file=sys.stderr)
        return 2
    if os.geteuid() != 0 and not shutil.which("sudo"):
        print("skipped: apt-get needs root or sudo")
        return 77
    top = tempfile.mkdtemp(prefix="check-ci-workflow-")
    try:
        steps, variant, write_baseline = runnable_doc(root)
        runner = Runner(top, root, tools_dir)
        gates = run_workflow(runner, root, steps, write_baseline)
        check_gates(runner, gates, variant)
    except Failure as e:
        print(f"FAIL {e}")
        return 1
    finally:
        if keep:
            print(f"kept {top}")
        else:
            shutil.rmtree(top, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
