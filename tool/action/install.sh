#!/usr/bin/env bash
# The GitHub Action's install step (action.yml): what capture-lint needs on a
# stock Ubuntu runner (ubuntu-22.04, ubuntu-24.04). LLVM 19 from the
# distribution when it has it, else from apt.llvm.org; the CUDA headers (and
# nvcc, whose libdevice clang's CUDA mode needs and which lets CMake
# configure a CUDA project) from NVIDIA's apt repository unless CUDA is
# already installed. Exports CUDA_HOME for the later steps.
#
#   install.sh CUDA_VERSION [EXTRA_CUDA_PACKAGE...]
#     CUDA_VERSION  12-6 style (NVIDIA's package suffix), or "none" to use
#                   the CUDA already on the runner ($CUDA_HOME or
#                   /usr/local/cuda)
set -euo pipefail
CUDA_VERSION=${1:?usage: install.sh CUDA_VERSION [EXTRA_CUDA_PACKAGE...]}
shift
EXTRA_CUDA=("$@")
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive

apt_install() {
  $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

LLVM_PACKAGES=(clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev
  libclang-common-19-dev clang-tidy-19)
OTHER_PACKAGES=(cmake ninja-build nlohmann-json3-dev
  pkg-config python3 wget gnupg ca-certificates)

$SUDO apt-get update -qq
if ! apt-cache show clang-19 >/dev/null 2>&1; then
  # The distribution has no LLVM 19 (ubuntu-22.04): LLVM's own repository.
  # shellcheck source=/dev/null
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  wget -qO- https://apt.llvm.org/llvm-snapshot.gpg.key |
    $SUDO tee /etc/apt/trusted.gpg.d/apt.llvm.org.asc >/dev/null
  echo "deb http://apt.llvm.org/$codename/ llvm-toolchain-$codename-19 main" |
    $SUDO tee /etc/apt/sources.list.d/llvm-19.list >/dev/null
  $SUDO apt-get update -qq
fi
apt_install "${LLVM_PACKAGES[@]}" "${OTHER_PACKAGES[@]}"
# The Python front end's parser comes from npm (runners ship Node.js).
command -v npm >/dev/null || apt_install npm

if [ "$CUDA_VERSION" = none ]; then
  cuda_home=${CUDA_HOME:-/usr/local/cuda}
  if [ ! -f "$cuda_home/include/cuda_runtime.h" ]; then
    echo "install.sh: cuda-version is 'none' but $cuda_home/include has no" \
      "cuda_runtime.h; set CUDA_HOME or give a cuda-version such as 12-6" >&2
    exit 2
  fi
else
  # NVIDIA's repository for this Ubuntu release (ubuntu2404, ubuntu2204).
  # shellcheck source=/dev/null
  release=$(. /etc/os-release && echo "$ID${VERSION_ID//./}")
  arch=$(uname -m)
  keyring=$(mktemp -d)/cuda-keyring.deb
  wget -qO "$keyring" \
    "https://developer.download.nvidia.com/compute/cuda/repos/$release/$arch/cuda-keyring_1.1-1_all.deb"
  $SUDO dpkg -i "$keyring" >/dev/null
  $SUDO apt-get update -qq
  # Headers (cuda-cudart-dev pulls in the driver API and CCCL headers) and
  # nvcc (clang's CUDA mode needs its libdevice; CMake needs nvcc itself).
  apt_install "cuda-cudart-dev-$CUDA_VERSION" "cuda-nvcc-$CUDA_VERSION" \
    "${EXTRA_CUDA[@]/%/-$CUDA_VERSION}"
  cuda_home=/usr/local/cuda-${CUDA_VERSION//-/.}
fi
echo "CUDA in $cuda_home"
if [ -n "${GITHUB_ENV:-}" ]; then
  echo "CUDA_HOME=$cuda_home" >>"$GITHUB_ENV"
  echo "$cuda_home/bin" >>"$GITHUB_PATH"
fi
