"""Feeds for readers and calendars: Atom (round reports) and iCalendar (deadlines).

Feed readers fetch without a session, so each player gets a private URL with
a signed token (itsdangerous, the app's SECRET_KEY, salt "feed"). The token
names the player and their email address: a changed address ends old links.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import UTC, datetime

from flask import current_app
from icalendar import Calendar, Event
from itsdangerous import BadSignature, URLSafeSerializer

from ..models import Game, Player

ATOM = "http://www.w3.org/2005/Atom"
FEED_SALT = "feed"


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=FEED_SALT)


def feed_token(player: Player) -> str:
    """The signed token of one player's private feed URLs."""
    return _serializer().dumps({"p": player.id, "e": player.email.lower(),
                                "k": player.key_generation or 0})


def feed_player(token: str, game: Game) -> Player | None:
    """The player of ``game`` a valid feed token belongs to; None if forged or stale."""
    try:
        data = _serializer().loads(token)
        player_id, email, generation = data["p"], data["e"], data.get("k", 0)
    except (BadSignature, KeyError, TypeError, AttributeError):
        return None
    return next((p for p in game.players if p.id == player_id and p.email.lower() == email
                 and generation == (p.key_generation or 0)), None)


@dataclass(frozen=True)
class FeedEntry:
    id: str
    title: str
    updated: datetime
    url: str
    html: str


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def atom_feed(*, feed_id: str, title: str, updated: datetime, self_url: str,
              page_url: str, entries: list[FeedEntry], lang: str = "en") -> bytes:
    """An Atom 1.0 document (RFC 4287), newest entry first as given."""
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": lang})
    ET.SubElement(feed, f"{{{ATOM}}}id").text = feed_id
    ET.SubElement(feed, f"{{{ATOM}}}title").text = title
    ET.SubElement(feed, f"{{{ATOM}}}updated").text = _stamp(updated)
    ET.SubElement(ET.SubElement(feed, f"{{{ATOM}}}author"), f"{{{ATOM}}}name").text = "VP-Sleuth"
    ET.SubElement(feed, f"{{{ATOM}}}link", {"rel": "self", "href": self_url,
                                             "type": "application/atom+xml"})
    ET.SubElement(feed, f"{{{ATOM}}}link", {"rel": "alternate", "href": page_url,
                                             "type": "text/html"})
    ET.SubElement(feed, f"{{{ATOM}}}generator").text = "VP-Sleuth"
    for item in entries:
        entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
        ET.SubElement(entry, f"{{{ATOM}}}id").text = item.id
        ET.SubElement(entry, f"{{{ATOM}}}title").text = item.title
        ET.SubElement(entry, f"{{{ATOM}}}updated").text = _stamp(item.updated)
        ET.SubElement(entry, f"{{{ATOM}}}link", {"rel": "alternate", "href": item.url,
                                                  "type": "text/html"})
        ET.SubElement(entry, f"{{{ATOM}}}content", {"type": "html"}).text = item.html
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True)


@dataclass(frozen=True)
class CalendarEvent:
    uid: str
    start: datetime
    summary: str
    description: str
    url: str


def calendar(*, name: str, events: list[CalendarEvent], stamp: datetime) -> bytes:
    """An iCalendar (RFC 5545) document: one zero-length event per deadline, in UTC."""
    cal = Calendar()
    cal.add("prodid", "-//VP-Sleuth//vpsleuth//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    for item in events:
        event = Event()
        event.add("uid", item.uid)
        event.add("dtstamp", stamp.astimezone(UTC))
        event.add("dtstart", item.start.astimezone(UTC))
        event.add("summary", item.summary)
        event.add("description", item.description)
        event.add("url", item.url)
        event.add("transp", "TRANSPARENT")
        cal.add_component(event)
    return cal.to_ical()
