"""Helpers for driving the API as a client would: tokens, play by legal actions, SSE frames."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

TOY = "toy-sealed-bids"
NAMES = ["ann", "bob", "cy", "di"]


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create_toy(api: Any, players: int = 3, **options: Any) -> dict[str, Any]:
    response = api.post(
        "/games", json={"ruleset": TOY, "players": NAMES[:players], "options": options}
    )
    assert response.status_code == 201, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def play_one(api: Any, game: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """One command by an awaited seat, chosen among its legal actions; None once finished.
    While the game awaits no seat (a system step is running elsewhere) it waits, up to 20 s."""
    game_id = game["game_id"]
    deadline = time.monotonic() + 20
    while True:
        summary = api.get(f"/games/{game_id}").get_json()
        if summary["status"] == "finished":
            return None
        if summary["awaiting"]:
            break
        assert time.monotonic() < deadline, f"the game awaits nobody: {summary}"
        time.sleep(0.05)
    seat = rng.choice(summary["awaiting"])
    token = game["seat_tokens"][seat]
    legal = api.get(f"/games/{game_id}/legal-actions", headers=bearer(token)).get_json()
    assert legal["your_turn"] and legal["actions"], legal
    action = rng.choice(legal["actions"])
    response = api.post(f"/games/{game_id}/commands", json=action, headers=bearer(token))
    assert response.status_code == 201, response.get_json()
    return {"seat": seat, "action": action, "response": response.get_json()}


def play_to_the_end(api: Any, game: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    moves = []
    while (move := play_one(api, game, rng)) is not None:
        moves.append(move)
    return moves


@dataclass(frozen=True)
class SseFrame:
    id: int | None
    event: str | None
    data: dict[str, Any] | None
    comment: str | None = None

    @property
    def is_event(self) -> bool:
        """An event of the game (the opening frame has an id too, but no data)."""
        return self.id is not None and self.data is not None


def parse_frame(block: str) -> SseFrame:
    fields: dict[str, str] = {}
    comments = []
    for line in block.split("\n"):
        if line.startswith(":"):
            comments.append(line[1:].strip())
        elif line:
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value
    return SseFrame(
        id=int(fields["id"]) if "id" in fields else None,
        event=fields.get("event"),
        data=json.loads(fields["data"]) if "data" in fields else None,
        comment=" ".join(comments) or None,
    )


def sse_frames(chunks: Iterable[bytes | str]) -> Iterator[SseFrame]:
    """Frames from a stream of chunks, split on blank lines."""
    pending = ""
    for chunk in chunks:
        pending += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in pending:
            block, pending = pending.split("\n\n", 1)
            yield parse_frame(block)


def nested_of_type(value: Any, kind: str) -> Iterator[dict[str, Any]]:
    """Every object whose `type` is `kind` anywhere inside `value` (a response body, a schema),
    at any depth."""
    if isinstance(value, dict):
        if value.get("type") == kind:
            yield value
        for item in value.values():
            yield from nested_of_type(item, kind)
    elif isinstance(value, list):
        for item in value:
            yield from nested_of_type(item, kind)


def toy_bids_seen(body: Any) -> Iterator[dict[str, Any]]:
    """Every ToyBidSealed event anywhere inside a response body."""
    return nested_of_type(body, "ToyBidSealed")


def everything_asked(
    api: Any,
    game: dict[str, Any],
    token: str | None,
    never_legal: Mapping[str, Any],
    extra: tuple[str, ...] = (),
) -> list[Any]:
    """What a caller is told by every endpoint of a game in play: the summary, the state now
    and at its first versions, the feed, explanations, the result, its legal actions (a seat),
    a refused command, the export and the first frames of the stream (`extra`: more paths)."""
    url = f"/games/{game['game_id']}"
    paths = ["", "/state", "/state?at=1", "/state?at=2", "/events", "/result", *extra]
    paths += ["/events/1/explain", "/events/2/explain"]
    if token in game["seat_tokens"]:
        paths.append("/legal-actions")
    answers = [api.get(url + path, headers=bearer(token)) for path in paths]
    answers.append(api.post(f"{url}/commands", json=never_legal, headers=bearer(token)))
    export = api.get(f"{url}/export", headers=bearer(token)).get_data(as_text=True)
    stream = api.get(f"{url}/stream", headers=bearer(token), buffered=False)
    frames = [f.data for f in islice((f for f in sse_frames(stream.response) if f.id), 2)]
    stream.close()  # the game goes on: the stream would wait for its next event
    seen = [[a.status_code, a.get_json(silent=True) or a.get_data(as_text=True)] for a in answers]
    seen += [json.loads(line) for line in export.splitlines()] + frames
    return [normalised(answer, game["game_id"]) for answer in seen]


def normalised(value: Any, game_id: str) -> Any:
    """An answer without what differs between any two games (ids, times, seeds, tokens)."""
    varying = ("game_id", "created_at", "recorded_at", "command_id", "seed_commitment")
    if isinstance(value, dict):
        return {k: normalised(v, game_id) for k, v in value.items() if k not in varying}
    if isinstance(value, list):
        return [normalised(v, game_id) for v in value]
    if isinstance(value, str):
        return value.replace(game_id, "GAME")
    return value


def sandboxes(api: Any, setup: dict[str, Any], positions: list[Any]) -> list[dict[str, Any]]:
    """One sandbox game per encoded position, all made by the admin of one new game of the
    setup's ruleset."""
    source = api.post("/games", json={"ruleset": setup["ruleset"], "players": setup["players"]})
    assert source.status_code == 201, source.get_json()
    admin = bearer(source.get_json()["admin_token"])
    made = []
    for position in positions:
        created = api.post(
            f"/games/{source.get_json()['game_id']}/sandbox",
            json={"position": {"setup": setup, "state": position}},
            headers=admin,
        )
        assert created.status_code == 201, created.get_json()
        made.append(created.get_json())
    return made
