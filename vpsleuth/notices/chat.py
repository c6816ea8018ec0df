"""A chat message in each chat's own JSON: Discord, Slack, Mattermost, Matrix (hookshot).

A ``Message`` is words only (already in the game's language); ``body`` writes it in
a chat's markup. Every text is escaped for that markup, so a player's name cannot
mention anyone (@everyone, @room, <!channel>), make a link ([x](https://...)) or
format the message: an ``@`` gets a zero-width space after it, ``://`` in a text
too (no bare link), and each markup's own special characters are escaped. The only
link is the service's own, written by this module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markupsafe import escape

ZWSP = "\u200b"  # zero-width space: breaks a mention or a link, invisible to readers
DISCORD_LIMIT = 2000  # characters of a Discord message's content
OTHER_LIMIT = 4000  # Slack advises at most 4,000 characters; the others allow more
MORE = "…"
_MARKDOWN = re.compile(r"([\\`*_~|\[\]()<>#!])")  # Discord's and Mattermost's markup
_SLACK = re.compile(r"([*_~`])")  # Slack's mrkdwn has no escape: a ZWSP breaks a pair


@dataclass(frozen=True)
class Section:
    """A heading and its lines (one item each)."""

    heading: str
    items: tuple[str, ...]


@dataclass(frozen=True)
class Message:
    """What a chat is told: a title, sections, and a link to the service's page."""

    title: str
    sections: tuple[Section, ...] = field(default_factory=tuple)
    link: tuple[str, str] | None = None  # (label, url)


def defused(text: str) -> str:
    """No mention and no bare link in any chat: ``@`` and ``://`` broken invisibly."""
    return text.replace("@", "@" + ZWSP).replace("://", ":" + ZWSP + "//")


def markdown(text: str) -> str:
    """``text`` as literal Discord or Mattermost markdown."""
    return _MARKDOWN.sub(r"\\\1", defused(text))


def slack(text: str) -> str:
    """``text`` as literal Slack mrkdwn (&, < and > as entities, as Slack asks)."""
    text = defused(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _SLACK.sub(ZWSP + r"\1", text)


def _fit(head: list[str], lines: list[str], tail: list[str], limit: int) -> str:
    """Head, as many lines as fit within ``limit`` characters, then tail."""
    kept, size = [], len("\n".join(head + tail)) + len(MORE) + 2
    for line in lines:
        if size + len(line) + 1 > limit:
            kept.append(MORE)
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(head + kept + tail)[:limit]


def _lines(message: Message, esc, strong) -> list[str]:
    lines = []
    for section in message.sections:
        lines.append("")
        if section.heading:
            lines.append(strong(esc(section.heading)))
        lines += [f"• {esc(item)}" for item in section.items]
    return lines


def discord(message: Message) -> dict:
    """Discord's execute-webhook body: ``content`` within 2,000 characters, no mention."""
    tail = [f"{markdown(message.link[0])}: <{message.link[1]}>"] if message.link else []
    content = _fit([f"**{markdown(message.title)}**"],
                   _lines(message, markdown, lambda s: f"**{s}**"), [""] + tail if tail else [],
                   DISCORD_LIMIT)
    return {"content": content, "allowed_mentions": {"parse": []}}


def slack_body(message: Message) -> dict:
    """Slack's incoming-webhook body: mrkdwn ``text``, links not unfurled."""
    tail = [f"<{message.link[1]}|{slack(message.link[0])}>"] if message.link else []
    text = _fit([f"*{slack(message.title)}*"], _lines(message, slack, lambda s: f"*{s}*"),
                [""] + tail if tail else [], OTHER_LIMIT)
    return {"text": text, "unfurl_links": False, "unfurl_media": False}


def mattermost(message: Message) -> dict:
    """Mattermost's incoming-webhook body: markdown ``text``."""
    tail = [f"[{markdown(message.link[0])}]({message.link[1]})"] if message.link else []
    text = _fit([f"**{markdown(message.title)}**"],
                _lines(message, markdown, lambda s: f"**{s}**"), [""] + tail if tail else [],
                OTHER_LIMIT)
    return {"text": text}


def matrix(message: Message) -> dict:
    """matrix-hookshot's generic webhook body: plain ``text`` and ``html``."""
    plain = _fit([defused(message.title)], _lines(message, defused, lambda s: s),
                 ["", f"{defused(message.link[0])}: {message.link[1]}"] if message.link else [],
                 OTHER_LIMIT)
    html = [f"<p><strong>{escape(defused(message.title))}</strong></p>"]
    for section in message.sections:
        if section.heading:
            html.append(f"<p><strong>{escape(defused(section.heading))}</strong></p>")
        html.append("<ul>" + "".join(f"<li>{escape(defused(i))}</li>" for i in section.items)
                    + "</ul>")
    link = (f'<p><a href="{escape(message.link[1])}">{escape(defused(message.link[0]))}'
            "</a></p>") if message.link else ""
    if len("".join(html)) > OTHER_LIMIT:  # a huge game: the title and the link only
        html = [html[0], f"<p>{MORE}</p>"]
    return {"text": plain, "html": "".join(html) + link}


FORMATS = {"discord": discord, "slack": slack_body, "mattermost": mattermost, "matrix": matrix}


def body(message: Message, fmt: str) -> dict:
    """``message`` as the JSON body the chat of format ``fmt`` expects."""
    return FORMATS[fmt](message)
