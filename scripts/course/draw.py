"""The course's pictures of algorithms (scripts/draw.py): each computed by running the algorithm
on the picture's small input, with checks that it gets the right answer, and drawn as SVG."""

import os

from course.svg import Svg, update_or_check as svg_update_or_check

def odd_even_rounds(n):
    """The source's algorithm: n rounds, even pairs then odd pairs; each pair sends its larger key
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


BLUE, ORANGE, GREEN, GREY, PURPLE, DARK = "#1f4e9c", "#c0661b", "#2f7d3f", "#8a8a8a", "#7a3f9d", "#444"
LIGHT = {BLUE: "#dbe6f6", ORANGE: "#fbe3cc", GREEN: "#d8eedb", GREY: "#eeeeee", PURPLE: "#eadcf2",
         DARK: "#e4e4e4"}


# Lesson 01 ---------------------------------------------------------------------------------------


def privatised_histogram(data, bins, blocks, threads):
    """v1's counting: thread t of block b reads bytes b*threads + t, then every blocks*threads
    further (the grid-stride loop), adding 1 to its block's own bin; returns each block's bins and
    the block that read each byte."""
    counts = [[0] * bins for _ in range(blocks)]
    owner = [None] * len(data)
    for b in range(blocks):
        for t in range(threads):
            for i in range(b * threads + t, len(data), blocks * threads):
                counts[b][data[i]] += 1
                owner[i] = b
    return counts, owner


HISTOGRAM_DATA = [2, 0, 3, 1, 1, 2, 0, 2, 3, 3, 1, 0, 2, 1, 2, 0, 1, 3, 2, 2, 0, 1, 3, 2]


def histogram_svg():
    data, bins, blocks, threads = HISTOGRAM_DATA, 4, 2, 4
    counts, owner = privatised_histogram(data, bins, blocks, threads)
    total = [sum(c[v] for c in counts) for v in range(bins)]
    colours = [BLUE, ORANGE]
    cell, left = 26, 30
    svg = Svg(left * 2 + cell * len(data), 512,
              "lesson 01, v1: a histogram privatised per block, then merged")
    svg.text(left, 20, f"v1 on {len(data)} bytes: {blocks} blocks of {threads} threads, {bins} "
             "bins (the lesson: 256 threads, 256 bins)", weight="bold")
    svg.text(left, 42, f"each thread reads every {blocks * threads}th byte (the grid-stride "
             "loop); shading: the block that reads it")
    for i, value in enumerate(data):
        colour = colours[owner[i]]
        svg.rect(left + i * cell, 52, cell, 24, LIGHT[colour], stroke=colour)
        svg.text(left + i * cell + cell / 2, 69, str(value), anchor="middle")
    peak = max(max(c) for c in counts + [total])
    def bars(x0, y0, title, colour, values, labels):
        width = 250
        svg.rect(x0, y0, width, 150, "#ffffff", stroke=colour)
        svg.text(x0 + 8, y0 + 16, title, fill=colour, weight="bold")
        for v, (count, label) in enumerate(zip(values, labels)):
            x = x0 + 30 + v * 52
            h = 80 * count / peak
            svg.rect(x, y0 + 122 - h, 34, h, LIGHT[colour], stroke=colour)
            svg.text(x + 17, y0 + 117 - h, label, anchor="middle")
            svg.text(x + 17, y0 + 140, f"bin {v}", anchor="middle", fill="#555")
    for b in range(blocks):
        x0 = left + 20 + b * (svg.width - 2 * left - 290)
        bars(x0, 110, f"block {b}: its bins in shared memory", colours[b], counts[b],
             [str(c) for c in counts[b]])
        svg.arrow(x0 + 125, 262, svg.width / 2 + (b - 0.5) * 80, 322, stroke=colours[b],
                  width=2)
    bars(svg.width / 2 - 125, 325, "global bins: the blocks' bins added once", DARK,
         total, ["+".join(str(c[v]) for c in counts) for v in range(bins)])
    svg.text(left, 90 + 4, f"each byte: one atomicAdd on its block's bin in shared memory "
             f"({len(data)} in all)", fill="#555")
    svg.text(left, 500, f"then thread t adds its block's bin t to global bin t: "
             f"{blocks * bins} global atomics (v0: {len(data)})", fill="#555")
    assert total == [data.count(v) for v in range(bins)]
    return str(svg)


# Lesson 02 ---------------------------------------------------------------------------------------


def reduce_steps(kernel, block):
    """The steps of the source's three block trees on `block` threads, as lists of
    (thread, target, source): at each step, thread adds cache[source] into cache[target]."""
    steps = []
    if kernel == "reduce2":
        s = block // 2
        while s > 0:
            steps.append((s, [(t, t, t + s) for t in range(block) if t < s]))
            s //= 2
        return steps
    s = 1
    while s < block:
        if kernel == "reduce0":
            work = [(t, t, t + s) for t in range(block) if t % (2 * s) == 0]
        else:
            work = [(t, 2 * s * t, 2 * s * t + s) for t in range(block) if 2 * s * t < block]
        steps.append((s, work))
        s *= 2
    return steps


REDUCE_KERNELS = [("reduce0", "v0, reduce0", "if (tid % (2*s) == 0)"),
                  ("reduce1", "v1, reduce1", "index = 2*s*tid"),
                  ("reduce2", "v2, reduce2", "if (tid < s)")]


def reduce_trees_svg():
    values = [3, 1, 4, 1, 5, 9, 2, 6]
    block, cell, pitch, panel = len(values), 28, 58, 300
    svg = Svg(20 + panel * 3, 96 + pitch * 3 + 30 + 24,
              "lesson 02: the trees of reduce0, reduce1 and reduce2 on a block of 8 threads")
    for p, (kernel, name, test) in enumerate(REDUCE_KERNELS):
        x0 = 20 + p * panel + 44
        svg.text(x0, 20, name, weight="bold")
        svg.text(x0, 36, test, fill="#555")
        cache = list(values)
        rows = [(None, [], list(cache))]
        for s, work in reduce_steps(kernel, block):
            for _, target, source in work:
                cache[target] += cache[source]
            rows.append((s, work, list(cache)))
        assert cache[0] == sum(values)
        for r, (s, work, row) in enumerate(rows):
            y = 50 + r * pitch
            svg.text(x0 - 8, y + 15, "in" if s is None else f"s={s}", anchor="end", fill="#555")
            written = {target: thread for thread, target, _ in work}
            for i, value in enumerate(row):
                active = i in written
                svg.rect(x0 + i * cell, y, cell - 2, 20, LIGHT[BLUE] if active else "#ffffff",
                         stroke=BLUE if active else "#bbbbbb")
                svg.text(x0 + i * cell + cell / 2 - 1, y + 15, str(value), anchor="middle",
                         fill="#000" if active or s is None else "#aaa",
                         weight="bold" if active else None)
                if active:
                    svg.text(x0 + i * cell + cell / 2 - 1, y + 32, f"t{written[i]}",
                             anchor="middle", fill=ORANGE, size=10)
            for _, target, source in work:
                top = y - pitch + 20
                svg.line(x0 + target * cell + cell / 2 - 1, top + 16, x0 + target * cell +
                         cell / 2 - 1, y, stroke=GREY)
                svg.line(x0 + source * cell + cell / 2 - 1, top + 16 if source in
                         {t for _, t, _ in rows[r - 1][1]} else top, x0 + target * cell +
                         cell / 2 + 3, y, stroke=BLUE)
    svg.text(20, 96 + pitch * 3 + 22, "blue: the cells a step writes; orange: the thread that "
             "adds there; a line: the cell it adds in", fill="#555")
    return str(svg)


def bank_passes(elements):
    """Shared-memory passes a warp's reads of 4-byte `elements` need: the most distinct
    elements asked of one of the 32 banks (element e lies in bank e mod 32)."""
    banks = {}
    for e in elements:
        banks.setdefault(e % 32, set()).add(e)
    return banks, max((len(v) for v in banks.values()), default=0)


def reduce_banks_svg():
    """Warp 0's reads of cache[target] at each kernel's third step, in a block of 256."""
    block, lane_w, left = 256, 18, 170
    svg = Svg(left + 32 * lane_w + 150, 60 + 3 * 122,
              "lesson 02: the banks warp 0 reads at the third step, block of 256")
    svg.text(20, 20, "warp 0 at each kernel's third step, in a block of 256 threads: the bank of "
             "each lane's cache[...]", weight="bold")
    svg.text(20, 38, "bank of element e = e mod 32; each square below a bank: one element asked "
             "of it, served one pass each", fill="#555")
    for p, (kernel, name, test) in enumerate(REDUCE_KERNELS):
        s, work = reduce_steps(kernel, block)[2]
        lanes = {thread: target for thread, target, _ in work if thread < 32}
        banks, passes = bank_passes(lanes.values())
        y = 60 + p * 122
        svg.text(20, y + 14, f"{name}, s = {s}", weight="bold")
        svg.text(20, y + 30, f"{len(lanes)} lanes work", fill="#555")
        svg.text(20, y + 46, f"{len(banks)} banks, {passes} "
                 f"pass{'es' if passes > 1 else ''}", fill=ORANGE if passes > 1 else GREEN)
        for lane in range(32):
            x = left + lane * lane_w
            active = lane in lanes
            svg.rect(x, y, lane_w - 2, 18, LIGHT[BLUE] if active else "#ffffff",
                     stroke=BLUE if active else "#cccccc")
            if active:
                svg.text(x + lane_w / 2 - 1, y + 13, str(lanes[lane] % 32), anchor="middle",
                         size=9)
            depth = len(banks.get(lane, ()))
            for d in range(depth):
                svg.rect(x + 2, y + 100 - (d + 1) * 8, lane_w - 6, 6,
                         ORANGE if depth > 1 else GREEN)
            svg.line(x, y + 101, x + lane_w - 2, y + 101, stroke="#999")
        svg.text(left + 32 * lane_w + 8, y + 14, "lanes 0-31", fill="#555")
        svg.text(left + 32 * lane_w + 8, y + 96, "banks 0-31", fill="#555")
    return str(svg)


# Lessons 03 and 04: the book's lock and an SM's L1 ------------------------------------------------


class Memory:
    """Global memory as the book's lock meets it on an H100: L2, shared by the GPU, and one L1 per
    SM. A plain read is served by the SM's L1 when the line is there, and brings it there when it
    is not; a plain write goes to L2 and updates the SM's own copy (both measured on an H100 with
    one thread on each of two SMs). An acquire empties the SM's L1 (what lesson03::Lock adds)."""

    def __init__(self, values):
        self.l2 = dict(values)
        self.l1 = {}

    def read(self, sm, name):
        cache = self.l1.setdefault(sm, {})
        if name in cache:
            return cache[name], "its L1"
        cache[name] = self.l2[name]
        return cache[name], "L2"

    def write(self, sm, name, value):
        self.l2[name] = value
        if name in self.l1.get(sm, {}):
            self.l1[sm][name] = value

    def acquire(self, sm):
        self.l1[sm] = {}


