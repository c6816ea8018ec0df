"""The players' pages: game overview, turn form, information sheet, reports, feeds, settings."""

from flask import Blueprint

bp = Blueprint("player", __name__)

from . import (  # noqa: E402, F401
    absence,
    board_page,
    feed_routes,
    my_data,
    notebook,
    pages,
    push_devices,
    report_pages,
    rules_page,
    settings,
    story_page,
    turn,
    unsubscribe,
)
