"""Loading and checking `data/brief-2009/`: the board (the family's world board,
`packs.world_board`), the Areas with their values, the Empire cards and Features, the Event
cards, the Bonus tokens and the numbers, the rules catalogue, and what the manual states about
them (`facts.yaml`, by the generic checker of packs/facts.py). Every problem names its file,
entry and field; a bad pack raises `PackError` with all of them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from domain.core.catalogue import RulesCatalogue
from domain.hotw.editions.brief2009.tables import (
    Area,
    BonusToken,
    BriefTables,
    EmpireCard,
    EventCard,
    Feature,
    Numbers,
)
from domain.hotw.world import WorldBoard
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

PACK = "brief-2009"
KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"
EPOCH = validate.Range(min=1, max=6)
FEATURES = ("fear", "atlantic-crossing", "preserve-monuments", "influence")
KINDS = (
    "leader", "weaponry", "kingdom", "minor-empire", "civil-war", "barbarians", "astronomy",
)  # fmt: skip


def _id() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(KEBAB, error="kebab-case id"))


def _count(minimum: int = 0) -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=minimum))


class AreaSchema(StrictSchema):
    id = _id()
    name = fields.String(required=True)
    spiral = _count(1)
    values = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=3)),
        required=True,
        validate=validate.Length(equal=6, error="one Area value per Epoch, 1 to 6"),
    )
    provenance = fields.String(required=True)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> Area:
        data["values"] = tuple(data["values"])
        return Area(**data)


class EmpireSchema(StrictSchema):
    id = _id()
    name = fields.String(required=True)
    epoch = fields.Integer(required=True, strict=True, validate=EPOCH)
    order = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=7))
    strength = _count(1)
    capital = fields.Boolean(required=True)
    start_land = _id()
    fleets = fields.List(_id(), required=True)
    feature = fields.String(required=True, allow_none=True, validate=validate.OneOf(FEATURES))
    provenance = fields.String(required=True)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> EmpireCard:
        data["fleets"] = tuple(data["fleets"])
        return EmpireCard(**data)


class FeatureSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.OneOf(FEATURES))
    name = fields.String(required=True)
    text = fields.String(required=True)
    effect = fields.Dict(required=True)
    provenance = fields.String(required=True)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> Feature:
        return Feature(**data)


class EventSchema(StrictSchema):
    id = _id()
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    epoch = fields.Integer(required=True, strict=True, validate=EPOCH)
    timing = fields.String(required=True, validate=validate.OneOf(["red", "black"]))
    later_epochs = fields.Boolean(load_default=None)
    price = _count()
    land = fields.String(required=True, allow_none=True)
    armies = _count()
    capital = fields.Boolean(required=True)
    count = fields.Integer(load_default=1, strict=True, validate=validate.Range(min=1))
    provenance = fields.String(required=True)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> EventCard:
        if data["later_epochs"] is None:
            data["later_epochs"] = data["timing"] == "black"
        return EventCard(**data)


class TokenSchema(StrictSchema):
    id = _id()
    value = _count()
    provenance = fields.String(required=True)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> BonusToken:
        return BonusToken(**data)


def _group(**numbers: fields.Field[Any]) -> fields.Nested:
    schema = type("Group", (StrictSchema,), {**numbers, "provenance": fields.String(required=True)})
    return fields.Nested(schema, required=True)


class PiecesSchema(StrictSchema):
    provenance = fields.String(required=True)
    players = _group(min=_count(1), max=_count(1), two_player_colours=_count(1))
    epochs = _group(count=_count(1))
    dice = _group(
        count=_count(1), attacker=_count(1), fleet_penalty=_count(), defender=_count(1),
        fort=_count(1),
    )  # fmt: skip
    invasion = _group(clear=_count(1), difficult=_count(1), dial_max=_count())
    gold = _group(
        capital=_count(), city=_count(), monument=_count(), barbarian_reduction=_count(),
        presence=_count(), dominance=_count(), mastery=_count(), track=_count(1),
    )  # fmt: skip
    bonus = _group(per_epoch=_count(1))
    supply = _group(
        armies_per_colour=_count(1), capitals_and_cities=_count(), monuments=_count(),
        forts=_count(), fleets=_count(),
    )  # fmt: skip


FILES: dict[str, FileSpec] = {
    "board.yaml": {"lands": LandSchema(), "waters": WaterSchema()},
    "areas.yaml": {"areas": AreaSchema()},
    "empires.yaml": {"empires": EmpireSchema(), "features": FeatureSchema()},
    "events.yaml": {"cards": EventSchema()},
    "bonus_tokens.yaml": {"tokens": TokenSchema()},
    "pieces.yaml": PiecesSchema(),
}


def load_tables(root: Path | None = None) -> tuple[BriefTables, RulesCatalogue]:
    """The checked tables and catalogue of `data/brief-2009/` (under `root`)."""
    tables, catalogue, problems = _load(root)
    if problems or tables is None or catalogue is None:
        raise PackError(problems)
    return tables, catalogue


def check_pack(data_pack: str = PACK, root: Path | None = None) -> dict[str, Any]:
    """A summary of the pack and every problem (never raises for a bad pack): the
    `chronicle data check brief-2009` output."""
    try:
        tables, catalogue, problems = _load(root)
    except PackError as exc:
        tables, catalogue, problems = None, None, list(exc.problems)
    summary: dict[str, Any] = {"ruleset": PACK, "valid": not problems}
    if tables is not None:
        lands = tables.board.lands.values()
        summary |= {
            "lands": len(tables.board.lands),
            "barren_lands": sum(land.barren for land in lands),
            "resource_lands": sum(land.resource for land in lands),
            "difficult_lands": sum(land.terrain in ("mountains", "forest") for land in lands),
            "oceans": sum(w.kind == "ocean" for w in tables.board.waters.values()),
            "seas": sum(w.kind == "sea" for w in tables.board.waters.values()),
            "areas": list(tables.spiral),
            "empire_cards": {str(e): len(x) for e, x in tables.empires_by_epoch.items()},
            "event_cards": {str(e): len(x) for e, x in tables.deck_by_epoch.items()},
            "bonus_tokens": len(tables.bonus_tokens),
        }
    summary["rules"] = None if catalogue is None else len(catalogue)
    summary["errors"] = [problem.as_dict() for problem in problems]
    return summary


def _load(
    root: Path | None,
) -> tuple[BriefTables | None, RulesCatalogue | None, list[PackProblem]]:
    where = pack_dir(PACK, root)
    problems: list[PackProblem] = []
    docs = {name: read_yaml(where / name) or {} for name in FILES}
    problems += [
        PackProblem("pieces.yaml", "", field, str(message))
        for field, message in PiecesSchema().validate(docs["pieces.yaml"]).items()
    ]

    def entries(schema: Schema, file: str, section: str) -> list[Any]:
        loaded, found = validate_entries(schema, docs[file].get(section), file, section)
        problems.extend(found)
        return loaded

    areas = entries(AreaSchema(), "areas.yaml", "areas")
    empires = entries(EmpireSchema(), "empires.yaml", "empires")
    features = entries(FeatureSchema(), "empires.yaml", "features")
    events = entries(EventSchema(), "events.yaml", "cards")
    tokens = entries(TokenSchema(), "bonus_tokens.yaml", "tokens")
    board, found = load_world_board(docs["board.yaml"], "board.yaml")
    problems += found
    problems += cross_problems(board, areas, empires, features, events, tokens)
    problems += fact_problems(where, docs, FILES)
    problems += facts_about_no_file(where, FILES)
    try:
        catalogue = load_rules_catalogue(where / "rules.yaml")
    except PackError as exc:
        problems += exc.problems
        catalogue = None
    if problems:
        return None, catalogue, problems
    tables = BriefTables(
        board=board,
        areas=tuple(areas),
        empires=tuple(empires),
        features={f.id: f for f in features},
        events=tuple(events),
        bonus_tokens=tuple(tokens),
        numbers=numbers(docs["pieces.yaml"]),
    )
    return tables, catalogue, []


def numbers(raw: dict[str, Any]) -> Numbers:
    return Numbers(
        min_players=raw["players"]["min"],
        max_players=raw["players"]["max"],
        two_player_colours=raw["players"]["two_player_colours"],
        epochs=raw["epochs"]["count"],
        attacker_dice=raw["dice"]["attacker"],
        fleet_penalty=raw["dice"]["fleet_penalty"],
        defender_dice=raw["dice"]["defender"],
        fort_dice=raw["dice"]["fort"],
        clear_points=raw["invasion"]["clear"],
        difficult_points=raw["invasion"]["difficult"],
        dial_max=raw["invasion"]["dial_max"],
        gold={k: v for k, v in raw["gold"].items() if k != "provenance"},
        bonus_per_epoch=raw["bonus"]["per_epoch"],
        supply={k: v for k, v in raw["supply"].items() if k != "provenance"},
    )


def cross_problems(
    board: WorldBoard,
    areas: list[Area],
    empires: list[EmpireCard],
    features: list[Feature],
    events: list[EventCard],
    tokens: list[BonusToken],
) -> list[PackProblem]:
    """References resolve: lands' areas, start lands (never barren), fleets' waters,
    Features, cards' lands; ids are unique; every Area has lands; the spiral is 1..n."""
    problems = []
    area_ids = {a.id for a in areas}
    for land in board.lands.values():
        if land.area is not None and land.area not in area_ids:
            problems.append(PackProblem("board.yaml", land.id, "area", f"no area {land.area}"))
        if (land.area is None) != (land.terrain == "barren"):
            problems.append(
                PackProblem(
                    "board.yaml", land.id, "terrain", "barren lands, and only they, lie in no area"
                )
            )
    for area in areas:
        if not any(land.area == area.id for land in board.lands.values()):
            problems.append(PackProblem("areas.yaml", area.id, "id", "no land lies in this area"))
    if sorted(a.spiral for a in areas) != list(range(1, len(areas) + 1)):
        problems.append(PackProblem("areas.yaml", "", "spiral", "the spiral must number 1..n"))
    feature_ids = {f.id for f in features}
    for empire in empires:
        land = board.lands.get(empire.start_land)
        if land is None or land.barren:
            problems.append(
                PackProblem("empires.yaml", empire.id, "start_land", f"no land {empire.start_land}")
            )
        for water in empire.fleets:
            if water not in board.waters:
                problems.append(
                    PackProblem("empires.yaml", empire.id, "fleets", f"no water {water}")
                )
        if empire.feature is not None and empire.feature not in feature_ids:
            problems.append(
                PackProblem("empires.yaml", empire.id, "feature", f"no feature {empire.feature}")
            )
    for card in events:
        if card.kind in ("kingdom", "minor-empire"):
            land = board.lands.get(card.land or "")
            if land is None or land.barren:
                problems.append(PackProblem("events.yaml", card.id, "land", f"no land {card.land}"))
        if card.kind in ("kingdom", "minor-empire", "civil-war", "barbarians") and card.armies < 1:
            problems.append(PackProblem("events.yaml", card.id, "armies", "raises no armies"))
    for file, ids in (
        ("areas.yaml", [a.id for a in areas]),
        ("empires.yaml", [e.id for e in empires]),
        ("events.yaml", [c.id for c in events]),
        ("bonus_tokens.yaml", [t.id for t in tokens]),
    ):
        for duplicate, count in Counter(ids).items():
            if count > 1:
                problems.append(PackProblem(file, duplicate, "id", f"duplicate id ({count})"))
    return problems


def load_pack(data_pack: str = PACK, root: Path | None = None) -> Any:
    """The ruleset's pack: tables, board and catalogue (`pack_loader` of brief-2009)."""
    from domain.hotw.editions.brief2009.engine import BriefPack

    tables, catalogue = load_tables(root)
    return BriefPack(tables, catalogue, data_pack)


register(PACK, load=load_pack, check=check_pack)
