"""A client generated from openapi.yaml follows the live streams line by line, each line a typed
object: pydantic models made by datamodel-code-generator (which reads `discriminator`) read each
NDJSON line of a game's stream as a `GameStreamLine` and of a player's as a
`NotificationStreamLine`, through httpx's streaming (what a generated client is built on), as
the README says a client follows a stream; served by `chronicle serve` with its defaults.

Every line comes out as the model its `kind` names (the opening, each event with its own event
type's model, each notification, the keep-alive), with nothing parsed by hand."""

from __future__ import annotations

import time
import typing
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bench.generated_client import MODELS as PACKAGE
from bench.generated_client import generate_pydantic, imported
from service.following import HEARTBEAT_S
from tests.support.http import REPO_ROOT, serving

pytestmark = pytest.mark.slow

PLAYERS = ["ann", "bob", "cy"]


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    root = generate_pydantic(REPO_ROOT / "openapi.yaml", tmp_path_factory.mktemp("models"))
    with imported(root, f"{PACKAGE}._internal") as models:
        models.GameStreamLine.model_rebuild()  # the models refer to each other: built once all are
        models.NotificationStreamLine.model_rebuild()  # defined
        yield models


def innermost(model: Any) -> Any:
    while hasattr(model, "root"):
        model = model.root
    return model


def fixed(model: Any, name: str) -> str | None:
    """The value the model fixes its field `name` to with a `Literal`, if it does."""
    field = type(model).model_fields.get(name)
    values = typing.get_args(field.annotation) if field is not None else ()
    return values[0] if len(values) == 1 else None


def kind_model(kind: str) -> str:
    """How datamodel-code-generator names the model of `Notification_<kind>`."""
    return "".join(part.capitalize() for part in kind.split("_"))


def typed_lines(
    client: httpx.Client, url: str, line_model: Any, headers: dict[str, str] | None = None
) -> Iterator[Any]:
    """Each line of the stream at `url`, as `line_model`, as it comes."""
    with client.stream("GET", url, params={"format": "ndjson"}, headers=headers) as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            yield innermost(line_model.model_validate_json(line))


def test_a_generated_client_reads_every_line_of_the_game_and_player_streams_as_typed_objects(
    models: Any, redis_url: str
) -> None:
    with serving(redis_url) as base, httpx.Client(base_url=base, timeout=HEARTBEAT_S + 10) as api:
        ada = api.post("/players", json={"name": "Ada"}).json()
        key = {"Authorization": f"Bearer {ada['player_key']}"}
        table = api.post(
            "/tables",
            json={"ruleset": "hotw-2024", "players": PLAYERS, "listing": "public"},
            headers=key,
        ).json()
        game_id = table["game_id"]
        for name in ("Bea", "Cyd"):
            other = api.post("/players", json={"name": name}).json()
            claimed = api.post(
                f"/games/{game_id}/claims",
                json={},
                headers={"Authorization": f"Bearer {other['player_key']}"},
            )
            assert claimed.status_code == 201, claimed.text
        version = api.get(f"/games/{game_id}").json()["version"]

        game_lines = typed_lines(api, f"/games/{game_id}/stream", models.GameStreamLine)
        opening = next(game_lines)
        assert isinstance(opening, models.StreamOpening) and opening.id == "0"
        events = [next(game_lines) for _ in range(version)]
        game_lines.close()
        assert all(isinstance(line, models.GameStreamEvent) for line in events), events
        assert [line.id for line in events] == [str(v) for v in range(1, version + 1)]
        types = [fixed(innermost(line.event), "type") for line in events]
        assert types[0] == "GameCreated" and None not in types[:1], types

        player_lines = typed_lines(api, "/players/me/stream", models.NotificationStreamLine, key)
        seen: list[Any] = []
        started = time.monotonic()
        for line in player_lines:
            seen.append(line)
            if isinstance(line, models.StreamHeartbeat):
                break
        player_lines.close()
        waited = time.monotonic() - started
    assert isinstance(seen[0], models.StreamOpening) and seen[0].id == "0"
    notices = seen[1:-1]
    kinds = [getattr(n.kind, "value", n.kind) for n in notices]
    # each notification came out as its own kind's model
    assert [type(n).__name__ for n in notices] == [f"Notification{kind_model(k)}" for k in kinds]
    assert "game_started" in kinds, kinds
    started_notice = notices[kinds.index("game_started")]
    assert started_notice.game_id == game_id and started_notice.notification_id
    assert started_notice.id and "-" in started_notice.id  # an inbox id, `1764610000000-0`
    assert waited < HEARTBEAT_S + 2
