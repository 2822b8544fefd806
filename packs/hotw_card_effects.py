"""The land selector and the closed vocabulary of effects (Honor, gold, buildings, armies ...)
that Event and Honor cards are written in, each kind its marshmallow schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from domain.hotw.board import WaterKind
from domain.hotw.editions.hotw_2024.cards import (
    EFFECT_KINDS,
    AddPeople,
    AreaId,
    AwardHonor,
    Building,
    Chooser,
    CollectGold,
    Control,
    Effect,
    GoldBasis,
    HonorRecipient,
    LandId,
    LandSelector,
    PlaceArmies,
    PlaceBuildings,
    PlaceFleet,
    ReduceBuildings,
    RemoveBuildings,
    RemoveGarrisons,
    Scope,
)
from packs.base import StrictSchema
from packs.hotw_card_fields import building_list, enum_values, one_of, optional_enum, positive_count


class LandSelectorSchema(StrictSchema):
    scope = fields.String(required=True, validate=one_of(enum_values(Scope)))
    lands = fields.List(fields.String(), load_default=list)
    areas = fields.List(fields.String(), load_default=list)
    active_only = fields.Boolean(load_default=False)
    control = fields.String(load_default=Control.ANY.value, validate=one_of(enum_values(Control)))
    with_building = fields.String(
        load_default=None, allow_none=True, validate=one_of(enum_values(Building))
    )
    without_buildings = building_list()
    adjacent_to = fields.String(
        load_default=None, allow_none=True, validate=one_of(enum_values(Control))
    )
    coastal = fields.String(
        load_default=None, allow_none=True, validate=one_of(enum_values(WaterKind))
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
            with_building=optional_enum(Building, data["with_building"]),
            without_buildings=tuple(Building(b) for b in data["without_buildings"]),
            adjacent_to=optional_enum(Control, data["adjacent_to"]),
            coastal=optional_enum(WaterKind, data["coastal"]),
        )


def where_field(required: bool = True) -> fields.Nested:
    if required:
        return fields.Nested(LandSelectorSchema, required=True)
    return fields.Nested(LandSelectorSchema, load_default=None, allow_none=True)


def chooser_field() -> fields.String:
    return fields.String(
        load_default=Chooser.CURRENT_PLAYER.value, validate=one_of(enum_values(Chooser))
    )


class _EffectSchema(StrictSchema):
    kind = fields.String(required=True)


class AwardHonorSchema(_EffectSchema):
    to = fields.String(required=True, validate=one_of(enum_values(HonorRecipient)))
    count = fields.Integer(load_default=1, strict=True, validate=validate.Range(min=1))

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> AwardHonor:
        return AwardHonor(to=HonorRecipient(data["to"]), count=data["count"])


class CollectGoldSchema(_EffectSchema):
    amount = positive_count()
    per = fields.String(required=True, validate=one_of(enum_values(GoldBasis)))
    where = where_field(required=False)

    @validates_schema
    def _where_unless_flat(self, data: dict[str, Any], **_: Any) -> None:
        if (data["per"] == GoldBasis.FLAT) == (data.get("where") is not None):
            raise ValidationError("needed unless `per` is flat, and only then", "where")

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> CollectGold:
        return CollectGold(amount=data["amount"], per=GoldBasis(data["per"]), where=data["where"])


class PlaceBuildingsSchema(_EffectSchema):
    building = fields.String(required=True, validate=one_of(enum_values(Building)))
    count = positive_count()
    where = where_field()
    chooser = chooser_field()

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> PlaceBuildings:
        return PlaceBuildings(
            building=Building(data["building"]),
            count=data["count"],
            where=data["where"],
            chooser=Chooser(data["chooser"]),
        )


class PlaceArmiesSchema(_EffectSchema):
    count = positive_count()
    where = where_field()
    chooser = chooser_field()
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
    where = where_field()
    chooser = chooser_field()
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
    building = fields.String(required=True, validate=one_of(enum_values(Building)))
    count = fields.Integer(
        required=True, allow_none=True, strict=True, validate=validate.Range(min=1)
    )
    where = where_field()
    chooser = chooser_field()
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
    where = where_field()

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> ReduceBuildings:
        return ReduceBuildings(where=data["where"])


class AddPeopleSchema(_EffectSchema):
    count = positive_count()

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


def effect_list(required: bool = False) -> fields.List[Any]:
    if required:
        return fields.List(EffectField(), required=True, validate=validate.Length(min=1))
    return fields.List(EffectField(), load_default=list)
