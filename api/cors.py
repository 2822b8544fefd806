"""Cross-origin access for browser clients, from CHRONICLE_CORS_ORIGINS (a comma list; `*` for
any origin). Tokens travel in the Authorization header, never in cookies, so no credentials
mode is needed."""

from __future__ import annotations

from collections.abc import Collection

from flask import Flask, Response, request

ALLOWED_METHODS = "GET, POST, OPTIONS"
ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID"
EXPOSED_HEADERS = "Location, Retry-After"
MAX_AGE_S = "600"


def install(app: Flask, origins: Collection[str]) -> None:
    if not origins:
        return
    any_origin = "*" in origins

    @app.after_request
    def allow_origin(response: Response) -> Response:
        origin = request.headers.get("Origin")
        if origin is None or not (any_origin or origin in origins):
            return response
        response.headers["Access-Control-Allow-Origin"] = "*" if any_origin else origin
        if not any_origin:
            response.vary.add("Origin")
        response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        if request.method == "OPTIONS":
            response.headers["Access-Control-Allow-Methods"] = ALLOWED_METHODS
            response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            response.headers["Access-Control-Max-Age"] = MAX_AGE_S
        return response
