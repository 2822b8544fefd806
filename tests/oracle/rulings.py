"""An independent oracle for the rulings most disputed at the table, written from the 2024
rulebook's text (p5-p8, p10, p11) and not from the engine: it imports none of
the chapter modules of `domain/hotw/editions/hotw_2024/`,
reads the position before each event and the event itself (its dice
included), works out what the rulebook says must happen, and reports every disagreement.

Checked: the outcome of every invasion (dice, terrain, fort, Leader; without dice; Option 3 with
its modifier and conquest points), building reduction, plunder by barbarians, the gold of Raise
revenue (buildings; presence, dominance, mastery), and Honors (the top of the stack; to the
Enemy who frustrates an invasion, for an Honor icon on the revealed Event, to the richest
player concluding the turn), and Event cards whose words choose Enemy lands ("Choose up to two
Enemy lands next to your Friendly lands", "Choose one Enemy land with a capital"): only words
saying "up to" let the player stop while such a land is left (Liberate, III to V).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.oracle.checks import EventChecks

CAPITAL, CITY, MONUMENT, FORT = "capital", "city", "monument", "fort"
BUILDING_GOLD = {CAPITAL: 2, CITY: 1, MONUMENT: 1}
"""p8 Gold for buildings (and p7 plundering): TWO per capital, ONE per city, ONE per monument."""
PRESENCE, DOMINANCE, MASTERY = 2, 4, 6
"""p8 Gold for lands: the gold of each level of control."""
OPTION_3 = "invasion_and_conquest"
FIRST_MODIFIER, LATER_MODIFIER = 2, 4
"""p11: +2 after the first frustrated invasion of a land, +4 after any further one."""
CHOOSE_ENEMY_LANDS = re.compile(
    r"[Cc]hoose (up to )?(one|two|three) Enemy lands?( next to your Friendly lands| with a capital)"
)
"""A text Event's words choosing Enemy lands: "up to", how many, and which."""
COUNT_WORDS = {"one": 1, "two": 2, "three": 3}
STOPPED_EARLY = "up to: stopped early"
"""The count of Events whose words say "up to" that were stopped while a land was left."""


def names(buildings: Any) -> set[str]:
    return {str(getattr(b, "value", b)) for b in buildings}


def score(dice: tuple[int, ...]) -> int:
    """p5: the highest single die rolled is the score."""
    return max(dice) if dice else 0


def buildings_value(buildings: set[str]) -> int:
    return sum(BUILDING_GOLD.get(b, 0) for b in buildings)


def reduction(buildings: set[str], city_in_supply: bool) -> tuple[set[str], bool]:
    """p6 Building reduction: the fort goes first; then a capital is replaced by a city, or
    else a city is removed, or else a monument is removed - one step only. Returns what is
    removed and whether a city replaces the capital (never a second city in a land, p10)."""
    removed = {FORT} & buildings
    if CAPITAL in buildings:
        return removed | {CAPITAL}, CITY not in buildings and city_in_supply
    for kind in (CITY, MONUMENT):
        if kind in buildings:
            return removed | {kind}, False
    return removed, False


def land_gold(empire: int, friendly: int, enemies: list[int]) -> int:
    """p8: mastery (three Empire lands, no Enemy or Friendly land), dominance (two, more than
    any other player has and more than the Friendly lands), presence (one); the highest only."""
    if empire >= 3 and not any(enemies) and friendly == 0:
        return MASTERY
    if empire >= 2 and empire > max(enemies, default=0) and empire > friendly:
        return DOMINANCE
    return PRESENCE if empire >= 1 else 0


