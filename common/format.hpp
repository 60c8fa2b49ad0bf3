// course::format: printf-style formatting into a std::string, for skip reasons, table rows and
// error messages, and course::size_text for counts. Its own header, so that a kernel file can name
// a limit without the table.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace course {

// printf-style formatting into a std::string.
template <typename... Args>
std::string format(const char* fmt, Args... args) {
  const int size = std::snprintf(nullptr, 0, fmt, args...);
  if (size < 0) throw std::runtime_error(std::string("bad format string: ") + fmt);
  std::string out(static_cast<std::size_t>(size) + 1, '\0');
  std::snprintf(out.data(), out.size(), fmt, args...);
  out.pop_back();
  return out;
}

// A count as people write it: 2^25 for powers of two, 100Mi for multiples of 2^20, else digits.
inline std::string size_text(std::size_t n) {
  if (n != 0 && (n & (n - 1)) == 0) {
    int k = 0;
    while ((std::size_t{1} << k) != n)
      ++k;
    return "2^" + std::to_string(k);
  }
  if (n % (std::size_t{1} << 20) == 0) return std::to_string(n >> 20) + "Mi";
  return std::to_string(n);
}

}  // namespace course
