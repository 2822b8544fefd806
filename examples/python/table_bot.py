"""A bot written against Chronicle's OpenAPI document alone: it becomes a player, opens a table
(or joins one), and plays its seat from its notification stream, followed live: one `GET
/players/me/stream?format=ndjson` held open for the whole game, each line read as it comes as
the spec's `NotificationStreamLine`, never polling. Each `your_turn` names the game, and the
bot posts one of its legal actions there; it stops at that game's `game_finished`. A stream
that is cut (or ends with an `error` line) is followed again from the last id read, with
`Last-Event-ID`: each time is a reconnect, and counted.

    python table_bot.py URL GAME                         # against server-side bots
    python table_bot.py URL GAME --open-seats            # a private table for other bots
    python table_bot.py URL --join GAME_ID INVITATION    # take a seat at such a table
    ... --think-s 25                                     # sit on the first turn that long

GAME is a ruleset or `hotw-ah2001+simultaneous` (the simultaneous-empires variant). With
`--open-seats` the first line printed is `{"game_id", "invitation"}`, for the others to join.

Every request goes through the generated package `chronicle_client` (openapi-python-client);
the stream's lines are read with the pydantic models `chronicle_models` (datamodel-code-
generator). openapi-python-client makes no model of a `oneOf` component (it inlines a union
where one is used), and builds a response's parser from the first media type it can read
(`text/event-stream` here, as text), so nothing it generates parses a `NotificationStreamLine`;
its function for the stream reads the whole body, which a live stream never ends. The stream is
therefore opened with the generated client's own httpx client (its base URL, key and polite
transport) and the request the generated function would send, and each line is parsed with the
pydantic union, which picks its member by `kind` (the discriminator).

Prints one JSON line at the end: the game, its result, moves made, reconnects, every answer's
status, the lines read by model and the longest the stream sat idle."""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx
from chronicle_client import AuthenticatedClient, Client
from chronicle_client.api.games import get_games_game_id
from chronicle_client.api.play import (
    get_games_game_id_legal_actions,
    get_games_game_id_result,
    post_games_game_id_commands,
)
from chronicle_client.api.players import get_players_me_games, get_players_me_stream, post_players
from chronicle_client.api.tables import post_games_game_id_claims, post_tables
from chronicle_client.models import (
    BotName,
    Claim,
    Claimed,
    CreatedPlayer,
    CreatedTable,
    CreatePlayer,
    CreateTableBrief2009,
    CreateTableHotw2024,
    CreateTableHotwAh2001,
    CreateTablePatchistory,
    Error,
    GameSummaryStatus,
    GetPlayersMeStreamFormat,
    MyGames,
    OptionsHotwAh2001,
    Result,
    TableListing,
)
from chronicle_client.types import UNSET
from chronicle_models import (
    NotificationGameFinished,
    NotificationGameStarted,
    NotificationInvitation,
    NotificationStreamLine,
    NotificationYourTurn,
    StreamError,
    StreamHeartbeat,
    StreamOpening,
)
from polite import polite
from pydantic import ValidationError

DEADLINE_S = 600.0
HEARTBEAT_S = 15.0
"""The keep-alive interval the spec states: a stream silent for twice that is taken as cut."""
STREAM_TIMEOUT = httpx.Timeout(10.0, read=2 * HEARTBEAT_S)
SEATS = {"hotw-2024": 3, "hotw-ah2001": 3, "brief-2009": 2, "patchistory": 2}
CreateTable = (
    CreateTableBrief2009 | CreateTableHotw2024 | CreateTableHotwAh2001 | CreateTablePatchistory
)
Notice = (
    NotificationYourTurn
    | NotificationGameStarted
    | NotificationGameFinished
    | NotificationInvitation
)


