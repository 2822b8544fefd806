"""Games: create, list, summarise, act, and read one caller's view of them."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, url_for
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError

from api.context import access, games, queries
from api.docs import Header, route
from api.errors import ApiError
from api.inputs import (
    bearer_token,
    cursor_after,
    idempotency_key,
    json_body,
    negotiated,
    paged,
    query,
)
from schemas.api import (
    AtQuerySchema,
    CommandRequestSchema,
    CommandResultSchema,
    CreatedGameSchema,
    CreateGameSchema,
    GameListQuerySchema,
    GameListSchema,
    GameSummarySchema,
    LegalActionsSchema,
    PositionSchema,
    ResultSchema,
    SandboxRequestSchema,
    SeatTokenSchema,
    StateSchema,
)
from schemas.instances import one
from service import rulesets
from service.access import NotAuthenticated
from service.auth import new_token, seat_role, token_hash
from service.errors import CredentialChanged, InvalidOptions
from service.games import CreatedGame
from service.names import normalised, problems
from service.queries import BadCursor, seen_events

bp = Blueprint("games", __name__)

TAGS = ("games",)
PLAY = ("play",)


def created_response(created: CreatedGame, sandbox_of: str | None = None) -> ResponseReturnValue:
    body = one(CreatedGameSchema).dump(
        {
            "game_id": created.game_id,
            "ruleset": created.ruleset,
            "players": list(created.players),
            "admin_token": created.tokens.admin,
            "seat_tokens": list(created.tokens.seats),
            "seed_commitment": created.seed_commitment,
            "version": created.version,
            "sandbox_of": sandbox_of,
        }
    )
    location = url_for("games.get_game", game_id=created.game_id)
    return body, 201, {"Location": location, "Cache-Control": "no-store"}


def checked_players(players: list[str]) -> list[str]:
    """The names in Unicode's composed form (NFC); refused (422 `invalid_names`: well formed,
    but not names people can tell apart) when one is blank or holds a character nobody sees, or
    when two look the same (case, width, spacing, look-alike letters): the names are how people
    tell the seats apart in every view, result and replay."""
    names = [normalised(name) for name in players]
    found = problems(names)
    if found:
        raise ApiError(
            422,
            "invalid_names",
            found[0].message,
            details={"fields": {"players": {str(p.seat): [p.message] for p in found}}},
        )
    return names


def checked_command(game_id: str, command: dict[str, Any]) -> None:
    """A 400 `invalid_command` naming each field of a command body that breaks the schema of
    its type for this game (an unknown type, an argument missing, of the wrong type or value,
    or one the type does not take), before the rules are asked; what the rules refuse stays a
    422 naming the rule."""
    misfits = games().command_misfits(game_id, command)
    if misfits:
        paths = "; ".join(f"command.{name}: {why}" for name, why in misfits.items())
        raise ApiError(
            400,
            "invalid_command",
            f"the command does not fit its schema: {paths}"[:500],
            details={"fields": {"command": {name: [why] for name, why in misfits.items()}}},
        )


def checked_options(ruleset: str, options: dict[str, Any]) -> None:
    """A 400 naming each option that breaks the ruleset's options schema (`Options_<ruleset>`):
    one the ruleset does not have (a typo), or a value of the wrong type or not among those
    allowed. Values that are each fine but refused together stay the rules' 422."""
    declared = {option.name: option for option in rulesets.find(ruleset).options}
    wrong: dict[str, str] = {}
    for name, value in options.items():
        option = declared.get(name)
        if option is None:
            known = ", ".join(f"`{n}`" for n in sorted(declared)) or "none"
            wrong[name] = f"Unknown option: a `{ruleset}` game takes {known}."
            continue
        try:
            option.check(value, "")
        except InvalidOptions as bad:
            wrong[name] = bad.message[:1].upper() + bad.message[1:] + "."
    if wrong:
        paths = "; ".join(f"options.{name}: {why}" for name, why in wrong.items())
        raise ApiError(
            400,
            "invalid_request",
            f"the options do not fit the ruleset's: {paths}"[:500],
            details={"fields": {"options": {name: [why] for name, why in wrong.items()}}},
        )


