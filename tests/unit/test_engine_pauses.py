"""The engine pauses the cyclic collector only while it searches, and restores it."""

from __future__ import annotations

import gc

import pytest

from vpsleuth.engine.pauses import without_collector


@without_collector
def inside(fail: bool = False) -> bool:
    if fail:
        raise ValueError("failed inside")
    return gc.isenabled()


def test_the_collector_waits_inside_and_runs_again_after_even_on_an_error():
    assert gc.isenabled()
    assert inside() is False
    assert gc.isenabled()
    with pytest.raises(ValueError, match="failed inside"):
        inside(fail=True)
    assert gc.isenabled()


def test_a_collector_switched_off_before_stays_off():
    gc.disable()
    try:
        assert inside() is False
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_engine_entry_points_pause_it():
    from vpsleuth.engine import analysis

    for entry in (analysis.analyse, analysis.possible_places, analysis.best_questions):
        assert entry.__wrapped__ is not entry  # wrapped by without_collector
        assert entry.__code__ is without_collector(lambda: None).__code__
