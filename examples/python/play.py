"""Play whole games of Chronicle with a Python client generated from its OpenAPI document.

Every request goes through the generated package `chronicle_client` (openapi-python-client):
its functions and its models, none written here, no conversion and no cast. Each game is
created with its ruleset's own request model and options, followed live on its event stream
(a thread reading `GET /games/{id}/stream` until the game ends), played to the end by a random
bot (each awaited seat posts one of its legal actions back as it is), then read back: the
typed event feed, the NDJSON export, the board, the result and the audit.

    python play.py http://127.0.0.1:8000 hotw-2024 brief-2009 ...

(`run.sh` generates the package and runs this; see the README's "Generated clients".) Prints
one JSON line per game."""

from __future__ import annotations

import json
import random
import sys
import threading
import time
from collections import Counter

from chronicle_client import AuthenticatedClient, Client
from chronicle_client.api.events import (
    get_games_game_id_events,
    get_games_game_id_export,
    get_games_game_id_stream,
)
from chronicle_client.api.games import get_games_game_id, post_games
from chronicle_client.api.play import (
    get_games_game_id_board,
    get_games_game_id_legal_actions,
    get_games_game_id_result,
    post_games_game_id_commands,
)
from chronicle_client.api.trust import get_games_game_id_audit
from chronicle_client.models import (
    CreatedGame,
    CreateGameBrief2009,
    CreateGameHotw2024,
    CreateGameHotwAh2001,
    CreateGamePatchistory,
    Error,
    GameSummaryStatus,
    OptionsHotwAh2001,
    OptionsPatchistory,
    OptionsPatchistoryCapitalSide,
    RedactedEvent,
)
from chronicle_client.types import File
from polite import polite

GAMES = ("hotw-2024", "hotw-ah2001", "hotw-ah2001+simultaneous", "brief-2009", "patchistory")
"""What can be played: each ruleset, and the Avalon Hill edition's simultaneous-empires variant."""
NAMES = ["ann", "bob", "cy", "di", "eve", "fay"]
DEADLINE_S = 600.0
CreateGame = CreateGameBrief2009 | CreateGameHotw2024 | CreateGameHotwAh2001 | CreateGamePatchistory


def new_game(game: str, players: int) -> CreateGame:
    """The request that creates `game`: each ruleset has its own model, options and bounds."""
    names = NAMES[:players]
    if game == "hotw-2024":
        return CreateGameHotw2024(ruleset="hotw-2024", players=names)
    if game == "hotw-ah2001":
        return CreateGameHotwAh2001(ruleset="hotw-ah2001", players=names)
    if game == "hotw-ah2001+simultaneous":
        options = OptionsHotwAh2001(simultaneous_empires=True)
        return CreateGameHotwAh2001(ruleset="hotw-ah2001", players=names, options=options)
    if game == "brief-2009":
        return CreateGameBrief2009(ruleset="brief-2009", players=names)
    if game == "patchistory":
        options_p = OptionsPatchistory(capital_side=OptionsPatchistoryCapitalSide.LIBERTY)
        return CreateGamePatchistory(ruleset="patchistory", players=names, options=options_p)
    raise SystemExit(f"unknown game {game!r}: one of {', '.join(GAMES)}")


def fewest_players(game: str) -> int:
    return 2 if game in ("brief-2009", "patchistory") else 3


class Follower(threading.Thread):
    """Reads the game's stream as a spectator while it is played: the call returns once the
    game is finished and every event has been sent."""

    def __init__(self, base_url: str, game_id: str) -> None:
        super().__init__(daemon=True)
        self.client = Client(
            base_url=base_url, timeout=None, raise_on_unexpected_status=True, httpx_args=polite()
        )
        self.game_id = game_id
        self.text = ""

    def run(self) -> None:
        answer = get_games_game_id_stream.sync(self.game_id, client=self.client)
        if isinstance(answer, str):
            self.text = answer

    def frames(self) -> list[tuple[str, str]]:
        """(id, event type) of every event frame."""
        found = []
        for block in self.text.split("\n\n"):
            fields = dict(
                line.split(": ", 1) for line in block.splitlines() if not line.startswith(":")
            )
            if "id" in fields and "event" in fields:
                found.append((fields["id"], fields["event"]))
        return found