BOARD_ALTERNATES = ("application/octet-stream",)


@route(
    bp,
    "/games",
    "POST",
    summary="Create a game",
    request="CreateGame",
    response=CreatedGameSchema,
    status=201,
    errors=(400, 404, 413, 415, 422),
    tags=TAGS,
)
def create_game() -> ResponseReturnValue:
    """Creates a game of a ruleset with players in seat order and options. Answers with the
    game's id, its admin token and one token per seat (shown only here: Chronicle keeps only
    their hashes), and the commitment to the game's secret chance seed. An unknown ruleset is
    404; an option the ruleset does not have (a typo), or one of the wrong type or value, is a
    400 naming it (`details.fields.options`); a player count, or options each fine but refused
    together, that the ruleset does not allow are 422 with the rule; names
    people could not tell apart (blank, holding a character nobody sees, or looking like
    another seat's) are 422 `invalid_names`."""
    try:
        body = json_body(CreateGameSchema)
    except ValidationError as invalid:
        if isinstance(invalid.messages, dict) and "chance" in invalid.messages:
            raise ApiError(
                400,
                "chance_script_refused",
                "a real game's chance is always its committed seed: only a sandbox "
                "(POST /games/{id}/sandbox) takes scripted chance",
            ) from None
        raise
    players = checked_players(body["players"])
    checked_options(body["ruleset"], body["options"])
    created = games().create_game(body["ruleset"], players, body["options"])
    return created_response(created)


@route(
    bp,
    "/games",
    "GET",
    summary="List games",
    query=GameListQuerySchema,
    response=GameListSchema,
    errors=(400, 422),
    tags=TAGS,
)
def list_games() -> ResponseReturnValue:
    """Listed games, newest first, filtered by status and ruleset, one page of their index at
    a time: every game but a private table (found only by its invitation or by its players).
    Each shows its open seats (status `open`: tables still filling). Page on with the answer's
    `next_cursor` (as `cursor`, or follow its `Link: rel="next"` header): each game comes
    exactly once however many are created meanwhile. `offset` is deprecated."""
    args = query(GameListQuerySchema)
    cursor_after(args)
    try:
        page = queries().listing(
            status=args.get("status"),
            ruleset=args.get("ruleset"),
            offset=args["offset"],
            limit=args["limit"],
            cursor=args.get("cursor"),
        )
    except BadCursor as bad:  # well formed, but not one this server gave out
        raise ApiError(422, "invalid_cursor", str(bad)) from None
    return paged(one(GameListSchema).dump(page), page["next_cursor"])


@route(
    bp,
    "/games/<game_id>",
    "GET",
    summary="A game's summary",
    response=GameSummarySchema,
    errors=(404,),
    tags=TAGS,
)
def get_game(game_id: str) -> ResponseReturnValue:
    """Public facts: status, ruleset, players, options, the seats the game waits for, the
    ruleset's summary (phase, round…), the version and the seed commitment."""
    return one(GameSummarySchema).dump(queries().summary(game_id))


