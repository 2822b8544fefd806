"""Avalon Hill 2001 events and actions in sentences, where the generic words
(`domain.core.narration`) would not do: seats named by their players, seas by their names.
Every other event reads generically."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.narration import Namer, Teller, listed


def _data(event: Mapping[str, Any]) -> Mapping[str, Any]:
    data = event.get("data")
    return data if isinstance(data, Mapping) else {}


def _fleet_reclaimed(event: Mapping[str, Any], namer: Namer) -> str:
    data = _data(event)
    return (
        f"{namer.seat(data['seat'])}, short of fleet counters, chose to take back the fleet "
        f"with an army in the {namer.thing(data['water'])}."
    )


def _fleets_reclaimed(event: Mapping[str, Any], namer: Namer) -> str:
    waters = [f"the {namer.thing(w)}" for w in _data(event)["waters"]]
    fleets = "fleet" if len(waters) == 1 else "fleets"
    return (
        f"Short of fleet counters for the Empire called, the oldest epoch's {fleets} with "
        f"armies left {listed(waters)}."
    )


TELLERS: dict[str, Teller] = {
    "ah2001.FleetReclaimed": _fleet_reclaimed,
    "ah2001.FleetsReclaimed": _fleets_reclaimed,
}


def action_words(command: Mapping[str, Any], namer: Namer) -> tuple[str, str] | None:
    """A button's words for the commands that need their own (None: the generic words)."""
    if command.get("type") == "reclaim_fleet":
        water = namer.thing(command.get("water"))
        return f"Take back the fleet in the {water}", f"the fleet in the {water}"
    return None
