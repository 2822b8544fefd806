"""Tables that run themselves: open seats and invitations, the lobby, bots in seats, resigning
and clocks (players are api.players, webhooks api.webhooks)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request
from flask.typing import ResponseReturnValue

from api.context import access, games
from api.docs import route
from api.errors import ApiError
from api.inputs import bearer_token, cursor_after, json_body, paged, query
from api.players import next_cursor, the_player
from schemas.instances import one
from schemas.tables import (
    BotStrategySchema,
    ClaimedSchema,
    ClaimSchema,
    CreatedTableSchema,
    CreateTableSchema,
    InvitedSchema,
    InviteSchema,
    LobbyQuerySchema,
    LobbySchema,
    SeatActSchema,
    SeatingSchema,
)
from service import tables

bp = Blueprint("tables", __name__)

TABLES = ("tables",)


@route(
    bp,
    "/tables",
    "POST",
    summary="Open a table",
    request="CreateTable",
    response=CreatedTableSchema,
    status=201,
    errors=(400, 401, 404, 415, 422),
    auth=True,
    tags=TABLES,
)
def create_table() -> ResponseReturnValue:
    """As a player: a game whose seats wait to be claimed (you hold `seat`, if given), listed
    in the lobby (`public`) or reachable only by its invitation (`private`), with an optional
    clock and what a timeout does. With `bots`, it starts at once with bots in every other
    seat: a game against bots in one request."""
    player = the_player()
    body = json_body(CreateTableSchema)
    from api.games import checked_options, checked_players  # the same rules as POST /games

    labels = checked_players(body["players"])
    checked_options(body["ruleset"], body["options"])
    seat = body["seat"]
    if seat is not None and seat >= len(labels):
        raise ApiError(
            422,
            "invalid_seat",
            f"there is no seat {seat}",
            details={"fields": {"seat": ["No such seat."]}},
        )
    made = tables.create_table(
        games(),
        body["ruleset"],
        labels,
        body["options"],
        listing=body["listing"],
        creator=player,
        creator_seat=seat,
        clock=body["clock"],
        on_timeout=body["on_timeout"],
    )
    version = made.created.version
    if "bots" in body:
        version = tables.start_table(games(), made.created.game_id, body["bots"])
    status = games().store.meta(made.created.game_id).status
    answer = {
        "game_id": made.created.game_id,
        "ruleset": made.created.ruleset,
        "admin_token": made.created.tokens.admin,
        "seat": made.seat,
        "seat_token": made.seat_token,
        "invitation": made.invitation,
        "invitation_url": None
        if made.invitation is None
        else f"{request.host_url}#join={made.created.game_id}&invitation={made.invitation}",
        "status": status,
        "version": version,
    }
    return one(CreatedTableSchema).dump(answer), 201, {"Cache-Control": "no-store"}


@route(
    bp,
    "/tables",
    "GET",
    summary="The lobby: public tables with open seats",
    query=LobbyQuerySchema,
    response=LobbySchema,
    errors=(400, 422),
    tags=TABLES,
)
def lobby() -> ResponseReturnValue:
    """Public tables that still have open seats, newest first, a page of the lobby's index,
    each with its options; page on with `next_cursor` (or the `Link: rel="next"` header).
    `offset` is deprecated."""
    args = query(LobbyQuerySchema)
    page = tables.lobby(
        games(), args.get("ruleset"), args["offset"], args["limit"], cursor_after(args)
    )
    return paged(one(LobbySchema).dump(page), next_cursor(page.pop("next_after")))


@route(
    bp,
    "/games/<game_id>/claims",
    "POST",
    summary="Claim a seat",
    request=ClaimSchema,
    response=ClaimedSchema,
    status=201,
    errors=(400, 401, 403, 404, 409, 415, 422),
    auth=True,
    tags=TABLES,
)
def claim_seat(game_id: str) -> ResponseReturnValue:
    """As a player: take an open seat (`seat`, or the first open one), with the invitation for
    a private table. The answer holds that seat's token (your player key acts for it too). A
    seat already taken, a second seat at one table, or a table already started is a 422; a
    missing or wrong invitation a 403."""
    player = the_player()
    body = json_body(ClaimSchema)
    try:
        seat, token = tables.claim_seat(games(), game_id, player, body["seat"], body["invitation"])
    except tables.InvitationRefused as refused:
        raise ApiError(403, "invitation_refused", str(refused)) from None
    status = games().store.meta(game_id).status
    body = {"game_id": game_id, "seat": seat, "seat_token": token, "status": status}
    return one(ClaimedSchema).dump(body), 201, {"Cache-Control": "no-store"}


@route(
    bp,
    "/games/<game_id>/start",
    "POST",
    summary="Start a table with bots in its open seats",
    request=BotStrategySchema,
    response=SeatActSchema,
    errors=(400, 401, 403, 404, 409, 415, 422),
    auth=True,
    tags=TABLES,
)
def start(game_id: str) -> ResponseReturnValue:
    """As the table's creator (player key) or admin: start now, bots of `strategy` taking the
    seats still open."""
    token = bearer_token()
    player = tables.player_by_key(games(), token) if token else None
    if not tables.may_start(games(), game_id, player):
        access().admin(game_id, token)
    body = json_body(BotStrategySchema)
    version = tables.start_table(games(), game_id, body["strategy"])
    return _acted(game_id, version)


@route(
    bp,
    "/games/<game_id>/invitations",
    "POST",
    summary="Invite a player to your table",
    request=InviteSchema,
    response=InvitedSchema,
    status=201,
    errors=(400, 401, 403, 404, 415),
    auth=True,
    tags=TABLES,
)
def invite(game_id: str) -> ResponseReturnValue:
    """As the table's creator: an `invitation` notification (with a private table's
    invitation) on the invited player's stream and webhooks."""
    player = the_player()
    if not tables.may_start(games(), game_id, player):
        raise ApiError(403, "forbidden", "only the table's creator may invite to it")
    body = json_body(InviteSchema)
    invitation = tables.invitation_of(games(), game_id)
    if not tables.invite(games(), game_id, body["player_id"], invitation):
        raise ApiError(404, "player_not_found", "no such player")
    return one(InvitedSchema).dump({"game_id": game_id, "player_id": body["player_id"]}), 201


