#!/usr/bin/env python3
"""Draws the course's pictures of algorithms as small SVG files, from the algorithms themselves,
so that a picture can be regenerated and never drifts from what the lesson runs.

    python3 scripts/draw.py update   # writes every picture
    python3 scripts/draw.py check    # exit 1 if a committed picture differs from what this draws

Pictures (each written where the write-up that shows it lives):
  lessons/05_bubble_sort/figures/odd_even_8.svg   the odd-even transposition network on 8 keys
  lessons/05_bubble_sort/figures/bitonic_8.svg    the bitonic sorting network on 8 keys

A sorting network is drawn the usual way: one horizontal wire per key (key 0 at the top), time
running left to right, and each compare-exchange a vertical line between its two wires, with an
arrowhead on the wire that receives the larger key. Rounds (the phases or steps a kernel separates
with a barrier) are shaded in turn and numbered below.
"""

import os
import sys

from svg import update_or_check


def odd_even_rounds(n):
    """The seed's algorithm: n rounds, even pairs then odd pairs; each pair sends its larger key
    to the higher wire."""
    return [[(i, i + 1) for i in range(r % 2, n - 1, 2)] for r in range(n)]


def bitonic_rounds(n):
    """Bitonic sort for a power of two n in the "flip" form lesson 05's v4 runs: for each block
    size k, place x of the lower half against its mirror x ^ (k - 1), then half-cleaners of
    strides k/4 ... 1 (x against x + j). Every pair sends its larger key to the higher place."""
    rounds = []
    k = 2
    while k <= n:
        rounds.append([(x, x ^ (k - 1)) for x in range(n) if x & (k // 2) == 0])
        j = k // 4
        while j >= 1:
            rounds.append([(x, x + j) for x in range(n) if x & j == 0])
            j //= 2
        k *= 2
    return rounds


def network_svg(n, rounds, title):
    """The network as SVG text: wires, shaded rounds, comparators with arrowheads."""
    gap, pitch, left, top = 28, 34, 46, 40
    width = max(left + len(rounds) * pitch + 20, 7 * len(title) + 20)
    height = top + (n - 1) * gap + 36
    y = [top + w * gap for w in range(n)]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<title>{title}</title>',
           f'<text x="{left}" y="16">{title}</text>']
    for r, pairs in enumerate(rounds):
        x0 = left + r * pitch
        shade = "#eef2f8" if r % 2 == 0 else "#ffffff"
        out.append(f'<rect x="{x0}" y="{top - 14}" width="{pitch}" height="{(n - 1) * gap + 28}" '
                   f'fill="{shade}"/>')
        out.append(f'<text x="{x0 + pitch / 2:.0f}" y="{height - 6}" text-anchor="middle" '
                   f'fill="#555">{r + 1}</text>')
    for w in range(n):
        out.append(f'<line x1="{left - 10}" y1="{y[w]}" x2="{width - 14}" y2="{y[w]}" '
                   f'stroke="#444"/>')
        out.append(f'<text x="{left - 16}" y="{y[w] + 4}" text-anchor="end">{w}</text>')
    for r, pairs in enumerate(rounds):
        # Comparators of one round that would overlap get lanes of their own, spread evenly
        # across the round's column.
        lanes = []
        for low, high in pairs:
            a, b = min(low, high), max(low, high)
            lane = 0
            while any(l == lane and not (b < c or a > d) for (l, c, d) in lanes):
                lane += 1
            lanes.append((lane, a, b))
        count = max(l for (l, _, _) in lanes) + 1 if lanes else 1
        for (lane, a, b), (low, high) in zip(lanes, pairs):
            x = left + r * pitch + pitch * (lane + 1) / (count + 1)
            out.append(f'<line x1="{x:.0f}" y1="{y[a]}" x2="{x:.0f}" y2="{y[b]}" stroke="#1f4e9c" '
                       f'stroke-width="2"/>')
            out.append(f'<circle cx="{x:.0f}" cy="{y[low]}" r="3.5" fill="#1f4e9c"/>')
            tip = y[high]
            back = tip - 9 if high > low else tip + 9
            out.append(f'<path d="M{x - 5:.0f},{back} L{x:.0f},{tip} L{x + 5:.0f},{back} Z" '
                       f'fill="#1f4e9c"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def pictures():
    """{path: SVG text} of every picture."""
    figures = os.path.join("lessons", "05_bubble_sort", "figures")
    return {
        os.path.join(figures, "odd_even_8.svg"): network_svg(
            8, odd_even_rounds(8), "odd-even transposition on 8 keys: 8 phases"),
        os.path.join(figures, "bitonic_8.svg"): network_svg(
            8, bitonic_rounds(8), "bitonic sort (flip form) on 8 keys: 6 steps"),
    }


def sorts(n, rounds):
    """Whether the network sorts every 0/1 input of n keys (the 0-1 principle: then it sorts
    every input)."""
    for bits in range(1 << n):
        keys = [(bits >> i) & 1 for i in range(n)]
        for pairs in rounds:
            for low, high in pairs:
                if keys[low] > keys[high]:
                    keys[low], keys[high] = keys[high], keys[low]
        if keys != sorted(keys):
            return False
    return True


def main(argv):
    if argv[1:] not in (["update"], ["check"]):
        print(__doc__)
        return 0 if argv[1:] in (["--help"], ["-h"]) else 2
    for name, rounds in (("odd-even", odd_even_rounds(8)), ("bitonic", bitonic_rounds(8))):
        if not sorts(8, rounds):
            print(f"draw.py: the {name} network drawn does not sort 8 keys")
            return 1
    return update_or_check(argv[1], pictures(), "draw.py")

if __name__ == "__main__":
    sys.exit(main(sys.argv))