def lock_race(blocks, fenced):
    """Each (name, sm, sum) of `blocks` in turn takes the lock, adds its sum to c and releases;
    returns the rows (who, what, SM 0's L1 copy, L2, SM 1's L1 copy) and c at the end."""
    memory, rows = Memory({"c": 0}), []
    def state():
        return tuple(memory.l1.get(sm, {}).get("c") for sm in (0, 1)) + (memory.l2["c"],)
    for name, sm, add in blocks:
        if fenced:
            memory.acquire(sm)
        rows.append((name, sm, "takes the lock" + (" (acquire: its L1 emptied)" if fenced else
                                                   ""), state()))
        seen, where = memory.read(sm, "c")
        rows.append((name, sm, f"reads c = {seen} from {where}", state()))
        memory.write(sm, "c", seen + add)
        rows.append((name, sm, f"writes c = {seen} + {add} = {seen + add}", state()))
    return rows, memory.l2["c"]


LOCK_BLOCKS = [("A", 0, 3), ("B", 1, 4), ("C", 0, 5)]


def lock_race_svg():
    rows, final = lock_race(LOCK_BLOCKS, fenced=False)
    _, fenced_final = lock_race(LOCK_BLOCKS, fenced=True)
    expected = sum(add for _, _, add in LOCK_BLOCKS)
    assert final != expected and fenced_final == expected
    colours = {"A": BLUE, "B": ORANGE, "C": PURPLE}
    pitch, top = 24, 78
    columns = [(330, "SM 0's L1: c"), (430, "L2: c"), (530, "SM 1's L1: c")]
    svg = Svg(640, top + pitch * len(rows) + 70,
              "lesson 03: three blocks through the book's lock, and which read sees which write")
    svg.text(20, 20, "the book's lock: blocks A and C on SM 0, B on SM 1; sums 3, 4 and 5",
             weight="bold")
    svg.text(20, 38, "each block: lock, read c, write c + its sum, unlock (one after another)",
             fill="#555")
    for x, title in columns:
        svg.text(x, top - 12, title, anchor="middle", weight="bold")
    previous = (None, None, 0)
    for r, (name, sm, what, state) in enumerate(rows):
        y = top + r * pitch
        if r % 3 == 0 and r:
            svg.line(20, y - 4, 600, y - 4, stroke="#dddddd")
        svg.text(20, y + 12, f"{name} (SM {sm}) {what}", fill=colours[name],
                 weight="bold" if "its L1" in what else None)
        for (x, _), value, old in zip(columns, (state[0], state[2], state[1]),
                                      (previous[0], previous[2], previous[1])):
            changed = value != old
            svg.rect(x - 36, y - 2, 72, 20, LIGHT[ORANGE] if changed else "#ffffff",
                     stroke="#cccccc")
            svg.text(x, y + 12, "-" if value is None else str(value), anchor="middle",
                     weight="bold" if changed else None)
        previous = (state[0], state[1], state[2])
    y = top + pitch * len(rows) + 14
    svg.text(20, y, f"c ends at {final}, not {expected}: C read {LOCK_BLOCKS[0][2]} from SM 0's "
             f"L1, so B's {LOCK_BLOCKS[1][2]} is lost", fill="#b00020", weight="bold")
    svg.text(20, y + 20, "with lesson03::Lock, taking the lock is an acquire: C's read goes to "
             f"L2 and c ends at {fenced_final}", fill="#555")
    svg.text(20, y + 40, "orange: a value this step changed. Unlocking changes no value, so it "
             "has no row.", fill="#555")
    return str(svg)