def _acted(game_id: str, version: int) -> ResponseReturnValue:
    status = games().store.meta(game_id).status
    return one(SeatActSchema).dump({"game_id": game_id, "version": version, "status": status})


def _seat_act(game_id: str, kind: str, **args: Any) -> ResponseReturnValue:
    caller = access().seat(game_id, bearer_token())
    assert caller.seat is not None
    outcome = games().play(game_id, caller.seat, {"type": kind, **args})
    return _acted(game_id, outcome.version)


@route(
    bp,
    "/games/<game_id>/bot",
    "POST",
    summary="Hand your seat to a bot",
    request=BotStrategySchema,
    response=SeatActSchema,
    errors=(400, 401, 403, 404, 409, 415, 422),
    auth=True,
    tags=TABLES,
)
def hand_to_bot(game_id: str) -> ResponseReturnValue:
    """As a seat: a server-side bot of `strategy` plays your seat (through the same command
    path as you) until you take it back."""
    body = json_body(BotStrategySchema)
    return _seat_act(game_id, "hand_to_bot", strategy=body["strategy"])


@route(
    bp,
    "/games/<game_id>/bot",
    "DELETE",
    summary="Take your seat back from its bot",
    response=SeatActSchema,
    errors=(401, 403, 404, 409, 422),
    auth=True,
    tags=TABLES,
)
def take_back(game_id: str) -> ResponseReturnValue:
    """As a seat a bot plays for you: play it yourself again."""
    return _seat_act(game_id, "take_back_seat")


@route(
    bp,
    "/games/<game_id>/resign",
    "POST",
    summary="Resign your seat",
    response=SeatActSchema,
    errors=(401, 403, 404, 409, 422),
    auth=True,
    tags=TABLES,
)
def resign(game_id: str) -> ResponseReturnValue:
    """As a seat: leave the game. Your pieces stay and a bot plays for them (the ruleset's
    reading); the result ranks you last. When no person is left, the game ends."""
    return _seat_act(game_id, "resign_seat")


@route(
    bp,
    "/games/<game_id>/seating",
    "GET",
    summary="Who sits where, and the clocks",
    response=SeatingSchema,
    errors=(404,),
    tags=TABLES,
)
def seating(game_id: str) -> ResponseReturnValue:
    """Each seat: its label, its claiming player's name, whether a bot plays it, whether it
    left (resigned or timed out), and, under a clock, its bank and the deadline of its move."""
    return one(SeatingSchema).dump(tables.seating_view(games(), game_id))
