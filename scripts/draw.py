#!/usr/bin/env python3
"""Draws the course's pictures of algorithms as small SVG files, from the algorithms themselves,
so that a picture can be regenerated and never drifts from what the lesson runs.

    python3 scripts/draw.py update   # writes every picture
    python3 scripts/draw.py check    # exit 1 if a committed picture differs from what this draws

Pictures (each in its lesson's figures/ folder, shown where the write-up needs it):
  01 privatised_histogram.svg  v1's per-block bins in shared memory, merged into the global ones
  02 reduce_trees.svg          the trees of reduce0, reduce1, reduce2: who adds what, step by step
  02 reduce_banks.svg          warp 0's banks at each kernel's third step, and the passes they need
  03 lock_race.svg             three blocks through the book's lock, with each SM's L1 and L2
  04 chain_race.svg            a bucket's chain losing an entry to a stale head
  04 probing.svg               linear probing (v4) against a tile probing windows (v5)
  05 odd_even_8.svg            the odd-even transposition network on 8 keys
  05 bitonic_8.svg             the bitonic sorting network on 8 keys (v4's flip form)
  06 radix_select.svg          radix select narrowing, digit by digit, to the k-th key's bucket
  07 ranks_split.svg           n elements cut into one share per rank, v4's chunks, the partials
                               combined on rank 0
  07 ring_allreduce.svg        the ring all-reduce on 4 ranks: which ranks' values each chunk
                               holds after every step of reduce-scatter and all-gather

Each is computed by running the algorithm (in Python) on the picture's small input, with checks
that it gets the right answer (a network sorts every 0/1 input, the merged bins count the input,
the race loses an update that the acquire keeps, ...): a picture that lied would fail `check`.

A sorting network is drawn the usual way: one horizontal wire per key (key 0 at the top), time
running left to right, and each compare-exchange a vertical line between its two wires, with an
arrowhead on the wire that receives the larger key. Rounds (the phases or steps a kernel separates
with a barrier) are shaded in turn and numbered below.
"""

import sys

from course import draw
from course.cli import bad_usage


def main(argv):
    if argv[1:] in (["--help"], ["-h"]):
        print(__doc__)
        return 0
    if argv[1:] not in (["update"], ["check"]):
        return bad_usage("draw.py", "give update or check")
    return draw.update_or_check(argv[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
