"""Load and check the cards of the hotw-2024 data pack, and any ruleset's rules catalogue.

``load_cards`` reads empires.yaml, events.yaml, honors.yaml and pieces.yaml, validates every
entry with marshmallow (unknown fields rejected) and then cross-checks the whole against the
board and the rule text: card counts per epoch, start-lands, power icons, barbarians, fleets by
epoch, the Empires and Events the text names, the Honor set and the piece counts.
``load_rules_catalogue`` reads a ``rules.yaml``. Every problem names file, entry and field;
all of them are raised together in one ``PackError``.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
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
from domain.hotw.board import EPOCHS, OCEAN_FLEET_EPOCHS, Board, PowerIcon, WaterKind
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
from schemas.pack_base import PackError, PackProblem, read_yaml, validate_entries

EMPIRES_FILE = "empires.yaml"
EVENTS_FILE = "events.yaml"
HONORS_FILE = "honors.yaml"
PIECES_FILE = "pieces.yaml"
RULES_FILE = "rules.yaml"

MAX_PLAYERS = 6
"""hotw24.setup.player-count: a game deals one Empire and one Event card per player per epoch."""
HONORS_PER_SET = 10
HONORS_WITH_COINS = 7
GREAT_WALL_FORTS = 3
NO_COIN_HONORS = ("Buildings bonus", "Lands bonus", "Catastrophe")
MAX_SEA_FLEETS = 1
MAX_OCEAN_FLEETS = 2

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

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> RemoveGarrisons:
        return RemoveGarrisons(
            count=data["count"], where=data["where"], chooser=Chooser(data["chooser"])
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
    epoch = fields.Integer(required=True, strict=True, validate=_one_of_ints(EPOCHS))
    number = _count()
    name = fields.String(required=True, validate=validate.Length(min=1))
    people = fields.Integer(strict=True, validate=validate.Range(min=1))
    great_wall_forts = fields.Integer(load_default=0, strict=True, validate=validate.Range(0, 2))
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
    power_icon = fields.Raw(load_default=None)

    @validates_schema
    def _no_power_icon(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("power_icon") is not None:
            raise ValidationError("an Event never shows a power icon (p9)", "power_icon")
        if bool(data.get("start_lands")) == (data.get("start_land_choice") is not None):
            raise ValidationError(
                "give either start_lands or start_land_choice, not both", "start_lands"
            )


class EventCardSchema(_Strict):
    id = _id()
    epoch = fields.Integer(required=True, strict=True, validate=_one_of_ints(EPOCHS))
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

    @validates_schema
    def _one_line(self, data: dict[str, Any], **_: Any) -> None:
        for name in ("text", "reading"):
            if "\n" in data.get(name, "").strip():
                raise ValidationError("must be one line", name)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> RuleEntry:
        return RuleEntry(**data)


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
    pack_dir: Path, file: str, section: str, schema: Schema, problems: list[PackProblem]
) -> list[Any]:
    data = _read_file(pack_dir, file, section, problems)
    return _load_entries(schema, data.get(section, []), file, section, problems)


def _read_pieces(pack_dir: Path, problems: list[PackProblem]) -> PiecesSpec | None:
    data = read_yaml(pack_dir / PIECES_FILE)
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
    problems: list[PackProblem] = field(default_factory=list)

    def add(self, file: str, entry: str, name: str, message: str) -> None:
        self.problems.append(PackProblem(file, entry, name, message))


def _unique_ids(items: Sequence[Any], file: str, check: _Checker) -> None:
    for item_id, count in Counter(item.id for item in items).items():
        if count > 1:
            check.add(file, item_id, "id", f"duplicate id ({count} entries)")


def check_card_counts(
    empires: Sequence[EmpireCard], events: Sequence[EventCard], check: _Checker
) -> None:
    """p3: a game takes as many cards per epoch as players (up to six); one Event per player."""
    empires_in = Counter(card.epoch for card in empires)
    events_in = Counter(card.epoch for card in events)
    for epoch in EPOCHS:
        if empires_in[epoch] < MAX_PLAYERS:
            check.add(
                EMPIRES_FILE,
                "",
                "empires",
                f"Epoch {epoch} has {empires_in[epoch]} Empire cards; a six-player game needs "
                f"at least {MAX_PLAYERS} (p3, hotw24.setup.cards)",
            )
        if events_in[epoch] < empires_in[epoch]:
            check.add(
                EVENTS_FILE,
                "",
                "events",
                f"Epoch {epoch} has {events_in[epoch]} Event cards but {empires_in[epoch]} "
                "Empire cards; every player receives an Event (p3)",
            )


def check_numbers(empires: Sequence[EmpireCard], check: _Checker) -> None:
    """p4: the number on each card is its chronological position within its epoch."""
    seen: dict[tuple[int, int], str] = {}
    for card in empires:
        key = (card.epoch, card.number)
        if key in seen:
            check.add(
                EMPIRES_FILE,
                card.id,
                "number",
                f"Epoch {card.epoch} number {card.number} is also '{seen[key]}'s",
            )
        seen[key] = card.id


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
    """Start-lands, buildings, fleets and barbarians of one Empire or Event."""
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
    if spec.barbarian and spec.starting_buildings:
        check.add(
            file,
            entry,
            f"{prefix}starting_buildings",
            "a barbarian never has buildings as starting pieces (p9)",
        )
    _check_fleets(spec, epoch, file, entry, prefix, check)


def _check_fleets(
    spec: EmpireSpec, epoch: int, file: str, entry: str, prefix: str, check: _Checker
) -> None:
    """p5, p9: sea fleets (at most one) in Epochs I-III, one or two ocean fleets in IV-V."""
    if spec.fleets == 0:
        return
    ocean_epoch = epoch in OCEAN_FLEET_EPOCHS
    wanted = WaterKind.OCEAN if ocean_epoch else WaterKind.SEA
    if spec.fleet_kind is not wanted:
        check.add(
            file,
            entry,
            f"{prefix}fleet_kind",
            f"Epoch {epoch} cards show {wanted.value} fleets only (p5, p9)",
        )
    most = MAX_OCEAN_FLEETS if ocean_epoch else MAX_SEA_FLEETS
    if spec.fleets > most:
        check.add(
            file,
            entry,
            f"{prefix}fleets",
            f"Epoch {epoch} cards show at most {most} fleet(s) (p5)",
        )


def _check_power_icon(spec: EmpireSpec, entry: str, prefix: str, check: _Checker) -> None:
    """p7, p9: a barbarian has no power icon; every other Empire has one of the board's kinds,
    the one its start-land shows ("each pair ... including the one in the start-land")."""
    name = f"{prefix}power_icon"
    if spec.barbarian:
        if spec.power_icon is not None:
            check.add(EMPIRES_FILE, entry, name, "a barbarian has no power icon (p9)")
        return
    if spec.power_icon is None:
        check.add(EMPIRES_FILE, entry, name, "a non-barbarian Empire shows a power icon (p7)")
        return
    board_kinds = {land.power_icon for land in check.board.lands.values()} - {None}
    if spec.power_icon not in board_kinds:
        check.add(EMPIRES_FILE, entry, name, f"'{spec.power_icon}' is shown on no land")
    for land_id in spec.start_lands:
        land = check.board.lands.get(land_id)
        if land is not None and land.power_icon not in (None, spec.power_icon):
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
        if card.empires[0].great_wall_forts and card.id not in GREAT_WALL_DYNASTIES:
            check.add(
                EMPIRES_FILE,
                card.id,
                "great_wall_forts",
                "only the Han, T'ang, Ming and Qing Dynasties have Great Wall forts (p9)",
            )


# The Empires the rule text names, each with what the text says about it.
GREAT_WALL_DYNASTIES = ("han-dynasty", "tang-dynasty", "ming-dynasty", "qing-dynasty")


def _named_empire(
    empires: Mapping[str, EmpireCard], card_id: str, check: _Checker
) -> EmpireCard | None:
    card = empires.get(card_id)
    if card is None:
        check.add(EMPIRES_FILE, card_id, "id", "the rule text names this Empire")
    return card


def check_text_named_empires(empires: Sequence[EmpireCard], check: _Checker) -> None:
    """The Empires of the rule text and their specials (p4, p7, p9, p10)."""
    by_id: dict[str, EmpireCard] = {card.id: card for card in empires}
    sumeria = _named_empire(by_id, "sumeria", check)
    egypt = _named_empire(by_id, "egypt", check)
    if sumeria and (sumeria.epoch, sumeria.number) != (1, 1):
        check.add(EMPIRES_FILE, "sumeria", "number", "p4: Sumeria is played first in Epoch I")
    if sumeria and egypt and (egypt.epoch != 1 or egypt.number <= sumeria.number):
        check.add(EMPIRES_FILE, "egypt", "number", "p4: Egypt follows Sumeria in Epoch I")
    vedic = _named_empire(by_id, "vedic-states", check)
    if vedic and vedic.empires[0].power_icon is not PowerIcon.CROWN:
        check.add(EMPIRES_FILE, "vedic-states", "power_icon", "p7: the Vedic States show the Crown")
    if vedic and vedic.start_lands != ("hindu-kush",):
        check.add(EMPIRES_FILE, "vedic-states", "start_lands", "p7: start-land Hindu Kush")
    for dynasty in GREAT_WALL_DYNASTIES:
        card = _named_empire(by_id, dynasty, check)
        if card and card.empires[0].great_wall_forts != 2:
            check.add(EMPIRES_FILE, dynasty, "great_wall_forts", "p9: two Great Wall forts")
    huns = _named_empire(by_id, "huns", check)
    if huns and set(huns.start_lands) != {"volga", "turanian-plain"}:
        check.add(
            EMPIRES_FILE, "huns", "start_lands", "p9: the Huns start in Volga and Turanian Plain"
        )
    double = _named_empire(by_id, "incas-aztecs", check)
    if double and [spec.name for spec in double.empires] != ["Incas", "Aztecs"]:
        check.add(
            EMPIRES_FILE,
            "incas-aztecs",
            "empires",
            "p9: one card with two Empires, the Incas played first, then the Aztecs",
        )
    mughals = _named_empire(by_id, "mughals", check)
    if mughals and (mughals.epoch not in OCEAN_FLEET_EPOCHS or mughals.empires[0].fleets):
        check.add(
            EMPIRES_FILE,
            "mughals",
            "fleets",
            "p10: the Mughals are an Epoch IV or V Empire whose card shows no fleet",
        )


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


@dataclass(frozen=True)
class _NamedEvent:
    """An Event the rule text names, and what its card must do."""

    name: str
    rule: str
    fits: Callable[[EventCard], bool]


def _places(building: Building) -> Callable[[EventCard], bool]:
    def fits(card: EventCard) -> bool:
        return any(isinstance(e, PlaceBuildings) and e.building is building for e in card.effects)

    return fits


def _removes_garrisons(card: EventCard) -> bool:
    return any(isinstance(e, RemoveGarrisons) for e in card.effects)


def _is_text(card: EventCard) -> bool:
    return card.kind is EventKind.TEXT


TEXT_NAMED_EVENTS = (
    _NamedEvent(
        "Ancients",
        "p9: an early civilisation played as if an Empire (Epoch I)",
        lambda c: c.kind is EventKind.EMPIRE_LIKE and c.epoch == 1,
    ),
    _NamedEvent(
        "Black Death",
        "p6: a text Event that can leave lands with buildings uncontrolled",
        _removes_garrisons,
    ),
    _NamedEvent("Liberate", "p12: a text Event of this edition", _is_text),
    _NamedEvent("Revolution", "p12: a text Event of this edition", _is_text),
    _NamedEvent("Crusades", "p7, p10: the Crusades Event places a fort", _places(Building.FORT)),
    _NamedEvent(
        "Establish cities", "p10: the Establish cities Event places cities", _places(Building.CITY)
    ),
    _NamedEvent(
        "Ocean trade",
        "p9: a Later Event giving extra gold in Raise revenue",
        lambda c: (
            c.later_event is Phase.REVENUE and any(isinstance(e, CollectGold) for e in c.effects)
        ),
    ),
)


def check_text_named_events(events: Sequence[EventCard], check: _Checker) -> None:
    by_name: dict[str, list[EventCard]] = defaultdict(list)
    for card in events:
        by_name[card.name].append(card)
    for named in TEXT_NAMED_EVENTS:
        cards = by_name.get(named.name, [])
        if not cards:
            check.add(
                EVENTS_FILE, named.name, "name", f"the rule text names this Event ({named.rule})"
            )
        for card in cards:
            if not named.fits(card):
                check.add(
                    EVENTS_FILE, card.id, "effects", f"does not do what the text says: {named.rule}"
                )


def check_honors(honors: Sequence[Honor], pieces: PiecesSpec | None, check: _Checker) -> None:
    """p3, p7, p8, p10: ten Honors a player, seven with coins; the three without coins are the
    Buildings bonus, the Lands bonus and Catastrophe; Recruit 1 shows one coin."""
    expected = pieces.per_player.honors if pieces else HONORS_PER_SET
    if len(honors) != expected:
        check.add(
            HONORS_FILE,
            "",
            "honors",
            f"a player's set has {expected} Honors, found {len(honors)} (p3)",
        )
    with_coins = sum(1 for honor in honors if honor.shows_coins)
    if with_coins != HONORS_WITH_COINS:
        check.add(
            HONORS_FILE,
            "",
            "honors",
            f"{HONORS_WITH_COINS} Honors show coins and 3 do not (p7), found {with_coins}",
        )
    by_name = {honor.name: honor for honor in honors}
    for name in NO_COIN_HONORS:
        honor = by_name.get(name)
        if honor is None:
            check.add(HONORS_FILE, name, "name", "the rule text names this Honor (p10)")
        elif honor.shows_coins:
            check.add(HONORS_FILE, honor.id, "coins", "this Honor shows no coins (p10)")
    recruit = by_name.get("Recruit 1")
    if recruit is None:
        check.add(HONORS_FILE, "Recruit 1", "name", "the rule text names this Honor (p7)")
    elif recruit.coins != 1 or recruit.effect != (AddPeople(1),):
        check.add(HONORS_FILE, recruit.id, "effect", "p7: one coin, adds one people piece")
    fleets = [h for h in honors if any(isinstance(e, PlaceFleet) for e in h.effect)]
    if len(fleets) < 2:
        check.add(HONORS_FILE, "", "honors", "p10 speaks of the Fleet Honors: at least two")
    for name, building in (("Fortify", Building.FORT), ("Urbanize", Building.CITY)):
        honor = by_name.get(name)
        if honor is None or not any(
            isinstance(e, PlaceBuildings) and e.building is building for e in honor.effect
        ):
            check.add(HONORS_FILE, name, "effect", f"p10: the {name} Honor places a {building}")
    for honor in honors:
        _check_effects(honor.effect, HONORS_FILE, honor.id, "effect", check)
        _check_effects(honor.endgame_effect, HONORS_FILE, honor.id, "endgame_effect", check)


_Count = int | bool | tuple[int, ...]


def check_pieces(pieces: PiecesSpec, check: _Checker) -> None:
    """The piece counts the rule text states (p2, p3, p10-p12)."""
    stated: list[tuple[str, str, _Count, _Count, str]] = [
        ("per_player", "people", pieces.per_player.people, 30, "p3: thirty people pieces"),
        ("per_player", "honors", pieces.per_player.honors, HONORS_PER_SET, "p3: ten Honors"),
        ("per_player", "leaders", pieces.per_player.leaders, 1, "p3: a Leader"),
        ("per_player", "gold_chests", pieces.per_player.gold_chests, 1, "p3: a Gold chest"),
        ("shared", "great_wall_forts", pieces.shared.great_wall_forts, GREAT_WALL_FORTS,
         "p10: only three Great Wall of China forts"),
        ("dice", "red", pieces.dice.red, 3, "p3: three red dice"),
        ("dice", "white", pieces.dice.white, 2, "p3: two white dice"),
        ("dice", "option3_extra_white", pieces.dice.option3_extra_white, 1,
         "p11: Option 3 adds a third white die"),
        ("gold_track", "spaces", pieces.gold_track_spaces, 100, "p2: a 100-space Gold track"),
        ("gold_track", "wraps", pieces.gold_track_wraps, True, "p2: chests start a second circuit"),
        ("", "invasion_modifiers", pieces.invasion_modifiers, (2, 4), "p11: +2 then +4"),
        ("", "endgame_spaces", pieces.endgame_spaces, len(EPOCHS), "p2: five Endgame spaces"),
        ("", "area_tokens_per_area", pieces.area_tokens_per_area, 3, "p3: three tokens an area"),
        ("", "paired_area_tokens", pieces.paired_area_tokens, 6, "p12: six Paired Area tokens"),
    ]  # fmt: skip
    for section, name, found, wanted, rule in stated:
        if found != wanted:
            check.add(PIECES_FILE, section, name, f"{rule}, found {found}")
    if pieces.shared.fleets < 2:
        check.add(PIECES_FILE, "shared", "fleets", "a card may show two ocean fleets (p5)")


# --- the loaders ----------------------------------------------------------------------------


def cards_problems(pack_dir: Path, board: Board) -> tuple[Cards | None, list[PackProblem]]:
    """Load the cards and list every problem; the Cards are None when a file could not be read."""
    problems: list[PackProblem] = []
    try:
        empires = _read_list(pack_dir, EMPIRES_FILE, "empires", EmpireCardSchema(), problems)
        events = _read_list(pack_dir, EVENTS_FILE, "events", EventCardSchema(), problems)
        honors = _read_list(pack_dir, HONORS_FILE, "honors", HonorSchema(), problems)
        pieces = _read_pieces(pack_dir, problems)
    except PackError as exc:
        return None, [*problems, *exc.problems]
    check = _Checker(board)
    _unique_ids(empires, EMPIRES_FILE, check)
    _unique_ids(events, EVENTS_FILE, check)
    _unique_ids(honors, HONORS_FILE, check)
    check_card_counts(empires, events, check)
    check_numbers(empires, check)
    check_empires(empires, check)
    check_text_named_empires(empires, check)
    check_events(events, check)
    check_text_named_events(events, check)
    check_honors(honors, pieces, check)
    if pieces is not None:
        check_pieces(pieces, check)
    problems += check.problems
    if pieces is None:
        return None, problems
    return _assemble(empires, events, honors, pieces), problems


def _assemble(
    empires: Sequence[EmpireCard],
    events: Sequence[EventCard],
    honors: Sequence[Honor],
    pieces: PiecesSpec,
) -> Cards:
    """Empire cards of an epoch in turn order; Event cards in the order of the file."""
    return Cards(
        empires_by_epoch={
            epoch: tuple(sorted((c for c in empires if c.epoch == epoch), key=lambda c: c.number))
            for epoch in EPOCHS
        },
        events_by_epoch={epoch: tuple(c for c in events if c.epoch == epoch) for epoch in EPOCHS},
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
