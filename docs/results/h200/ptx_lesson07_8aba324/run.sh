#!/usr/bin/env bash
# Session 11 (issue 44): lesson 07's GPU tests, those that need several GPUs too, from the PTX-only
# builds, on all 4 GPUs. (-R matches no model answer: theirs are named "07 solution N/...", which
# the ptx suites on one H100 ran.)
export CMAKE_PREFIX_PATH=/tmp/w/.deps COURSE_REQUIRE_GPU=1 NCCL_NVLS_ENABLE=0 PYTHONUNBUFFERED=1
L=/tmp/s8; rm -rf $L /tmp/w; mkdir -p $L /tmp/w
tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C /tmp/w
cd /tmp/w
{ date +%T; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nproc; cat .deps/commit.txt; } > $L/summary.txt 2>&1
b() { local s=$(date +%s); cmake --preset $1 > $L/cfg_$1.txt 2>&1 && cmake --build build/$1 --target lessons/07_multi_gpu/all -j 20 > $L/build_$1.txt 2>&1; echo "build $1 lesson 07: $? in $(( $(date +%s) - s )) s" >> $L/summary.txt; }
b ptx75 & b ptx80 & b ptx86 & wait
for p in ptx75 ptx80 ptx86; do s=$(date +%s); ctest --preset $p -R '^(07/|solution07)' -j 2 --output-on-failure > $L/l07_$p.log 2>&1; echo "$p lesson 07: $? in $(( $(date +%s) - s )) s" >> $L/summary.txt; done
grep -aE "tests passed|tests failed" $L/*.log >> $L/summary.txt
{ echo DONE; date +%T; } >> $L/summary.txt
