"""Loading and checking the printed tables of `data/hotw-ah2001/` (empires, Event cards,
Victory Points, pieces), its rules catalogue, and what the rule text states about them
(`facts.yaml`, by the generic checker of packs/facts.py). Every problem names its file, entry
and field; a bad pack raises `PackError` with all of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from domain.core.catalogue import RulesCatalogue
from domain.hotw.editions.ah2001.tables import (
    Ah2001Tables,
    CombatDice,
    EmpireStats,
    EventCardKind,
    FarEpoch,
    Pieces,
    Targets,
    VictoryPoints,
)
from packs import register
from packs.base import (
    PackError,
    PackProblem,
    StrictSchema,
    load_rules_catalogue,
    pack_dir,
    read_yaml,
    validate_entries,
)
from packs.facts import FileSpec, fact_problems, facts_about_no_file
from packs.world_board import LandSchema, WaterSchema, load_world_board

PACK = "hotw-ah2001"
KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"
EPOCH = validate.Range(min=1, max=7)


def _count() -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


def _id() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(KEBAB, error="kebab-case id"))


class EmpireSchema(StrictSchema):
    id = _id()
    epoch = fields.Integer(required=True, strict=True, validate=EPOCH)
    number = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=8))
    card = _id()
    name = fields.String(required=True)
    leader = fields.String(required=True)
    strength = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    start_land = _id()
    start_land_printed = fields.String(required=True)
    capital = fields.Boolean(required=True)
    navigation = fields.List(_id(), required=True)
    navigation_printed = fields.String(required=True)
    provenance = fields.String(required=True)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> EmpireStats:
        for printed in ("start_land_printed", "navigation_printed"):
            data.pop(printed)
        data["navigation"] = tuple(data["navigation"])
        return EmpireStats(**data)


class EventSchema(StrictSchema):
    id = _id()
    deck = fields.String(required=True, validate=validate.OneOf(["greater", "lesser"]))
    kind = _id()
    name = fields.String(required=True)
    epochs = fields.List(fields.Integer(strict=True, validate=EPOCH), required=True)
    count = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    before_first_army = fields.Boolean(required=True)
    effect = fields.Dict(required=True)
    erratum = fields.String(load_default="")
    since_revision = fields.Integer(load_default=1, strict=True, validate=validate.Range(min=1))

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> EventCardKind:
        data["epochs"] = frozenset(data["epochs"])
        return EventCardKind(**data)


class AreaScoresSchema(StrictSchema):
    id = _id()
    name = fields.String(required=True)
    scores = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0)),
        required=True,
        validate=validate.Length(equal=7, error="one score per epoch, I to VII"),
    )


class VictoryPointsSchema(StrictSchema):
    provenance = fields.String(required=True)
    areas = fields.List(fields.Dict(), required=True)


class PiecesSchema(StrictSchema):
    provenance = fields.String(required=True)
    armies_per_colour_by_epoch = fields.Dict(
        keys=fields.Integer(validate=EPOCH), values=fields.Integer(strict=True), required=True
    )
    figures_by_epoch = fields.Dict(keys=fields.Integer(validate=EPOCH), values=fields.String())
    capitals_and_cities = fields.Integer(required=True, strict=True)
    forts = fields.Integer(required=True, strict=True)
    monuments = fields.Integer(required=True, strict=True)
    coins_and_fleets = fields.Integer(required=True, strict=True)
    pre_eminence_markers = fields.List(fields.Integer(strict=True), required=True)
    dice = fields.Integer(required=True, strict=True)
    dealt_per_player = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class EventsFileSchema(StrictSchema):
    provenance = fields.String(required=True)
    printed_totals = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    events = fields.List(fields.Dict(), required=True)


class BoardSchema(StrictSchema):
    provenance = fields.String(required=True)
    lands = fields.List(fields.Dict(), required=True)
    waters = fields.List(fields.Dict(), required=True)
    water_links = fields.List(fields.List(_id()), required=True)
    great_wall = fields.List(fields.List(_id()), required=True)
    map_height = fields.Float(load_default=500.0, validate=validate.Range(min=100, max=2000))


class CombatDiceSchema(StrictSchema):
    attack = _count()
    bonus_attack = _count()
    defence = _count()
    difficult_defence = _count()
    from_sea_defence = _count()
    naval_power_defence = _count()
    naval_attack = _count()
    naval_defence = _count()
    revolt_attack = _count()
    fort_bonus = _count()
    weaponry_bonus = _count()
    siegecraft_bonus = _count()
    jihad_bonus_losses = _count()
    jihad_ties_losses = _count()


class TargetsSchema(StrictSchema):
    picks = fields.Dict(keys=_id(), values=_count(), required=True)
    chains = fields.List(_id(), required=True)
    up_to = fields.List(_id(), required=True)


class FarEpochSchema(StrictSchema):
    last_early_epoch = _count()
    early = _count()
    late = _count()


class PlaySchema(StrictSchema):
    provenance = fields.String(required=True)
    combat = fields.Nested(CombatDiceSchema, required=True)
    targets = fields.Nested(TargetsSchema, required=True)
    multiple_armies_stack = _count()
    epochs = _count()
    cards_per_turn = _count()
    resources_per_monument = _count()
    score_track = _count()
    far_epoch = fields.Nested(FarEpochSchema, required=True)


FILES: dict[str, FileSpec] = {
    "board.yaml": {"lands": LandSchema(), "waters": WaterSchema()},
    "empires.yaml": {"empires": EmpireSchema()},
    "events.yaml": {"events": EventSchema()},
    "victory_points.yaml": {"areas": AreaScoresSchema()},
    "pieces.yaml": PiecesSchema(),
    "play.yaml": PlaySchema(),
}


def load_tables(root: Path | None = None) -> tuple[Ah2001Tables, RulesCatalogue]:
    """The checked tables and catalogue of `data/hotw-ah2001/` (under `root`)."""
    tables, catalogue, problems = _load(root)
    if problems or tables is None or catalogue is None:
        raise PackError(problems)
    return tables, catalogue


def check_tables(root: Path | None = None) -> dict[str, Any]:
    """A summary of the tables and every problem (never raises for a bad pack)."""
    try:
        tables, catalogue, problems = _load(root)
    except PackError as exc:
        tables, catalogue, problems = None, None, list(exc.problems)
    summary: dict[str, Any] = {"ruleset": PACK, "valid": not problems}
    if tables is not None:
        summary |= {
            "empires_by_epoch": {str(e): len(x) for e, x in tables.empires_by_epoch.items()},
            "greater_events": len(tables.deck("greater")),
            "lesser_events": len(tables.deck("lesser")),
            "areas": len(tables.victory_points.scores),
            "lands": len(tables.board.lands),
            "barren_lands": sum(land.barren for land in tables.board.lands.values()),
            "resource_lands": sum(land.resource for land in tables.board.lands.values()),
        }
    summary["rules"] = None if catalogue is None else len(catalogue)
    summary["errors"] = [problem.as_dict() for problem in problems]
    return summary


def _load(
    root: Path | None,
) -> tuple[Ah2001Tables | None, RulesCatalogue | None, list[PackProblem]]:
    where = pack_dir(PACK, root)
    problems: list[PackProblem] = []
    docs = {name: read_yaml(where / name) for name in FILES}
    for name, spec in FILES.items():
        if isinstance(spec, Schema):
            problems += [
                PackProblem(name, "", field, str(message))
                for field, message in spec.validate(docs[name]).items()
            ]
    empires, found = validate_entries(
        EmpireSchema(), docs["empires.yaml"].get("empires"), "empires.yaml", "empires"
    )
    problems += found
    events, found = validate_entries(
        EventSchema(), docs["events.yaml"].get("events"), "events.yaml", "events"
    )
    problems += found
    areas, found = validate_entries(
        AreaScoresSchema(), docs["victory_points.yaml"].get("areas"), "victory_points.yaml", "areas"
    )
    problems += found
    board, found = load_world_board(docs["board.yaml"], "board.yaml")
    problems += found
    problems += fact_problems(where, docs, FILES)
    problems += facts_about_no_file(where, FILES)
    try:
        catalogue = load_rules_catalogue(where / "rules.yaml")
    except PackError as exc:
        problems += exc.problems
        catalogue = None
    if problems:
        return None, catalogue, problems
    raw = docs["pieces.yaml"]
    pieces = Pieces(
        armies_per_colour_by_epoch={
            int(k): v for k, v in raw["armies_per_colour_by_epoch"].items()
        },
        capitals_and_cities=raw["capitals_and_cities"],
        forts=raw["forts"],
        monuments=raw["monuments"],
        coins_and_fleets=raw["coins_and_fleets"],
        pre_eminence_markers=tuple(raw["pre_eminence_markers"]),
        dice=raw["dice"],
        greater_dealt=raw["dealt_per_player"]["greater"],
        lesser_dealt=raw["dealt_per_player"]["lesser"],
    )
    scores = VictoryPoints({a["id"]: tuple(a["scores"]) for a in areas})
    play = docs["play.yaml"]
    targets = play["targets"]
    tables = Ah2001Tables(
        tuple(empires),
        tuple(events),
        scores,
        pieces,
        board,
        combat=CombatDice(**play["combat"]),
        targets=Targets(
            picks=dict(targets["picks"]),
            chains=frozenset(targets["chains"]),
            up_to=frozenset(targets["up_to"]),
        ),
        stack=play["multiple_armies_stack"],
        epochs=play["epochs"],
        cards_per_turn=play["cards_per_turn"],
        resources_per_monument=play["resources_per_monument"],
        score_track=play["score_track"],
        far_epoch=FarEpoch(**play["far_epoch"]),
    )
    return tables, catalogue, []


def load_pack(data_pack: str = PACK, root: Path | None = None) -> Any:
    """The ruleset's pack: tables, board and catalogue (`pack_loader` of hotw-ah2001)."""
    from domain.hotw.editions.ah2001.engine import Ah2001Pack

    tables, catalogue = load_tables(root)
    return Ah2001Pack(tables, catalogue, data_pack)


def check_pack(data_pack: str = PACK, root: Path | None = None) -> dict[str, Any]:
    """`check_tables`, as every pack's checker is called."""
    return check_tables(root)


register(PACK, load=load_pack, check=check_pack)
