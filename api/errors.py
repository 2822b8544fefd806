"""Every failure becomes one JSON body `{code, message, rule?, details?, current_version?}`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge

from schemas.common import http_error_code
from service.access import Forbidden, NotAuthenticated
from service.errors import (
    ChanceScriptUnusable,
    CommandRefused,
    EventSchemaUnavailable,
    GameBusy,
    GameNotFound,
    IdempotencyKeyReused,
    InvalidChanceScript,
    InvalidPosition,
    RulesetRevisionUnavailable,
    RuleViolation,
    UnknownRuleset,
    VersionConflict,
    VersionOutOfRange,
    store_failure,
)
from service.queries import EventNotFound, GameNotFinished, NoBoard, ResultNotAvailable
from service.stream_places import TooManyStreams
from service.tables import SeatNotPlayable

log = logging.getLogger("chronicle.api")

STORE_RETRY_AFTER_S = 5
"""How long a client is told to wait (`Retry-After`) when the store cannot be reached."""
BUSY_RETRY_AFTER_S = 1
"""How long a seat is told to wait (`Retry-After`) while a step no seat takes runs."""


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        rule: str | None = None,
        details: dict[str, Any] | None = None,
        current_version: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        self.details = details
        self.current_version = current_version
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.rule is not None:
            body["rule"] = self.rule
        if self.details is not None:
            body["details"] = self.details
        if self.current_version is not None:
            body["current_version"] = self.current_version
        return body


def error_response(error: ApiError) -> ResponseReturnValue:
    response = jsonify(error.body())
    response.status_code = error.status
    response.headers.update(error.headers)
    return response


def refused(
    violation: RuleViolation, entry: dict[str, Any] | None, current_version: int | None = None
) -> ApiError:
    """A 422 for a rule violation, with the rules-catalogue entry of the rule when there is one."""
    details = dict(violation.context)
    if entry is not None:
        details["rule_entry"] = entry
    return ApiError(
        422,
        violation.code,
        violation.message,
        rule=violation.rule,
        details=details,
        current_version=current_version,
    )


def store_unavailable(failure: BaseException | None = None) -> ApiError:
    """The 503 of a request the store could not serve; logged in one line, not a traceback."""
    if failure is not None:
        log.warning("the store is unavailable: %s: %s", type(failure).__name__, failure)
        forget_cached_games()
    return ApiError(
        503,
        "store_unavailable",
        f"the event store (Redis) cannot be reached; retry in {STORE_RETRY_AFTER_S} s",
        details={"retry_after_s": STORE_RETRY_AFTER_S},
        headers={"Retry-After": str(STORE_RETRY_AFTER_S)},
    )


def forget_cached_games() -> None:
    """Drop this process's cache of game states after a store failure. A failover can lose
    writes that were never acknowledged (a 503's, whose WAIT fell short); a process that had
    read such a write meanwhile must not keep deciding on it."""
    try:
        from api.context import games

        games().cache.clear()
    except Exception:  # outside a request, or no service yet: nothing cached to drop
        log.debug("no game cache to clear", exc_info=True)


def translate(exc: Exception) -> ApiError:
    """The API error for any exception a view lets through: the first of `TRANSLATIONS` whose
    type it is (after a store failure's 503), else a logged 500."""
    if isinstance(exc, ApiError):
        return exc
    if (failure := store_failure(exc)) is not None:
        return store_unavailable(failure)
    for kind, answer in TRANSLATIONS:
        if isinstance(exc, kind):
            return answer(exc)
    log.exception("unexpected error", exc_info=exc)
    return ApiError(500, "internal_error", "an unexpected error occurred; it has been logged")


def worded_error(status: int, code: str) -> Callable[[Any], ApiError]:
    """An error whose message is the exception's own words, and nothing more."""
    return lambda exc: ApiError(status, code, str(exc))


def error_at_version(status: int, code: str, version: str = "current") -> Callable[[Any], ApiError]:
    """An error in the exception's words, with the game's version its `version` attribute holds."""
    return lambda exc: ApiError(status, code, str(exc), current_version=getattr(exc, version))


def detailed_error(status: int, code: str) -> Callable[[Any], ApiError]:
    """An error with the exception's `message` and `details`."""
    return lambda exc: ApiError(status, code, exc.message, details=exc.details)


def malformed(exc: ValidationError) -> ApiError:
    return ApiError(
        400, "invalid_request", "the request is malformed", details={"fields": exc.messages}
    )


def seat_left(exc: SeatNotPlayable) -> ApiError:
    return ApiError(409, "seat_left", str(exc), details={"seat": exc.seat, "why": exc.why})


def unauthenticated(exc: NotAuthenticated) -> ApiError:
    return ApiError(401, "unauthenticated", str(exc), headers={"WWW-Authenticate": "Bearer"})


def chance_script_unusable(exc: ChanceScriptUnusable) -> ApiError:
    code = "chance_script_exhausted" if exc.exhausted else "chance_script_mismatch"
    return ApiError(
        409, code, exc.message, details=exc.details, current_version=exc.current_version
    )


def revision_unavailable(exc: RulesetRevisionUnavailable) -> ApiError:
    return ApiError(
        422 if exc.in_request else 409,
        exc.code,
        str(exc),
        details={"ruleset": exc.ruleset, "revision": exc.revision, "available": list(exc.known)},
    )


def event_schema_unavailable(exc: EventSchemaUnavailable) -> ApiError:
    return ApiError(
        409,
        exc.code,
        str(exc),
        details={"type": exc.type_name, "schema_version": exc.schema_version, "known": exc.known},
    )


def game_busy(exc: GameBusy) -> ApiError:
    return ApiError(
        409,
        "game_busy",
        str(exc),
        details={"retry_after_s": BUSY_RETRY_AFTER_S},
        headers={"Retry-After": str(BUSY_RETRY_AFTER_S)},
    )


def too_many_streams(exc: TooManyStreams) -> ApiError:
    return ApiError(
        429,
        "too_many_streams",
        str(exc),
        details={"limit": exc.limit, "retry_after_s": exc.retry_after_s},
        headers={"Retry-After": str(exc.retry_after_s)},
    )


def http_error(exc: HTTPException) -> ApiError:
    """What werkzeug refuses itself (404 of a path, 405, 413 ...), in the one error body."""
    if isinstance(exc, RequestEntityTooLarge):
        return too_large()
    code = http_error_code(exc.name or "")
    allow = {"Allow": exc.valid_methods} if isinstance(exc, MethodNotAllowed) else {}
    return ApiError(
        exc.code or 500,
        code,
        exc.description or exc.name or "error",
        headers={k: ", ".join(v) for k, v in allow.items() if v},
    )


TRANSLATIONS: tuple[tuple[type[Exception], Callable[[Any], ApiError]], ...] = (
    (ValidationError, malformed),
    (SeatNotPlayable, seat_left),
    (CommandRefused, lambda exc: refused(exc.violation, exc.entry, exc.current_version)),
    (RuleViolation, lambda exc: refused(exc, None)),
    (NotAuthenticated, unauthenticated),
    (Forbidden, worded_error(403, "forbidden")),
    (EventNotFound, error_at_version(404, "event_not_found")),
    (GameNotFinished, error_at_version(409, "game_not_finished", "version")),
    (ResultNotAvailable, worded_error(404, "result_not_available")),
    (NoBoard, worded_error(404, "no_board")),
    (InvalidPosition, detailed_error(422, "invalid_position")),
    (InvalidChanceScript, detailed_error(422, "invalid_chance_script")),
    (ChanceScriptUnusable, chance_script_unusable),
    (GameNotFound, worded_error(404, "game_not_found")),
    (UnknownRuleset, worded_error(404, "ruleset_not_found")),
    (RulesetRevisionUnavailable, revision_unavailable),
    (EventSchemaUnavailable, event_schema_unavailable),
    (VersionOutOfRange, error_at_version(404, "version_not_found")),
    (VersionConflict, error_at_version(409, "version_conflict")),
    (IdempotencyKeyReused, error_at_version(409, "idempotency_key_reused")),
    (GameBusy, game_busy),
    (TooManyStreams, too_many_streams),
    (HTTPException, http_error),
)
"""Each kind of exception and its error, the first whose type an exception is deciding (so a
kind comes before the kinds it is a subclass of)."""


def too_large() -> ApiError:
    """The 413 of a body over the app's limit (`MAX_CONTENT_LENGTH`), with the limit."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    return ApiError(
        413,
        "body_too_large",
        f"the request body is larger than {limit} bytes",
        details={"max_bytes": limit},
    )


def refuse_large_bodies(app: Flask) -> None:
    """A body whose declared length is over the limit is refused before any view runs (or
    parses anything), whatever the route and method."""

    @app.before_request
    def check_length() -> ResponseReturnValue | None:
        limit = app.config.get("MAX_CONTENT_LENGTH")
        length = request.content_length
        if limit is not None and length is not None and length > limit:
            return error_response(too_large())
        return None


def install(app: Flask) -> None:
    @app.errorhandler(Exception)
    def handle(exc: Exception) -> ResponseReturnValue:
        return error_response(translate(exc))
