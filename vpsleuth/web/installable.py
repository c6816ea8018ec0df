"""The site as an app on a phone's home screen: the web app manifest and the service worker.

Both are served from the root, since a service worker controls only the paths under
its own (``/static/sw.js`` could show notices but never open the site's pages as one
app). Neither names the reader or a game: the manifest speaks the page language, the
worker is one static file that shows push notices and caches nothing (it has no fetch
handler at all, so no page with a turn or tips is ever kept offline).
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, Response, current_app, url_for

from ..i18n import translate
from .session import current_language

bp = Blueprint("installable", __name__)

# The stylesheet's --accent and --paper (vpsleuth/static/style.css): the colours of the
# browser's bar and of the splash screen while the app starts.
THEME_COLOUR = "#7a3e1d"
BACKGROUND_COLOUR = "#fbf8f2"
ICONS = (("icon-192.png", "192x192", "any"),
         ("icon-512.png", "512x512", "any"),
         ("icon-maskable-512.png", "512x512", "maskable"))


def manifest_for(lang: str) -> dict:
    """The web app manifest in ``lang``: the same app for everyone, its description in
    the reader's language."""
    return {
        "id": "/",
        "name": "VP-Sleuth",
        "short_name": "VP-Sleuth",
        "description": translate(lang, "a play-by-mail moderator"),
        "lang": lang,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [{"src": url_for("static", filename=src), "sizes": sizes, "type": "image/png",
                   "purpose": purpose} for src, sizes, purpose in ICONS],
    }


@bp.get("/manifest.webmanifest")
def manifest():
    """The manifest, as application/manifest+json; it follows the page language, so a
    cache keeps one per cookie and language and asks again before using it."""
    body = json.dumps(manifest_for(current_language()), ensure_ascii=False, indent=1)
    return Response(body, mimetype="application/manifest+json", headers={
        "Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"})


@bp.get("/sw.js")
def service_worker():
    """The service worker (vpsleuth/static/sw.js) at the root, so its scope is the site.

    Read whole (a few kilobytes) rather than streamed as a file, so no answer left
    unread holds the file open. ``no-cache``: the browser checks for a new worker on
    every visit, so a fix reaches every phone at once.
    """
    path = Path(current_app.static_folder or "") / "sw.js"
    return Response(path.read_bytes(), mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache"})
