"""One line of progress on a terminal, for the scripts' long steps (a build, a benchmark run).

    with Progress("building") as progress:
        for i, step in enumerate(steps, 1):
            progress.now(f"step {i} of {len(steps)}")
            ...

The rules are those of the programs' course::Progress (common/progress.hpp): nothing is drawn
unless standard error is a terminal, and nothing for the first two seconds; then one line,
redrawn twice a second ("  ... building: step 3 of 40, 14 s"), wiped when the step ends. Print
nothing of your own inside the with block: it would land after the line.
"""

import sys
import threading
import time


class Progress:
    def __init__(self, what, stream=None):
        self.what = what
        self.doing = ""
        self.stream = stream or sys.stderr
        self._done = threading.Event()
        self._drawer = None

    def now(self, doing):
        """What is being done now, shown after `what`."""
        self.doing = doing

    def __enter__(self):
        if self.stream.isatty():
            self._drawer = threading.Thread(target=self._draw_until_done, daemon=True)
            self._drawer.start()
        return self

    def __exit__(self, *exc):
        if self._drawer is not None:
            self._done.set()
            self._drawer.join()
        return False

    def _draw_until_done(self):
        start = time.monotonic()
        drawn = False
        done = self._done.wait(2.0)
        while not done:
            doing = f": {self.doing}" if self.doing else ""
            self.stream.write(f"\r\033[K  ... {self.what}{doing}, {int(time.monotonic() - start)} s")
            self.stream.flush()
            drawn = True
            done = self._done.wait(0.5)
        if drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()


def selftest():
    """Checks the rules above on a fake terminal and a plain stream; exit 1 when one is broken."""
    import io

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    with Progress("building", terminal) as progress:
        progress.now("step 1 of 2")
        time.sleep(1.0)
        progress.now("step 2 of 2")
        time.sleep(1.6)
    shown = terminal.getvalue()
    plain = io.StringIO()
    with Progress("building", plain):
        time.sleep(2.6)
    problems = []
    if "  ... building: step 2 of 2, 2 s" not in shown:
        problems.append(f"a terminal was not shown the step after two seconds: {shown!r}")
    if "step 1 of 2" in shown:
        problems.append(f"a terminal was shown something in the first two seconds: {shown!r}")
    if not shown.endswith("\r\033[K"):
        problems.append(f"the line was not wiped at the end: {shown!r}")
    if plain.getvalue():
        problems.append(f"a stream that is not a terminal got {plain.getvalue()!r}")
    for problem in problems:
        print(f"progress.py selftest: {problem}", file=sys.stderr)
    print("progress.py selftest: " + ("FAILED" if problems else "ok"))
    return 1 if problems else 0