def play(base_url: str, game: str, players: int, seed: int) -> dict[str, object]:
    public = Client(base_url=base_url, raise_on_unexpected_status=True, httpx_args=polite())
    created = post_games.sync(client=public, body=new_game(game, players))
    if not isinstance(created, CreatedGame):
        raise SystemExit(f"{game}: not created: {created}")
    follower = Follower(base_url, created.game_id)
    follower.start()
    seats = [
        AuthenticatedClient(
            base_url=base_url, token=token, raise_on_unexpected_status=True, httpx_args=polite()
        )
        for token in created.seat_tokens
    ]
    rng = random.Random(seed)
    played: Counter[str] = Counter()
    busy = 0
    deadline = time.monotonic() + DEADLINE_S
    while True:
        if time.monotonic() > deadline:
            raise SystemExit(f"{game}: not finished in {DEADLINE_S} s after {played.total()}")
        summary = get_games_game_id.sync(created.game_id, client=public)
        if summary is None or isinstance(summary, Error):
            raise SystemExit(f"{game}: {summary}")
        if summary.status == GameSummaryStatus.FINISHED:
            break
        if summary.status == GameSummaryStatus.CLOSING or not summary.awaiting:
            time.sleep(0.02)  # the worker is closing an epoch or a round
            continue
        seat = rng.choice(summary.awaiting)
        listed = get_games_game_id_legal_actions.sync(created.game_id, client=seats[seat])
        if listed is None or isinstance(listed, Error):
            raise SystemExit(f"{game}: {listed}")
        if not listed.your_turn or not listed.actions:
            continue  # the game moved on between the two reads
        action = rng.choice(listed.actions)
        answer = post_games_game_id_commands.sync_detailed(
            created.game_id, client=seats[seat], body=action
        )
        if answer.status_code == 409:  # busy (a step being run) or the version moved on
            busy += 1
            continue
        if answer.status_code != 201:
            raise SystemExit(f"{game}: {action.to_dict()} refused: {answer.parsed}")
        played[action.command.type_] += 1

    events: Counter[str] = Counter()
    redacted = version = 0
    start: int | None = 1
    while start is not None:
        feed = get_games_game_id_events.sync(created.game_id, client=public, from_=start, limit=500)
        if feed is None or isinstance(feed, Error):
            raise SystemExit(f"{game}: {feed}")
        for event in feed.events:
            if isinstance(event, RedactedEvent):
                redacted += 1
            else:
                events[type(event).__name__] += 1
        start = feed.next_ if isinstance(feed.next_, int) else None
        version = feed.version

    follower.join(timeout=60)
    streamed = follower.frames()
    export = get_games_game_id_export.sync(created.game_id, client=public)
    board = get_games_game_id_board.sync(created.game_id, client=public)
    result = get_games_game_id_result.sync(created.game_id, client=public)
    audit = get_games_game_id_audit.sync(created.game_id, client=public)
    if result is None or isinstance(result, Error) or audit is None or isinstance(audit, Error):
        raise SystemExit(f"{game}: {result} {audit}")
    return {
        "game": game,
        "game_id": created.game_id,
        "players": players,
        "commands": played.total(),
        "command_types": dict(played),
        "busy": busy,
        "version": version,
        "event_models": dict(events),
        "redacted": redacted,
        "streamed": len(streamed),
        "streamed_in_order": [int(v) for v, _ in streamed] == list(range(1, version + 1)),
        "exported": len(export.splitlines()) if isinstance(export, str) else None,
        "board": drawn(board),
        "ranking": [standing.seat for standing in result.ranking],
        "audit_clean": audit.clean and audit.commitment_verified and not audit.mismatches,
    }


def drawn(board: File | Error | None) -> str:
    """`svg` for a picture, else the error's code (`no_board`: the ruleset draws nothing)."""
    if isinstance(board, File):
        return "svg" if b"<svg " in board.payload.read() else "not svg"
    return board.code if board is not None else "none"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    base_url, games = argv[0].rstrip("/"), argv[1:] or list(GAMES)
    for number, game in enumerate(games):
        report = play(base_url, game, fewest_players(game), seed=number)
        print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
