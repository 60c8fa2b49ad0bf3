// What a row of a lesson's table is, said by the row itself rather than read from its name:
//   source   the source program's own version (the one the lesson starts from)
//   course   a version the course wrote
//   library  a library's (CUB, Thrust, cuBLAS, NCCL), the yardstick the versions are set against
// A row that is a second operation of a version (lesson 04's "v4 find", the find on the table v4
// built) also names that version (`of` in course::Version and course::TableRow): --only chooses it
// with its version, and the best-version line leaves it out.
#pragma once

namespace course {

enum class Kind { source, course, library };

}  // namespace course
