"""Each documented route as an OpenAPI operation: its responses (errors with their headers,
streams in each of their media types, links), its security, body and parameters."""

from __future__ import annotations

import re
from typing import Any

from api.docs import Operation
from api.inputs import IDEMPOTENCY_KEY_PATTERN, LAST_EVENT_ID_PATTERN
from api.openapi_links import LINKS

ERROR_TEXT = {
    400: "Malformed input: the field errors are in `details.fields`.",
    401: "No token, or a token this game does not know.",
    403: "The token may not do this (a seat acts only as itself; the admin is not a seat).",
    404: "No such game, ruleset, version or event.",
    405: "The path exists but not with this method.",
    406: "The `Accept` header admits none of the media types this operation answers in.",
    409: "Stale version (see `current_version`), a reused idempotency key, the game is busy, "
    "or the game is not finished yet.",
    413: "The body is too large.",
    414: "The request line (the path with its query) is longer than the server reads "
    "(`uri_too_long`).",
    415: "The body is not sent as `application/json`.",
    422: "The rules refuse the command: `rule` names the rule, `details` what decided.",
    429: "Too many requests: `rate_limited` (a limit on this client address, on this token, "
    "or on the games created from this address is spent; `details.limit` names it), or "
    "`too_many_streams` when opening a stream. Retry after `Retry-After` seconds.",
    431: "The request's headers are larger than the server reads (`headers_too_large`).",
    503: "The store (Redis) is not reachable, or too slow to answer: `store_unavailable`. "
    "Retry after `Retry-After` seconds; a command retried with the same Idempotency-Key is "
    "applied at most once.",
}
ERROR_HEADERS = {
    409: {"Retry-After": "RetryAfterBusy"},
    429: {"Retry-After": "RetryAfter"},
    503: {"Retry-After": "RetryAfter"},
}
"""Headers of error responses, by status: each names a header of the document's components."""

BUSY_OPERATIONS = {"post_games_game_id_commands", "post_games_game_id_rewind"}
"""The operations that answer 409 `game_busy` (with `Retry-After`) while a step runs."""
HEADER_PATTERNS = {
    "Idempotency-Key": IDEMPOTENCY_KEY_PATTERN,
    "Last-Event-ID": LAST_EVENT_ID_PATTERN,
}
"""The patterns the server enforces on request headers (api.inputs)."""

PATH_PARAMETER_TYPES = {"int": {"type": "integer", "minimum": 0}, "string": {"type": "string"}}
PATH_PARAMETER_TEXT = {
    "game_id": "The game's id (from `POST /games`).",
    "version": "An event's version: 1 for the game's first event.",
    "seat": "A seat number: 0 for the first player.",
}


def operation(op: Operation) -> dict[str, Any]:
    responses: dict[Any, Any] = {}
    operation_id = re.sub(r"[^A-Za-z0-9]+", "_", f"{op.method}_{op.path}").strip("_")
    for status, text in {op.status: op.success_text, **op.other_success}.items():
        success: dict[str, Any] = {"description": text}
        if op.response is not None:
            success["content"] = {op.media_type: {"schema": op.response}}
        elif op.media_type == "text/event-stream":
            stream = op.extra.get("stream_schema", "EventStream")
            success["content"] = {
                op.media_type: {"schema": stream},
                **{media: stream_lines(op, media) for media in op.alternates},
            }
        elif op.media_type != "application/json":
            success["content"] = {
                media: {"schema": media_schema(media)} for media in (op.media_type, *op.alternates)
            }
        if op.query is not None and "cursor" in op.query._declared_fields:
            success["headers"] = {"Link": "NextPage"}
        if (operation_id, str(status)) in LINKS:
            success["links"] = LINKS[(operation_id, str(status))]
        responses[str(status)] = success
    for status in sorted(set(op.errors)):
        responses[str(status)] = {
            "description": ERROR_TEXT.get(status, "Unexpected error; never expected."),
            "content": {"application/json": {"schema": "Error"}},
        }
        if status in ERROR_HEADERS and (status != 409 or operation_id in BUSY_OPERATIONS):
            responses[str(status)]["headers"] = dict(ERROR_HEADERS[status])
    body: dict[str, Any] = {
        "summary": op.summary,
        "operationId": operation_id,
        "responses": responses,
    }
    if op.description:
        body["description"] = op.description
    if op.tags:
        body["tags"] = list(op.tags)
    if op.auth == "optional":
        pass  # the document's default: `{}` (a spectator) or a bearer token (a seat, the admin)
    elif op.auth:
        body["security"] = [{"bearerToken": []}]
    else:
        body["security"] = []
    if op.request is not None:
        body["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": op.request}},
        }
    parameters: list[dict[str, Any]] = [
        {
            "in": "path",
            "name": name,
            "required": True,
            "description": PATH_PARAMETER_TEXT.get(name, name),
            "schema": PATH_PARAMETER_TYPES.get(converter, {"type": "string"}),
        }
        for name, converter in op.path_params
    ]
    if op.query is not None:
        parameters.append({"in": "query", "schema": op.query})
    parameters += [
        {
            "in": "header",
            "name": h.name,
            "required": False,
            "description": h.description,
            "schema": {"type": "string", "pattern": h.pattern or HEADER_PATTERNS[h.name]},
        }
        for h in op.headers
    ]
    if parameters:
        body["parameters"] = parameters
    body.update({k: v for k, v in op.extra.items() if k not in ("stream_schema", "line_schema")})
    return body


def stream_lines(op: Operation, media: str) -> dict[str, Any]:
    """A stream's NDJSON form: text, each line of it one `line_schema` (what OpenAPI 3.2 calls
    the media type's `itemSchema`, given here as `x-itemSchema` for 3.1's tools)."""
    line = op.extra.get("line_schema")
    if media != "application/x-ndjson" or line is None:
        return {"schema": media_schema(media)}
    return {
        "schema": {
            "description": f"NDJSON. Read whole, the body is text; read line by line as it "
            f"comes, each line is a `{line}` (README: following a stream with a generated "
            "client).",
            "oneOf": [
                {"type": "string", "description": "The stream read as text."},
                {"$ref": f"#/components/schemas/{line}"},
            ],
        },
        "x-itemSchema": {"$ref": f"#/components/schemas/{line}"},
    }


def media_schema(media: str) -> dict[str, Any]:
    """A non-JSON answer: bytes for `application/octet-stream`, else text."""
    if media == "application/octet-stream":
        return {"type": "string", "format": "binary"}
    return {"type": "string"}