def chain_pushes(pushes):
    """The book's push onto one bucket, `entry.next = head; head = entry`, under a lock that
    orders nothing: each (entry, sm) of `pushes` in turn. Returns after each push the chain from
    the head, the entries not on it, and SM 0's L1 copy of the head."""
    memory, nexts, states = Memory({"head": None}), {}, []
    for entry, sm in pushes:
        head, where = memory.read(sm, "head")
        nexts[entry] = head
        memory.write(sm, "head", entry)
        chain, at = [], memory.l2["head"]
        while at is not None:
            chain.append(at)
            at = nexts[at]
        lost = [e for e in nexts if e not in chain]
        states.append((entry, sm, head, where, chain, lost, memory.l1.get(0, {}).get("head")))
    return states


def chain_race_svg():
    states = chain_pushes([("E1", 0), ("E2", 1), ("E3", 0)])
    assert states[-1][5] == ["E2"]
    panel = 240
    svg = Svg(20 + panel * len(states), 250,
              "lesson 04: a chained bucket losing an entry in the book's race")
    svg.text(20, 20, "one bucket, three pushes (entry.next = head; head = entry) under the "
             "book's lock", weight="bold")
    for p, (entry, sm, head, where, chain, lost, l1_head) in enumerate(states):
        x0 = 20 + p * panel
        colour = BLUE if sm == 0 else ORANGE
        svg.text(x0, 48, f"{p + 1}. SM {sm} pushes {entry}", fill=colour, weight="bold")
        svg.text(x0, 66, f"reads head = {head or 'null'} from {where}", fill=colour,
                 weight="bold" if where == "its L1" else None)
        svg.rect(x0, 84, 56, 26, "#ffffff", stroke="#444")
        svg.text(x0 + 28, 101, "head", anchor="middle")
        x = x0 + 56
        for e in chain:
            svg.arrow(x, 97, x + 22, 97)
            svg.rect(x + 22, 84, 40, 26, LIGHT[BLUE], stroke=BLUE)
            svg.text(x + 42, 101, e, anchor="middle")
            x += 62
        svg.arrow(x, 97, x + 16, 97)
        svg.text(x + 18, 101, "null", fill="#555")
        for i, e in enumerate(lost):
            svg.rect(x0 + i * 50, 134, 40, 26, "#ffffff", stroke="#b00020")
            svg.text(x0 + 20 + i * 50, 151, e, anchor="middle", fill="#b00020")
            svg.text(x0, 178, "lost: in the pool, not on the chain", fill="#b00020")
        svg.text(x0, 210, f"SM 0's L1: head = {l1_head or '-'}", fill=BLUE)
    svg.text(20, 240, "a write goes to L2 and to the writer's own L1 copy; SM 1's push never "
             "reaches SM 0's copy", fill="#555")
    return str(svg)


