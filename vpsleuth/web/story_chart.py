"""The story page's chart: how many deals were still possible after each round.

The count falls from about 10²⁷ to a handful, so the chart draws it on a
scale of powers of ten (its ticks "1", "10⁵", "10¹⁰", ...): each step down is
ten times fewer deals. Its points and description say the counts in words.
"""

from __future__ import annotations

import math

from ..i18n import translate
from ..i18n.story_numbers import SUPERSCRIPT, deals_text
from .charts import standings_chart


def power_tick(exponent: int) -> str:
    """A tick of the powers-of-ten scale: "1", "10", "10⁵"."""
    return {0: "1", 1: "10"}.get(exponent, "10" + str(exponent).translate(SUPERSCRIPT))


def deals_chart(told: dict, lang: str, *, chart_id: str = "story-chart", width: int = 720,
                plot_height: int = 300) -> str:
    """An SVG line chart of the deals still possible after each round (the secret shrinking)."""
    t = lambda text: translate(lang, text)  # noqa: E731
    rounds = told["rounds"]
    words = {math.log10(max(1.0, r["count"])): deals_text(r["count"], r["exact"], lang)
             for r in rounds}
    label = t("Deals still possible")
    desc = t("Deals still possible after rounds 1 to {}, on a scale of powers of ten (each step "
             "down means ten times fewer), of {} at the start.").format(
        len(rounds), deals_text(2.0 ** told["start_bits"], False, lang)) + " " + "; ".join(
        f"{t('Round')} {r['number']}: {deals_text(r['count'], r['exact'], lang)}"
        for r in rounds)
    return standings_chart({label: [math.log10(max(1.0, r["count"])) for r in rounds]},
                           title=t("Deals still possible after each round"), desc=desc,
                           round_label=t("Round"), points_label=label, chart_id=chart_id,
                           width=width, plot_height=plot_height, tick_text=power_tick,
                           value_text=lambda v: words.get(v, ""), legend=False)
