"""The cross-checks of a History of the World pack's cards against its board: unique ids,
epochs of the edition, start-lands and effect lands on the board, fleet kinds by epoch, power
icons shown on the board and on the start-land."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.hotw.board import Board, WaterKind
from domain.hotw.editions.hotw_2024.cards import (
    AddPeople,
    Effect,
    EmpireCard,
    EmpireSpec,
    EventCard,
    Honor,
    LandSelector,
    PlaceFleet,
    Scope,
    effect_selectors,
)
from packs.base import PackProblem
from packs.hotw_card_schemas import EMPIRES_FILE, EVENTS_FILE, HONORS_FILE


@dataclass
class CardChecker:
    """Collects the problems of the cross-checks."""

    board: Board
    ocean_epochs: frozenset[int] = frozenset()
    problems: list[PackProblem] = field(default_factory=list)

    def add(self, file: str, entry: str, name: str, message: str) -> None:
        self.problems.append(PackProblem(file, entry, name, message))


def _check_epochs(
    items: Sequence[EmpireCard | EventCard], file: str, epochs: Sequence[int], check: CardChecker
) -> None:
    """Each card belongs to one of the edition's epochs (edition.yaml)."""
    for card in items:
        if card.epoch not in epochs:
            check.add(file, card.id, "epoch", f"not an epoch of the edition {list(epochs)}")


def _unique_ids(items: Sequence[Any], file: str, check: CardChecker) -> None:
    for item_id, count in Counter(item.id for item in items).items():
        if count > 1:
            check.add(file, item_id, "id", f"duplicate id ({count} entries)")


def _check_start_land(land: str, file: str, entry: str, name: str, check: CardChecker) -> None:
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
    spec: EmpireSpec, epoch: int, file: str, entry: str, prefix: str, check: CardChecker
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
    spec: EmpireSpec, epoch: int, file: str, entry: str, prefix: str, check: CardChecker
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


def _check_power_icon(spec: EmpireSpec, entry: str, prefix: str, check: CardChecker) -> None:
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


def check_empires(empires: Sequence[EmpireCard], check: CardChecker) -> None:
    for card in empires:
        for index, spec in enumerate(card.empires):
            prefix = f"empires[{index}]." if card.is_double else ""
            _check_pieces(spec, card.epoch, EMPIRES_FILE, card.id, prefix, check)
            _check_power_icon(spec, card.id, prefix, check)


def _check_selector(
    selector: LandSelector, file: str, entry: str, name: str, check: CardChecker
) -> None:
    for index, land in enumerate(selector.lands):
        if land not in check.board.lands:
            check.add(file, entry, f"{name}.lands[{index}]", f"'{land}' is not a land")
    for index, area in enumerate(selector.areas):
        if area not in check.board.areas:
            check.add(file, entry, f"{name}.areas[{index}]", f"'{area}' is not an area")


def _check_effects(
    effects: Sequence[Effect], file: str, entry: str, name: str, check: CardChecker
) -> None:
    for index, effect in enumerate(effects):
        path = f"{name}[{index}].where"
        for where in effect_selectors(effect):
            _check_selector(where, file, entry, path, check)
            if where.scope is Scope.PREVIOUS and index == 0:
                check.add(file, entry, f"{path}.scope", "'previous' needs an effect before it")


HONOR_ONLY_EFFECTS = (AddPeople.kind, PlaceFleet.kind)
"""These act on the Empire pool or follow the Fleet Honor rule: Honors only."""


def check_events(events: Sequence[EventCard], check: CardChecker) -> None:
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


def check_honors(honors: Sequence[Honor], check: CardChecker) -> None:
    """Every effect of an Honor names lands and areas of the board."""
    for honor in honors:
        _check_effects(honor.effect, HONORS_FILE, honor.id, "effect", check)
        _check_effects(honor.endgame_effect, HONORS_FILE, honor.id, "endgame_effect", check)


# --- the loaders ----------------------------------------------------------------------------


def cross_check(
    board: Board,
    epochs: Sequence[int],
    ocean_epochs: frozenset[int],
    empires: Sequence[EmpireCard],
    events: Sequence[EventCard],
    honors: Sequence[Honor],
) -> list[PackProblem]:
    """Every problem of the cards held against the board and the edition's epochs."""
    check = CardChecker(board, ocean_epochs)
    _unique_ids(empires, EMPIRES_FILE, check)
    _check_epochs(empires, EMPIRES_FILE, epochs, check)
    _check_epochs(events, EVENTS_FILE, epochs, check)
    _unique_ids(events, EVENTS_FILE, check)
    _unique_ids(honors, HONORS_FILE, check)
    check_empires(empires, check)
    check_events(events, check)
    check_honors(honors, check)
    return check.problems
