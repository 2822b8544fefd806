"""Reading a request: its JSON body, its query string, its token and its idempotency key.

Everything a client sends is checked here or by a schema, so that bad input is a 4xx with the one
error body and never reaches the service as something it cannot handle.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import request, url_for
from marshmallow import Schema
from werkzeug.exceptions import RequestEntityTooLarge

from api.errors import ApiError, too_large
from schemas.instances import one
from service.access import NotAuthenticated
from service.queries import BadCursor, decode_cursor

MAX_JSON_DEPTH = 32
BODY_CHUNK = 64 * 1024
TOKEN = re.compile(r"^[A-Za-z0-9_.-]{1,200}$")
IDEMPOTENCY_KEY_PATTERN = "^[!-~]{1,128}$"
"""1 to 128 printable ASCII characters, no spaces (the OpenAPI document gives the same)."""
IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)
LAST_EVENT_ID_PATTERN = "^[0-9]{0,16}$"
"""An event version (blank means none, as EventSource sends it on a first connection)."""
LAST_EVENT_ID = re.compile(LAST_EVENT_ID_PATTERN)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate on its own: JSON's `\\ud800` escapes can name one, but it is no character
and cannot be stored or sent as UTF-8."""


def _may_nest_or_hold_surrogates(raw: bytes) -> bool:
    """Whether the body could nest past the limit or hold a lone surrogate: an ASCII body
    cannot unless it opens more arrays and objects than the limit or writes a `\\ud…` escape."""
    return (
        not raw.isascii()
        or raw.count(b"[") + raw.count(b"{") > MAX_JSON_DEPTH
        or b"\\ud" in raw
        or b"\\uD" in raw
    )


def _depth(value: Any) -> int:
    """How deeply `value` nests (at most one past the limit); raises a 400 on the way for a
    string or key holding a lone surrogate."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_JSON_DEPTH:
            break
        if isinstance(item, dict):
            stack.extend((k, depth) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, str) and SURROGATE.search(item):
            raise ApiError(
                400,
                "invalid_json",
                "the body holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is no character",
            )
    return deepest


def body_bytes() -> bytes:
    """The request's body, read at most one chunk past the limit (`MAX_CONTENT_LENGTH`): a body
    sent without a length (chunked) that runs over it is a 413 too, never silently cut short."""
    limit = request.max_content_length
    if limit is None:
        return request.get_data(cache=True)
    if request.content_length is not None:
        if request.content_length > limit:
            raise too_large()
        return request.get_data(cache=True)
    chunks: list[bytes] = []
    size = 0
    stream = request.stream
    try:
        while chunk := stream.read(BODY_CHUNK):
            size += len(chunk)
            if size > limit:
                raise too_large()
            chunks.append(chunk)
    except RequestEntityTooLarge:
        raise too_large() from None
    return b"".join(chunks)


def negotiated(primary: str, alternates: tuple[str, ...]) -> str:
    """The media type to answer in: an alternate only when `Accept` prefers it."""
    return request.accept_mimetypes.best_match([primary, *alternates], default=primary) or primary


def json_body(schema: type[Schema]) -> dict[str, Any]:
    """The request's JSON body, loaded by `schema` (400 with field errors when it does not fit)."""
    if request.mimetype != "application/json":
        raise ApiError(
            415,
            "unsupported_media_type",
            "send the body as JSON with `Content-Type: application/json`",
        )
    raw = body_bytes()
    try:
        body = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise ApiError(400, "invalid_json", f"the body is not valid JSON: {exc}"[:300]) from None
    if _may_nest_or_hold_surrogates(raw) and _depth(body) > MAX_JSON_DEPTH:
        raise ApiError(400, "invalid_json", f"the body nests deeper than {MAX_JSON_DEPTH} levels")
    loaded: dict[str, Any] = one(schema).load(body)
    return loaded


def query(schema: type[Schema]) -> dict[str, Any]:
    """The query string loaded by `schema`; a parameter given twice is refused."""
    repeated = sorted(k for k, values in request.args.lists() if len(values) > 1)
    if repeated:
        raise ApiError(
            400,
            "invalid_request",
            "a query parameter is given more than once",
            details={"fields": {k: ["Given more than once."] for k in repeated}},
        )
    loaded: dict[str, Any] = one(schema).load(request.args.to_dict())
    return loaded


def bearer_token() -> str | None:
    """The token of `Authorization: Bearer <token>`, or None when there is no such header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise NotAuthenticated("the Authorization header must read `Bearer <token>`")
    if not TOKEN.match(token):
        raise NotAuthenticated("unknown token")
    return token


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not IDEMPOTENCY_KEY.fullmatch(key):
        raise ApiError(
            400,
            "invalid_request",
            "Idempotency-Key must be 1 to 128 printable ASCII characters without spaces",
            details={"fields": {"Idempotency-Key": ["Invalid value."]}},
        )
    return key


def last_event_id() -> int | None:
    """The `Last-Event-ID` header an SSE client sends when it reconnects."""
    value = request.headers.get("Last-Event-ID")
    if value is None or value.strip() == "":
        return None
    value = value.strip()
    if not LAST_EVENT_ID.fullmatch(value):
        raise ApiError(
            400,
            "invalid_request",
            "Last-Event-ID must be an event version",
            details={"fields": {"Last-Event-ID": ["Not a valid integer."]}},
        )
    return int(value)


OLD_PAGING = ("offset", "from", "cursor")
"""Query parameters that say where a page starts: none of them is carried to the next page's
link, which says it with `cursor` alone."""


def cursor_after(
    args: dict[str, Any], old: str = "offset", key: re.Pattern[str] | None = None
) -> tuple[float, str] | None:
    """The position a listing's page starts after, from its `cursor` (None: none given); a
    cursor this server did not give out, or one given with the deprecated `old` parameter, is a
    422 `invalid_cursor`."""
    cursor = args.get("cursor")
    if cursor is None:
        return None
    if args.get(old):
        raise ApiError(422, "invalid_cursor", f"page with `cursor` or with `{old}`, not both")
    try:
        return decode_cursor(cursor) if key is None else decode_cursor(cursor, key)
    except BadCursor as bad:  # well formed, but not one this server gave out
        raise ApiError(422, "invalid_cursor", str(bad)) from None


def paged(body: dict[str, Any], next_cursor: str | None) -> tuple[dict[str, Any], int, Any]:
    """A listing's page as the answer: its body (with `next_cursor`), and the next page's URL
    in a `Link: <...>; rel="next"` header (RFC 8288) when there is one."""
    headers: dict[str, str] = {}
    if next_cursor is not None and request.endpoint is not None:
        kept = {k: v for k, v in request.args.items() if k not in OLD_PAGING}
        url = url_for(request.endpoint, **(request.view_args or {}), **kept, cursor=next_cursor)
        headers["Link"] = f'<{url}>; rel="next"'
    return {**body, "next_cursor": next_cursor}, 200, headers
