"""Shared parts of the real-code evaluation: configuration, export of the
pinned commits, running capture-lint, and the flags it adds to clang's."""

import json
import os
import resource
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STUBS = os.path.join(HERE, "stubs")
CLANG = "clang++-19"


def fail(msg):
    """Prints an error and exits with status 2."""
    print("run.py: error: " + msg, file=sys.stderr)
    sys.exit(2)


def load_json(path):
    """The JSON document at path, or an error exit."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail("cannot read %s: %s" % (path, e))


def mirror_dir(cfg, repo):
    """The git directory of a repository's fetch mirror."""
    return os.path.join(cfg["mirror_root"], repo["mirror"], "repo")


def export_tree(cfg, repo, commit, dest, update):
    """Exports repo['export'] at commit into dest (once, or again with
    --update), then writes the generated headers."""
    stamp = os.path.join(dest, ".exported-" + commit)
    if os.path.exists(stamp) and not update:
        return
    mirror = mirror_dir(cfg, repo)
    if not os.path.isdir(mirror):
        fail("no mirror for %s at %s: run the fetch tool for github:%s"
             % (repo["name"], mirror, repo["github"]))
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    export = repo.get("export", [])
    archive = subprocess.run(
        ["git", "-C", mirror, "archive", commit] + export,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if archive.returncode != 0:
        fail("git archive of %s at %s failed: %s"
             % (repo["name"], commit, archive.stderr.decode()[:400]))
    subprocess.run(["tar", "-x", "-C", dest], input=archive.stdout,
                   check=True)
    for dep in repo.get("deps", []):
        # A submodule or third-party dependency, from its own mirror.
        into = os.path.join(dest, dep["into"])
        os.makedirs(into, exist_ok=True)
        export_tree(cfg, dict(dep, name=dep["mirror"], generate=[], deps=[]),
                    dep["commit"], into, True)
    for gen in repo.get("generate", []):
        if "text" in gen:
            text = gen["text"]
        else:
            text = open(os.path.join(dest, gen["from"])).read()
        for old, new in gen.get("replace", {}).items():
            text = text.replace(old, new)
        out = os.path.join(dest, gen["to"])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w") as f:
            f.write(text)
    open(stamp, "w").close()


def expand(flags):
    """Flags with `{stubs}` replaced by this directory's stubs/."""
    return [f.replace("{stubs}", STUBS) for f in flags]


def file_flags(repo, entry):
    """A file entry's own flags, else its repository's."""
    return expand(entry.get("flags", repo["flags"]))


def child_cpu_seconds():
    """User plus system CPU time of the finished child processes: steadier
    than wall time on a shared machine (another job's load barely moves
    it)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_lint(binary, root, path, flags, also=()):
    """Runs capture-lint on one file (with the files that define its
    callees, `also`, so that calls into them are followed); returns (report
    or None, error text, CPU seconds)."""
    cmd = [binary, "--format=json", "--quiet", "-j", "1", path] + list(also)
    cmd += ["--"] + flags
    start = child_cpu_seconds()
    proc = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=900)
    took = child_cpu_seconds() - start
    try:
        report = json.loads(proc.stdout.decode())
    except ValueError:
        return None, proc.stderr.decode()[-600:], took
    errors = report.get("errors", [])
    if proc.returncode == 2 or errors:
        text = "; ".join(e.get("message", "")[:200] for e in errors[:3])
        return None, text or proc.stderr.decode()[-600:], took
    return report, "", took


def rel(root, path):
    """path relative to root when inside it, else path itself."""
    path = os.path.realpath(path)
    root = os.path.realpath(root)
    return os.path.relpath(path, root) if path.startswith(root) else path


def finding_key(repo, root, f):
    """A finding's verdict key: `repo|file|line|check|api`."""
    return "|".join([repo, rel(root, f["file"]), str(f["line"]), f["check"],
                     f.get("api") or ""])


def essential_flags(flags, binary):
    """The flags capture-lint adds to an explicit command line
    (tool/driver/CompileFlags.cpp: addEssentials), so that the clang++ run
    parses exactly what capture-lint parses."""
    lang = None
    for i, f in enumerate(flags):
        if f == "-x" and i + 1 < len(flags):
            lang = flags[i + 1]
    extra = []
    if lang == "cuda":
        extra += ["--cuda-host-only", "-Wno-unknown-cuda-version"]
        if not any(f.startswith("--cuda-path") or f == "-nocudainc"
                   for f in flags):
            extra.append("--cuda-path=/usr/local/cuda")
        if not any("__CUDACC_VER_MAJOR__" in f or f == "-nocudainc"
                   for f in flags):
            extra += nvcc_version_macros()
        # As tool/capture-lint/Main.cpp finds it: installed beside the
        # binary, else (a build tree) the source tree's tool/compat.
        compat = os.path.join(os.path.dirname(os.path.realpath(binary)),
                              "..", "share", "capture-lint", "compat")
        if not os.path.isdir(compat):
            compat = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "..", "..", "tool", "compat")
        if os.path.isdir(compat):
            extra += ["-idirafter", os.path.normpath(compat)]
        if os.path.isdir("/usr/local/cuda/include/cccl"):
            extra += ["-idirafter", "/usr/local/cuda/include/cccl"]
    elif lang == "hip":
        extra.append("--offload-host-only")
    extra.append("-Wno-unused-command-line-argument")
    return extra


def nvcc_version_macros(cuda="/usr/local/cuda"):
    """nvcc's version macros, from the toolkit's cuda.h (as capture-lint
    defines them)."""
    try:
        with open(os.path.join(cuda, "include", "cuda.h")) as header:
            for line in header:
                parts = line.split()
                if parts[:2] == ["#define", "CUDA_VERSION"] and len(parts) > 2:
                    v = int(parts[2])
                    return ["-D__CUDACC_VER_MAJOR__=%d" % (v // 1000),
                            "-D__CUDACC_VER_MINOR__=%d" % (v % 1000 // 10),
                            "-D__CUDACC_VER_BUILD__=0"]
    except (OSError, ValueError):
        pass
    return []




def preprocess(root, path, flags, binary, also=(), names=()):
    """Runs `clang++-19 -E` with the flags capture-lint would use; returns
    ({file relative to root: set of lines that hold code in this
    configuration} for the files inside root (the file and the headers it
    really includes), "", {those of names the preprocessed text holds}),
    or (None, the error text, set())."""
    active, declared = {}, set()
    for one in [path] + list(also):
        cmd = [CLANG, "-E"] + flags + essential_flags(flags, binary) + [one]
        proc = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        if proc.returncode != 0 and not proc.stdout:
            return None, proc.stderr.decode(errors="replace")[-600:], set()
        text = proc.stdout.decode(errors="replace")
        read_line_markers(root, text, active)
        declared.update(n for n in names if n in text)
    return active, "", declared


def read_line_markers(root, text, active):
    """Adds the (file, line) pairs that hold code in preprocessor output."""
    real_root = os.path.realpath(root) + os.sep
    cur, line, names = None, 0, {}
    for out in text.split("\n"):
        if out.startswith("# ") and '"' in out:
            head, name = out[2:].split('"', 1)[0], out.split('"')[1]
            if head.strip().isdigit():
                line = int(head) - 1
                if name not in names and name.startswith("<"):
                    names[name] = None
                elif name not in names:
                    full = os.path.realpath(os.path.join(root, name))
                    names[name] = (full[len(real_root):]
                                   if full.startswith(real_root) else None)
                cur = names[name]
                if cur is not None:
                    active.setdefault(cur, set())
                continue
        line += 1
        if cur is not None and out.strip():
            active[cur].add(line)
