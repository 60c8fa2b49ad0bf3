#!/usr/bin/env bash
# Session 11 (issue 44), on one H100: builds the configure presets in $1 at once (8 jobs each),
# then runs the test presets in $2 at once on the one GPU (ctest -j 6 each).
export CMAKE_PREFIX_PATH=/tmp/w/.deps COURSE_REQUIRE_GPU=1 NCCL_NVLS_ENABLE=0 PYTHONUNBUFFERED=1
L=/tmp/s8; rm -rf $L /tmp/w; mkdir -p $L/logs /tmp/w
tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C /tmp/w
cd /tmp/w
{ date +%T; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nproc; cat .deps/commit.txt; } > $L/summary.txt 2>&1
build() {
  local s=$(date +%s)
  cmake --preset $1 > $L/logs/cfg_$1.txt 2>&1 && cmake --build --preset $1 -j 8 > $L/logs/build_$1.txt 2>&1
  echo "build $1: $? in $(( $(date +%s) - s )) s" >> $L/summary.txt
}
suite() {
  local s=$(date +%s)
  ctest --preset $1 -j 6 --output-on-failure > $L/$1.log 2>&1
  echo "suite $1: $? in $(( $(date +%s) - s )) s" >> $L/summary.txt
}
for p in $1; do build $p & done; wait
for p in $2; do suite $p & done; wait
grep -aE "tests passed|tests failed" $L/*.log >> $L/summary.txt
{ echo DONE; date +%T; } >> $L/summary.txt
