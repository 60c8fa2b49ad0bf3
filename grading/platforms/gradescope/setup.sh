#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (its Ubuntu base
# image, 22.04 by default; 24.04 works too): what the course needs to configure and build the
# answers, then the shipped starters built once, so that each submission reuses the build folder.
# No GPU is needed, or there: the CUDA Toolkit is the compiler and its libraries only.
#   CUDA_VERSION   the toolkit's packages from NVIDIA's repository (default 12-8: CUDA 12.8)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cuda="${CUDA_VERSION:-12-8}"
export DEBIAN_FRONTEND=noninteractive

apt-get update
# ninja, a host compiler, binutils (readelf: the objects check), Catch2 (v2 on 22.04, v3 on
# 24.04: the build takes either), bubblewrap (the sandbox, where the container allows it)
apt-get install -y --no-install-recommends ca-certificates wget g++ make binutils ninja-build \
  python3 python3-pip catch2 bubblewrap cmake
# CMake 3.24 or newer (Ubuntu 22.04 ships 3.22)
have="$(cmake --version 2>/dev/null | awk 'NR == 1 {print $3}')"
if [ -z "$have" ] || [ "$(printf '%s\n' 3.24 "$have" | sort -V | head -n 1)" != 3.24 ]; then
  python3 -m pip install 'cmake>=3.24' ||
    python3 -m pip install --break-system-packages 'cmake>=3.24'
  hash -r
fi

# The CUDA Toolkit from NVIDIA's repository for this Ubuntu release: the compiler, the runtime,
# CUB and Thrust (CCCL) and cuBLAS, which the course links.
. /etc/os-release
repo="https://developer.download.nvidia.com/compute/cuda/repos/ubuntu${VERSION_ID/./}/x86_64"
wget -q -O /tmp/cuda-keyring.deb "$repo/cuda-keyring_1.1-1_all.deb"
dpkg -i /tmp/cuda-keyring.deb
apt-get update
apt-get install -y --no-install-recommends "cuda-nvcc-$cuda" "cuda-cudart-dev-$cuda" \
  "cuda-cccl-$cuda" "libcublas-dev-$cuda" "cuda-driver-dev-$cuda"
export PATH="/usr/local/cuda/bin:/usr/local/cuda-${cuda/-/.}/bin:$PATH"

# The starters built once, in /autograder/build (grade.py --build-only, no GPU needed).
AUTOGRADER_ROOT="${AUTOGRADER_ROOT:-/autograder}" \
  python3 "$here/course/grading/platforms/gradescope/autograde.py" warm
