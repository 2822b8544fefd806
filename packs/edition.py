"""Load and check ``data/<edition>/edition.yaml``: a History of the World edition's numbers and
names (domain/hotw/editions/hotw_2024/edition.py),
validated with marshmallow (unknown fields rejected); every rule
it cites must be in the edition's rules catalogue.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from marshmallow import ValidationError, fields, validate

from domain.core.catalogue import RulesCatalogue
from domain.hotw.editions.hotw_2024.cards import Phase
from domain.hotw.editions.hotw_2024.edition import (
    ConquestNumbers,
    Edition,
    InvasionDice,
    RevenueGold,
)
from packs.base import PackError, PackProblem, StrictSchema, _flatten, read_yaml

EDITION_FILE = "edition.yaml"
BUILDING_KINDS = ("capital", "city", "monument", "fort")


def _count(minimum: int = 0) -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=minimum))


def _epochs() -> fields.List[Any]:
    return fields.List(fields.Integer(strict=True, validate=validate.Range(min=1)), required=True)


def _phases() -> fields.List[Any]:
    return fields.List(
        fields.String(validate=validate.OneOf([p.value for p in Phase])), required=True
    )


class FleetsSchema(StrictSchema):
    sea_epochs = _epochs()
    ocean_epochs = _epochs()


class TracksSchema(StrictSchema):
    honor_spaces = _count(1)


class InvasionDiceSchema(StrictSchema):
    empire = _count(1)
    leader = _count(1)
    enemy = _count(1)
    fort = _count(1)


class ConquestSchema(StrictSchema):
    clear_terrain_dice = _count(1)
    difficult_terrain_dice = _count(1)
    fort_extra_die = _count()
    first_modifier = _count()
    later_modifier = _count()
    clear_cost = _count()
    difficult_cost = _count()
    fort_extra_cost = _count()


class RevenueSchema(StrictSchema):
    presence = _count()
    dominance = _count()
    mastery = _count()


class EditionSchema(StrictSchema):
    edition = fields.String(required=True)
    provenance = fields.String(required=True)
    epochs = _epochs()
    fleets = fields.Nested(FleetsSchema, required=True)
    phases = _phases()
    player_phases = _phases()
    tracks = fields.Nested(TracksSchema, required=True)
    great_wall_lands = fields.List(fields.String(), required=True)
    invasion_dice = fields.Nested(InvasionDiceSchema, required=True)
    conquest = fields.Nested(ConquestSchema, required=True)
    revenue = fields.Nested(RevenueSchema, required=True)
    building_gold = fields.Dict(
        keys=fields.String(validate=validate.OneOf(BUILDING_KINDS)),
        values=fields.Integer(strict=True, validate=validate.Range(min=0)),
        required=True,
    )
    cites = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


def _problems(data: dict[str, Any], catalogue: RulesCatalogue) -> list[PackProblem]:
    problems = []
    for key, rule_id in data["cites"].items():
        if rule_id not in catalogue:
            problems.append(
                PackProblem(EDITION_FILE, key, "cites", f"rule {rule_id!r} is not in rules.yaml")
            )
    unknown = set(data["player_phases"]) - set(data["phases"])
    if unknown:
        problems.append(
            PackProblem(EDITION_FILE, "", "player_phases", f"not phases: {sorted(unknown)}")
        )
    if set(data["fleets"]["sea_epochs"]) | set(data["fleets"]["ocean_epochs"]) != set(
        data["epochs"]
    ):
        problems.append(
            PackProblem(EDITION_FILE, "", "fleets", "sea and ocean epochs must cover the epochs")
        )
    return problems


def load_edition(directory: Path, catalogue: RulesCatalogue) -> Edition:
    """The edition of the pack in `directory`, the rules it cites checked against `catalogue`."""
    raw = read_yaml(directory / EDITION_FILE)
    try:
        data = EditionSchema().load(raw if raw is not None else {})
    except ValidationError as exc:
        raise PackError(
            PackProblem(EDITION_FILE, "", field, message)
            for field, message in _flatten(exc.messages)
        ) from None
    problems = _problems(data, catalogue)
    if problems:
        raise PackError(problems)
    return Edition(
        name=data["edition"],
        epochs=tuple(data["epochs"]),
        sea_fleet_epochs=frozenset(data["fleets"]["sea_epochs"]),
        ocean_fleet_epochs=frozenset(data["fleets"]["ocean_epochs"]),
        phases=tuple(data["phases"]),
        player_phases=frozenset(data["player_phases"]),
        honor_track_spaces=data["tracks"]["honor_spaces"],
        great_wall_lands=tuple(data["great_wall_lands"]),
        invasion_dice=InvasionDice(**data["invasion_dice"]),
        conquest=ConquestNumbers(**data["conquest"]),
        revenue=RevenueGold(**data["revenue"]),
        building_gold=dict(data["building_gold"]),
        provenance=data["provenance"],
        cites=dict(data["cites"]),
    )


def edition_epochs(directory: Path) -> tuple[tuple[int, ...], frozenset[int]]:
    """The epochs and the ocean-fleet epochs `edition.yaml` declares, for the board and card
    loaders to check epochs against (empty when the file is unreadable: `load_edition` reports
    why)."""
    try:
        raw = read_yaml(directory / EDITION_FILE)
    except PackError:
        return (), frozenset()
    if not isinstance(raw, dict):
        return (), frozenset()
    try:
        epochs = fields.List(fields.Integer(strict=True)).deserialize(raw.get("epochs"))
        fleets = FleetsSchema().load(raw.get("fleets") or {})
    except ValidationError:
        return (), frozenset()
    return tuple(epochs), frozenset(fleets["ocean_epochs"])