@dataclass
class RulingsOracle(EventChecks):
    """Feed it every event of one game with the states around it (`observe`); it answers the
    disagreements it finds, one line each."""

    pack: Any
    pending_reduction: dict[str, int] = field(default_factory=dict)
    """Lands whose garrison was removed from buildings: reduction is due (version noted)."""
    pending_plunder: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Lands a barbarian invaded with valuable buildings: (seat, gold) due before reduction."""
    pending_honor: list[tuple[int, str]] = field(default_factory=list)
    """Seats owed an Honor (or its one gold when the stack is empty) and why."""
    revenue_due: Counter[str] | None = None
    revenue_paid: Counter[str] = field(default_factory=Counter)
    revenue_seat: int = -1
    most_gold_paid: bool = False
    version: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    """How many rulings of each kind were checked (so a test can tell the oracle looked)."""

    # --- what must follow an event ---------------------------------------------------------

    def _settle(self, kind: str, event: Any) -> Iterator[str]:
        honors = {"HonorAwarded", "GoldCollected"}
        if self.pending_honor and kind not in honors | {"InvasionModifierSet"}:
            for seat, why in self.pending_honor:
                yield f"seat {seat} was owed an Honor ({why}) and got none"
            self.pending_honor.clear()
        follow_ups = honors | {
            "BuildingsPlundered",
            "BuildingReduced",
            "BuildingPlaced",
            "BuildingSupplyExhausted",
            "BuildingTaken",
            "BuildingNotPlaced",
            "LandChosen",
            "ConquestPointsAwarded",
            "InvasionModifierRemoved",
            "ConquestEnded",
        }
        if kind in follow_ups:
            return
        for land in list(self.pending_plunder):
            yield f"a barbarian invasion of {land} plundered nothing"
            del self.pending_plunder[land]
        for land in list(self.pending_reduction):
            yield f"no building reduction in {land} after its garrison was removed"
            del self.pending_reduction[land]
        if self.revenue_due is not None and not (
            kind == "GoldCollected" and event is not None and event.seat == self.revenue_seat
        ):
            yield from self._close_revenue()

    # --- invasions -------------------------------------------------------------------------

    def _invader_is_barbarian(self, state: Any, pool: str) -> bool:
        turn = state.turn
        if turn is None:
            return False
        if pool == "event":
            return bool(turn.event_card and self.pack.cards.event(turn.event_card).barbarian)
        card = self.pack.cards.empire(turn.card)
        spec = card.empires[min(turn.empire_index, len(card.empires) - 1)]
        return bool(spec.barbarian)

    def _garrison_removed(self, state: Any, seat: int, land: str, pool: str) -> None:
        buildings = names(state.land(land).buildings)
        if buildings:
            self.pending_reduction[land] = self.version
        value = buildings_value(buildings)
        if value and self._invader_is_barbarian(state, pool):
            self.pending_plunder[land] = (seat, value)

    def _common_invasion(self, before: Any, event: Any) -> Iterator[str]:
        owner = before.land(event.land).owner
        if owner is None or owner == event.seat:
            yield f"{event.land} held {owner}'s pieces: no Enemy land to invade"
        elif event.enemy != owner:
            yield f"the Enemy is seat {owner}, the event says {event.enemy}"

    def _uses_leader(self, state: Any, pool: str) -> bool:
        turn = state.turn
        return bool(turn is not None and pool == "empire" and turn.leader_active)

    def _expected_dice(self, state: Any, event: Any) -> tuple[int, int]:
        """p5-6 (and p11 with Option 3): how many dice each side rolls."""
        land = self.pack.board.lands[event.land]
        fort = FORT in names(state.land(event.land).buildings)
        empire = 3 if self._uses_leader(state, event.pool) else 2
        if OPTION_3 in {getattr(o, "value", o) for o in state.options}:
            return empire, (2 if land.is_difficult else 1) + (1 if fort else 0)
        return empire, 2 if fort else 1

    def _modifier(self, state: Any, land: str) -> int:
        turn = state.turn
        if turn is None or turn.modifier_land != land:
            return 0
        return int(turn.invasion_modifier)

    def _invasion_outcome(self, before: Any, event: Any, succeeded: bool) -> Iterator[str]:
        yield from self._common_invasion(before, event)
        land = self.pack.board.lands[event.land]
        fort = FORT in names(before.land(event.land).buildings)
        option_3 = OPTION_3 in {getattr(o, "value", o) for o in before.options}
        if not event.empire_dice and not event.enemy_dice:
            if before.dice:
                yield "an invasion with dice rolled none"
                return
            yield from self._without_dice(before, event, succeeded, land.is_difficult, fort)
            return
        if not before.dice:
            yield "an invasion without dice rolled dice"
        empire_n, enemy_n = self._expected_dice(before, event)
        if (len(event.empire_dice), len(event.enemy_dice)) != (empire_n, enemy_n):
            yield (
                f"dice rolled {len(event.empire_dice)} v {len(event.enemy_dice)}, "
                f"the rulebook gives {empire_n} v {enemy_n}"
            )
        if any(not 1 <= d <= 6 for d in (*event.empire_dice, *event.enemy_dice)):
            yield "a die outside 1-6"
        empire = score(event.empire_dice) + (self._modifier(before, event.land) if option_3 else 0)
        enemy = score(event.enemy_dice)
        if option_3:
            expected = empire >= enemy
        elif empire != enemy:
            expected = empire > enemy
        else:
            expected = not land.is_difficult
        if expected != succeeded:
            terrain = "difficult" if land.is_difficult else "clear"
            yield (
                f"{empire} v {enemy} in {event.land} ({terrain}{', fort' if fort else ''}) "
                f"should {'succeed' if expected else 'be frustrated'}"
            )

    def _without_dice(
        self, before: Any, event: Any, succeeded: bool, difficult: bool, fort: bool
    ) -> Iterator[str]:
        """p6 Invasions without dice: clear terrain and no fort succeeds; the Leader ignores
        EITHER difficult terrain OR forts."""
        turn = before.turn
        ignores = turn.leader_ignores if self._uses_leader(before, event.pool) else None
        if ignores == "difficult":
            difficult = False
        elif ignores == "fort":
            fort = False
        expected = not difficult and not fort
        if expected != succeeded:
            yield f"without dice {event.land} should {'fall' if expected else 'hold'}"

    def _InvasionSucceeded(self, before: Any, event: Any, after: Any) -> list[str]:
        found = list(self._invasion_outcome(before, event, True))
        self._garrison_removed(before, event.seat, event.land, event.pool)
        if after.land(event.land).owner != event.seat:
            found.append("the invader does not hold the land afterwards")
        return found

    def _InvasionFrustrated(self, before: Any, event: Any, after: Any) -> list[str]:
        """p6: both the army and the garrison are removed; the Enemy gains an Honor."""
        found = list(self._invasion_outcome(before, event, False))
        self._garrison_removed(before, event.seat, event.land, event.pool)
        self.pending_honor.append((event.enemy, f"frustrating the invasion of {event.land}"))
        if after.land(event.land).owner is not None:
            found.append("a frustrated invasion leaves a piece in the land")
        return found

    def _InvasionRepulsed(self, before: Any, event: Any, after: Any) -> list[str]:
        """p11 (Option 3): only the Empire's army goes; the Enemy gains an Honor each time;
        the modifier becomes +2, then +4."""
        found = list(self._invasion_outcome(before, event, False))
        showed = self._modifier(before, event.land)
        if event.modifier != showed:
            found.append(f"modifier {event.modifier}, the counter showed {showed}")
        self.pending_honor.append((event.enemy, f"repulsing the invasion of {event.land}"))
        if after.land(event.land).owner != event.enemy:
            found.append("the Enemy garrison should hold the land")
        return found

    def _InvasionModifierSet(self, before: Any, event: Any, after: Any) -> list[str]:
        previous = self._modifier(before, event.land)
        expected = FIRST_MODIFIER if previous == 0 else LATER_MODIFIER
        return [] if event.modifier == expected else [f"+{event.modifier}, expected +{expected}"]

    def _ConquestPointsAwarded(self, before: Any, event: Any, after: Any) -> list[str]:
        return []

    def _LandConquered(self, before: Any, event: Any, after: Any) -> list[str]:
        """p11: a conquest costs 1 in clear terrain, 2 in difficult, 1 more for a fort; the
        land belongs to the same Enemy."""
        land = self.pack.board.lands[event.land]
        fort = FORT in names(before.land(event.land).buildings)
        cost = (2 if land.is_difficult else 1) + (1 if fort else 0)
        found = [] if event.cost == cost else [f"cost {event.cost}, the rulebook gives {cost}"]
        if before.land(event.land).owner != event.enemy:
            found.append("the conquered land is not the current Enemy's")
        self._garrison_removed(before, event.seat, event.land, event.pool)
        return found

    # --- reduction and plunder -----------------------------------------------------------

    def _BuildingsPlundered(self, before: Any, event: Any, after: Any) -> list[str]:
        due = self.pending_plunder.pop(event.land, None)
        if due is None:
            return [f"plunder in {event.land} where no barbarian removed a garrison"]
        seat, gold = due
        if (event.seat, event.gold) != (seat, gold):
            return [f"seat {event.seat} plunders {event.gold}, expected seat {seat} {gold}"]
        return []

    def _BuildingReduced(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        if event.land in self.pending_plunder:
            found.append(f"building reduction in {event.land} before the barbarian's plunder")
            del self.pending_plunder[event.land]
        self.pending_reduction.pop(event.land, None)
        buildings = names(before.land(event.land).buildings)
        removed, city = reduction(buildings, before.supply.get(CITY, 0) > 0)
        if set(event.removed) != removed or bool(event.city_added) != city:
            found.append(
                f"{sorted(buildings)} reduced to removed={sorted(event.removed)} "
                f"city={event.city_added}, expected removed={sorted(removed)} city={city}"
            )
        return found

    # --- revenue -------------------------------------------------------------------------

    def _PhaseBegan(self, before: Any, event: Any, after: Any) -> list[str]:
        found = list(self._close_revenue()) if self.revenue_due is not None else []
        if event.phase == "revenue":
            self.revenue_due = self._expected_revenue(after, event.seat)
            self.revenue_paid = Counter()
            self.revenue_seat = event.seat
        if event.phase == "conclude":
            self.most_gold_paid = False
        return found

    def _expected_revenue(self, state: Any, seat: int) -> Counter[str]:
        """p8: buildings in every Empire land; each active area by its level of control."""
        board = self.pack.board
        due: Counter[str] = Counter()
        gold = 0
        per_area: dict[str, list[int]] = {}
        players = len(state.players)
        for land_id, value in state.lands.items():
            if value.owner is None:
                continue
            area = board.lands[land_id].area
            counts = per_area.setdefault(area, [0] * (players + 1))
            if value.owner == seat and value.standing:
                gold += buildings_value(names(value.buildings))
                counts[players] += 1
            else:
                counts[value.owner] += 1
        if gold:
            due["buildings"] = gold
        for area, counts in per_area.items():
            if area not in state.active_areas:
                continue
            empire = counts[players]
            enemies = [n for other, n in enumerate(counts[:players]) if other != seat]
            paid = land_gold(empire, counts[seat], enemies)
            if paid:
                due[f"lands:{area}"] = paid
        return due

    def _GoldCollected(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        if self.pending_honor and event.reason == "honor":
            seat, _ = self.pending_honor.pop(0)
            if before.players[seat].honor_stack:
                found.append(f"seat {seat} took a gold for an Honor with Honors in the stack")
        if event.reason == "most-gold":
            self.most_gold_paid = True
        counted = event.reason == "buildings" or event.reason.startswith("lands:")
        if self.revenue_due is not None and event.seat == self.revenue_seat and counted:
            self.revenue_paid[event.reason] += event.amount
        return found

    def _close_revenue(self) -> Iterator[str]:
        due, paid = self.revenue_due, self.revenue_paid
        self.revenue_due = None
        self.checked["revenue"] += 1
        if due is not None and due != paid:
            yield f"seat {self.revenue_seat} revenue {dict(paid)}, the rulebook gives {dict(due)}"

    # --- Event cards that choose Enemy lands -----------------------------------------------

    def _EffectCompleted(self, before: Any, event: Any, after: Any) -> list[str]:
        """The card's words say how many Enemy lands are chosen: fewer only when no other such
        land is left, or when the words say "up to"."""
        task = before.agenda[-1] if before.agenda else None
        if task is None or getattr(task, "source", "") != "event" or event.index != 0:
            return []
        card = self.pack.cards.event(task.source_id)
        words = CHOOSE_ENEMY_LANDS.search(card.text)
        if words is None or len(event.lands) >= COUNT_WORDS[words[2]]:
            return []
        left = self._enemy_lands(before, event.seat, words[3])
        if not left:
            return []
        if words[1]:
            self.checked[STOPPED_EARLY] += 1
            self.checked[f"{STOPPED_EARLY}: {card.id}"] += 1
            return []
        return [
            f"{card.id} reads '{words[0]}': stopped after {len(event.lands)} land(s) with "
            f"{sorted(left)} left"
        ]

    def _enemy_lands(self, state: Any, seat: int, which: str) -> set[str]:
        """Lands of another player's garrison: next to one of `seat`'s Friendly lands, or with
        a capital."""
        enemy = {
            land
            for land, value in state.lands.items()
            if value.owner is not None and value.owner != seat
        }
        if "capital" in which:
            return {land for land in enemy if CAPITAL in names(state.land(land).buildings)}
        friendly = [
            land
            for land, value in state.lands.items()
            if value.owner == seat and not value.standing
        ]
        board = self.pack.board
        return {land for land in enemy if any(board.are_adjacent(land, f) for f in friendly)}

    # --- Honors --------------------------------------------------------------------------

    def _HonorAwarded(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        stack = before.players[event.seat].honor_stack
        if not stack or stack[0] != event.honor:
            found.append(f"seat {event.seat} got {event.honor}, not the top of its stack")
        if self.pending_honor:
            seat, why = self.pending_honor.pop(0)
            if seat != event.seat:
                found.append(f"the Honor for {why} went to seat {event.seat}, not seat {seat}")
        if event.rule.endswith("most-gold-honor"):
            self.most_gold_paid = True
            if richest(before) != event.seat:
                found.append(f"seat {event.seat} does not hold the most gold")
        return found

    def _EventRevealed(self, before: Any, event: Any, after: Any) -> list[str]:
        """p4: an Honor icon on the revealed Event awards its player an Honor."""
        if self.pack.cards.event(event.card).honor_icon:
            self.pending_honor.append((event.seat, f"the Honor icon of {event.card}"))
        return []

    def _TurnEnded(self, before: Any, event: Any, after: Any) -> list[str]:
        """p8 Conclude the turn: the player with the most gold receives an Honor (one gold
        when the Honor track is full)."""
        expected = richest(before) == event.seat
        if expected != self.most_gold_paid:
            return [
                f"seat {event.seat} {'holds' if expected else 'does not hold'} the most gold "
                f"but was {'not ' if not self.most_gold_paid else ''}rewarded"
            ]
        return []


def richest(state: Any) -> int:
    """p2: most gold; on one space the chest on top (the latest to arrive) has more."""
    players = state.players
    return max(range(len(players)), key=lambda s: (players[s].gold, players[s].arrival))
