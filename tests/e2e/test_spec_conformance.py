"""Every event of the conformance kit's games, as every endpoint serves it, fits the OpenAPI
document the server publishes.

Each game the kit plays (tests/support/conformance.py: every registered ruleset, every player
count and option set) is written into the real store as it was recorded, and then read back
through the API by the spectator and by every seat (their redacted and full forms): the feed
page by page, the NDJSON export line by line, the Server-Sent Events stream frame by frame, and
a sample of explanations, with the game's summary, state, legal actions and result. Each
answer is validated against the response schema the document declares for that operation,
status and media type (an export line and a stream frame's `data` against `Event`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient

from api.context import games
from service.auth import IssuedTokens
from service.codec import stored_payload
from service.games import GameService, new_game_id
from tests.support import conformance as kit
from tests.support.spec_check import SpecCheck, sse_frames

CASES = [
    pytest.param(name, batch, id=f"{name}-games-{batch.start}-{batch.stop - 1}")
    for name in kit.ruleset_names()
    for batch in kit.batches()
]
EXPLAINED_PER_VIEWER = 6
JSON = "application/json"


@pytest.fixture(scope="module")
def published(redis_url: str) -> tuple[Flask, SpecCheck]:
    from api.app import create_app

    app = create_app(redis_url, SSE_HEARTBEAT_S=0.05, SYSTEM_STEPS="inline", CORS_ORIGINS=())
    with app.test_client() as client:
        answer = client.get("/openapi.yaml")
        assert answer.status_code == 200
        return app, SpecCheck(yaml.safe_load(answer.get_data(as_text=True)))


def store_game(app: Flask, run: kit.Playthrough) -> tuple[str, IssuedTokens]:
    """The kit's game in the real store, with tokens for its admin and seats."""
    game_id = new_game_id()
    tokens = IssuedTokens.issue(len(run.players), game_id)
    with app.app_context():
        games().store.create(
            game_id,
            ruleset=run.rules.name,
            players=list(run.players),
            status=GameService.status_of(run.rules, run.final),
            events=[stored_payload(r.as_dict()) for r in run.log],
            seed=run.secret,
            token_hashes=tokens.hashes(),
            extra=GameService.meta_of(run.rules, run.final),
        )
    return game_id, tokens


def read_everything(
    client: FlaskClient, spec: SpecCheck, game_id: str, token: str | None, version: int, who: str
) -> list[str]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    found: list[str] = []
    event = spec.component("Event")

    def get(path: str, template: str, **kwargs: Any) -> Any:
        answer = client.get(path, headers=headers, **kwargs)
        where = f"{who} GET {path} ({answer.status_code})"
        body = answer.get_json(silent=True) if answer.mimetype == JSON else None
        media = answer.mimetype
        status = answer.status_code
        if media == JSON:
            found.extend(spec.failures(spec.schema_of(template, "get", status, media), body, where))
        return answer, body

    start: int | None = 1
    while start is not None:
        answer, page = get(
            f"/games/{game_id}/events?from={start}&limit=500", "/games/{game_id}/events"
        )
        assert answer.status_code == 200, (who, page)
        start = page["next"]

    answer, _ = get(f"/games/{game_id}/export", "/games/{game_id}/export")
    lines = answer.get_data(as_text=True).splitlines()
    assert len(lines) == version
    for number, line in enumerate(lines, start=1):
        found += spec.failures(event, json.loads(line), f"{who} export line {number}")

    streamed = client.get(f"/games/{game_id}/stream?from=1", headers=headers, buffered=False)
    assert streamed.status_code == 200
    text, seen = "", 0
    for chunk in streamed.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        seen = text.count("\nevent: ")
        if seen >= version:
            break
    streamed.close()
    frames = [frame for frame in sse_frames(text) if "data" in frame]
    assert len(frames) == version, (who, len(frames), version)
    for frame in frames:
        data = json.loads(frame["data"])
        found += spec.failures(event, data, f"{who} stream frame {frame.get('id')}")
        assert frame["event"] == data["type"] and frame["id"] == str(data["version"])

    step = max(1, version // EXPLAINED_PER_VIEWER)
    for v in range(1, version + 1, step):
        template = "/games/{game_id}/events/{version}/explain"
        get(f"/games/{game_id}/events/{v}/explain", template)
    for path in ("", "/state", "/result", "/legal-actions"):
        if path == "/legal-actions" and token is None:
            continue
        get(f"/games/{game_id}{path}", "/games/{game_id}" + path)
    return found


@pytest.mark.parametrize(("name", "batch"), CASES)
def test_every_event_of_the_kits_games_fits_the_document_on_every_endpoint(published, name, batch):
    app, spec = published
    subject = kit.subject(name)
    found: list[str] = []
    with app.test_client() as client:
        for run in kit.playthroughs(subject, batch):
            game_id, tokens = store_game(app, run)
            viewers = [("spectator", None), *((f"seat {i}", t) for i, t in enumerate(tokens.seats))]
            for who, token in viewers:
                found += read_everything(
                    client, spec, game_id, token, len(run.log), f"{run.where()}, {who}"
                )
    assert not found, "\n".join(found[:20])
