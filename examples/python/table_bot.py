"""A bot written against Chronicle's OpenAPI document alone: it becomes a player, opens a table
against server-side bots, and plays its seat from its notification stream (`GET
/players/me/stream`, NDJSON), never polling a game: each `your_turn` names the game, and the
bot posts one of its legal actions there. It stops at `game_finished`.

    python table_bot.py http://127.0.0.1:8000 hotw-2024

Every request goes through the generated package `chronicle_client` (openapi-python-client).
Prints one JSON line: the game, how many moves it made, the notifications it read."""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter

from chronicle_client import AuthenticatedClient, Client
from chronicle_client.api.games import get_games_game_id
from chronicle_client.api.play import (
    get_games_game_id_legal_actions,
    get_games_game_id_result,
    post_games_game_id_commands,
)
from chronicle_client.api.players import get_players_me_games, get_players_me_stream, post_players
from chronicle_client.api.tables import post_tables
from chronicle_client.models import (
    BotName,
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
    Result,
    TableListing,
)
from polite import polite

DEADLINE_S = 600.0
SEATS = {"hotw-2024": 3, "hotw-ah2001": 3, "brief-2009": 2, "patchistory": 2}
CreateTable = (
    CreateTableBrief2009 | CreateTableHotw2024 | CreateTableHotwAh2001 | CreateTablePatchistory
)


def new_table(ruleset: str, seats: list[str]) -> CreateTable:
    """A private table of `ruleset` that starts at once, bots in the other seats."""
    private, bots = TableListing.PRIVATE, BotName.RANDOM
    if ruleset == "hotw-2024":
        return CreateTableHotw2024(ruleset="hotw-2024", players=seats, listing=private, bots=bots)
    if ruleset == "hotw-ah2001":
        return CreateTableHotwAh2001(
            ruleset="hotw-ah2001", players=seats, listing=private, bots=bots
        )
    if ruleset == "brief-2009":
        return CreateTableBrief2009(ruleset="brief-2009", players=seats, listing=private, bots=bots)
    if ruleset == "patchistory":
        return CreateTablePatchistory(
            ruleset="patchistory", players=seats, listing=private, bots=bots
        )
    raise SystemExit(f"unknown ruleset {ruleset}")


def notifications(me: AuthenticatedClient, after: str) -> list[dict[str, object]]:
    """The notifications after `after`, read from the stream as NDJSON (without waiting)."""
    text = get_players_me_stream.sync(
        client=me, after=after, format_=GetPlayersMeStreamFormat.NDJSON, follow=False
    )
    if not isinstance(text, str):
        raise SystemExit(f"stream: {text}")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def play_my_turn(me: AuthenticatedClient, game_id: str, rng: random.Random, deadline: float) -> int:
    """Play the seat's commands while the game waits for it (a turn may hold several); how
    many were played. A command refused while the worker closes an epoch (409 `game_busy`) is
    tried again after its Retry-After."""
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


def main(base_url: str, ruleset: str) -> dict[str, object]:
    public = Client(base_url=base_url, raise_on_unexpected_status=True, httpx_args=polite())
    created = post_players.sync(client=public, body=CreatePlayer(name="Stream bot"))
    if not isinstance(created, CreatedPlayer):
        raise SystemExit(f"no player: {created}")
    me = AuthenticatedClient(
        base_url=base_url,
        token=created.player_key,
        raise_on_unexpected_status=True,
        httpx_args=polite(),
    )
    seats = ["Stream bot", *(f"Server bot {n}" for n in range(1, SEATS[ruleset]))]
    table = post_tables.sync(client=me, body=new_table(ruleset, seats))
    if not isinstance(table, CreatedTable):
        raise SystemExit(f"no table: {table}")
    rng = random.Random(35)
    kinds: Counter[str] = Counter()
    after, moves = "0", 0
    deadline = time.monotonic() + DEADLINE_S
    while kinds["game_finished"] == 0:
        if time.monotonic() > deadline:
            raise SystemExit(f"not finished in {DEADLINE_S} s: {dict(kinds)}, {moves} moves")
        read = notifications(me, after)
        for note in read:
            after = str(note["id"])
            kinds[str(note["kind"])] += 1
            if note["kind"] == "your_turn":
                game_id = str(note["game_id"])
                moves += play_my_turn(me, game_id, rng, deadline)
        if not read:
            time.sleep(0.2)  # five polls a second: well inside the key's 1,200 a minute
    summary = get_games_game_id.sync(table.game_id, client=public)
    result = get_games_game_id_result.sync(table.game_id, client=public)
    mine = get_players_me_games.sync(client=me)
    return {
        "game_id": table.game_id,
        "finished": summary is not None
        and not isinstance(summary, Error)
        and summary.status == GameSummaryStatus.FINISHED,
        "moves": moves,
        "notifications": dict(kinds),
        "ranked": isinstance(result, Result) and len(result.ranking) == len(seats),
        "my_games": [g.game_id for g in mine.games] if isinstance(mine, MyGames) else [],
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2])))