def new_table(game: str, seats: list[str], bots: bool) -> CreateTable:
    """A private table of `game` with server-side bots in the other seats (`bots`), or with
    those seats open."""
    private = TableListing.PRIVATE
    robots = BotName.RANDOM if bots else UNSET
    if game == "hotw-2024":
        return CreateTableHotw2024(ruleset="hotw-2024", players=seats, listing=private, bots=robots)
    if game in ("hotw-ah2001", "hotw-ah2001+simultaneous"):
        options = OptionsHotwAh2001(simultaneous_empires=game.endswith("+simultaneous"))
        return CreateTableHotwAh2001(
            ruleset="hotw-ah2001", players=seats, listing=private, bots=robots, options=options
        )
    if game == "brief-2009":
        return CreateTableBrief2009(
            ruleset="brief-2009", players=seats, listing=private, bots=robots
        )
    if game == "patchistory":
        return CreateTablePatchistory(
            ruleset="patchistory", players=seats, listing=private, bots=robots
        )
    raise SystemExit(f"unknown game {game}")


@dataclass
class Tally:
    """What the bot saw: every answer's status, the stream's lines by model, its reconnects."""

    statuses: Counter[int] = field(default_factory=Counter)
    lines: Counter[str] = field(default_factory=Counter)
    untyped: list[str] = field(default_factory=list)
    reconnects: list[str] = field(default_factory=list)
    longest_idle_s: float = 0.0


def notices(me: AuthenticatedClient, tally: Tally) -> Iterator[Notice]:
    """Each notification of the player's stream as it comes, followed for as long as the
    caller reads; where the stream is cut, followed again after the last id read."""
    resume: str | None = None
    while True:
        request = get_players_me_stream._get_kwargs(
            format_=GetPlayersMeStreamFormat.NDJSON,
            last_event_id=UNSET if resume is None else resume,
        )
        try:
            with me.get_httpx_client().stream(**request, timeout=STREAM_TIMEOUT) as answer:
                if answer.status_code != 200:
                    raise SystemExit(f"stream: {answer.status_code} {answer.read()!r}")
                waiting = time.monotonic()
                for text in answer.iter_lines():
                    try:
                        line = NotificationStreamLine.model_validate_json(text).root
                    except ValidationError as error:
                        tally.untyped.append(f"{text!r}: {error}")
                        continue
                    tally.lines[type(line).__name__] += 1
                    if isinstance(line, StreamOpening):
                        resume = resume or line.id
                    elif isinstance(line, StreamError):
                        tally.reconnects.append(f"error line: {line.error.code}")
                        time.sleep((line.retry_ms or 1000) / 1000)
                        break
                    elif not isinstance(line, StreamHeartbeat):
                        tally.longest_idle_s = max(tally.longest_idle_s, time.monotonic() - waiting)
                        resume = line.id or resume
                        yield line
                        waiting = time.monotonic()
                else:
                    tally.reconnects.append("the stream ended")
        except httpx.TransportError as cut:  # cut mid-body, or silent past two keep-alives
            tally.reconnects.append(f"{type(cut).__name__}: {cut}")


def play_my_turn(me: AuthenticatedClient, game_id: str, rng: random.Random, deadline: float) -> int:
    """Play the seat's commands while the game waits for it (a turn may hold several); how
    many were played. A command refused while the worker closes an epoch (409 `game_busy`) or
    after the game moved on (409) is tried again after its Retry-After."""
    played = 0
    while time.monotonic() < deadline:
        listed = get_games_game_id_legal_actions.sync(game_id, client=me)
        if listed is None or isinstance(listed, Error) or not listed.your_turn:
            return played  # the turn passed
        if not listed.actions:
            time.sleep(0.2)  # a step of the game's own runs first
            continue
        answer = post_games_game_id_commands.sync_detailed(
            game_id, client=me, body=rng.choice(listed.actions)
        )
        if answer.status_code == 201:
            played += 1
        else:
            time.sleep(float(answer.headers.get("Retry-After", "0.2")))
    return played


def become_player(base_url: str, name: str, tally: Tally) -> AuthenticatedClient:
    public = Client(
        base_url=base_url, raise_on_unexpected_status=True, httpx_args=polite(tally.statuses)
    )
    created = post_players.sync(client=public, body=CreatePlayer(name=name))
    if not isinstance(created, CreatedPlayer):
        raise SystemExit(f"no player: {created}")
    return AuthenticatedClient(
        base_url=base_url,
        token=created.player_key,
        raise_on_unexpected_status=True,
        httpx_args=polite(tally.statuses),
    )


