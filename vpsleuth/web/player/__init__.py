"""The players' pages: game overview, turn form, information sheet, reports, feeds, settings."""

from flask import Blueprint

bp = Blueprint("player", __name__)

from . import feed_routes, pages, report_pages, settings, strings, turn  # noqa: E402, F401
