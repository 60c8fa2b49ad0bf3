// course_gpu_probe: exits 0 when a CUDA GPU is usable, and 77 after one line saying why when none
// is. CTest runs it as it starts, and in two tests (CMakeLists.txt beside this file).
#include <cstdio>
#include <string>

#include "check.hpp"
#include "cli.hpp"

int main() {
  std::string why;
  if (course::probe_gpu(&why)) {
    std::printf("a usable CUDA GPU\n");
    return course::kExitOk;
  }
  std::printf("no usable CUDA GPU (%s)\n", why.c_str());
  return course::kExitNoGpu;
}
