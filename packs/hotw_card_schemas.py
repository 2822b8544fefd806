"""The marshmallow schemas of a History of the World pack's card files: empires.yaml,
events.yaml, honors.yaml and pieces.yaml (unknown fields rejected)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from domain.hotw.board import PowerIcon, WaterKind
from domain.hotw.editions.hotw_2024.cards import (
    LATER_EVENT_PHASES,
    Building,
    Dice,
    EmpireCard,
    EmpireId,
    EmpireSpec,
    EventCard,
    EventId,
    EventKind,
    Honor,
    HonorId,
    LandId,
    Phase,
    PiecesSpec,
    PlayerSet,
    SharedSupply,
)
from packs.base import StrictSchema
from packs.facts import FileSpec
from packs.hotw_card_effects import LandSelectorSchema, effect_list
from packs.hotw_card_fields import (
    building_list,
    enum_values,
    kebab_id,
    one_of,
    optional_enum,
    positive_count,
    provenance_field,
)

EMPIRES_FILE = "empires.yaml"
EVENTS_FILE = "events.yaml"
HONORS_FILE = "honors.yaml"
PIECES_FILE = "pieces.yaml"


class _PiecesFields(StrictSchema):
    """What an Empire, or an Event played as if an Empire, brings to the map."""

    start_lands = fields.List(fields.String(), load_default=list)
    people = positive_count()
    starting_buildings = building_list()
    fleets = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0))
    fleet_kind = fields.String(
        load_default=None, allow_none=True, validate=one_of(enum_values(WaterKind))
    )

    @validates_schema
    def _fleet_kind_with_fleets(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("fleets", 0) > 0 and data.get("fleet_kind") is None:
            raise ValidationError("say `sea` or `ocean` for the fleets shown", "fleet_kind")
        if data.get("fleets", 0) == 0 and data.get("fleet_kind") is not None:
            raise ValidationError("a card without fleets has no fleet kind", "fleet_kind")


class _EmpireFields(_PiecesFields):
    power_icon = fields.String(
        load_default=None, allow_none=True, validate=one_of(enum_values(PowerIcon))
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
        fleet_kind=optional_enum(WaterKind, data.get("fleet_kind")),
        power_icon=optional_enum(PowerIcon, data.get("power_icon")),
        barbarian=data.get("barbarian", False) if barbarian is None else barbarian,
        great_wall_forts=data.get("great_wall_forts", 0),
        start_land_choice=data.get("start_land_choice"),
    )


SPEC_FIELDS = ("start_lands", "people", "starting_buildings", "fleets", "fleet_kind")


class EmpireCardSchema(_EmpireFields):
    id = kebab_id()
    epoch = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    number = positive_count()
    name = fields.String(required=True, validate=validate.Length(min=1))
    people = fields.Integer(strict=True, validate=validate.Range(min=1))
    great_wall_forts = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0))
    empires = fields.List(
        fields.Nested(SubEmpireSchema), load_default=None, validate=validate.Length(min=2)
    )
    provenance = provenance_field()

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
        load_default=None, allow_none=True, validate=one_of(enum_values(PowerIcon))
    )

    @validates_schema
    def _start_land_or_choice(self, data: dict[str, Any], **_: Any) -> None:
        if bool(data.get("start_lands")) == (data.get("start_land_choice") is not None):
            raise ValidationError(
                "give either start_lands or start_land_choice, not both", "start_lands"
            )


class EventCardSchema(StrictSchema):
    id = kebab_id()
    epoch = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    name = fields.String(required=True, validate=validate.Length(min=1))
    kind = fields.String(required=True, validate=one_of(enum_values(EventKind)))
    honor_icon = fields.Boolean(required=True)
    later_event = fields.String(
        required=True, allow_none=True, validate=one_of(p.value for p in LATER_EVENT_PHASES)
    )
    barbarian = fields.Boolean(required=True)
    text = fields.String(load_default="")
    effects = effect_list()
    pieces = fields.Nested(EventPiecesSchema, load_default=None, allow_none=True)
    provenance = provenance_field()

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
            later_event=optional_enum(Phase, data["later_event"]),
            barbarian=data["barbarian"],
            provenance=data["provenance"],
            text=data.get("text", ""),
            effects=tuple(data.get("effects", ())),
            pieces=None if pieces is None else _spec(data["name"], pieces, data["barbarian"]),
        )


class HonorSchema(StrictSchema):
    id = kebab_id()
    name = fields.String(required=True, validate=validate.Length(min=1))
    coins = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    text = fields.String(required=True, validate=validate.Length(min=1))
    effect = effect_list(required=True)
    endgame_effect = effect_list()
    provenance = provenance_field()

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


class PlayerSetSchema(StrictSchema):
    people = positive_count()
    leaders = positive_count()
    gold_chests = positive_count()
    honors = positive_count()
    arrays = positive_count()


class SharedSupplySchema(StrictSchema):
    capitals = positive_count()
    cities = positive_count()
    monuments = positive_count()
    forts = positive_count()
    fleets = positive_count()
    great_wall_forts = positive_count()


class DiceSchema(StrictSchema):
    red = positive_count()
    white = positive_count()
    option3_extra_white = positive_count()


class GoldTrackSchema(StrictSchema):
    spaces = positive_count()
    wraps = fields.Boolean(required=True)


class PiecesSchema(StrictSchema):
    provenance = fields.String(required=True, validate=validate.Length(min=1))
    per_player = fields.Nested(PlayerSetSchema, required=True)
    shared = fields.Nested(SharedSupplySchema, required=True)
    dice = fields.Nested(DiceSchema, required=True)
    gold_track = fields.Nested(GoldTrackSchema, required=True)
    invasion_modifiers = fields.List(fields.Integer(strict=True), required=True)
    endgame_spaces = positive_count()
    area_tokens_per_area = positive_count()
    paired_area_tokens = positive_count()

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


CARD_FILES: Mapping[str, FileSpec] = {
    EMPIRES_FILE: {"empires": EmpireCardSchema()},
    EVENTS_FILE: {"events": EventCardSchema()},
    HONORS_FILE: {"honors": HonorSchema()},
    PIECES_FILE: PiecesSchema(),
}
"""The card files and their schemas: of each section's entries, or of the whole file."""
