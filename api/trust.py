"""Trust: replay jobs (verify, export), the chance audit, the seed reveal, the admin's rewind."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, url_for
from flask.typing import ResponseReturnValue

from api.context import access, games
from api.docs import route
from api.errors import ApiError
from api.inputs import bearer_token, json_body
from schemas.api import CommandResultSchema
from schemas.instances import one
from schemas.trust import (
    AuditSchema,
    ReplayJobSchema,
    ReplayRequestSchema,
    RewindRequestSchema,
    SeedRevealSchema,
)
from service import replay_jobs
from service.access import NotAuthenticated
from service.audit import SeedNotRevealed, audit_events
from service.queries import seen_events
from service.replay_html import policy_in
from service.replay_jobs import JobNotFound, ReplayJob

bp = Blueprint("trust", __name__)
TAGS = ("trust",)


def _job(job_id: str) -> ReplayJob:
    try:
        return replay_jobs.replay_job(current_app.config["REDIS_URL"], job_id)
    except JobNotFound as exc:
        raise ApiError(404, "job_not_found", str(exc)) from None


def _job_body(job: ReplayJob) -> dict[str, Any]:
    body: dict[str, Any] = {
        "job_id": job.id,
        "game_id": job.game_id,
        "kind": job.kind,
        "status": job.status,
        "status_url": url_for("trust.get_replay_job", job_id=job.id),
        "result": None,
        "error": None,
    }
    if job.finished:
        value = job.value
        if job.kind == "export" and isinstance(value, dict):
            body["result"] = {
                "bytes": value.get("bytes"),
                "html_url": url_for("trust.get_replay_html", job_id=job.id),
            }
        else:
            body["result"] = value
    elif job.status == "failed":
        body["error"] = "the replay job failed; see the worker's log"
    return body


@route(
    bp,
    "/games/<game_id>/replays",
    "POST",
    summary="Start a replay job (verify or export)",
    request=ReplayRequestSchema,
    response=ReplayJobSchema,
    status=202,
    errors=(400, 401, 403, 404, 413, 415),
    auth=True,
    tags=TAGS,
)
def start_replay(game_id: str) -> ResponseReturnValue:
    """For a seat or the admin of the game: queue a background job that folds the whole game
    from event 1 and either checks every snapshot against it (`verify`) or builds a
    self-contained HTML replay (`export`). Poll the `status_url`."""
    caller = access().identify(game_id, bearer_token())
    if caller.seat is None and not caller.is_admin:
        raise NotAuthenticated("a seat or admin token of this game is required")
    kind = json_body(ReplayRequestSchema)["kind"]
    games().store.meta(game_id)
    job = replay_jobs.start_replay(
        current_app.config["REDIS_URL"], current_app.config["QUEUE"], game_id, kind
    )
    body = one(ReplayJobSchema).dump(_job_body(job))
    return body, 202, {"Location": body["status_url"]}


@route(
    bp,
    "/replays/<job_id>",
    "GET",
    summary="A replay job's status and result",
    response=ReplayJobSchema,
    errors=(404,),
    tags=TAGS,
)
def get_replay_job(job_id: str) -> ResponseReturnValue:
    """Status (`queued`, `started`, `finished`, `failed` …) and, when finished, the verify
    report (first divergence, if any) or the export's size and `html_url`."""
    return one(ReplayJobSchema).dump(_job_body(_job(job_id)))


@route(
    bp,
    "/replays/<job_id>/replay.html",
    "GET",
    summary="The exported HTML replay",
    errors=(404, 409),
    tags=TAGS,
)
def get_replay_html(job_id: str) -> ResponseReturnValue:
    """The self-contained HTML replay an export job built (open it from disk; no server)."""
    job = _job(job_id)
    if job.kind != "export":
        raise ApiError(404, "not_an_export", "this job verifies; it has no HTML")
    value = job.value
    if not isinstance(value, dict):
        raise ApiError(409, "not_ready", "the export has not finished; poll the job's status")
    page = str(value["html"])
    headers = {"Content-Security-Policy": policy_in(page), "Cache-Control": "no-cache"}
    return Response(page, mimetype="text/html", headers=headers)


@route(
    bp,
    "/games/<game_id>/audit",
    "GET",
    summary="Re-verify every chance outcome",
    response=AuditSchema,
    errors=(404, 409),
    tags=TAGS,
)
def audit_game(game_id: str) -> ResponseReturnValue:
    """Once the seed is revealed (at the end of the game, or earlier by the admin): checks the
    seed against the commitment published at creation and recomputes every recorded draw,
    listing each mismatch with its version. 409 `seed_not_revealed` before that. A sandbox
    whose chance was scripted is audited at any time against its script (`chance: scripted`),
    and its commitment is never reported verified."""
    service = games()
    try:
        report = audit_events(game_id, service.events(game_id))
    except SeedNotRevealed as exc:
        raise ApiError(
            409, "seed_not_revealed", str(exc), current_version=service.store.version(game_id)
        ) from None
    return one(AuditSchema).dump(report.as_dict())


@route(
    bp,
    "/games/<game_id>/seed",
    "POST",
    summary="Reveal the chance seed now (admin)",
    response=SeedRevealSchema,
    status=201,
    errors=(401, 403, 404, 409),
    auth=True,
    tags=TAGS,
)
def reveal_seed(game_id: str) -> ResponseReturnValue:
    """For the game's admin: publish the secret seed before the game ends (the log records
    that it was early). Anyone can then audit; players can also foresee later rolls, which is
    why only the admin may do it. 409 if it is already revealed."""
    access().admin(game_id, bearer_token())
    outcome = games().reveal_seed(game_id, early=True)
    if outcome is None:
        raise ApiError(409, "seed_already_revealed", "the seed is already revealed")
    event = outcome.events[0]
    seed = event.as_dict()["data"]["seed"]
    return one(SeedRevealSchema).dump(
        {"game_id": game_id, "version": event.version, "seed": seed}
    ), 201


@route(
    bp,
    "/games/<game_id>/rewind",
    "POST",
    summary="Order a rewind (admin)",
    request=RewindRequestSchema,
    response=CommandResultSchema,
    status=201,
    errors=(400, 401, 403, 404, 409, 413, 415, 422),
    auth=True,
    tags=TAGS,
)
def order_rewind(game_id: str) -> ResponseReturnValue:
    """For the game's admin: the game goes back to how it stood after `to_version` (the end of
    a command). The log keeps everything; later versions no longer count. Seats instead post
    `propose_rewind` as a command, which every other seat must accept."""
    access().admin(game_id, bearer_token())
    body = json_body(RewindRequestSchema)
    outcome = games().order_rewind(game_id, body["to_version"])
    result = {
        "game_id": game_id,
        "version": outcome.version,
        "events": seen_events(list(outcome.events), None),
    }
    return one(CommandResultSchema).dump(result), 201
