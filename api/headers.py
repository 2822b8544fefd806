"""Headers every answer carries, whatever view (or error handler) made it.

An answer to a request with a credential (a token, or a stream ticket) is the caller's own:
`Cache-Control: private, no-store`.

Nothing this server sends may be sniffed into another type, framed by another site, or run
script it did not ship: a view that sends a page of its own sets its own Content-Security-Policy
(the web table, the HTML replay), and every other answer (JSON, SVG, YAML, the docs, errors)
gets one that lets a browser load and run nothing at all.
"""

from __future__ import annotations

from flask import Flask, Response, request

NOTHING = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
"""A document that needs no script, font, image or connection: its inline style only (the docs
page and the SVG board carry one)."""
FRAME_ANCESTORS = "frame-ancestors 'none'"


def policy_of(response: Response) -> str:
    """The view's own policy, with `frame-ancestors 'none'` added when it says nothing of it."""
    policy = response.headers.get("Content-Security-Policy") or NOTHING
    if "frame-ancestors" not in policy:
        policy = f"{policy}; {FRAME_ANCESTORS}"
    return policy


def install(app: Flask) -> None:
    @app.after_request
    def secure(response: Response) -> Response:
        headers = response.headers
        headers["Content-Security-Policy"] = policy_of(response)
        headers["X-Content-Type-Options"] = "nosniff"
        headers["X-Frame-Options"] = "DENY"
        headers.setdefault("Referrer-Policy", "no-referrer")
        environ = request.environ
        if "HTTP_AUTHORIZATION" in environ or (
            environ.get("QUERY_STRING") and "ticket" in request.args
        ):
            # what a seat's (or the admin's) credential shows is that caller's alone: no shared
            # cache may keep it, and no private one may write it to disk
            response.headers["Cache-Control"] = "private, no-store"
            response.vary.add("Authorization")
        return response
