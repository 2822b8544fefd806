"""The tables the Avalon Hill 2001 rulebook prints (the Empire statistics, the Event cards, the
Victory Points Table and the pieces) and the board. Pure data, loaded from `data/hotw-ah2001/` by
`packs.ah2001.load_tables`; nothing here reads files."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.hotw.editions.ah2001.board import Ah2001Board
from domain.hotw.editions.ah2001.revisions import NEWEST


@dataclass(frozen=True)
class EmpireStats:
    """One Empire of the Statistics table (ah2001.empires.card)."""

    id: str
    epoch: int
    number: int
    """Its place in the epoch's calling order (ah2001.epoch.call-order)."""
    card: str
    name: str
    leader: str
    strength: int
    start_land: str
    capital: bool
    navigation: tuple[str, ...]
    provenance: str


@dataclass(frozen=True)
class EventCardKind:
    """One kind of Event card and how many copies the deck holds."""

    id: str
    deck: str
    """`greater` or `lesser`."""
    kind: str
    name: str
    epochs: frozenset[int]
    count: int
    before_first_army: bool
    effect: Mapping[str, Any]
    erratum: str = ""
    since_revision: int = 1
    """The revision of the rules whose games hold this card (Allies: 11)."""

    def playable_in(self, epoch: int) -> bool:
        """ah2001.events.epochs."""
        return epoch in self.epochs


@dataclass(frozen=True)
class VictoryPoints:
    """Each area's base score per epoch (ah2001.scoring.table)."""

    scores: Mapping[str, tuple[int, ...]]

    def base(self, area: str, epoch: int) -> int:
        return self.scores[area][epoch - 1]


@dataclass(frozen=True)
class Pieces:
    """Chapter I's contents (ah2001.components.pieces)."""

    armies_per_colour_by_epoch: Mapping[int, int]
    capitals_and_cities: int
    forts: int
    monuments: int
    coins_and_fleets: int
    pre_eminence_markers: tuple[int, ...]
    dice: int
    greater_dealt: int
    lesser_dealt: int


@dataclass(frozen=True)
class CombatDice:
    """How many dice each side rolls (play.yaml `combat`: ah2001.combat.dice, .attacker-bonus,
    .difficult-terrain, .from-sea; ah2001.events.naval-power; ah2001.option.naval-control; the
    revolts of ah2001.events.civil-war and .barbarians)."""

    attack: int
    bonus_attack: int
    defence: int
    difficult_defence: int
    from_sea_defence: int
    naval_power_defence: int
    naval_attack: int
    naval_defence: int
    revolt_attack: int
    fort_bonus: int
    weaponry_bonus: int
    siegecraft_bonus: int
    jihad_bonus_losses: int
    """Jihad: the attack rolls the bonus dice while fewer armies than this are lost..."""
    jihad_ties_losses: int
    """... and wins ties while fewer than this are lost."""


@dataclass(frozen=True)
class Targets:
    """How many targets each kind of Event card names (play.yaml `targets`): a number, or a
    chain that runs until it stops; `up_to` cards may stop early."""

    picks: Mapping[str, int]
    chains: frozenset[str]
    up_to: frozenset[str]

    @property
    def kinds(self) -> frozenset[str]:
        """Cards whose player chooses lands, areas or a sea before they act."""
        return frozenset(self.picks) | self.chains

    def limit(self, kind: str) -> int | None:
        """How many targets `kind` names (None: a chain)."""
        return self.picks.get(kind)


@dataclass(frozen=True)
class FarEpoch:
    """ah2001.events.far-epoch reading: the figures a card's army takes - `early` up to Epoch
    `last_early_epoch`, `late` after it."""

    last_early_epoch: int
    early: int
    late: int

    def of(self, epoch: int) -> int:
        return self.early if epoch <= self.last_early_epoch else self.late


@dataclass(frozen=True)
class Ah2001Tables:
    empires: tuple[EmpireStats, ...]
    events: tuple[EventCardKind, ...]
    victory_points: VictoryPoints
    pieces: Pieces
    board: Ah2001Board
    combat: CombatDice
    targets: Targets
    stack: int
    """ah2001.option.multiple-armies: how many figures of a player a land holds (a fort counted)."""
    epochs: int
    """ah2001.object.epochs: how many epochs the game runs over."""
    cards_per_turn: int
    """ah2001.events.two-per-turn: how many Event cards a turn may play."""
    resources_per_monument: int
    """ah2001.monuments.count: resource lands per monument."""
    score_track: int
    """ah2001.scoring.track: the spaces of the Victory Point track."""
    far_epoch: FarEpoch
    revision: int = NEWEST
    """The revision of the rules in force for the game these tables serve (`since`)."""
    empires_by_epoch: Mapping[int, tuple[EmpireStats, ...]] = field(init=False)
    empires_by_id: Mapping[str, tuple[EmpireStats, ...]] = field(
        init=False, compare=False, repr=False
    )
    """Every Empire with each id (one, in a valid pack), found without a scan."""
    events_by_id: Mapping[str, tuple[EventCardKind, ...]] = field(
        init=False, compare=False, repr=False
    )
    """Every Event card of this revision's decks with each id (one, in a valid pack)."""

    def __post_init__(self) -> None:
        by_epoch = {
            e: tuple(x for x in self.empires if x.epoch == e) for e in range(1, self.epochs + 1)
        }
        object.__setattr__(self, "empires_by_epoch", by_epoch)
        empires = {x.id: tuple(y for y in self.empires if y.id == x.id) for x in self.empires}
        object.__setattr__(self, "empires_by_id", empires)
        held = self.in_force
        events = {x.id: tuple(y for y in held if y.id == x.id) for x in held}
        object.__setattr__(self, "events_by_id", events)

    def since(self, revision: int) -> bool:
        """Whether a rule introduced at `revision` holds in this game (a revision gate)."""
        return self.revision >= revision

    @property
    def in_force(self) -> tuple[EventCardKind, ...]:
        """The Event cards of this revision's decks (a card printed later is not in the decks
        of games created before its revision: ah2001.events.lesser-kinds)."""
        return tuple(e for e in self.events if e.since_revision <= self.revision)

    def deck(self, name: str) -> tuple[str, ...]:
        """Every card of the `greater` or `lesser` deck, one id per copy."""
        return tuple(e.id for e in self.in_force if e.deck == name for _ in range(e.count))
