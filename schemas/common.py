"""Schemas shared by every endpoint: the one error body, health."""

from __future__ import annotations

import re

from marshmallow import RAISE, Schema, fields, validate
from werkzeug.exceptions import default_exceptions
from werkzeug.http import HTTP_STATUS_CODES


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


def http_error_code(name: str) -> str:
    """The error code of an HTTP error the web framework raises, from its reason phrase
    (`Method Not Allowed` → `method_not_allowed`)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "http_error"


API_CODES = (
    "body_too_large",
    "chance_script_exhausted",
    "chance_script_mismatch",
    "chance_script_refused",
    "event_not_found",
    "forbidden",
    "game_busy",
    "game_not_finished",
    "game_not_found",
    "idempotency_key_reused",
    "internal_error",
    "invalid_chance_script",
    "invalid_command",
    "invalid_cursor",
    "invalid_json",
    "invalid_names",
    "invalid_position",
    "invalid_request",
    "invalid_seat",
    "invitation_refused",
    "job_not_found",
    "no_board",
    "not_acceptable",
    "not_an_export",
    "not_ready",
    "player_not_found",
    "rate_limited",
    "result_not_available",
    "ruleset_not_found",
    "seat_left",
    "seat_not_found",
    "seed_already_revealed",
    "seed_not_revealed",
    "store_unavailable",
    "too_many_streams",
    "unauthenticated",
    "unsupported_media_type",
    "version_conflict",
    "version_not_found",
    "webhook_not_found",
    "webhook_url_refused",
)
"""The codes the API's views and its error translation give (api/)."""
RULE_CODES = (
    "event_schema_unavailable",
    "game_over",
    "illegal_action",
    "invalid_options",
    "invalid_player_count",
    "not_your_turn",
    "rule_violation",
    "ruleset_revision_unavailable",
    "unknown_command",
)
"""The codes of the rules' refusals and of the revisions a server lacks (domain.core.errors)."""
SERVER_CODES = (
    "headers_too_large",
    "http_error",
    "invalid_http_request",
    "uri_too_long",
    "expectation_failed",
    "not_implemented",
)
"""What the HTTP server answers before the app reads a request (api.http_errors)."""
ERROR_CODES = tuple(
    sorted(
        {
            *API_CODES,
            *RULE_CODES,
            *SERVER_CODES,
            *(http_error_code(HTTP_STATUS_CODES[code]) for code in default_exceptions),
        }
    )
)
"""Every `code` an error body can carry: the document's enum (tests/unit/test_error_codes.py
finds every code the code base gives and fails on one not here)."""


class ErrorSchema(StrictSchema):
    """The one JSON error body of every failed request (contracts §6)."""

    code = fields.String(
        required=True,
        validate=validate.OneOf(ERROR_CODES),
        metadata={"description": "Machine-readable error code."},
    )
    message = fields.String(required=True, metadata={"description": "What went wrong, for people."})
    rule = fields.String(
        metadata={"description": "Rules-catalogue id of the rule that refused the command."}
    )
    details = fields.Dict(metadata={"description": "Field errors or the inputs that decided."})
    current_version = fields.Integer(
        metadata={"description": "The game's version now (on a stale-version conflict)."}
    )


class HealthSchema(StrictSchema):
    status = fields.String(
        required=True,
        validate=validate.OneOf(("ok",)),
        metadata={"description": "`ok` when the store answers (else the answer is a 503)."},
    )
    redis_version = fields.String(required=True)
    rq_workers = fields.Integer(required=True, metadata={"description": "RQ workers alive."})
    store = fields.String(
        required=True,
        validate=validate.OneOf(("ok",)),
        metadata={"description": "Event store status."},
    )
