// course::format: printf-style formatting into a std::string, for skip reasons, table rows and
// error messages. Its own header, so that a kernel file can name a limit without the table.
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

}  // namespace course
