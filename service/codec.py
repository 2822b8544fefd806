"""The game codec: a game's events and snapshots as they are stored, canonical JSON and the
state hash (contracts §1)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from domain.core.kernel import Game
from domain.core.messages import Actor, Event, Recorded
from domain.core.ruleset import Ruleset, Setup
from domain.core.seating import decoded_seating, encoded_seating
from domain.core.table import Proposal, UndoStep
from service.rulesets import import_rulesets_once
from store.records import StoredEvent


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(encoded_state: Any) -> str:
    return hashlib.sha256(canonical_json(encoded_state).encode()).hexdigest()


def recorded_from(stored: StoredEvent) -> Recorded:
    import_rulesets_once()  # the event types of every ruleset, before the first decode
    return Recorded.from_dict(stored.decoded())


def stored_payload(envelope: Mapping[str, Any]) -> str:
    """The stored JSON of one event: its whole envelope (`Recorded.as_dict`) but the version,
    which is the stream entry id."""
    return canonical_json({k: v for k, v in envelope.items() if k != "version"})


def envelope_payload(event: Event, actor: Actor, command_id: str, recorded_at: str) -> str:
    """The stored JSON of an event not yet recorded at a version."""
    return stored_payload(Recorded(0, event, actor, command_id, recorded_at).as_dict())


def encode_game(rules: Ruleset[Any], game: Game[Any]) -> dict[str, Any]:
    return {
        "setup": {
            "ruleset": game.setup.ruleset,
            "players": list(game.setup.players),
            "options": dict(game.setup.options),
            "seed_commitment": game.setup.seed_commitment,
            "revision": game.setup.revision,
            "pack_digest": game.setup.pack_digest,
        },
        "version": game.version,
        "draws": game.draws,
        "seed_revealed": game.seed_revealed,
        "undoable": [
            [u.seat, u.command_id, u.from_version, u.to_version, u.scope] for u in game.undoable
        ],
        "barrier_command": game.barrier_command,
        "proposal": None
        if game.proposal is None
        else [game.proposal.seat, game.proposal.to_version, sorted(game.proposal.accepted)],
        "last_commands": list(game.last_commands),
        "created_through": game.created_through,
        "creation_command": game.creation_command,
        "state": rules.encode_state(game.state),
        # only where a seating event happened: other games' snapshots keep their shape
        **({} if game.seating is None else {"seating": encoded_seating(game.seating)}),
    } | ({} if game.chance_script is None else {"chance_script": game.chance_script})


def decode_game(rules: Ruleset[Any], body: Mapping[str, Any]) -> Game[Any]:
    setup = body["setup"]
    return Game(
        Setup(
            setup["ruleset"],
            tuple(setup["players"]),
            setup["options"],
            setup["seed_commitment"],
            int(setup.get("revision", 1)),
            setup.get("pack_digest", ""),
        ),
        int(body["version"]),
        int(body["draws"]),
        rules.decode_state(body["state"]),
        body.get("seed_revealed"),
        tuple(UndoStep(*step) for step in body.get("undoable", ())),
        body.get("barrier_command", ""),
        None
        if body.get("proposal") is None
        else Proposal(body["proposal"][0], body["proposal"][1], frozenset(body["proposal"][2])),
        tuple(body.get("last_commands", ())),
        int(body.get("created_through", 0)),
        body.get("creation_command", ""),
        None
        if body.get("chance_script") is None
        else tuple((int(n), int(result)) for n, result in body["chance_script"]),
        None if body.get("seating") is None else decoded_seating(body["seating"]),
    )
