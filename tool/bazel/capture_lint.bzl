"""capture-lint for Bazel: one `capture-lint summarize` action per C++,
CUDA or HIP source of the cc_* targets and per Python source of the py_*
targets it visits, one `capture-lint link` on top (docs/scale.md). The link
follows Python capture regions into the C++ operators and pybind11
functions the cc_* sources bind.

    load("@capture_lint//:capture_lint.bzl", "capture_lint_report")

    capture_lint_report(
        name = "capture_lint",
        deps = ["//src:decoder"],   # and everything they depend on
    )

`bazel build //:capture_lint` writes capture_lint.txt (the text report),
capture_lint.sarif and capture_lint.exit_code (0 clean, 1 findings); the
actions succeed either way, so their results stay cacheable. Or, without a
rule, `bazel build //... --aspects=@capture_lint//:capture_lint.bzl%capture_lint_aspect
--output_groups=capture_lint_summaries` writes every target's summaries.

Summaries are hermetic (paths relative to the execution root, sorted
records), so a remote cache shares them between checkouts and machines.
Each source's summarize action also takes the roles (openers, closers,
capture wrappers and predicates) its target's deps define, from their roles
files, which change only when those roles do.
Kept to what Bazel 4 (Debian's bazel-bootstrap) takes: no lambdas or
nested functions.
"""

CaptureLintInfo = provider(
    doc = "The capture-lint summaries of a target and of its deps.",
    fields = {
        "summaries": "depset of summary files",
        "roles": "depset of the roles files of a target and of its deps",
    },
)

# What capture-lint summarizes; a .cu.cc file is C++ unless the target's
# copts say `-x cuda`.
_SOURCE_EXTENSIONS = ["c", "cc", "cpp", "cxx", "c++", "C", "cu", "hip"]

def _flags(ctx, compilation):
    """The preprocessor flags and copts of the target being visited."""
    flags = []
    for d in compilation.defines.to_list():
        flags.append("-D" + d)
    for d in compilation.local_defines.to_list():
        flags.append("-D" + d)
    for i in compilation.includes.to_list():
        flags.extend(["-I", i])
    for i in compilation.quote_includes.to_list():
        flags.extend(["-iquote", i])
    for i in compilation.system_includes.to_list():
        flags.extend(["-isystem", i])
    flags.extend(getattr(ctx.rule.attr, "copts", []))
    return flags

def _summarize(ctx, target, src, flags, headers, dep_roles):
    """One summarize action: SRC in (with the roles its deps define), its
    summary and the roles it defines out. A roles file changes only when
    those roles do, so an edit re-runs the dependents' actions only then."""
    prefix = "_capture_lint/%s/%s" % (target.label.name, src.short_path)
    out = ctx.actions.declare_file(prefix + ".capture-lint.sum")
    roles = ctx.actions.declare_file(prefix + ".roles")
    args = ctx.actions.args()
    args.add("summarize")
    args.add("--quiet")
    args.add(src)
    args.add("-o", out)
    args.add("--roles-out", roles)
    args.add_all(dep_roles, format_each = "--import-roles=%s")
    args.add("--")
    args.add_all(flags)
    ctx.actions.run(
        executable = ctx.file._capture_lint,
        arguments = [args],
        inputs = depset([src], transitive = [headers, dep_roles]),
        outputs = [out, roles],
        mnemonic = "CaptureLintSummarize",
        progress_message = "capture-lint summarize %s" % src.short_path,
    )
    return out, roles

def _summarize_python(ctx, target, src):
    """One summarize action for a Python module: its summary is its text,
    analysed with the other modules in the link."""
    out = ctx.actions.declare_file(
        "_capture_lint/%s/%s.capture-lint.sum" % (target.label.name, src.short_path),
    )
    args = ctx.actions.args()
    args.add("summarize")
    args.add("--quiet")
    args.add(src)
    args.add("-o", out)
    ctx.actions.run(
        executable = ctx.file._capture_lint,
        arguments = [args],
        inputs = [src],
        outputs = [out],
        mnemonic = "CaptureLintSummarize",
        progress_message = "capture-lint summarize %s" % src.short_path,
    )
    return out

