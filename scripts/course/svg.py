"""What the course's picture scripts share: an SVG document built line by line, and the
update/check command that writes the pictures or proves the committed ones are what the script
draws (scripts/draw.py, scripts/timeline.py)."""

import math
import os
from xml.sax.saxutils import escape

from course.paths import ROOT


class Svg:
    """An SVG document: add elements in drawing order, then str() it."""

    def __init__(self, width, height, title, font_size=12):
        self.width, self.height = width, height
        self.lines = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
                      f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
                      f'font-family="sans-serif" font-size="{font_size}">',
                      f"<title>{escape(title)}</title>"]

    def add(self, element):
        self.lines.append(element)

    def rect(self, x, y, w, h, fill, stroke=None, tip=None):
        edge = f' stroke="{stroke}"' if stroke else ""
        body = f"<title>{escape(tip)}</title>" if tip else ""
        close = f">{body}</rect>" if body else "/>"
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                 f'fill="{fill}"{edge}{close}')

    def line(self, x1, y1, x2, y2, stroke="#444", width=1, dash=None):
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                 f'stroke="{stroke}" stroke-width="{width}"{dashed}/>')

    def text(self, x, y, words, anchor="start", fill="#000", size=None, weight=None):
        extra = (f' font-size="{size}"' if size else "") + \
            (f' font-weight="{weight}"' if weight else "")
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}"{extra}>'
                 f"{escape(words)}</text>")

    def arrow(self, x1, y1, x2, y2, stroke="#444", width=1.2, dash=None):
        """A line from (x1, y1) to (x2, y2) with a filled head at (x2, y2)."""
        self.line(x1, y1, x2, y2, stroke, width, dash)
        angle = math.atan2(y2 - y1, x2 - x1)
        points = [(x2, y2)] + [(x2 - 8 * math.cos(angle + turn), y2 - 8 * math.sin(angle + turn))
                               for turn in (0.4, -0.4)]
        self.add('<path d="M' + " L".join(f"{x:.1f},{y:.1f}" for x, y in points) +
                 f' Z" fill="{stroke}"/>')

    def __str__(self):
        return "\n".join(self.lines + ["</svg>"]) + "\n"


def update_or_check(command, pictures, script):
    """`update`: writes every {path: SVG text} of `pictures`; `check`: exit status 1 when a
    committed picture differs from it. Returns the exit status."""
    stale = []
    for path, svg in pictures.items():
        full = os.path.join(ROOT, path)
        if command == "update":
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(svg)
            print(f"wrote {path}")
            continue
        try:
            with open(full, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != svg:
            stale.append(path)
    for path in stale:
        print(f"{path}: differs from what scripts/{script} draws (run: python3 scripts/{script} "
              f"update)")
    if command == "check" and not stale:
        print(f"{script}: {len(pictures)} pictures up to date")
    return 1 if stale else 0
