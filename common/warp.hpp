// The warp's size, spelled one way: course::kWarpSize, and the mask of all its lanes. Its own
// header, with an include guard rather than #pragma once, because the exercises' graders copy it
// beside the headers that need it, and a copy and the original may meet in one file.
#ifndef COURSE_WARP_HPP
#define COURSE_WARP_HPP

namespace course {

// The threads of a warp, on every NVIDIA GPU so far, and the mask that names all of them in a
// __shfl_*_sync, __ballot_sync or __any_sync.
constexpr int kWarpSize = 32;
constexpr unsigned int kFullWarp = 0xFFFFFFFFu;

}  // namespace course

#endif  // COURSE_WARP_HPP