@route(
    bp,
    "/games/<game_id>/commands",
    "POST",
    summary="Play a command",
    request=CommandRequestSchema,
    response=CommandResultSchema,
    status=201,
    other_success={
        200: "A repeat of an earlier request with the same Idempotency-Key: the "
        "first answer again; nothing was appended."
    },
    errors=(400, 401, 403, 404, 409, 413, 415, 422),
    auth=True,
    headers=(
        Header(
            "Idempotency-Key",
            "Makes the request safe to retry: the same key and body give the first answer again "
            "and append nothing; the same key with another body is a 409. Keys are per seat: "
            "another seat's use of the same key is its own request.",
        ),
    ),
    tags=PLAY,
)
def post_command(game_id: str) -> ResponseReturnValue:
    """Plays a command as the seat whose token is given (a seat acts only as itself; the admin
    token cannot act). Post back any entry of the legal-actions list as it is. With
    `expected_version` the command is refused (409, with `current_version`) if the game has
    moved on. A body that breaks its command type's schema (an unknown `type`, an argument
    missing, of the wrong type or value, or one the type does not take) is a 400
    `invalid_command` naming each field in `details.fields.command`, before the rules are asked;
    a well-formed command the rules refuse is a 422 naming the rule. While the game runs a step
    no seat takes (such as closing an epoch), a command waits for the step up to a quarter of a
    second and is then decided on the game it left; a step still running by then makes it a
    409 `game_busy`: retry shortly.
    The answer lists the events the command produced, as this seat may see them."""
    token = bearer_token()
    caller, credential = access().seat_to_confirm(game_id, token)
    seat = caller.seat
    assert seat is not None
    try:
        body = json_body(CommandRequestSchema)
        checked_command(game_id, body["command"])
        outcome = games().play(
            game_id,
            seat,
            body["command"],
            body.get("expected_version"),
            idempotency_key(),
            credential=credential,
        )
    except CredentialChanged:
        access().forget(game_id)
        access().seat(game_id, token)  # refuses the re-issued token
        raise NotAuthenticated("unknown token") from None
    except Exception:
        access().seat(game_id, token)  # only a token still issued is told why not
        raise
    if outcome.duplicate:  # a repeat's answer, which no append confirmed the token for
        access().seat(game_id, token)
    result = {
        "game_id": game_id,
        "version": outcome.version,
        "events": seen_events(outcome.events, seat, outcome.envelopes),
    }
    # Already in CommandResultSchema's shape (envelopes are built by `Recorded.seen_by`; a test
    # holds the two equal): the hottest answer skips re-serialising them field by field.
    return result, 200 if outcome.duplicate else 201


@route(
    bp,
    "/games/<game_id>/legal-actions",
    "GET",
    summary="A seat's legal actions",
    response=LegalActionsSchema,
    errors=(401, 403, 404),
    auth=True,
    tags=PLAY,
)
def legal_actions(game_id: str) -> ResponseReturnValue:
    """Every legal action of the seat whose token is given, in the ruleset's order, each a
    request body ready to post to the commands URL; empty when it is not this seat's turn."""
    caller = access().seat(game_id, bearer_token())
    assert caller.seat is not None
    return one(LegalActionsSchema).dump(queries().legal_actions(game_id, caller.seat))


@route(
    bp,
    "/games/<game_id>/state",
    "GET",
    summary="The game as the caller may see it",
    query=AtQuerySchema,
    response=StateSchema,
    errors=(400, 401, 403, 404),
    auth="optional",
    tags=PLAY,
)
def get_state(game_id: str) -> ResponseReturnValue:
    """The state now, or after version `at`, as the caller may see it: a seat sees its own
    hidden items and the public facts; spectators (no token) and the admin see public facts."""
    caller = access().identify(game_id, bearer_token())
    args = query(AtQuerySchema)
    return one(StateSchema).dump(queries().view(game_id, caller.viewer, args.get("at")))


@route(
    bp,
    "/games/<game_id>/board",
    "GET",
    summary="The table drawn, as the caller may see it",
    query=AtQuerySchema,
    media_type="image/svg+xml",
    alternates=BOARD_ALTERNATES,
    success_text="An SVG document: the ruleset's drawing of the table (as "
    "`application/octet-stream` when `Accept` prefers it).",
    errors=(400, 401, 403, 404),
    auth="optional",
    tags=PLAY,
)
def get_board(game_id: str) -> ResponseReturnValue:
    """The table now, or after version `at`, drawn by the ruleset as an SVG picture showing
    what the caller may see (a seat its own hidden pieces, spectators the public ones). For
    History of the World a map: every land a region (`data-land`), every water one
    (`data-water`), the pieces in their players' colours and a legend. 404 `no_board` for a
    ruleset that draws nothing (check `board` in `GET /rulesets/{name}`)."""
    caller = access().identify(game_id, bearer_token())
    args = query(AtQuerySchema)
    svg = queries().board(game_id, caller.viewer, args.get("at"))
    headers = {
        "Cache-Control": "no-store" if caller.seat is not None else "no-cache",
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    }
    mimetype = negotiated("image/svg+xml", BOARD_ALTERNATES)
    return Response(svg, mimetype=mimetype, headers=headers)


