# lit configuration for capture-lint: fixtures per check (mock headers),
# the suite on the machine's real CUDA/HIP headers, and end-to-end CLI tests.
import os
import shutil

import lit.formats

# Paths come from the build: ctest passes the generated site config.
_site = lit_config.params.get("capture_lint_site_config")
if not _site or not os.path.exists(_site):
    lit_config.fatal("run the lit suites through ctest, or pass "
                     "--param capture_lint_site_config=BUILD/tests/lit/lit.site.cfg.py")
exec(open(_site).read())

config.name = "capture-lint"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cpp", ".hip", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.capture_lint_build_dir, "tests", "lit")
config.excludes = ["Inputs"]

llvm_bin = config.llvm_bin_dir
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
# No stray user configuration may leak into the tests.
for var in ("CUDA_HOME", "CUDA_PATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

mock = os.path.join(config.capture_lint_source_dir, "tests", "Inputs", "mock")
cuda_mock = ("-x cuda -nocudainc -nocudalib --cuda-gpu-arch=sm_70 -std=c++17 "
             "-isystem %s/cuda" % mock)
hip_mock = ("-x hip -nogpuinc -nogpulib --offload-arch=gfx90a -std=c++17 "
            "-isystem %s/hip" % mock)
torch_mock = "-x c++ -std=c++17 -isystem %s/torch -isystem %s/cuda" % (mock, mock)

# An environment with capture-clangd on PATH, as the editor recipes expect.
# Before %capture-clangd, which is a prefix of its name.
config.substitutions.append(("%capture-clangd-on-path", "env PATH=%s:%s" % (
    os.path.dirname(config.capture_clangd), os.environ.get("PATH", ""))))
config.substitutions.append(("%capture-clangd", config.capture_clangd))
config.substitutions.append(("%capture-lint-root", config.capture_lint_source_dir))
config.substitutions.append(("%capture-lint-build", config.capture_lint_build_dir))
config.substitutions.append(("%capture-lint", config.capture_lint_bin))
config.substitutions.append(("%cuda-mock", cuda_mock))
config.substitutions.append(("%hip-mock", hip_mock))
config.substitutions.append(("%torch-mock", torch_mock))
config.substitutions.append(("%mock", mock))
config.substitutions.append(("%annotations", "-I " + os.path.join(
    config.capture_lint_source_dir, "include")))
config.substitutions.append(("%expect-exit", "%s %s" % (
    config.python_executable,
    os.path.join(config.test_source_root, "cli", "Inputs", "expect_exit.py"))))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%sarif-schema", config.sarif_schema))
config.substitutions.append(("%plugin", config.capture_lint_plugin))

# The number of checks in the registry, for tests that count them (SARIF's
# rule table): derived, so adding a check changes no test.
with open(os.path.join(config.capture_lint_source_dir, "checks", "registry",
                       "Checks.def")) as registry:
    check_count = sum(1 for line in registry
                      if line.startswith("CAPTURE_CHECK("))
config.substitutions.append(("%check-count", str(check_count)))

# Compiles one C++ rule file of the analysis for syntax only, with the
# analysis's include folders (what a scaffolded rule file must pass).
config.substitutions.append(("%rule-syntax-only", " ".join(
    [os.path.join(llvm_bin, "clang++"), "-fsyntax-only", "-std=c++17",
     "-isystem", os.path.join(os.path.dirname(llvm_bin), "include")] +
    ["-I" + os.path.join(config.capture_lint_source_dir, "checks", d)
     for d in ("core/include", "registry", "findings/include",
               "catalog/include")])))

if config.sanitized:
    # An ASan build: the plugin cannot load into clang-tidy (its runtime must
    # come first); capture-clangd mixes instrumented code with Debian's
    # uninstrumented static clangd, whose BumpPtrAllocator use then trips
    # ASan's poisoning; and LLVM deliberately leaks at exit.
    config.available_features.add("sanitized")
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0"
if os.path.exists("/usr/local/cuda/include/cuda_runtime.h"):
    config.available_features.add("real-cuda")
if os.path.exists("/usr/include/hip/hip_runtime.h"):
    config.available_features.add("real-hip")
if os.path.exists(os.path.join(llvm_bin, "clang-tidy")):
    config.available_features.add("clang-tidy")
if config.capture_clangd and os.path.exists(config.capture_clangd):
    config.available_features.add("capture-clangd")
if shutil.which("cmake") and os.path.exists("/usr/local/cuda/bin/nvcc"):
    config.available_features.add("cmake-nvcc")
# Permission tests need a user that permissions apply to: as root, setpriv
# runs the tool as nobody.
if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("setpriv"):
    config.available_features.add("root-setpriv")
# Real editors for the recipes of docs/editors.md (scripts/test.sh installs
# Debian's neovim, emacs-nox and elpa-eglot).
if shutil.which("nvim"):
    config.available_features.add("neovim")
if shutil.which("emacs") and os.path.isdir("/usr/share/emacs/site-lisp/elpa/") and any(
        d.startswith("eglot") for d in os.listdir("/usr/share/emacs/site-lisp/elpa/")):
    config.available_features.add("eglot")
# npm and node, for the VS Code extension (reaches the npm registry).
if shutil.which("npm") and shutil.which("node"):
    config.available_features.add("npm")
if shutil.which("pre-commit"):
    config.available_features.add("pre-commit")
if os.path.exists(os.path.join(config.capture_lint_source_dir, ".git")):
    config.available_features.add("git-checkout")
if os.path.exists(config.sarif_schema):
    config.available_features.add("sarif-schema")
