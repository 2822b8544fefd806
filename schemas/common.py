"""Schemas shared by every endpoint: the one error body, health."""

from __future__ import annotations

from marshmallow import RAISE, Schema, fields


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class ErrorSchema(StrictSchema):
    """The one JSON error body of every failed request (contracts §6)."""

    code = fields.String(required=True, metadata={"description": "Machine-readable error code."})
    message = fields.String(required=True, metadata={"description": "What went wrong, for people."})
    rule = fields.String(
        metadata={"description": "Rules-catalogue id of the rule that refused the command."}
    )
    details = fields.Dict(metadata={"description": "Field errors or the inputs that decided."})
    current_version = fields.Integer(
        metadata={"description": "The game's version now (on a stale-version conflict)."}
    )


class HealthSchema(StrictSchema):
    status = fields.String(required=True, metadata={"description": "`ok` when the store answers."})
    redis_version = fields.String(required=True)
    rq_workers = fields.Integer(required=True, metadata={"description": "RQ workers alive."})
    store = fields.String(required=True, metadata={"description": "Event store status."})