@route(
    bp,
    "/games/<game_id>/result",
    "GET",
    summary="The result of a finished game",
    response=ResultSchema,
    errors=(401, 403, 404, 409),
    auth="optional",
    tags=PLAY,
)
def get_result(game_id: str) -> ResponseReturnValue:
    """Final scores, the ranking (tied seats share a place) and the tie-breaks that decided it.
    409 while the game is still being played."""
    access().identify(game_id, bearer_token())
    return one(ResultSchema).dump(queries().result(game_id))


@route(
    bp,
    "/games/<game_id>/position",
    "GET",
    summary="Export a finished game's whole position",
    query=AtQuerySchema,
    response=PositionSchema,
    errors=(400, 401, 403, 404, 409),
    auth="optional",
    tags=("sandbox",),
)
def get_position(game_id: str) -> ResponseReturnValue:
    """For anyone, once the game is finished and its seed revealed (nothing is hidden any
    more): the whole position now or after version `at`, every seat's hidden items included,
    as a document that the sandbox endpoint takes. 409 while the game is being played, when it
    would reveal hidden information."""
    access().identify(game_id, bearer_token())
    args = query(AtQuerySchema)
    return one(PositionSchema).dump(queries().position(game_id, args.get("at")))


@route(
    bp,
    "/games/<game_id>/sandbox",
    "POST",
    summary="Create a sandbox game from a position",
    request=SandboxRequestSchema,
    response=CreatedGameSchema,
    status=201,
    errors=(400, 401, 403, 404, 413, 415, 422),
    auth=True,
    tags=("sandbox",),
)
def create_sandbox(game_id: str) -> ResponseReturnValue:
    """For the game's admin: a new game of the same ruleset that starts from the given position
    (a position export, or one written by hand to reconstruct a disputed situation) instead of
    being set up. It has its own tokens and chance seed; play and explain it like any game. A
    position the ruleset cannot use (another ruleset's, or not a state its rules can reach) is a
    422 `invalid_position`: it is well formed, but unusable. With `chance` (a what-if: "had
    I rolled a 6") its draws follow the given script in order instead of its seed, each event
    decided on them marked `scripted: true` and its audit saying `chance: scripted`; a script
    that cannot be used is a 422 `invalid_chance_script`. A real game (POST /games) refuses a
    script: 400 `chance_script_refused`."""
    access().admin(game_id, bearer_token())
    body = json_body(SandboxRequestSchema)
    position: dict[str, Any] = body["position"]
    position["setup"]["players"] = checked_players(position["setup"]["players"])
    created = games().create_sandbox(game_id, position, body.get("chance"))
    return created_response(created, sandbox_of=game_id)


@route(
    bp,
    "/games/<game_id>/seats/<int:seat>/token",
    "POST",
    summary="Re-issue a seat's token (admin)",
    response=SeatTokenSchema,
    status=201,
    errors=(401, 403, 404),
    auth=True,
    tags=TAGS,
)
def reissue_seat_token(game_id: str, seat: int) -> ResponseReturnValue:
    """For the game's admin, when a player has lost their seat's token (or it leaked): a new
    token for the seat, shown only here. The old token is revoked at once, in every API
    process: it answers 401 from now on, and so do stream tickets issued for it. A stream
    already open with it runs on until it ends. 404 `seat_not_found` for a seat the game does
    not have."""
    access().admin(game_id, bearer_token())
    players = games().store.meta(game_id).players
    if not 0 <= seat < len(players):
        raise ApiError(
            404,
            "seat_not_found",
            f"the game has seats 0..{len(players) - 1}, not {seat}",
            details={"seats": len(players)},
        )
    token = new_token(game_id)
    if not access().tokens.replace(game_id, seat_role(seat), token_hash(token)):
        raise ApiError(404, "seat_not_found", f"the game has no token for seat {seat}")
    body = {"game_id": game_id, "seat": seat, "player": players[seat], "seat_token": token}
    return one(SeatTokenSchema).dump(body), 201, {"Cache-Control": "no-store"}