def _capture_lint_aspect_impl(target, ctx):
    transitive = []
    transitive_roles = []
    for dep in getattr(ctx.rule.attr, "deps", []):
        if CaptureLintInfo in dep:
            transitive.append(dep[CaptureLintInfo].summaries)
            transitive_roles.append(dep[CaptureLintInfo].roles)
    dep_roles = depset(transitive = transitive_roles)
    summaries = []
    roles = []
    if CcInfo in target and hasattr(ctx.rule.attr, "srcs"):
        compilation = target[CcInfo].compilation_context
        flags = _flags(ctx, compilation)
        for src_target in ctx.rule.attr.srcs:
            for src in src_target.files.to_list():
                if src.extension in _SOURCE_EXTENSIONS:
                    out, defined = _summarize(
                        ctx,
                        target,
                        src,
                        flags,
                        compilation.headers,
                        dep_roles,
                    )
                    summaries.append(out)
                    roles.append(defined)
    if ctx.rule.kind.startswith("py_") and hasattr(ctx.rule.attr, "srcs"):
        for src_target in ctx.rule.attr.srcs:
            for src in src_target.files.to_list():
                if src.extension == "py":
                    summaries.append(_summarize_python(ctx, target, src))
    all_summaries = depset(summaries, transitive = transitive)
    return [
        CaptureLintInfo(
            summaries = all_summaries,
            roles = depset(roles, transitive = transitive_roles),
        ),
        OutputGroupInfo(capture_lint_summaries = all_summaries),
    ]

capture_lint_aspect = aspect(
    implementation = _capture_lint_aspect_impl,
    attr_aspects = ["deps"],
    attrs = {
        "_capture_lint": attr.label(
            default = Label("//:capture-lint"),
            allow_single_file = True,
            cfg = "host",
        ),
    },
)

def _link(ctx, summaries, fmt, out, exit_code):
    """One link action over the summaries, writing OUT in format FMT."""
    listed = ctx.actions.args()
    listed.use_param_file("@%s", use_always = True)
    listed.set_param_file_format("multiline")
    listed.add_all(summaries)
    args = ctx.actions.args()
    args.add("link")
    args.add("--quiet")
    args.add("--format", fmt)
    args.add("-o", out)
    outputs = [out]
    if exit_code:
        args.add("--exit-code-file", exit_code)
        outputs.append(exit_code)
    else:
        args.add("--report-only")  # the other action keeps the exit code
    ctx.actions.run(
        executable = ctx.file._capture_lint,
        arguments = [args, listed],
        inputs = summaries,
        outputs = outputs,
        mnemonic = "CaptureLintLink",
        progress_message = "capture-lint link (%s)" % fmt,
    )

def _capture_lint_report_impl(ctx):
    summaries = depset(transitive = [
        dep[CaptureLintInfo].summaries
        for dep in ctx.attr.deps
    ])
    report = ctx.actions.declare_file(ctx.label.name + ".txt")
    sarif = ctx.actions.declare_file(ctx.label.name + ".sarif")
    exit_code = ctx.actions.declare_file(ctx.label.name + ".exit_code")
    _link(ctx, summaries, "text", report, exit_code)
    _link(ctx, summaries, "sarif", sarif, None)
    return [
        DefaultInfo(files = depset([report, sarif, exit_code])),
        OutputGroupInfo(
            capture_lint_report = depset([report]),
            capture_lint_sarif = depset([sarif]),
            capture_lint_exit_code = depset([exit_code]),
            capture_lint_summaries = summaries,
        ),
    ]

capture_lint_report = rule(
    implementation = _capture_lint_report_impl,
    doc = "The capture-lint report of deps and everything they depend on.",
    attrs = {
        "deps": attr.label_list(aspects = [capture_lint_aspect]),
        "_capture_lint": attr.label(
            default = Label("//:capture-lint"),
            allow_single_file = True,
            cfg = "host",
        ),
    },
)
