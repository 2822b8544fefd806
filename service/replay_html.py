"""A self-contained HTML replay of a game: open it from disk, no server needed.

The page holds the board drawn from the data pack's coordinates, the public view of every
version as a chain of small changes, and a few lines of script: a version slider, step
buttons, the event text with its rule id and the catalogue's paraphrase, and the gold track.
Only public information goes in (what a spectator may see), so the file can be shared.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from string import Template
from typing import Any

from domain.core.kernel import Game, fold_in_history
from domain.core.messages import Recorded
from domain.core.ruleset import Ruleset, Setup
from service.codec import recorded_from
from service.games import GameService

Progress = Callable[[int, int], None]
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")
PAGE = 1000
ASSETS = Path(__file__).parent / "replay_assets"


def frame_of(rules: Ruleset[Any], game: Game[Any]) -> dict[str, Any]:
    """What the page draws at one version: the public view's map, fleets and gold."""
    view = rules.view(game.state, None)
    players = view.get("players")
    players = players if isinstance(players, list) else []
    turn = view.get("turn") if isinstance(view.get("turn"), dict) else {}
    seat = turn.get("seat")
    fleets = [[water, seat] for water in turn.get("fleets", [])]
    fleets += [[water, seat] for water in turn.get("event_fleets", [])]
    return {
        "lands": {
            str(land): _land_frame(v)
            for land, v in (view.get("lands") or {}).items()
            if isinstance(v, dict)
        },
        "fleets": fleets,
        "gold": [p.get("gold", 0) for p in players if isinstance(p, dict)],
        "epoch": view.get("epoch"),
        "stage": view.get("stage"),
        "seat": seat,
    }


def _land_frame(land: dict[str, Any]) -> list[Any]:
    """[owner, army?, buildings, great wall?] of one land of the public view (the editions
    name what a land holds differently; what one does not say is taken as absent)."""
    owner = land.get("owner")
    buildings = land.get("buildings")
    return [
        owner if isinstance(owner, int) else None,
        bool(land.get("army", land.get("armies"))),
        [str(b) for b in buildings] if isinstance(buildings, list | tuple) else [],
        bool(land.get("great_wall")),
    ]


def diff(previous: dict[str, Any], current: dict[str, Any]) -> dict[str, Any]:
    """The change from one frame to the next: changed lands (None: emptied) and other keys."""
    change: dict[str, Any] = {}
    lands = {
        land: value
        for land, value in current["lands"].items()
        if previous["lands"].get(land) != value
    }
    lands.update({land: None for land in previous["lands"] if land not in current["lands"]})
    if lands:
        change["lands"] = lands
    for key in ("fleets", "gold", "epoch", "stage", "seat"):
        if previous.get(key) != current.get(key):
            change[key] = current[key]
    return change


def event_line(rules: Ruleset[Any], recorded: Recorded) -> dict[str, Any]:
    seen = recorded.seen_by(None)
    pack = getattr(rules, "pack", None)
    entry = pack.rules.get(recorded.event.rule) if pack is not None else None
    return {
        "v": recorded.version,
        "type": seen["type"],
        "rule": seen["rule"],
        "text": entry.text if entry else "",
        "where": entry.citation if entry else "",
        "actor": seen["actor"],
        "data": seen["data"],
    }


def replay_document(
    service: GameService, game_id: str, progress: Progress | None = None
) -> dict[str, Any]:
    """Fold the game from event 1 and gather the frames, events and board the page needs."""
    return _replayed(service, game_id, progress)[0]


def _replayed(
    service: GameService, game_id: str, progress: Progress | None = None
) -> tuple[dict[str, Any], Game[Any]]:
    """The page's document and the game as its last event leaves it."""
    rules = service.ruleset_of(game_id)
    total = service.store.version(game_id)
    game: Game[Any] | None = None
    history: list[Recorded] = []
    events: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    previous: dict[str, Any] = {"lands": {}}
    version = 0
    while version < total:
        page = service.store.read(game_id, version + 1, total, count=PAGE)
        if not page:
            break
        for stored in page:
            recorded = recorded_from(stored)
            history.append(recorded)
            game = fold_in_history(rules, game, history)
            current = frame_of(rules, game)
            changes.append(diff(previous, current))
            previous = current
            events.append(event_line(rules, recorded))
            version = recorded.version
        if progress is not None:
            progress(version, total)
    if game is None:
        raise ValueError(f"game {game_id} has no events")
    document = {
        "game_id": game_id,
        "ruleset": rules.name,
        "revision": game.setup.revision,
        "pack_digest": game.setup.pack_digest,
        "players": list(game.setup.players),
        "colours": list(PLAYER_COLOURS[: len(game.setup.players)]),
        "places": board_places(rules),
        "events": events,
        "changes": changes,
    }
    return document, game


def board_places(rules: Ruleset[Any]) -> dict[str, list[float]]:
    board = getattr(getattr(rules, "pack", None), "board", None)
    if board is None:
        return {}
    places = {land.id: [land.x, land.y] for land in board.lands.values()}
    places.update({water.id: [water.x, water.y] for water in board.seas.values()})
    return places


def board_picture(rules: Ruleset[Any], setup: Setup) -> str:
    """The bare board (the ruleset's `draw_board` of the game's state before anything is
    placed; the page's script draws the pieces of each version on it), or nothing."""
    svg = rules.draw_board(rules.initial_state(setup), None)
    if svg is None:
        return ""
    return svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg


def export_html(
    service: GameService, game_id: str, path: str | Path, progress: Progress | None = None
) -> Path:
    target = Path(path)
    target.write_text(replay_html(service, game_id, progress), encoding="utf-8")
    return target


def script_data(document: dict[str, Any]) -> str:
    """The document as JSON that no name in it can end or bend the `<script>` element holding
    it: `<`, `>` and `&` are written as JSON escapes (JSON.parse reads them back)."""
    text = json.dumps(document, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def replay_script() -> str:
    return (ASSETS / "replay.js").read_text(encoding="utf-8")


def replay_policy() -> str:
    """The page's Content-Security-Policy: the one script it ships (by its hash), its own
    styles, nothing loaded from anywhere. It is in the file (a `<meta>`, for a copy opened from
    disk) and in the header of the answer that serves it (which adds `frame-ancestors`)."""
    digest = base64.b64encode(hashlib.sha256(replay_script().encode("utf-8")).digest())
    return (
        f"default-src 'none'; script-src 'sha256-{digest.decode('ascii')}'; "
        "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
    )


POLICY_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def policy_in(page: str) -> str:
    """The policy a replay page carries in its `<meta>` (what the answer serving it repeats in
    its header); for a page made before it had one, a policy that runs none of its script."""
    found = POLICY_META.search(page)
    if found is None:
        return "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'"
    return html.unescape(found.group(1))


def replay_html(service: GameService, game_id: str, progress: Progress | None = None) -> str:
    document, game = _replayed(service, game_id, progress)
    title = html.escape(f"Chronicle replay — {document['ruleset']} — {game_id}")
    template = Template((ASSETS / "replay.html").read_text(encoding="utf-8"))
    setup = game.setup
    rules = html.escape(
        f"Rules: {setup.ruleset} revision {setup.revision}"
        + (f", data pack SHA-256 {setup.pack_digest}" if setup.pack_digest else "")
    )
    return template.substitute(
        title=title,
        rules=rules,
        policy=html.escape(replay_policy()),
        board=board_picture(service.ruleset_of(game_id), game.setup),
        data=script_data(document),
        script=replay_script(),
    )
