"""What gunicorn refuses before the app sees a request (a request line over its limit: 414;
headers over theirs: 431; a line it cannot parse: 400) is answered with the API's one JSON error
body, like every other error, instead of gunicorn's HTML page. Installed by every gunicorn
worker the app runs in (api.wsgi, api.evented)."""

from __future__ import annotations

import json
from typing import Any

from gunicorn import util

PARSER_ERROR_CODES = {
    400: "invalid_http_request",
    403: "forbidden",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    501: "not_implemented",
}


def write_json_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's `util.write_error`, answering in the API's error body."""
    body = json.dumps(
        {"code": PARSER_ERROR_CODES.get(status_int, "http_error"), "message": mesg or reason}
    ).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode("latin1")
    util.write_nonblock(sock, head + body)


def answer_parser_errors_in_json() -> None:
    util.write_error = write_json_error
