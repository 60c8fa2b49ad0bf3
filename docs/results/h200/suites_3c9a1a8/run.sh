#!/usr/bin/env bash
# Session 10 (issue 44): on 4 GPUs, each preset builds (in parallel, 16 jobs each) and then runs its
# suite on its own GPU: default->profile (GPU 0), ptx75 (1), ptx80 (2), ptx86 (3). Then the README's
# `ctest --preset default` on all four. Start: setsid nohup bash .deps/s10_x4.sh > /tmp/s10.out 2>&1 < /dev/null &
export CMAKE_PREFIX_PATH=/tmp/w/.deps COURSE_REQUIRE_GPU=1 NCCL_NVLS_ENABLE=0 PYTHONUNBUFFERED=1
L=/tmp/s8; rm -rf $L /tmp/w; mkdir -p $L/logs /tmp/w
tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C /tmp/w
cd /tmp/w
pipe() {  # $1 configure/build preset, $2 test preset, $3 GPU
  local s=$(date +%s)
  cmake --preset $1 > $L/logs/cfg_$1.txt 2>&1 && cmake --build --preset $1 -j 16 > $L/logs/build_$1.txt 2>&1
  echo "build $1: $? in $(( $(date +%s) - s )) s" >> $L/summary.txt
  s=$(date +%s)
  CUDA_VISIBLE_DEVICES=$3 ctest --preset $2 -j 8 --output-on-failure > $L/$2.log 2>&1
  echo "suite $2 on GPU $3: $? in $(( $(date +%s) - s )) s" >> $L/summary.txt
}
{ date +%T; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nproc; git -C /tmp/w log -1 --format=%h 2>/dev/null; } > $L/summary.txt 2>&1
pipe default profile 0 & pipe ptx75 ptx75 1 & pipe ptx80 ptx80 2 & pipe ptx86 ptx86 3 &
wait
grep -aE "tests passed|tests failed" $L/*.log >> $L/summary.txt
s=$(date +%s); ctest --preset default -j 16 --output-on-failure > $L/default.log 2>&1
echo "default (README) tests: $? in $(( $(date +%s) - s )) s" >> $L/summary.txt
grep -aE "tests passed|tests failed" $L/default.log >> $L/summary.txt
{ echo DONE; date +%T; } >> $L/summary.txt
