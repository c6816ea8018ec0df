"""The light and the dark theme: every text colour on every background it is used on,
at the 4.5:1 WCAG AA asks of normal text, and no colour outside the themes' variables.

The browser tests run axe-core on every page in both schemes too
(tests/web/test_accessibility.py); this test names the pair that fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "vpsleuth" / "static"
DARK = "@media (prefers-color-scheme: dark)"
# (text, background): each pair the stylesheets put together
PAIRS = [
    ("ink", "paper"), ("ink", "card"), ("ink", "field"), ("ink", "tint"), ("ink", "tint-soft"),
    ("ink", "tint-strong"), ("ink", "hover"), ("ink", "tint-warn"), ("ink", "tint-ok"),
    ("ink", "tint-err"), ("ink", "tint-info"), ("ink", "tint-done"), ("ink", "tint-faint"),
    ("muted", "paper"), ("muted", "card"), ("muted", "field"), ("muted", "tint"),
    ("muted", "tint-faint"), ("muted", "disabled"), ("muted", "hover"), ("muted", "tint-warn"),
    ("accent", "paper"), ("accent", "card"), ("accent", "field"), ("accent", "tint"),
    ("accent-ink", "accent"), ("accent-ink", "err"),
    ("ok", "card"), ("ok", "tint-ok"), ("err", "paper"), ("err", "card"), ("err", "tint-err"),
    ("err", "field"), ("err-soft", "tint-err"), ("warn-ink", "tint-warn"),
    ("done-ink", "tint-done"),
    ("red", "card"), ("blue", "card"), ("green", "card"), ("yellow-text", "card"),
    ("red", "field"), ("blue", "field"), ("green", "field"), ("yellow-text", "field"),
    ("red", "tint-warn"), ("blue", "tint-warn"), ("green", "tint-warn"),
    ("yellow-text", "tint-warn"), ("yellow-text", "paper"), ("yellow-text", "tint-faint"),
    ("mark-yes", "mark-yes-bg"), ("mark-no", "mark-no-bg"), ("mark-maybe", "mark-maybe-bg"),
]


def blocks(css: str) -> tuple[str, str]:
    """(light, dark): the text outside and inside the dark media query."""
    light, dark = css, ""
    while DARK in light:
        start = light.index(DARK)
        depth, end = 0, light.index("{", start)
        while True:
            depth += {"{": 1, "}": -1}.get(light[end], 0)
            if depth == 0:
                break
            end += 1
        dark += light[start:end + 1]
        light = light[:start] + light[end + 1:]
    return light, dark


def variables(css: str) -> dict[str, str]:
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})\b", css))


def themes() -> dict[str, dict[str, str]]:
    light, dark = {}, {}
    for name in ("style.css", "player.css"):
        lit, drk = blocks((STATIC / name).read_text())
        light.update(variables(lit))
        dark.update(variables(drk))
    return {"light": light, "dark": {**light, **dark}}


def luminance(colour: str) -> float:
    hexa = colour.lstrip("#")
    hexa = "".join(c * 2 for c in hexa) if len(hexa) == 3 else hexa
    channels = [int(hexa[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_dark_theme_sets_every_colour_the_light_one_has():
    light, dark = blocks((STATIC / "style.css").read_text())
    assert set(variables(dark)) == set(variables(light))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_text_colour_reaches_4_5_to_1_on_its_backgrounds(theme):
    colours = themes()[theme]
    low = [f"--{fg} on --{bg}: {contrast(colours[fg], colours[bg]):.2f}"
           for fg, bg in PAIRS if contrast(colours[fg], colours[bg]) < 4.5]
    assert not low, f"{theme} theme: " + "; ".join(low)


@pytest.mark.parametrize("name", ["style.css", "player.css", "gm.css"])
def test_rules_use_the_theme_variables_not_colours_of_their_own(name):
    css = re.sub(r"/\*.*?\*/", "", (STATIC / name).read_text(), flags=re.S)
    css = re.sub(r":root\s*\{[^}]*\}", "", css)  # where the variables are set
    css = re.sub(r"\[[^\]]*\]", "", css)  # attribute selectors (the charts' fixed colours)
    literal = re.findall(r"[^\n]*(?:#[0-9a-fA-F]{3,6}\b|rgba?\()[^\n]*", css)
    allowed = [line for line in literal if "rgba(0,0,0,.25)" not in line]  # swatch edges
    assert not allowed, (f"{name}: colours outside the theme variables (add one to "
                         f"style.css for both themes): {allowed}")
