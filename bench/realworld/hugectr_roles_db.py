#!/usr/bin/env python3
"""Writes the compile databases of roles-across-files.md, section 1 (HugeCTR
@ 93f4f2a): build-without (the using files and callees), build-with (plus
graph_wrapper.cpp) and build-with-ndebug (build-with plus -DNDEBUG).

Usage: hugectr_roles_db.py EXPORT_ROOT STUBS NCCL_GEN
  EXPORT_ROOT: `git archive 93f4f2ac5 HugeCTR gpu_cache/include` extracted,
               with HugeCTR/include/config.hpp generated from config.hpp.in
  STUBS:       a copy of bench/realworld/stubs-roles with omp/omp.h linked
               to clang 14's omp.h
  NCCL_GEN:    the directory holding the generated nccl.h (bench export)
"""
import json
import os
import sys

USING = ["HugeCTR/src/network.cpp",
         "HugeCTR/src/data_readers/async_reader/async_reader_adapter.cpp",
         "HugeCTR/src/pybind/model.cpp",
         "HugeCTR/src/layers/relu_layer.cu",
         "HugeCTR/src/layers/fully_connected_layer.cu",
         "HugeCTR/src/loss.cu",
         "HugeCTR/src/embeddings/hybrid_sparse_embedding.cu"]
DEFINING = ["HugeCTR/src/graph_wrapper.cpp"]


def command(root, stubs, nccl, path, extra):
    common = ["-DDISABLE_CUDF", "-I.", "-IHugeCTR/include", "-IHugeCTR",
              "-Igpu_cache/include", "-I" + nccl, "-I" + stubs,
              "-I" + os.path.join(stubs, "omp"),
              "-I" + os.path.join(stubs, "cuml")] + extra
    if path.endswith(".cu"):
        lang = ["-x", "cuda", "--cuda-path=/usr/local/cuda",
                "--cuda-gpu-arch=sm_80", "-std=c++17", "-include",
                os.path.join(stubs, "prelude", "host_min.h")]
    else:
        lang = ["-x", "c++", "-std=c++17", "-isystem",
                "/usr/local/cuda/include"]
    return {"directory": root, "file": os.path.join(root, path),
            "arguments": ["clang++"] + lang + common + ["-c", path]}


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    root, stubs, nccl = (os.path.abspath(a) for a in sys.argv[1:])
    for name, files, extra in (("build-without", USING, []),
                               ("build-with", USING + DEFINING, []),
                               ("build-with-ndebug", USING + DEFINING,
                                ["-DNDEBUG"])):
        os.makedirs(os.path.join(root, name), exist_ok=True)
        db = [command(root, stubs, nccl, f, extra) for f in files]
        with open(os.path.join(root, name, "compile_commands.json"), "w") as f:
            json.dump(db, f, indent=1)


if __name__ == "__main__":
    main()
