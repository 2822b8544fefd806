"""Load and check the cards of a History of the World data pack, and any ruleset's rules
catalogue.

``load_cards`` reads empires.yaml, events.yaml, honors.yaml and pieces.yaml, validates every
entry with marshmallow (unknown fields rejected) and then cross-checks the whole against the
board: unique ids, start-lands and effect lands on the board, fleet kinds by epoch, power icons
shown on the board and on the start-land. What the edition's rule text states about its cards
(card counts, the Empires and Events it names, the Honor set, the piece counts ...) is in the
pack's facts.yaml, checked by ``packs.facts``.
``load_rules_catalogue`` reads a ``rules.yaml``. Every problem names file, entry and field;
all of them are raised together in one ``PackError``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

from domain.core.catalogue import RuleEntry, RulesCatalogue
from domain.hotw.board import Board, PowerIcon, WaterKind
from domain.hotw.cards import (
    EFFECT_KINDS,
    LATER_EVENT_PHASES,
    AddPeople,
    AreaId,
    AwardHonor,
    Building,
    Cards,
    Chooser,
    CollectGold,
    Control,
    Dice,
    Effect,
    EmpireCard,
    EmpireId,
    EmpireSpec,
    EventCard,
    EventId,
    EventKind,
    GoldBasis,
    Honor,
    HonorId,
    HonorRecipient,
    LandId,
    LandSelector,
    Phase,
    PiecesSpec,
    PlaceArmies,
    PlaceBuildings,
    PlaceFleet,
    PlayerSet,
    ReduceBuildings,
    RemoveBuildings,
    RemoveGarrisons,
    Scope,
    SharedSupply,
    effect_selectors,
)
from packs.base import PackError, PackProblem, read_yaml, validate_entries
from packs.edition import edition_epochs
from packs.facts import FileSpec, fact_problems

EMPIRES_FILE = "empires.yaml"
EVENTS_FILE = "events.yaml"
HONORS_FILE = "honors.yaml"
PIECES_FILE = "pieces.yaml"
RULES_FILE = "rules.yaml"

KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"
RULE_ID = r"^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$"
PROVENANCE = r"^(text p\d+|reconstructed)"
PAGE = r"^(\d+|\?)$"


# --- marshmallow schemas --------------------------------------------------------------------


class _Strict(Schema):
    class Meta:
        unknown = RAISE


def _one_of(values: Iterable[str]) -> validate.OneOf:
    return validate.OneOf(sorted(values))


def _one_of_ints(values: Iterable[int]) -> validate.OneOf:
    return validate.OneOf(sorted(values))


def _values(enum: Iterable[Any]) -> list[str]:
    return [member.value for member in enum]


def _id() -> fields.String:
    return fields.String(
        required=True, validate=validate.Regexp(KEBAB, error="must be a kebab-case id")
    )


def _provenance() -> fields.String:
    return fields.String(
        required=True,
        validate=validate.Regexp(PROVENANCE, error="must start 'text pN' or 'reconstructed'"),
    )


def _count(minimum: int = 1) -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=minimum))


def _buildings() -> fields.List[Any]:
    return fields.List(fields.String(validate=_one_of(_values(Building))), load_default=list)


class LandSelectorSchema(_Strict):
    scope = fields.String(required=True, validate=_one_of(_values(Scope)))
    lands = fields.List(fields.String(), load_default=list)
    areas = fields.List(fields.String(), load_default=list)
    active_only = fields.Boolean(load_default=False)
    control = fields.String(load_default=Control.ANY.value, validate=_one_of(_values(Control)))
    with_building = fields.String(
        load_default=None, allow_none=True, validate=_one_of(_values(Building))
    )
    without_buildings = _buildings()
    adjacent_to = fields.String(
        load_default=None, allow_none=True, validate=_one_of(_values(Control))
    )
    coastal = fields.String(
        load_default=None, allow_none=True, validate=_one_of(_values(WaterKind))
    )

    @validates_schema
    def _scope_lists(self, data: dict[str, Any], **_: Any) -> None:
        scope = data["scope"]
        if (scope == Scope.LANDS) != bool(data["lands"]):
            raise ValidationError("a land list goes with scope 'lands', and only there", "lands")
        if (scope == Scope.AREAS) != bool(data["areas"]):
            raise ValidationError("an area list goes with scope 'areas', and only there", "areas")

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> LandSelector:
        return LandSelector(
            scope=Scope(data["scope"]),
            lands=tuple(LandId(land) for land in data["lands"]),
            areas=tuple(AreaId(area) for area in data["areas"]),
            active_only=data["active_only"],
            control=Control(data["control"]),
            with_building=_optional(Building, data["with_building"]),
            without_buildings=tuple(Building(b) for b in data["without_buildings"]),
            adjacent_to=_optional(Control, data["adjacent_to"]),
            coastal=_optional(WaterKind, data["coastal"]),
        )


def _optional(kind: Callable[[str], Any], value: str | None) -> Any:
    return None if value is None else kind(value)


def _where(required: bool = True) -> fields.Nested:
    if required:
        return fields.Nested(LandSelectorSchema, required=True)
    return fields.Nested(LandSelectorSchema, load_default=None, allow_none=True)


def _chooser() -> fields.String:
    return fields.String(
        load_default=Chooser.CURRENT_PLAYER.value, validate=_one_of(_values(Chooser))
    )


class _EffectSchema(_Strict):
    kind = fields.String(required=True)


class AwardHonorSchema(_EffectSchema):
    to = fields.String(required=True, validate=_one_of(_values(HonorRecipient)))
    count = fields.Integer(load_default=1, strict=True, validate=validate.Range(min=1))

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> AwardHonor:
        return AwardHonor(to=HonorRecipient(data["to"]), count=data["count"])


class CollectGoldSchema(_EffectSchema):
    amount = _count()
    per = fields.String(required=True, validate=_one_of(_values(GoldBasis)))
    where = _where(required=False)

    @validates_schema
    def _where_unless_flat(self, data: dict[str, Any], **_: Any) -> None:
        if (data["per"] == GoldBasis.FLAT) == (data.get("where") is not None):
            raise ValidationError("needed unless `per` is flat, and only then", "where")

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> CollectGold:
        return CollectGold(amount=data["amount"], per=GoldBasis(data["per"]), where=data["where"])


class PlaceBuildingsSchema(_EffectSchema):
    building = fields.String(required=True, validate=_one_of(_values(Building)))
    count = _count()
    where = _where()
    chooser = _chooser()

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> PlaceBuildings:
        return PlaceBuildings(
            building=Building(data["building"]),
            count=data["count"],
            where=data["where"],
            chooser=Chooser(data["chooser"]),
        )


class PlaceArmiesSchema(_EffectSchema):
    count = _count()
    where = _where()
    chooser = _chooser()
    invade = fields.Boolean(load_default=False)

    @validates_schema
    def _control_matches_invade(self, data: dict[str, Any], **_: Any) -> None:
        control = data["where"].control
        if not data["invade"] and control is not Control.UNCONTROLLED:
            raise ValidationError(
                "without `invade`, armies only go to uncontrolled lands (control: uncontrolled)",
                "where",
            )
        if data["invade"] and control not in {Control.ENEMY, Control.NOT_OWN}:
            raise ValidationError("an invading effect targets enemy or not_own lands", "where")

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> PlaceArmies:
        return PlaceArmies(
            count=data["count"],
            where=data["where"],
            chooser=Chooser(data["chooser"]),
            invade=data["invade"],
        )


class RemoveGarrisonsSchema(_EffectSchema):
    count = fields.Integer(
        required=True, allow_none=True, strict=True, validate=validate.Range(min=1)
    )
    where = _where()
    chooser = _chooser()
    up_to = fields.Boolean(load_default=False)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> RemoveGarrisons:
        return RemoveGarrisons(
            count=data["count"],
            where=data["where"],
            chooser=Chooser(data["chooser"]),
            up_to=data["up_to"],
        )


class RemoveBuildingsSchema(_EffectSchema):
    building = fields.String(required=True, validate=_one_of(_values(Building)))
    count = fields.Integer(
        required=True, allow_none=True, strict=True, validate=validate.Range(min=1)
    )
    where = _where()
    chooser = _chooser()
    owner_loses_gold = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0))

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> RemoveBuildings:
        return RemoveBuildings(
            building=Building(data["building"]),
            count=data["count"],
            where=data["where"],
            chooser=Chooser(data["chooser"]),
            owner_loses_gold=data["owner_loses_gold"],
        )


class ReduceBuildingsSchema(_EffectSchema):
    where = _where()

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> ReduceBuildings:
        return ReduceBuildings(where=data["where"])


class AddPeopleSchema(_EffectSchema):
    count = _count()

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> AddPeople:
        return AddPeople(count=data["count"])


class PlaceFleetSchema(_EffectSchema):
    count = fields.Integer(load_default=1, strict=True, validate=validate.Range(min=1))

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> PlaceFleet:
        return PlaceFleet(count=data["count"])


EFFECT_SCHEMAS: Mapping[str, Schema] = {
    AwardHonor.kind: AwardHonorSchema(),
    CollectGold.kind: CollectGoldSchema(),
    PlaceBuildings.kind: PlaceBuildingsSchema(),
    PlaceArmies.kind: PlaceArmiesSchema(),
    RemoveGarrisons.kind: RemoveGarrisonsSchema(),
    RemoveBuildings.kind: RemoveBuildingsSchema(),
    ReduceBuildings.kind: ReduceBuildingsSchema(),
    AddPeople.kind: AddPeopleSchema(),
    PlaceFleet.kind: PlaceFleetSchema(),
}


class EffectField(fields.Field[Effect]):
    """One effect of the closed vocabulary, chosen by its ``kind``."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Effect:
        if not isinstance(value, Mapping):
            raise ValidationError("an effect is a mapping with a `kind`")
        schema = EFFECT_SCHEMAS.get(str(value.get("kind")))
        if schema is None:
            raise ValidationError(
                {"kind": [f"unknown effect kind; one of {', '.join(sorted(EFFECT_KINDS))}"]}
            )
        effect: Effect = schema.load(value)
        return effect


