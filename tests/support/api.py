"""Helpers for driving the API as a client would: tokens, play by legal actions, SSE frames."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
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


def toy_bids_seen(body: Any) -> Iterator[dict[str, Any]]:
    """Every ToyBidSealed event anywhere inside a response body."""
    if isinstance(body, dict):
        if body.get("type") == "ToyBidSealed":
            yield body
        for value in body.values():
            yield from toy_bids_seen(value)
    elif isinstance(body, list):
        for value in body:
            yield from toy_bids_seen(value)
