"""Line charts as plain geometry for the SVG templates (`templates/charts/line_chart.html`).

Pure Python (no Django): the pages and the PDFs draw the same SVG, inline, with presentation
attributes only (no script, no style element: it passes the Content-Security-Policy, and WeasyPrint
renders it). Every chart has a title and goes with a table of its numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

# Colours told apart in print and by most colour-blind readers (Okabe and Ito), then greys.
PALETTE = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442", "#777777", "#999933"]


@dataclass(frozen=True)
class Series:
    """One line: a name and its points (x, y), x increasing."""

    name: str
    points: Sequence[tuple[float, float]]


@dataclass(frozen=True)
class Tick:
    at: float  # position in the drawing
    label: str


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    path: str  # the SVG path's d attribute
    dots: list[tuple[float, float]]

    @property
    def dot_path(self) -> str:
        """The points as zero-length strokes, drawn as dots by round line caps (a path renders alike everywhere)."""
        return " ".join(f"M{x} {y} h0" for x, y in self.dots)


@dataclass
class LineChart:
    title: str
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    lines: list[Line] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not any(line.dots for line in self.lines)


def nice_step(span: float, most: int = 6) -> float:
    """The step of at most `most` ticks over `span`: 1, 2 or 5 times a power of ten (at least 1 if whole)."""
    if span <= 0:
        return 1.0
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power


def _label(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


def line_chart(
    title: str,
    series: Sequence[Series],
    x_labels: dict[float, str] | None = None,
    *,
    invert_y: bool = False,
    y_floor: float | None = None,
    width: int = 640,
    height: int = 260,
) -> LineChart:
    """Lay out `series` in a `width` x `height` drawing with axes and ticks.

    `x_labels`: the labels of the x values worth a tick (at most about eight are kept, evenly
    spread); `invert_y`: 1 at the top (places); `y_floor`: the lowest y shown (0 for scores).
    """
    chart = LineChart(title, width, height, left=48, top=12, right=width - 12, bottom=height - 28)
    xs = [x for s in series for x, _y in s.points]
    ys = [y for s in series for _x, y in s.points]
    if not xs:
        return chart
    x_low, x_high = min(xs), max(xs)
    if x_high == x_low:
        x_low, x_high = x_low - 1, x_high + 1
    y_low = min(ys) if y_floor is None else min(y_floor, min(ys))
    y_high = max(ys)
    step = nice_step(y_high - y_low or 1)
    if invert_y:  # places are whole numbers
        step = max(step, 1.0)
    y_low = math.floor(y_low / step) * step
    y_high = math.ceil(y_high / step) * step
    if y_high == y_low:
        y_high = y_low + step
    if invert_y:
        y_low = max(y_low, 1)

    def px(x: float) -> float:
        return round(chart.left + (x - x_low) / (x_high - x_low) * (chart.right - chart.left), 1)

    def py(y: float) -> float:
        share = (y - y_low) / (y_high - y_low)
        if invert_y:
            share = 1 - share
        return round(chart.bottom - share * (chart.bottom - chart.top), 1)

    value = y_low
    while value <= y_high + step / 1000:
        chart.y_ticks.append(Tick(py(value), _label(value)))
        value += step
    labels = sorted((x_labels or {x: _label(x) for x in set(xs)}).items())
    keep = max(1, math.ceil(len(labels) / 8))
    chart.x_ticks = [Tick(px(x), text) for i, (x, text) in enumerate(labels) if i % keep == 0 or i == len(labels) - 1]
    for index, s in enumerate(series):
        dots = [(px(x), py(y)) for x, y in s.points]
        path = " ".join(f"{'M' if i == 0 else 'L'}{x} {y}" for i, (x, y) in enumerate(dots))
        chart.lines.append(Line(s.name, PALETTE[index % len(PALETTE)], path, dots))
    return chart
