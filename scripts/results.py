#!/usr/bin/env python3
"""Regenerates the measured parts of the course's Markdown files from the CSVs and logs that the
lesson programs wrote, so that no figure in a write-up is typed by hand.

    python3 scripts/results.py update lessons/01_atomics_histogram/README.md ...
    python3 scripts/results.py check  lessons/01_atomics_histogram/README.md ...
    python3 scripts/results.py check  --all   (every file that may hold generated parts:
                                               README.md, docs/*.md, lessons/*/*.md,
                                               solutions/*/ANSWERS.md)
    python3 scripts/results.py selftest   (proves that check catches a hand edit)

`check` changes nothing and exits 1 if a file differs from what its sources give (a hand edit,
or a CSV that changed without `update`), if a ratio below 1 is called "faster" or "less" (say
it the other way round: the larger time over the smaller, and which is faster), or if a figure
with a unit (ms, µs, GB/s, G/s, keys/s, ×, %) stands outside the generated parts and the source
quotes: every measured figure is generated. Paths in the markers are relative to the repository.

Markers (each generated block sits between a marker and its closing tag):

  <!-- table full: docs/results/x/a.csv -->          the program's table, every column
  <!-- /table -->
  <!-- table summary: a.csv b.csv ... -->            GB/s and % of copy, one column per CSV,
  <!-- /table -->                                    and the best version over the library
  <!-- table glance: a.csv b.csv+c.csv ... -->       one row per lesson: v0, the best version,
  <!-- /table -->                                    every library (c.csv: another program's
                                                     library rows, same k and type; d.csv#v3:
                                                     d's v3 is the library), speedups;
                                                     "lessons": each lesson.json's "glance"
  <!-- table scaling: g1.csv g2.csv g4.csv -->       strong scaling (lesson 07): one row per
  <!-- /table -->                                    version, one column per run (its "gpus"),
                                                     each cell the time, the speed-up over the
                                                     same run's v0 and the parallel efficiency
  <!-- table gpus: docs/results/x docs/results/y -->  two GPUs side by side: one row per lesson
  <!-- /table -->                                    (its "compare" run, else its glance), the
                                                     best version and the fastest library on
                                                     each as % of that GPU's copy, and which
                                                     steps paid (1.05 or more) on both, on one
                                                     or on neither
  <!-- table lessons: readme -->                     the lessons, from their lesson.json files:
  <!-- /table -->                                    (readme) what each teaches and its source,
                                                     (instructors) its concepts and what it
                                                     builds on
  <!-- log: docs/results/x/run.txt -->               a program's output, verbatim
  <!-- /log -->
  <!-- log: docs/results/x/run.txt /regex/ -->       only the lines that match the regex
  <!-- /log -->
  <!-- log: docs/results/x/run.txt /regex/ +N -->    each matching line and the N lines after it
  <!-- /log -->
  <!--v a.csv v3 gbps-->1605.9<!--/v-->              one field of one row, inline
  <!--v a.csv v3/v2 speedup-->9.1<!--/v-->           a ratio of two rows' speed (median times)
  <!--v a.csv v3/v2 ratio-->9.087<!--/v-->           the same, to three decimals
  <!--l run.txt /([0-9.]+)% lost/-->98.1<!--/l-->     the first capture of the first line of a log
                                                     that matches the regex, inline
  <!--p a.txt /copy: ([0-9.]+) GB/ of b.txt /Peak: ([0-9]+) GB/-->89.9<!--/p-->
                                                     one log's capture as a percentage of another's
                                                     (the copy as a share of the memory's peak)
  <!--s-->150.1 ms<!--/s-->                          a figure a source published, quoted: it must
                                                     be one of SOURCE_FIGURES (not generated)

A file may name the folder its sources live in once, with <!-- results-dir: docs/results/x -->;
names without a "/" in its markers are then read from that folder.

Only the Python standard library is used, so `check` runs wherever the tests do.
"""

import sys

from course import cli, lessons, results


def main(argv):
    if len(argv) == 2 and argv[1] == "selftest":
        return results.selftest(lessons.load())
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) < 3 or argv[1] not in ("update", "check"):
        return cli.bad_usage("results.py", "give update or check, then the pages or --all")
    paths = results.markdown_files() if argv[2:] == ["--all"] else argv[2:]
    for path in paths:
        cli.input_file(path, empty_ok=True)  # not there, a folder, unreadable: one line
    return results.update_or_check(argv[1], paths, lessons.load())


if __name__ == "__main__":
    sys.exit(cli.run(main, sys.argv))
