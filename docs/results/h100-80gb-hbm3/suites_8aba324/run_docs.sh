#!/usr/bin/env bash
# The docs-command test of the ptx80 and ptx86 suites, with no build/default on the machine.
export CMAKE_PREFIX_PATH=/tmp/w/.deps COURSE_REQUIRE_GPU=1 NCCL_NVLS_ENABLE=0 PYTHONUNBUFFERED=1
L=/tmp/s8; rm -rf $L /tmp/w; mkdir -p $L/logs /tmp/w
tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C /tmp/w
cd /tmp/w
{ date +%T; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nproc; cat .deps/commit.txt; } > $L/summary.txt 2>&1
one() {
  local s=$(date +%s)
  cmake --preset $1 > $L/logs/cfg_$1.txt 2>&1 && cmake --build --preset $1 -j 8 > $L/logs/build_$1.txt 2>&1
  echo "build $1: $? in $(( $(date +%s) - s )) s" >> $L/summary.txt
  s=$(date +%s)
  ctest --preset $1 -R "every command the README" --output-on-failure > $L/${1}_docs.log 2>&1
  echo "$1 docs-command test: $? in $(( $(date +%s) - s )) s" >> $L/summary.txt
}
one ptx80 & one ptx86 & wait
ls build >> $L/summary.txt
grep -aE "tests passed|tests failed" $L/*.log >> $L/summary.txt
{ echo DONE; date +%T; } >> $L/summary.txt
