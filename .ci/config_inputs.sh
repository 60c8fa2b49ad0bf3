#!/usr/bin/env bash
# Fetches what scripts/check_configs.py run needs into $1 (default /tmp/course-config-inputs) and
# prints its arguments: cuCollections from the shared copy beside the checkout, CCCL and NVBench
# from their PyPI wheels (cuda-cccl, cuda-bench), a CMake new enough for NVBench from PyPI, and
# Catch2 v3 built from Debian's source package (Debian 12 ships only v2). Reuses what is there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-/tmp/course-config-inputs}"
mkdir -p "$dir"
cd "$dir"
log() { echo "config inputs: $*" >&2; }

python3 -m pip --version >/dev/null 2>&1 || { echo "config inputs need pip (python3-pip)" >&2; exit 1; }
cuco="$root/../shared/vendor/cuco/include"
[ -f "$cuco/cuco/static_map.cuh" ] || { echo "no cuCollections at $cuco" >&2; exit 1; }

if [ ! -d wheels/cccl/cuda/cccl/headers/include ] || [ ! -d wheels/bench/cuda/bench ]; then
  log "downloading cuda-cccl and cuda-bench"
  rm -rf wheels && mkdir -p wheels/cccl wheels/bench
  python3 -m pip download -q --no-deps -d wheels cuda-cccl==1.2.1 cuda-bench==0.3.0 >&2
  python3 -m zipfile -e wheels/cuda_cccl-*.whl wheels/cccl
  python3 -m zipfile -e wheels/cuda_bench-*.whl wheels/bench
fi
major=$(nvcc --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
nvbench="$dir/wheels/bench/cuda/bench/cu$major/nvbench/lib/cmake/nvbench"

if [ ! -x cmake-new/bin/cmake ]; then
  log "installing a newer CMake from PyPI"
  # --target installs beside the system's packages, never into them (so a Debian python3's
  # externally-managed marker does not apply).
  PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install -q --target cmake-pkg "cmake>=3.30.4,<5" >&2
  mkdir -p cmake-new/bin
  printf '#!/bin/sh\nPYTHONPATH="%s" exec python3 -m cmake "$@"\n' "$dir/cmake-pkg" > cmake-new/bin/cmake
  chmod +x cmake-new/bin/cmake
fi

if [ ! -f catch2-v3/lib/cmake/Catch2/Catch2Config.cmake ]; then
  log "building Catch2 v3 from Debian's source package"
  mkdir -p apt/lists/partial
  echo "deb-src http://deb.debian.org/debian trixie main" > apt/sources.list
  opts=(-o Dir::Etc::SourceList="$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o Dir::State::Lists="$dir/apt/lists")
  apt-get "${opts[@]}" update -qq >&2
  (cd apt && apt-get "${opts[@]}" source --download-only -qq catch2 >&2 2>/dev/null)
  rm -rf catch2-src && mkdir catch2-src
  tar xzf apt/catch2_3.*.orig.tar.gz -C catch2-src --strip-components=1
  cmake -S catch2-src -B catch2-build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    -DCATCH_INSTALL_DOCS=OFF -DCMAKE_INSTALL_PREFIX="$dir/catch2-v3" >&2
  cmake --build catch2-build -j "$(nproc)" >&2
  cmake --install catch2-build >&2
fi

echo "--cuco $cuco --cccl $dir/wheels/cccl/cuda/cccl/headers/include --nvbench $nvbench" \
     "--catch2-v3 $dir/catch2-v3 --cmake-nvbench $dir/cmake-new/bin/cmake"
