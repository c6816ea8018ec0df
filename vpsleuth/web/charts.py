"""A standings chart as server-side SVG: pure, no JavaScript, no external files.

Only presentation attributes are used (no style attributes), so the strict
Content-Security-Policy of the pages allows the chart inline.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

# Okabe-Ito colours (safe for colour-blind readers), and dashes for more players.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#8C6D31")
DASHES = ("", "7 4", "2 4", "10 4 2 4")
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 14, 46
LEGEND_ITEM, LEGEND_ROW = 160, 24


def nice_ticks(low: int, high: int, most: int = 6) -> list[int]:
    """Round tick values covering low..high: steps of 1, 2 or 5 times a power of ten."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, most - 1)
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = max(1, next(int(m * power) for m in (1, 2, 5, 10) if m * power >= raw))
    start = math.floor(low / step) * step
    stop = math.ceil(high / step) * step
    return list(range(start, stop + step, step))


def standings_chart(history: Mapping[str, Sequence[float | None]], *, title: str, desc: str,
                    round_label: str = "Round", points_label: str = "Points",
                    chart_id: str = "standings-chart", width: int = 720,
                    plot_height: int = 300, tick_text: Callable[[int], str] = str,
                    value_text: Callable[[float], str] = str, legend: bool = True) -> str:
    """An SVG line chart of each player's total after each round, with a legend.

    ``history`` maps a player to their totals per round (None: not playing yet).
    Works for negative totals (the zero line is drawn), one round, or none.
    ``width`` and ``plot_height`` are user units: a page may draw a narrow chart
    for phones (its text then stays readable) and a wide one for desktops.
    ``tick_text`` and ``value_text`` write the axis' ticks and a point's value
    (a chart on a scale of powers of ten labels its ticks "10⁵"); a chart of one
    line whose axis names it needs no ``legend``.
    """
    rounds = max((len(v) for v in history.values()), default=0)
    values = [t for totals in history.values() for t in totals if t is not None]
    ticks = nice_ticks(min([0, *values]), max([0, *values]))
    low, high = ticks[0], ticks[-1]
    per_row = max(1, (width - LEFT - RIGHT) // LEGEND_ITEM)
    legend_rows = math.ceil(len(history) / per_row) if legend else 0
    height = TOP + plot_height + BOTTOM + legend_rows * LEGEND_ROW + 8
    plot_w = width - LEFT - RIGHT

    def x(index: int) -> float:
        return LEFT + (plot_w / 2 if rounds <= 1 else plot_w * index / (rounds - 1))

    def y(value: float) -> float:
        return TOP + plot_height * (high - value) / (high - low)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'role="img" class="chart" id={quoteattr(chart_id)} '
           f'aria-labelledby="{chart_id}-title {chart_id}-desc" '
           'font-family="inherit" font-size="13">',
           f'<title id="{chart_id}-title">{escape(title)}</title>',
           f'<desc id="{chart_id}-desc">{escape(desc)}</desc>']
    out += _axes(ticks, rounds, x, y, round_label, points_label, width, plot_height,
                 tick_text)
    for i, (name, totals) in enumerate(history.items()):
        out += _series(i, name, totals, x, y, round_label, value_text)
    legend_top = TOP + plot_height + BOTTOM + 6
    for i, name in enumerate(history if legend else ()):
        lx = LEFT + (i % per_row) * LEGEND_ITEM
        ly = legend_top + (i // per_row) * LEGEND_ROW
        colour, dash = _look(i)
        shown = name if len(name) <= 18 else name[:17] + "…"
        out.append(f'<g class="legend-item"><line x1="{lx}" y1="{ly}" x2="{lx + 28}" '
                   f'y2="{ly}" stroke="{colour}" stroke-width="3"{dash}/>'
                   f'<circle cx="{lx + 14}" cy="{ly}" r="3.5" fill="{colour}"/>'
                   f'<text x="{lx + 36}" y="{ly + 4}" fill="#1f1d1a">{escape(shown)}'
                   f'<title>{escape(name)}</title></text></g>')
    out.append("</svg>")
    return "\n".join(out)


def _look(index: int) -> tuple[str, str]:
    colour = PALETTE[index % len(PALETTE)]
    dash = DASHES[(index // len(PALETTE) + index) % len(DASHES)]
    return colour, f' stroke-dasharray="{dash}"' if dash else ""


def _axes(ticks: list[int], rounds: int, x, y, round_label: str, points_label: str,
          width: int, plot_height: int, tick_text: Callable[[int], str] = str) -> list[str]:
    right = width - RIGHT
    out = []
    for tick in ticks:
        ty = y(tick)
        colour, width = ("#6b645a", 1.5) if tick == 0 else ("#e3dccd", 1)
        out.append(f'<line x1="{LEFT}" y1="{ty:.1f}" x2="{right}" y2="{ty:.1f}" '
                   f'stroke="{colour}" stroke-width="{width}"/>')
        out.append(f'<text x="{LEFT - 8}" y="{ty + 4:.1f}" text-anchor="end" '
                   f'fill="#6b645a">{escape(tick_text(tick))}</text>')
    base = TOP + plot_height
    for index in range(rounds):
        out.append(f'<text x="{x(index):.1f}" y="{base + 18}" text-anchor="middle" '
                   f'fill="#6b645a">{index + 1}</text>')
    out.append(f'<text x="{LEFT + (width - LEFT - RIGHT) / 2:.1f}" y="{base + 36}" '
               f'text-anchor="middle" fill="#6b645a">{escape(round_label)}</text>')
    out.append(f'<text x="14" y="{TOP + plot_height / 2:.1f}" text-anchor="middle" '
               f'fill="#6b645a" transform="rotate(-90 14 {TOP + plot_height / 2:.1f})">'
               f'{escape(points_label)}</text>')
    return out


def _series(index: int, name: str, totals: Sequence[float | None], x, y,
            round_label: str, value_text: Callable[[float], str] = str) -> list[str]:
    """One player's line (broken where a round has no total) and its points."""
    colour, dash = _look(index)
    out, run = [], []
    points = list(enumerate(totals))
    for i, total in points + [(len(totals), None)]:
        if total is not None:
            run.append(f"{x(i):.1f},{y(total):.1f}")
        elif run:
            if len(run) > 1:
                out.append(f'<polyline points="{" ".join(run)}" fill="none" '
                           f'stroke="{colour}" stroke-width="2.5"{dash} '
                           'stroke-linejoin="round"/>')
            run = []
    for i, total in points:
        if total is not None:
            label = escape(f"{name}, {round_label} {i + 1}: {value_text(total)}")
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(total):.1f}" r="3.5" '
                       f'fill="{colour}"><title>{label}</title></circle>')
    return [f'<g class="series" data-player={quoteattr(name)}>', *out, "</g>"]