def host(me: AuthenticatedClient, game: str, bots: bool) -> str:
    """A new table's game id; with its seats left open, its invitation printed first."""
    ruleset = game.split("+")[0]
    seats = ["Stream bot", *(f"Seat {n + 1}" for n in range(1, SEATS[ruleset]))]
    table = post_tables.sync(client=me, body=new_table(game, seats, bots))
    if not isinstance(table, CreatedTable):
        raise SystemExit(f"no table: {table}")
    if not bots:
        print(json.dumps({"game_id": table.game_id, "invitation": table.invitation}), flush=True)
    return table.game_id


def join(me: AuthenticatedClient, game_id: str, invitation: str) -> str:
    claimed = post_games_game_id_claims.sync(game_id, client=me, body=Claim(invitation=invitation))
    if not isinstance(claimed, Claimed):
        raise SystemExit(f"no seat: {claimed}")
    return game_id


def play_from_the_stream(
    me: AuthenticatedClient, game_id: str, think_s: float, tally: Tally, seed: int
) -> tuple[int, Counter[str]]:
    """Play each `your_turn` of `game_id` until its `game_finished`: moves made, and the
    notifications read by kind. The first turn is thought over for `think_s` first."""
    rng = random.Random(seed)
    kinds: Counter[str] = Counter()
    moves = 0
    deadline = time.monotonic() + DEADLINE_S
    for notice in notices(me, tally):
        kinds[notice.kind] += 1
        if time.monotonic() > deadline:
            raise SystemExit(f"not finished in {DEADLINE_S} s: {dict(kinds)}, {moves} moves")
        if notice.game_id != game_id:
            continue
        if isinstance(notice, NotificationYourTurn):
            if kinds["your_turn"] == 1:
                time.sleep(think_s)
            moves += play_my_turn(me, game_id, rng, deadline)
        elif isinstance(notice, NotificationGameFinished):
            break
    return moves, kinds


def main(argv: list[str] | None = None) -> dict[str, object]:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("base_url")
    arguments.add_argument("game", nargs="?")
    arguments.add_argument("--open-seats", action="store_true")
    arguments.add_argument("--join", nargs=2, metavar=("GAME_ID", "INVITATION"))
    arguments.add_argument("--think-s", type=float, default=0.0)
    arguments.add_argument("--name", default="Stream bot")
    arguments.add_argument("--seed", type=int, default=35)
    given = arguments.parse_args(argv)
    tally = Tally()
    me = become_player(given.base_url, given.name, tally)
    if given.join:
        game_id = join(me, *given.join)
    elif given.game:
        game_id = host(me, given.game, bots=not given.open_seats)
    else:
        raise SystemExit("name a game to host, or --join one")
    moves, kinds = play_from_the_stream(me, game_id, given.think_s, tally, given.seed)
    summary = get_games_game_id.sync(game_id, client=me)
    result = get_games_game_id_result.sync(game_id, client=me)
    mine = get_players_me_games.sync(client=me)
    return {
        "game_id": game_id,
        "finished": summary is not None
        and not isinstance(summary, Error)
        and summary.status == GameSummaryStatus.FINISHED,
        "moves": moves,
        "notifications": dict(kinds),
        "ranking": [s.seat for s in result.ranking] if isinstance(result, Result) else [],
        "my_games": [g.game_id for g in mine.games] if isinstance(mine, MyGames) else [],
        "reconnects": len(tally.reconnects),
        "cuts": tally.reconnects[:10],
        "statuses": {str(status): n for status, n in sorted(tally.statuses.items())},
        "lines": dict(tally.lines),
        "untyped": tally.untyped[:10],
        "longest_idle_s": round(tally.longest_idle_s, 1),
    }


if __name__ == "__main__":
    print(json.dumps(main()), flush=True)
