// Shows that long, silent work is going on, so that a program that takes minutes never looks hung.
//
//   course::Progress progress("timing on the CPU");
//   for (int i = 0; i < reps; ++i) {
//     progress.now(course::format("run %d of %d", i + 1, reps));
//     ...
//   }                                    // the line is wiped when progress goes out of scope
//
// Nothing is drawn for the first two seconds, and nothing at all unless standard error is a
// terminal: logs, CSV runs, CTest and CI never see it. After that, one line on standard error,
// redrawn twice a second: "  ... timing on the CPU: run 2 of 5, 14 s". Keep the program's own
// printing outside a Progress's scope: a line printed while it is drawn would land after it.
// Plain C++ (a thread and a clock), so the CPU programs use it too.
#pragma once

#include <unistd.h>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace course {

class Progress {
 public:
  explicit Progress(std::string what) : what_(std::move(what)) {
    if (isatty(fileno(stderr)) == 1) drawer_ = std::thread([this] { draw_until_done(); });
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  ~Progress() {
    if (!drawer_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    drawer_.join();
  }

  // A duration for the line: "0.8 s", "29 s", "2 min 05 s".
  static std::string seconds_text(double seconds) {
    char text[32];
    if (seconds < 10) {
      std::snprintf(text, sizeof text, "%.1f s", seconds);
    } else if (seconds < 60) {
      std::snprintf(text, sizeof text, "%.0f s", seconds);
    } else {
      const long long whole = static_cast<long long>(seconds + 0.5);
      std::snprintf(text, sizeof text, "%lld min %02lld s", whole / 60, whole % 60);
    }
    return text;
  }

  // What is being done now, shown after `what`: "v3 (4 of 12)", "run 2 of 5".
  void now(std::string doing) {
    std::lock_guard<std::mutex> lock(mutex_);
    doing_ = std::move(doing);
  }

 private:
  void draw_until_done() {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    bool drawn = false;
    std::unique_lock<std::mutex> lock(mutex_);
    // The first wait is the quiet start; then a redraw every half second.
    wake_.wait_for(lock, std::chrono::seconds(2), [this] { return done_; });
    while (!done_) {
      const auto seconds =
          std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start).count();
      const std::string doing = doing_.empty() ? "" : ": " + doing_;
      std::fprintf(stderr, "\r\033[K  ... %s%s, %lld s", what_.c_str(), doing.c_str(),
                   static_cast<long long>(seconds));
      std::fflush(stderr);
      drawn = true;
      wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return done_; });
    }
    if (drawn) {
      std::fprintf(stderr, "\r\033[K");
      std::fflush(stderr);
    }
  }

  std::string what_;
  std::string doing_;
  bool done_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread drawer_;
};

}  // namespace course
