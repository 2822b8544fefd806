"""Schemas of the trust endpoints: replay jobs, the chance audit, the seed reveal, rewinds."""

from __future__ import annotations

from marshmallow import fields, validate

from schemas.common import StrictSchema

REPLAY_KINDS = ("verify", "export")
JOB_STATES = (
    "queued",
    "started",
    "deferred",
    "scheduled",
    "finished",
    "failed",
    "stopped",
    "canceled",
)


class ReplayRequestSchema(StrictSchema):
    kind = fields.String(
        required=True,
        validate=validate.OneOf(REPLAY_KINDS),
        metadata={
            "description": "`verify`: fold from event 1 and check every snapshot; "
            "`export`: build a self-contained HTML replay."
        },
    )


class ReplayJobSchema(StrictSchema):
    job_id = fields.String(required=True)
    game_id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(REPLAY_KINDS))
    status = fields.String(required=True, validate=validate.OneOf(JOB_STATES))
    status_url = fields.String(required=True)
    result = fields.Dict(
        allow_none=True,
        metadata={
            "description": "When finished: the verify report, or the export's size and `html_url`."
        },
    )
    error = fields.String(allow_none=True)


class DivergenceSchema(StrictSchema):
    version = fields.Integer(required=True)
    snapshot_hash = fields.String(required=True)
    replay_hash = fields.String(required=True)


class MismatchSchema(StrictSchema):
    version = fields.Integer(required=True)
    event_type = fields.String(required=True)
    k = fields.Integer(required=True, metadata={"description": "The draw's counter."})
    n = fields.Integer(required=True, metadata={"description": "The draw's range [0, n)."})
    recorded = fields.Integer(required=True)
    expected = fields.Integer(
        required=True,
        metadata={
            "description": "What the seed gives (scripted chance: what the script gives, -1 "
            "where it has no entry of that range)."
        },
    )


class AuditSchema(StrictSchema):
    game_id = fields.String(required=True)
    seed_commitment = fields.String(required=True)
    seed = fields.String(
        required=True,
        metadata={
            "description": "The revealed seed, in hex (scripted chance: empty until revealed)."
        },
    )
    commitment_verified = fields.Boolean(required=True)
    outcomes_checked = fields.Integer(required=True)
    counters_in_order = fields.Boolean(required=True)
    mismatches = fields.List(fields.Nested(MismatchSchema), required=True)
    chance = fields.String(
        required=True,
        validate=validate.OneOf(["committed", "scripted"]),
        metadata={
            "description": "`committed`: every draw an outcome of the seed committed to at "
            "creation, recomputed from the revealed seed. `scripted`: a sandbox's what-if, "
            "every draw checked against the script recorded at its creation; no seed stands "
            "behind it and `commitment_verified` is false."
        },
    )
    clean = fields.Boolean(
        required=True,
        metadata={
            "description": "Committed chance: the commitment verified and every draw "
            "recomputed; scripted chance: every draw the script's, in order."
        },
    )


class SeedRevealSchema(StrictSchema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The SeedRevealed event."})
    seed = fields.String(required=True)


class RewindRequestSchema(StrictSchema):
    to_version = fields.Integer(
        required=True,
        validate=validate.Range(min=1, max=2**53),
        metadata={"description": "The version to go back to: the end of a command."},
    )
