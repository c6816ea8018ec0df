"""The standings chart: a pure function from the totals history to SVG."""

from __future__ import annotations

import xml.dom.minidom

from vpsleuth.web.charts import nice_ticks, standings_chart


def chart(history, **kw):
    svg = standings_chart(history, title="Totals", desc="Totals per round", **kw)
    return svg, xml.dom.minidom.parseString(svg).documentElement


def points_of(root, player: str) -> list[tuple[float, float]]:
    group = next(g for g in root.getElementsByTagName("g")
                 if g.getAttribute("data-player") == player)
    return [(float(c.getAttribute("cx")), float(c.getAttribute("cy")))
            for c in group.getElementsByTagName("circle")]


def test_ticks_are_round_numbers_covering_the_range_and_zero():
    assert nice_ticks(-7, 23) == [-10, 0, 10, 20, 30]
    assert nice_ticks(0, 3) == [0, 1, 2, 3]
    assert nice_ticks(0, 0) == [0, 1]
    assert nice_ticks(-100, 250) == [-100, 0, 100, 200, 300]


def test_the_chart_has_a_title_a_description_and_is_labelled_by_them():
    _, root = chart({"Ada": [1, 3]}, chart_id="c1")
    assert root.getAttribute("role") == "img"
    assert root.getAttribute("aria-labelledby") == "c1-title c1-desc"
    assert root.getElementsByTagName("title")[0].getAttribute("id") == "c1-title"
    assert root.getElementsByTagName("desc")[0].firstChild.data == "Totals per round"


def test_a_higher_total_is_drawn_higher_and_later_rounds_further_right():
    _, root = chart({"Ada": [5, 10], "Ben": [-4, -8]})
    (ax1, ay1), (ax2, ay2) = points_of(root, "Ada")
    (bx1, by1), (bx2, by2) = points_of(root, "Ben")
    assert ax1 == bx1 < ax2 == bx2
    assert ay2 < ay1 < by1 < by2, "SVG y grows downwards"


def test_negative_totals_get_a_zero_line_and_their_own_ticks():
    svg, root = chart({"Ada": [-3, -11]})
    labels = [t.firstChild.data for t in root.getElementsByTagName("text")
              if t.getAttribute("text-anchor") == "end"]
    assert labels == ["-15", "-10", "-5", "0"]
    zero = [line for line in root.getElementsByTagName("line")
            if line.getAttribute("stroke-width") == "1.5"]
    assert len(zero) == 1
    assert float(zero[0].getAttribute("y1")) < min(y for _, y in points_of(root, "Ada"))


def test_each_player_has_a_line_and_a_legend_entry_with_distinct_looks():
    history = {f"P{i}": [i, i * 2] for i in range(10)}
    _, root = chart(history)
    lines = root.getElementsByTagName("polyline")
    assert len(lines) == 10
    looks = {(pl.getAttribute("stroke"), pl.getAttribute("stroke-dasharray")) for pl in lines}
    assert len(looks) == 10
    legend = [g for g in root.getElementsByTagName("g") if g.getAttribute("class") == "legend-item"]
    assert [g.getElementsByTagName("text")[0].firstChild.data for g in legend] == list(history)


def test_a_round_without_a_total_breaks_the_line_and_names_are_escaped():
    svg, root = chart({"<Ada & Co>": [None, 2, 3], "Ben": [1, None, 4]})
    assert "<Ada & Co>" not in svg and "&lt;Ada &amp; Co&gt;" in svg
    ben = next(g for g in root.getElementsByTagName("g") if g.getAttribute("data-player") == "Ben")
    assert ben.getElementsByTagName("polyline").length == 0, "no two neighbouring totals"
    assert len(points_of(root, "Ben")) == 2 and len(points_of(root, "<Ada & Co>")) == 2


def test_one_round_is_drawn_as_points_in_the_middle_and_no_history_still_parses():
    _, root = chart({"Ada": [4], "Ben": [-2]})
    assert root.getElementsByTagName("polyline").length == 0
    assert points_of(root, "Ada")[0][0] == points_of(root, "Ben")[0][0]
    _, empty = chart({})
    assert empty.getElementsByTagName("circle").length == 0


def test_the_chart_uses_no_style_attributes_so_the_strict_csp_allows_it():
    svg, _ = chart({"Ada": [1, -2, 3], "Ben": [0, 0, 0]})
    assert "style=" not in svg and "<script" not in svg and "href" not in svg
