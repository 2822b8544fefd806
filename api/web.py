"""The web table at `/`: a page that plays, follows and replays games of every ruleset this
server plays, through the public API only (the same calls any third-party client makes).

Its files are in `api/web/` (package data, shipped in the wheel): no CDN, no build step, works
offline. Seat and admin tokens travel in the page's URL fragment, which browsers never send to a
server, and from there only in Authorization headers.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, send_from_directory

from api.docs import route

bp = Blueprint("web", __name__)

ASSETS = Path(__file__).parent / "web"
MODULES = {path.name: "text/javascript" for path in sorted(ASSETS.glob("*.js"))}
"""The page's script: ES modules (`<script type="module">`, no build step), main.js importing
the others."""
FILES = {**MODULES, "table.css": "text/css", "favicon.svg": "image/svg+xml"}
"""What the page loads, besides itself."""
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
"""The page may load only its own files and talk only to this server."""
HEADERS = {
    "Content-Security-Policy": POLICY,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


@route(
    bp,
    "/",
    "GET",
    summary="The web table",
    media_type="text/html",
    success_text="The page: lobby, table, replay and rulings, for every ruleset; works offline.",
    tags=("service",),
    store=False,
)
def index() -> Response:
    """A page for people: list the rulesets and create a game (each seat gets a join link with
    its token in the URL fragment), play a seat by its legal actions (clicking the map where an
    action names a land), follow a game live through the stream, and replay any game event by
    event with the rule, page and dice behind each, its explanation and the chance audit. It
    uses only this API."""
    response = send_from_directory(ASSETS, "index.html", mimetype="text/html", max_age=0)
    response.headers.update(HEADERS)
    return response


@bp.get("/web/<name>")
def asset(name: str) -> Response:
    """The page's own modules, style sheet and icon (nothing else is served from here)."""
    if name not in FILES:
        abort(404)
    response = send_from_directory(ASSETS, name, mimetype=FILES[name], max_age=0)
    response.headers.update(HEADERS)
    return response
