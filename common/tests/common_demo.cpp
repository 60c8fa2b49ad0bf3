// A helper for test_common: behaviours that end the process (a failed CUDA_CHECK, a bad command
// line) can only be tested from outside it.
//   common_demo check       CUDA_CHECK on a call that fails on every machine: exits 1
//   common_demo cli ARGS    parses ARGS like a lesson does: prints the values, or exits 2
#include <cstdio>
#include <cstring>
#include <string>

#include "check.hpp"
#include "cli.hpp"

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "check") == 0) {
    CUDA_CHECK(cudaSetDevice(-1));  // device -1 never exists (and without a GPU, nothing does)
    std::printf("unreachable\n");
    return 0;
  }
  if (argc >= 2 && std::strcmp(argv[1], "cli") == 0) {
    std::size_t n = 1000;
    int reps = 5;
    std::string dist = "uniform";
    bool verbose = false;
    course::CommandLine cli("common_demo", "Parses its arguments like a lesson.");
    cli.number("--n", &n, "a count", std::size_t{1})
        .number("--reps", &reps, "repetitions", 1, 100)
        .choice("--dist", &dist, {"uniform", "same"}, "input distribution")
        .flag("--verbose", &verbose, "say more");
    course::parse_or_exit(cli, argc - 1, argv + 1);
    std::printf("n=%zu reps=%d dist=%s verbose=%d\n", n, reps, dist.c_str(), verbose ? 1 : 0);
    return 0;
  }
  std::fprintf(stderr, "usage: common_demo check | common_demo cli [args]\n");
  return 2;
}