def probe_linear(full, home, capacity):
    """v4: the slots one thread reads, one after another, until an empty one."""
    slots, s = [], home % capacity
    while True:
        slots.append(s)
        if s not in full:
            return slots
        s = (s + 1) % capacity


def probe_windows(full, home, capacity, width):
    """v5: the windows a tile of `width` threads reads (one slot per thread, one read each), and
    the slot its leader claims: the first empty one of the first window that has one."""
    windows, w = [], home % (capacity // width)
    while True:
        windows.append(w)
        empty = [s for s in range(w * width, (w + 1) * width) if s not in full]
        if empty:
            return windows, empty[0]
        w = (w + 1) % (capacity // width)


def probing_svg():
    capacity, width, hash_value = 16, 4, 5
    full = {2, 4, 5, 6, 7, 8, 12, 13}
    linear = probe_linear(full, hash_value, capacity)
    windows, claimed = probe_windows(full, hash_value, capacity, width)
    assert linear[-1] == claimed
    cell, left = 38, 20
    svg = Svg(left * 2 + capacity * cell + 10, 306,
              "lesson 04: linear probing (v4) against cooperative probing (v5)")
    svg.text(left, 20, f"inserting a key whose hash is {hash_value} into {capacity} slots of 8 "
             "bytes (shaded: full)", weight="bold")
    def slots(y):
        for s in range(capacity):
            svg.rect(left + s * cell, y, cell - 2, 26, "#d9d9d9" if s in full else "#ffffff",
                     stroke="#666")
            svg.text(left + s * cell + cell / 2 - 1, y + 17, str(s), anchor="middle",
                     fill="#333")
    svg.text(left, 50, f"v4, one thread: home slot {hash_value} % {capacity} = "
             f"{hash_value % capacity}; {len(linear)} reads, each waiting for the one before",
             fill=BLUE, weight="bold")
    slots(62)
    for i, s in enumerate(linear):
        x = left + s * cell + cell / 2 - 1
        svg.text(x, 108, str(i + 1), anchor="middle", fill=BLUE, weight="bold")
        if i:
            svg.arrow(left + linear[i - 1] * cell + cell / 2 + 4, 102, x - 6, 102, stroke=BLUE)
    svg.text(left + linear[-1] * cell + cell / 2 - 1, 124, "CAS", anchor="middle", fill=BLUE)
    svg.text(left, 158, f"v5, a tile of {width} threads: home window {hash_value} % "
             f"{capacity // width} = {hash_value % (capacity // width)}; {len(windows)} reads "
             f"of {width * 8} bytes, one slot per thread", fill=ORANGE, weight="bold")
    slots(170)
    for i, w in enumerate(windows):
        x = left + w * width * cell
        svg.rect(x - 2, 166, width * cell + 2, 34, "none", stroke=ORANGE)
        svg.text(x + width * cell / 2, 216, f"read {i + 1}: one sector", anchor="middle",
                 fill=ORANGE, weight="bold")
        for t in range(width):
            svg.text(x + t * cell + cell / 2 - 1, 232, f"t{t}", anchor="middle", fill=ORANGE,
                     size=10)
    svg.text(left + claimed * cell + cell / 2 - 1, 248, "CAS", anchor="middle", fill=ORANGE)
    svg.text(left, 276, "ballots per window: is the key here, and which slots are empty?",
             fill="#555")
    svg.text(left, 294, f"the thread of the first empty slot (t{claimed % width}) tries the CAS",
             fill="#555")
    return str(svg)


# Lesson 06 ---------------------------------------------------------------------------------------


DIGITS = [(21, 11), (10, 11), (0, 10)]  # (shift, bits) of lesson 06's three digits, from the top


def radix_select(keys, k):
    """v3's narrowing: per digit, walk the bins from the top until the count reaches the keys
    still wanted; returns per pass (bin, winners, bucket size, out, in play) and the k-th key."""
    candidates, wanted, passes = keys, k, []
    for shift, bits in DIGITS:
        bins = [0] * (1 << bits)
        for key in candidates:
            bins[(key >> shift) & ((1 << bits) - 1)] += 1
        above, b = 0, len(bins) - 1
        while above + bins[b] < wanted:
            above += bins[b]
            b -= 1
        passes.append((b, above, bins[b], len(candidates) - above - bins[b], len(candidates)))
        wanted -= above
        candidates = [key for key in candidates if (key >> shift) & ((1 << bits) - 1) == b]
    return passes, candidates[0], wanted


def source_like_keys(n, seed=2024):
    """The order keys of n ints drawn as the source's input is: 0 to 2^31 - 1, every other one
    negated (an int's order key flips its sign bit)."""
    out, x = [], seed
    for i in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        r = x >> 33
        value = -r if i % 2 == 0 else r
        out.append((value & 0xFFFFFFFF) ^ 0x80000000)
    return out


def radix_select_svg():
    n, k = 1 << 20, 1000
    keys = source_like_keys(n)
    passes, kth, last_wanted = radix_select(keys, k)
    assert kth == sorted(keys)[n - k]
    assert sum(p[1] for p in passes) + last_wanted == k
    left, bar, widths = 20, 180, (150, 150, 240)
    pitch = 96
    svg = Svg(left + bar + sum(widths) + 30, 150 + pitch * len(passes),
              "lesson 06, v3: radix select narrowing to the bucket that holds the k-th key")
    svg.text(left, 20, f"v3, radix select: the k = {k} largest of {n:,} ints like the source's "
             "(half negative)", weight="bold")
    x = left + bar
    digit_colours = [BLUE, ORANGE, PURPLE]
    for d, (shift, bits) in enumerate(DIGITS):
        for i in range(bits):
            svg.rect(x, 34, 14, 16, LIGHT[digit_colours[d]], stroke=digit_colours[d])
            x += 15
        svg.text(x - bits * 15 / 2, 66, f"digit {d + 1}: bits {shift + bits - 1}-{shift}",
                 anchor="middle", fill=digit_colours[d], size=11)
        x += 6
    for p, (b, above, bucket, out, play) in enumerate(passes):
        y = 96 + p * pitch
        shift, bits = DIGITS[p]
        svg.text(left, y + 14, f"pass {p + 1}, digit {p + 1}", fill=digit_colours[p],
                 weight="bold")
        svg.text(left, y + 30, f"{play:,} key{'s' if play > 1 else ''}, {1 << bits} bins",
                 fill="#555")
        x = left + bar
        parts = [(GREEN, f"winners: {above:,}", "bins above"),
                 (ORANGE, f"bucket: {bucket:,}", f"bin {b}"),
                 (GREY, f"out: {out:,}", "bins below")]
        for (colour, label, under), w in zip(parts, widths):
            svg.rect(x, y, w, 34, LIGHT[colour], stroke=colour)
            svg.text(x + w / 2, y + 15, label, anchor="middle", weight="bold")
            svg.text(x + w / 2, y + 29, under, anchor="middle", fill="#555", size=11)
            x += w
        if p + 1 < len(passes):
            bucket_left = left + bar + widths[0]
            svg.line(bucket_left, y + 34, left + bar, y + pitch, stroke=ORANGE, dash="4,3")
            svg.line(bucket_left + widths[1], y + 34, left + bar + sum(widths), y + pitch,
                     stroke=ORANGE, dash="4,3")
    y = 96 + len(passes) * pitch
    svg.text(left, y, f"after the last digit, every key left in the bucket equals the k-th "
             f"largest: {last_wanted} more win", weight="bold")
    svg.text(left, y + 20, "winners: " + " + ".join(str(p[1]) for p in passes) +
             f" + {last_wanted} = {k}; then v3 sorts the {k} winners", fill="#555")
    return str(svg)


# Lesson 07 ---------------------------------------------------------------------------------------


def share_of(n, parts, g):
    """reference.hpp's share_of: share g of n elements in `parts` contiguous shares whose sizes
    differ by at most one, the larger first."""
    base, extra = divmod(n, parts)
    begin = g * base + min(g, extra)
    return begin, begin + base + (1 if g < extra else 0)


def ring_chunk(r, g, step, direction=0):
    """ring.cuh's ring_chunk: the chunk rank r works on at `step` of a ring of g ranks."""
    v = r if direction == 0 else (g - r) % g
    gather = step >= g - 1
    k = step - (g - 1) if gather else step
    return (v - k) % g if gather else (v - 1 - k) % g


def ring_states(g):
    """The ring all-reduce run on sets: states[s][r][c] is the set of ranks whose values chunk c of
    rank r holds after s steps (s = 0: before the first), and changed[s] the (rank, chunk) cells
    step s wrote."""
    held = [[{r} for _ in range(g)] for r in range(g)]
    states, changed = [[[set(x) for x in row] for row in held]], [set()]
    for step in range(2 * (g - 1)):
        before = [[set(x) for x in row] for row in held]
        wrote = set()
        for r in range(g):
            left = (r - 1) % g
            c = ring_chunk(r, g, step)
            # every rank pulls from its left neighbour what it held after the step before
            held[r][c] = (before[r][c] | before[left][c]) if step < g - 1 else set(before[left][c])
            wrote.add((r, c))
        states.append([[set(x) for x in row] for row in held])
        changed.append(wrote)
    return states, changed


def ring_svg():
    g = 4
    states, changed = ring_states(g)
    everyone = set(range(g))
    assert all(cell == everyone for row in states[-1] for cell in row)  # every rank has the sum
    assert all(len(cell) == g for r in range(g) for cell in [states[g - 1][r][(r + 1) % g]])
    colours = [BLUE, ORANGE, GREEN, PURPLE]
    cell, gap, left, top = 34, 60, 30, 84
    panel = g * cell + gap
    svg = Svg(left * 2 + g * panel - gap + 10, top + 2 * (g * cell + 80) + 40,
              "lesson 07: the ring all-reduce on 4 ranks")
    svg.text(left, 20, "the ring all-reduce on 4 ranks: row r is rank r's vector, in 4 chunks",
             weight="bold")
    svg.text(left, 40, "a cell lists the ranks whose values it holds; each step, every rank pulls "
             "one chunk from its left", fill="#555")
    svg.text(left, 56, "neighbour (rank r - 1): reduce-scatter adds it to its own, all-gather "
             "keeps it; outlined: what a step wrote", fill="#555")
    titles = ["before"] + [f"reduce-scatter {s + 1}" for s in range(g - 1)] + \
        [f"all-gather {s + 1}" for s in range(g - 1)]
    for s, state in enumerate(states):
        row, col = (0, s) if s < g else (1, s - g + 1)
        x0 = left + col * panel
        y0 = top + row * (g * cell + 80)
        svg.text(x0, y0 - 8, titles[s], size=11, weight="bold")
        for r in range(g):
            svg.text(x0 - 6, y0 + r * cell + cell / 2 + 4, str(r), anchor="end", fill="#555",
                     size=10)
            for c in range(g):
                held = state[r][c]
                shade = LIGHT[colours[r]] if len(held) == 1 else (
                    "#ffffff" if len(held) < g else "#cfcfcf")
                svg.rect(x0 + c * cell, y0 + r * cell, cell, cell, shade,
                         stroke=DARK if (r, c) in changed[s] else "#bbbbbb",
                         tip=f"rank {r}, chunk {c}: ranks {sorted(held)}")
                if (r, c) in changed[s]:
                    svg.rect(x0 + c * cell + 1.5, y0 + r * cell + 1.5, cell - 3, cell - 3,
                             "none", stroke=DARK)
                svg.text(x0 + c * cell + cell / 2, y0 + r * cell + cell / 2 + 4,
                         "all" if len(held) == g else "".join(str(x) for x in sorted(held)),
                         anchor="middle", size=10)
        if s == 0:
            for c in range(g):
                svg.text(x0 + c * cell + cell / 2, y0 + g * cell + 14, f"c{c}", anchor="middle",
                         fill="#555", size=10)
    svg.text(left, svg.height - 52, f"after {g - 1} reduce-scatter steps rank r holds the whole "
             f"sum of chunk r + 1 (grey);", fill="#555")
    svg.text(left, svg.height - 34, f"{g - 1} all-gather steps hand the sums round. Each rank "
             f"sends and receives 2(G - 1) = {2 * (g - 1)} chunks of n / G,", fill="#555")
    svg.text(left, svg.height - 16, "2(G - 1)/G of the vector whatever G: the factor of "
             "nccl-tests' bus bandwidth", fill="#555")
    return str(svg)


def ranks_split_svg():
    n, g, chunks = 10, 4, 2
    values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3]
    shares = [share_of(n, g, r) for r in range(g)]
    assert shares[0][0] == 0 and shares[-1][1] == n
    assert all(shares[r][1] == shares[r + 1][0] for r in range(g - 1))
    sizes = [e - b for b, e in shares]
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    partials = [sum(values[b:e]) for b, e in shares]
    assert sum(partials) == sum(values)
    colours = [BLUE, ORANGE, GREEN, PURPLE]
    cell, left = 62, 30
    svg = Svg(left * 2 + cell * n, 380, "lesson 07: the work split over the ranks")
    svg.text(left, 20, f"n = {n} elements over G = {g} ranks: contiguous shares, the first "
             "n % G one longer", weight="bold")
    owner = [next(r for r, (b, e) in enumerate(shares) if b <= i < e) for i in range(n)]
    for i, v in enumerate(values):
        colour = colours[owner[i]]
        svg.rect(left + i * cell, 36, cell, 28, LIGHT[colour], stroke=colour,
                 tip=f"element {i}: rank {owner[i]}")
        svg.text(left + i * cell + cell / 2, 55, str(v), anchor="middle")
    for r, (b, e) in enumerate(shares):
        mid = left + (b + e) / 2 * cell
        svg.text(mid, 82, f"rank {r}: [{b}, {e})", anchor="middle", fill=colours[r], size=11)
        # v4: each share in chunks, the reduce of one beside the next one's computation
        for c in range(chunks):
            cb, ce = share_of(e - b, chunks, c)
            if ce > cb:
                svg.rect(left + (b + cb) * cell + 3, 90, (ce - cb) * cell - 6, 10,
                         colours[r], tip=f"rank {r}, v4's chunk {c}")
        svg.rect(mid - 40, 166, 80, 30, LIGHT[colours[r]], stroke=colours[r])
        svg.text(mid, 186, f"partial {partials[r]}", anchor="middle", size=11)
        svg.arrow(mid, 136, mid, 164, stroke=colours[r])
        svg.arrow(mid, 198, svg.width / 2 - 45 + r * 30, 270, stroke=colours[r])
    svg.text(left, 118, f"bars: v4 cuts each share in {chunks} chunks; one chunk's reduce runs "
             "beside the next chunk's computation", fill="#555", size=11)
    svg.rect(svg.width / 2 - 130, 272, 260, 34, "#eeeeee", stroke=DARK)
    svg.text(svg.width / 2, 294, f"rank 0: {' + '.join(map(str, partials))} = {sum(partials)}",
             anchor="middle", weight="bold")
    svg.text(left, 336, "each rank computes its share's partial with the lesson's kernel; the "
             "versions differ in how the partials", fill="#555", size=11)
    svg.text(left, 354, "reach rank 0: v1 through the host, v2 by peer copies, v3 by one "
             "ncclReduce, v4 by one per chunk", fill="#555", size=11)
    return str(svg)


def pictures():
    """{path: SVG text} of every picture."""
    def at(lesson, name):
        return os.path.join("lessons", lesson, "figures", name)
    return {
        at("01_atomics_histogram", "privatised_histogram.svg"): histogram_svg(),
        at("02_reduce", "reduce_trees.svg"): reduce_trees_svg(),
        at("02_reduce", "reduce_banks.svg"): reduce_banks_svg(),
        at("03_lock_dot_product", "lock_race.svg"): lock_race_svg(),
        at("04_gpu_hash_table", "chain_race.svg"): chain_race_svg(),
        at("04_gpu_hash_table", "probing.svg"): probing_svg(),
        at("05_bubble_sort", "odd_even_8.svg"): network_svg(
            8, odd_even_rounds(8), "odd-even transposition on 8 keys: 8 phases"),
        at("05_bubble_sort", "bitonic_8.svg"): network_svg(
            8, bitonic_rounds(8), "bitonic sort (flip form) on 8 keys: 6 steps"),
        at("06_top_k", "radix_select.svg"): radix_select_svg(),
        at("07_multi_gpu", "ranks_split.svg"): ranks_split_svg(),
        at("07_multi_gpu", "ring_allreduce.svg"): ring_svg(),
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


def update_or_check(mode):
    """`update` writes every picture, `check` compares them with the committed ones; first, the
    sorting networks drawn must sort. The exit status."""
    for name, rounds in (("odd-even", odd_even_rounds(8)), ("bitonic", bitonic_rounds(8))):
        if not sorts(8, rounds):
            print(f"draw.py: the {name} network drawn does not sort 8 keys")
            return 1
    return svg_update_or_check(mode, pictures(), "draw.py")
