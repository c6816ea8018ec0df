"""Fixtures for the push channel's tests: the local push service (one per module) and a
running game whose three players, in English, German and Spanish, each switched push
on for one device.

The game runs on the real clock (its first deadline a week ahead): the VAPID claims
the sender signs expire by the real clock, which the test checks.
"""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest

from vpsleuth.extensions import db
from vpsleuth.models import utcnow
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import games, push

from .push_service import Device, PushService


@pytest.fixture(scope="module")
def push_service():
    """The local push service, started once for the module."""
    service = PushService().start()
    yield service
    service.stop()


@pytest.fixture
def service(push_service):
    """The push service, emptied, answering 201 to every device."""
    push_service.reset()
    return push_service


def subscribed(service: PushService, email: str) -> Device:
    """A new device of ``email`` with push switched on (committed)."""
    device = Device(service)
    push.subscribe(email, device.subscription(), label="Test browser")
    db.session.commit()
    return device


def weekly_from_now(days: int = 7):
    first = to_local(utcnow() + timedelta(days=days), "Europe/Berlin")
    return weekly(first.strftime("%Y-%m-%d 20:00"), "Europe/Berlin")


@pytest.fixture
def table(app, service):
    """Game "Opal Court" in setup with Ada (en), Ben (de) and Cruz (es), each with a
    device; and "Other Hall", running, with Zoe and her device. ``table.start()`` starts
    Opal Court (round 1 opens: its notices are queued, none sent)."""
    game = games.create_game("Opal Court", weekly_from_now())
    players = {name: games.add_player(game, name, f"{name.lower()}@example.org",
                                      language=lang)
               for name, lang in (("Ada", "en"), ("Ben", "de"), ("Cruz", "es"))}
    other = games.create_game("Other Hall", weekly_from_now())
    games.add_player(other, "Zoe", "zoe@example.org", language="en")
    games.add_player(other, "Yann", "yann@example.org", language="en")
    games.start_game(other, seed=3)
    db.session.commit()
    devices = {name: subscribed(service, f"{name.lower()}@example.org")
               for name in ("Ada", "Ben", "Cruz", "Zoe")}
    return SimpleNamespace(game=game, other=other, players=players, devices=devices,
                           start=lambda: games.start_game(game, seed=7))
