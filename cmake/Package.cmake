# A Debian package of the installed tree (cpack -G DEB in the build
# directory): capture-lint_<version>_amd64.deb with the CLI, capture-clangd,
# the clang-tidy plugin, the pre-commit hook, capture-probe and its
# libraries, the catalog, the docs. The dependencies are the shared
# libraries the binaries link (dpkg-shlibdeps: libclang-cpp19, libllvm19,
# ...; tree-sitter is compiled in). Checked by tests/package/check_package.sh.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME capture-lint)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "capture-lint developers <capture-lint@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "linter for CUDA and HIP graph capture, with a runtime probe")
set(CPACK_PACKAGE_DESCRIPTION
  "capture-lint finds code that breaks under CUDA/HIP stream capture (syncs, allocations, host reads, the legacy stream, unjoined streams, branches replays cannot repeat) in C++/CUDA/HIP and PyTorch Python, from the command line, pre-commit, clang-tidy and the editor; capture-probe confirms findings on a GPU.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # capture-lint_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The probe's CUDA library links the driver's libcuda.so.1, which the NVIDIA
# driver provides on the GPU machine (never a package dependency): the link
# stub stands in for it while dpkg-shlibdeps reads the binaries.
find_file(CAPTURE_LINT_CUDA_STUB libcuda.so
  PATHS /usr/local/cuda/lib64/stubs /usr/local/cuda/targets/x86_64-linux/lib/stubs
  NO_DEFAULT_PATH)
if(CAPTURE_LINT_CUDA_STUB)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/shlibdeps)
  file(CREATE_LINK ${CAPTURE_LINT_CUDA_STUB}
    ${CMAKE_BINARY_DIR}/shlibdeps/libcuda.so.1 SYMBOLIC)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR}/shlibdeps)
endif()
# clang-tidy loads the plugin; clangd's resource headers come with clang.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-tidy-19, clang-19")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
include(CPack)