def _effects(required: bool = False) -> fields.List[Any]:
    if required:
        return fields.List(EffectField(), required=True, validate=validate.Length(min=1))
    return fields.List(EffectField(), load_default=list)


class _PiecesFields(_Strict):
    """What an Empire, or an Event played as if an Empire, brings to the map."""

    start_lands = fields.List(fields.String(), load_default=list)
    people = _count()
    starting_buildings = _buildings()
    fleets = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0))
    fleet_kind = fields.String(
        load_default=None, allow_none=True, validate=_one_of(_values(WaterKind))
    )

    @validates_schema
    def _fleet_kind_with_fleets(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("fleets", 0) > 0 and data.get("fleet_kind") is None:
            raise ValidationError("say `sea` or `ocean` for the fleets shown", "fleet_kind")
        if data.get("fleets", 0) == 0 and data.get("fleet_kind") is not None:
            raise ValidationError("a card without fleets has no fleet kind", "fleet_kind")


class _EmpireFields(_PiecesFields):
    power_icon = fields.String(
        load_default=None, allow_none=True, validate=_one_of(_values(PowerIcon))
    )
    barbarian = fields.Boolean(load_default=False)


class SubEmpireSchema(_EmpireFields):
    """One Empire of a card that shows two (Incas & Aztecs, p9)."""

    name = fields.String(required=True, validate=validate.Length(min=1))
    start_lands = fields.List(fields.String(), required=True, validate=validate.Length(min=1))

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> EmpireSpec:
        return _spec(data["name"], data)


def _spec(name: str, data: Mapping[str, Any], barbarian: bool | None = None) -> EmpireSpec:
    return EmpireSpec(
        name=name,
        start_lands=tuple(LandId(land) for land in data.get("start_lands", ())),
        people=data["people"],
        starting_buildings=tuple(Building(b) for b in data.get("starting_buildings", ())),
        fleets=data.get("fleets", 0),
        fleet_kind=_optional(WaterKind, data.get("fleet_kind")),
        power_icon=_optional(PowerIcon, data.get("power_icon")),
        barbarian=data.get("barbarian", False) if barbarian is None else barbarian,
        great_wall_forts=data.get("great_wall_forts", 0),
        start_land_choice=data.get("start_land_choice"),
    )


SPEC_FIELDS = ("start_lands", "people", "starting_buildings", "fleets", "fleet_kind")


class EmpireCardSchema(_EmpireFields):
    id = _id()
    epoch = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    number = _count()
    name = fields.String(required=True, validate=validate.Length(min=1))
    people = fields.Integer(strict=True, validate=validate.Range(min=1))
    great_wall_forts = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0))
    empires = fields.List(
        fields.Nested(SubEmpireSchema), load_default=None, validate=validate.Length(min=2)
    )
    provenance = _provenance()

    @validates_schema
    def _one_empire_or_several(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("empires") is not None:
            flat = [k for k in (*SPEC_FIELDS, "power_icon") if data.get(k) not in (None, [], 0)]
            if flat:
                raise ValidationError(
                    "a card with `empires` gives the pieces of each Empire, not of the card",
                    flat[0],
                )
            return
        if not data.get("start_lands"):
            raise ValidationError("an Empire needs its start-land(s)", "start_lands")
        if "people" not in data:
            raise ValidationError("Missing data for required field.", "people")

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> EmpireCard:
        specs = tuple(data["empires"]) if data.get("empires") else (_spec(data["name"], data),)
        return EmpireCard(
            id=EmpireId(data["id"]),
            epoch=data["epoch"],
            number=data["number"],
            name=data["name"],
            empires=specs,
            provenance=data["provenance"],
        )


class EventPiecesSchema(_PiecesFields):
    start_land_choice = fields.Nested(LandSelectorSchema, load_default=None, allow_none=True)
    power_icon = fields.String(
        load_default=None, allow_none=True, validate=_one_of(_values(PowerIcon))
    )

    @validates_schema
    def _start_land_or_choice(self, data: dict[str, Any], **_: Any) -> None:
        if bool(data.get("start_lands")) == (data.get("start_land_choice") is not None):
            raise ValidationError(
                "give either start_lands or start_land_choice, not both", "start_lands"
            )


class EventCardSchema(_Strict):
    id = _id()
    epoch = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    name = fields.String(required=True, validate=validate.Length(min=1))
    kind = fields.String(required=True, validate=_one_of(_values(EventKind)))
    honor_icon = fields.Boolean(required=True)
    later_event = fields.String(
        required=True, allow_none=True, validate=_one_of(p.value for p in LATER_EVENT_PHASES)
    )
    barbarian = fields.Boolean(required=True)
    text = fields.String(load_default="")
    effects = _effects()
    pieces = fields.Nested(EventPiecesSchema, load_default=None, allow_none=True)
    provenance = _provenance()

    @validates_schema
    def _kind_decides_contents(self, data: dict[str, Any], **_: Any) -> None:
        if data["kind"] == EventKind.TEXT:
            if data.get("pieces") is not None:
                raise ValidationError("a text Event has effects, not pieces", "pieces")
            if not data.get("text", "").strip():
                raise ValidationError("a text Event says what it does", "text")
            if not data.get("effects") and not data["honor_icon"]:
                raise ValidationError("a text Event needs at least one effect", "effects")
            return
        if data.get("pieces") is None:
            raise ValidationError("an Event played as an Empire needs its pieces", "pieces")
        if data.get("effects") or data.get("text"):
            raise ValidationError("an Event played as an Empire has no text (p4)", "effects")

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> EventCard:
        pieces = data.get("pieces")
        return EventCard(
            id=EventId(data["id"]),
            epoch=data["epoch"],
            name=data["name"],
            kind=EventKind(data["kind"]),
            honor_icon=data["honor_icon"],
            later_event=_optional(Phase, data["later_event"]),
            barbarian=data["barbarian"],
            provenance=data["provenance"],
            text=data.get("text", ""),
            effects=tuple(data.get("effects", ())),
            pieces=None if pieces is None else _spec(data["name"], pieces, data["barbarian"]),
        )


class HonorSchema(_Strict):
    id = _id()
    name = fields.String(required=True, validate=validate.Length(min=1))
    coins = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    text = fields.String(required=True, validate=validate.Length(min=1))
    effect = _effects(required=True)
    endgame_effect = _effects()
    provenance = _provenance()

    @validates_schema
    def _endgame_only_without_coins(self, data: dict[str, Any], **_: Any) -> None:
        if data["coins"] > 0 and data.get("endgame_effect"):
            raise ValidationError(
                "a coin Honor pays its coins in the Endgame, it has no endgame effect (p9)",
                "endgame_effect",
            )
        if data["coins"] == 0 and not data.get("endgame_effect"):
            raise ValidationError(
                "an Honor without coins needs its Endgame effect (p9, p10)", "endgame_effect"
            )

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> Honor:
        return Honor(
            id=HonorId(data["id"]),
            name=data["name"],
            coins=data["coins"],
            text=data["text"],
            effect=tuple(data["effect"]),
            provenance=data["provenance"],
            endgame_effect=tuple(data.get("endgame_effect", ())),
        )


class PlayerSetSchema(_Strict):
    people = _count()
    leaders = _count()
    gold_chests = _count()
    honors = _count()
    arrays = _count()


class SharedSupplySchema(_Strict):
    capitals = _count()
    cities = _count()
    monuments = _count()
    forts = _count()
    fleets = _count()
    great_wall_forts = _count()


class DiceSchema(_Strict):
    red = _count()
    white = _count()
    option3_extra_white = _count()


class GoldTrackSchema(_Strict):
    spaces = _count()
    wraps = fields.Boolean(required=True)


class PiecesSchema(_Strict):
    provenance = fields.String(required=True, validate=validate.Length(min=1))
    per_player = fields.Nested(PlayerSetSchema, required=True)
    shared = fields.Nested(SharedSupplySchema, required=True)
    dice = fields.Nested(DiceSchema, required=True)
    gold_track = fields.Nested(GoldTrackSchema, required=True)
    invasion_modifiers = fields.List(fields.Integer(strict=True), required=True)
    endgame_spaces = _count()
    area_tokens_per_area = _count()
    paired_area_tokens = _count()

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> PiecesSpec:
        return PiecesSpec(
            per_player=PlayerSet(**data["per_player"]),
            shared=SharedSupply(**data["shared"]),
            dice=Dice(**data["dice"]),
            gold_track_spaces=data["gold_track"]["spaces"],
            gold_track_wraps=data["gold_track"]["wraps"],
            invasion_modifiers=tuple(data["invasion_modifiers"]),
            endgame_spaces=data["endgame_spaces"],
            area_tokens_per_area=data["area_tokens_per_area"],
            paired_area_tokens=data["paired_area_tokens"],
            provenance=data["provenance"],
        )


MODULE = r"^domain(\.[a-z0-9_]+)+$"
"""Where a rule is implemented: the dotted name of a module under domain/."""


class RuleEntrySchema(_Strict):
    id = fields.String(
        required=True, validate=validate.Regexp(RULE_ID, error="must be a dotted kebab-case id")
    )
    page = fields.String(
        required=True, validate=validate.Regexp(PAGE, error="a page number, or '?' if unknown")
    )
    section = fields.String(required=True, validate=validate.Length(min=1))
    text = fields.String(required=True, validate=validate.Length(min=1))
    reading = fields.String(load_default="")
    departs_from = fields.String(load_default="")
    module = fields.String(
        load_default="",
        validate=validate.Regexp(MODULE, error="a module of domain/, dotted (domain.x.y)"),
    )

    @validates_schema
    def _one_line(self, data: dict[str, Any], **_: Any) -> None:
        for name in ("text", "reading", "departs_from"):
            if "\n" in data.get(name, "").strip():
                raise ValidationError("must be one line", name)
        if data.get("departs_from") and not data.get("reading"):
            raise ValidationError("a reading that departs from the text must say itself", "reading")

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> RuleEntry:
        return RuleEntry(**data)


CARD_FILES: Mapping[str, FileSpec] = {
    EMPIRES_FILE: {"empires": EmpireCardSchema()},
    EVENTS_FILE: {"events": EventCardSchema()},
    HONORS_FILE: {"honors": HonorSchema()},
    PIECES_FILE: PiecesSchema(),
}
"""The card files and their schemas: of each section's entries, or of the whole file."""


# --- reading the files ----------------------------------------------------------------------


def _load_entries(
    schema: Schema, entries: Any, file: str, section: str, problems: list[PackProblem]
) -> list[Any]:
    """Load a section's entries; keep those that failed only on unknown fields (already
    reported) so that one stray field does not cascade into count problems."""
    loaded, found = validate_entries(schema, entries, file, section)
    problems.extend(found)
    if not isinstance(entries, list) or len(loaded) == len(entries):
        return loaded
    salvaged: list[Any] = []
    for raw in entries:
        if not isinstance(raw, Mapping):
            continue
        try:
            schema.load(raw)
        except ValidationError:
            known = {k: v for k, v in raw.items() if k in schema.fields}
            if len(known) < len(raw):
                with suppress(ValidationError):
                    salvaged.append(schema.load(known))
    return loaded + salvaged


def _read_file(
    pack_dir: Path, file: str, section: str, problems: list[PackProblem]
) -> Mapping[str, Any]:
    data = read_yaml(pack_dir / file)
    if not isinstance(data, Mapping):
        raise PackError([PackProblem(file, "", "", "must be a mapping of sections")])
    for key in data:
        if key not in {section, "provenance"}:
            problems.append(PackProblem(file, "", str(key), "unknown section"))
    provenance = data.get("provenance")
    if not isinstance(provenance, str) or not provenance.strip():
        problems.append(
            PackProblem(file, "", "provenance", "the file must say what is from the text")
        )
    if section not in data:
        problems.append(PackProblem(file, "", section, "section is missing"))
    return data


def _read_list(
    pack_dir: Path, file: str, docs: dict[str, Any], problems: list[PackProblem]
) -> list[Any]:
    ((section, schema),) = CARD_FILES[file].items()  # type: ignore[union-attr]
    data = docs[file] = _read_file(pack_dir, file, section, problems)
    return _load_entries(schema, data.get(section, []), file, section, problems)


def _read_pieces(
    pack_dir: Path, docs: dict[str, Any], problems: list[PackProblem]
) -> PiecesSpec | None:
    data = docs[PIECES_FILE] = read_yaml(pack_dir / PIECES_FILE)
    try:
        pieces: PiecesSpec = PiecesSchema().load(data)
    except ValidationError as exc:
        problems.extend(_section_problems(PIECES_FILE, exc.messages))
        return None
    return pieces


def _section_problems(file: str, messages: Any) -> list[PackProblem]:
    """Problems of a file that is one mapping: the entry is the section, the field inside it."""
    if not isinstance(messages, Mapping):
        return [PackProblem(file, "", "", str(messages))]
    out: list[PackProblem] = []
    for section, message in messages.items():
        if isinstance(message, Mapping):
            out += [
                PackProblem(file, str(section), str(name), _text(text))
                for name, text in message.items()
            ]
        else:
            out.append(PackProblem(file, "", str(section), _text(message)))
    return out


def _text(message: Any) -> str:
    if isinstance(message, list) and all(isinstance(m, str) for m in message):
        return "; ".join(message)
    return str(message)


# --- cross-checks ---------------------------------------------------------------------------


@dataclass
class _Checker:
    """Collects the problems of the cross-checks."""

    board: Board
    ocean_epochs: frozenset[int] = frozenset()
    problems: list[PackProblem] = field(default_factory=list)

    def add(self, file: str, entry: str, name: str, message: str) -> None:
        self.problems.append(PackProblem(file, entry, name, message))


def _check_epochs(
    items: Sequence[EmpireCard | EventCard], file: str, epochs: Sequence[int], check: _Checker
) -> None:
    """Each card belongs to one of the edition's epochs (edition.yaml)."""
    for card in items:
        if card.epoch not in epochs:
            check.add(file, card.id, "epoch", f"not an epoch of the edition {list(epochs)}")


def _unique_ids(items: Sequence[Any], file: str, check: _Checker) -> None:
    for item_id, count in Counter(item.id for item in items).items():
        if count > 1:
            check.add(file, item_id, "id", f"duplicate id ({count} entries)")


def _check_start_land(land: str, file: str, entry: str, name: str, check: _Checker) -> None:
    board = check.board
    if land in board.lands:
        return
    if board.is_wasteland(land):
        message = "is a wasteland: an army may never be placed there (p5)"
    elif board.is_water(land):
        message = "is a sea or ocean, not a land"
    else:
        message = "is not a land of board.yaml"
    check.add(file, entry, name, f"'{land}' {message}")


def _check_pieces(
    spec: EmpireSpec, epoch: int, file: str, entry: str, prefix: str, check: _Checker
) -> None:
    """Start-lands, buildings and fleets of one Empire or Event."""
    for index, land in enumerate(spec.start_lands):
        _check_start_land(land, file, entry, f"{prefix}start_lands[{index}]", check)
    if spec.start_land_choice is not None:
        _check_selector(spec.start_land_choice, file, entry, f"{prefix}start_land_choice", check)
    duplicates = [b for b, n in Counter(spec.starting_buildings).items() if n > 1]
    if duplicates:
        check.add(
            file,
            entry,
            f"{prefix}starting_buildings",
            f"two {duplicates[0]}s: a land never holds two buildings of a kind (p10)",
        )
    _check_fleets(spec, epoch, file, entry, prefix, check)


def _check_fleets(
    spec: EmpireSpec, epoch: int, file: str, entry: str, prefix: str, check: _Checker
) -> None:
    """A card's fleets are of the kind its epoch's fleets go to (edition.yaml's fleets)."""
    if spec.fleets == 0:
        return
    wanted = WaterKind.OCEAN if epoch in check.ocean_epochs else WaterKind.SEA
    if spec.fleet_kind is not wanted:
        check.add(
            file,
            entry,
            f"{prefix}fleet_kind",
            f"Epoch {epoch} cards show {wanted.value} fleets only (p5, p9)",
        )


def _check_power_icon(spec: EmpireSpec, entry: str, prefix: str, check: _Checker) -> None:
    """An Empire's power icon is one the board shows, and the one its start-land shows, if that
    shows one (p7: "each pair of these icons, including the one in the start-land")."""
    name = f"{prefix}power_icon"
    if spec.barbarian or spec.power_icon is None:
        return
    board_kinds = {land.power_icon for land in check.board.lands.values()} - {None}
    if spec.power_icon not in board_kinds:
        check.add(EMPIRES_FILE, entry, name, f"'{spec.power_icon}' is shown on no land")
    for land_id in spec.start_lands:
        land = check.board.lands.get(land_id)
        if land is not None and land.power_icon is None:
            check.add(
                EMPIRES_FILE,
                entry,
                name,
                f"the start-land '{land_id}' shows no power icon: an Empire's icon pairs include "
                f"the one in its start-land (p7)",
            )
        elif land is not None and land.power_icon != spec.power_icon:
            check.add(
                EMPIRES_FILE,
                entry,
                name,
                f"the start-land '{land_id}' shows {land.power_icon}, so the Empire's icon is "
                f"{land.power_icon} (p7)",
            )


def check_empires(empires: Sequence[EmpireCard], check: _Checker) -> None:
    for card in empires:
        for index, spec in enumerate(card.empires):
            prefix = f"empires[{index}]." if card.is_double else ""
            _check_pieces(spec, card.epoch, EMPIRES_FILE, card.id, prefix, check)
            _check_power_icon(spec, card.id, prefix, check)


def _check_selector(
    selector: LandSelector, file: str, entry: str, name: str, check: _Checker
) -> None:
    for index, land in enumerate(selector.lands):
        if land not in check.board.lands:
            check.add(file, entry, f"{name}.lands[{index}]", f"'{land}' is not a land")
    for index, area in enumerate(selector.areas):
        if area not in check.board.areas:
            check.add(file, entry, f"{name}.areas[{index}]", f"'{area}' is not an area")


def _check_effects(
    effects: Sequence[Effect], file: str, entry: str, name: str, check: _Checker
) -> None:
    for index, effect in enumerate(effects):
        path = f"{name}[{index}].where"
        for where in effect_selectors(effect):
            _check_selector(where, file, entry, path, check)
            if where.scope is Scope.PREVIOUS and index == 0:
                check.add(file, entry, f"{path}.scope", "'previous' needs an effect before it")


HONOR_ONLY_EFFECTS = (AddPeople.kind, PlaceFleet.kind)
"""These act on the Empire pool or follow the Fleet Honor rule: Honors only."""


def check_events(events: Sequence[EventCard], check: _Checker) -> None:
    for card in events:
        _check_effects(card.effects, EVENTS_FILE, card.id, "effects", check)
        for index, effect in enumerate(card.effects):
            if effect.kind in HONOR_ONLY_EFFECTS:
                check.add(
                    EVENTS_FILE,
                    card.id,
                    f"effects[{index}].kind",
                    f"'{effect.kind}' belongs to Honors, not Events",
                )
        if card.pieces is not None:
            _check_pieces(card.pieces, card.epoch, EVENTS_FILE, card.id, "pieces.", check)


def check_honors(honors: Sequence[Honor], check: _Checker) -> None:
    """Every effect of an Honor names lands and areas of the board."""
    for honor in honors:
        _check_effects(honor.effect, HONORS_FILE, honor.id, "effect", check)
        _check_effects(honor.endgame_effect, HONORS_FILE, honor.id, "endgame_effect", check)


# --- the loaders ----------------------------------------------------------------------------


def cards_problems(pack_dir: Path, board: Board) -> tuple[Cards | None, list[PackProblem]]:
    """Load the cards and list every problem; the Cards are None when a file could not be read."""
    problems: list[PackProblem] = []
    docs: dict[str, Any] = {}
    try:
        empires = _read_list(pack_dir, EMPIRES_FILE, docs, problems)
        events = _read_list(pack_dir, EVENTS_FILE, docs, problems)
        honors = _read_list(pack_dir, HONORS_FILE, docs, problems)
        pieces = _read_pieces(pack_dir, docs, problems)
    except PackError as exc:
        return None, [*problems, *exc.problems]
    epochs, ocean_epochs = edition_epochs(pack_dir)
    check = _Checker(board, ocean_epochs)
    _unique_ids(empires, EMPIRES_FILE, check)
    _check_epochs(empires, EMPIRES_FILE, epochs, check)
    _check_epochs(events, EVENTS_FILE, epochs, check)
    _unique_ids(events, EVENTS_FILE, check)
    _unique_ids(honors, HONORS_FILE, check)
    check_empires(empires, check)
    check_events(events, check)
    check_honors(honors, check)
    problems += check.problems
    problems += fact_problems(pack_dir, docs, CARD_FILES)
    if pieces is None:
        return None, problems
    return _assemble(empires, events, honors, pieces, epochs), problems


def _assemble(
    empires: Sequence[EmpireCard],
    events: Sequence[EventCard],
    honors: Sequence[Honor],
    pieces: PiecesSpec,
    epochs: Sequence[int],
) -> Cards:
    """Empire cards of an epoch in turn order; Event cards in the order of the file."""
    return Cards(
        empires_by_epoch={
            epoch: tuple(sorted((c for c in empires if c.epoch == epoch), key=lambda c: c.number))
            for epoch in epochs
        },
        events_by_epoch={epoch: tuple(c for c in events if c.epoch == epoch) for epoch in epochs},
        honors=tuple(honors),
        pieces=pieces,
    )


def load_cards(pack_dir: Path, board: Board) -> Cards:
    """Load empires.yaml, events.yaml, honors.yaml and pieces.yaml from ``pack_dir``, checked
    against ``board``; raise one ``PackError`` listing every problem."""
    cards, problems = cards_problems(pack_dir, board)
    if problems or cards is None:
        raise PackError(problems)
    return cards


def load_rules_catalogue(path: Path) -> RulesCatalogue:
    """Load a ruleset's rules catalogue (``data/<ruleset>/rules.yaml``); ids must be unique."""
    file = path.name
    problems: list[PackProblem] = []
    data = read_yaml(path)
    if not isinstance(data, Mapping):
        raise PackError([PackProblem(file, "", "", "must be a mapping with `ruleset` and `rules`")])
    for key in data:
        if key not in {"ruleset", "source", "rules"}:
            problems.append(PackProblem(file, "", str(key), "unknown section"))
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or not re.match(KEBAB, ruleset):
        problems.append(PackProblem(file, "", "ruleset", "the ruleset's kebab-case name"))
        ruleset = ""
    if "rules" not in data:
        problems.append(PackProblem(file, "", "rules", "section is missing"))
    entries: list[RuleEntry] = _load_entries(
        RuleEntrySchema(), data.get("rules", []), file, "rules", problems
    )
    for rule_id, count in Counter(entry.id for entry in entries).items():
        if count > 1:
            problems.append(
                PackProblem(file, rule_id, "id", f"duplicate rule id ({count} entries)")
            )
    if problems:
        raise PackError(problems)
    return RulesCatalogue(ruleset=ruleset, entries={entry.id: entry for entry in entries})
