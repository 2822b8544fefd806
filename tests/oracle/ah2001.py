"""An independent oracle for the Avalon Hill 2001 rulings most disputed at the table, written
from the rulebook's text (shared/rules/hotw-avalon-hill-2001.txt, Chapters V-VII) and the
simultaneous-empires variant (shared/rules/hotw-variant-simultaneous-empires.txt), not from
the engine: it imports none of `domain/hotw/editions/ah2001`'s chapter modules, only reads the
state before each event and the event itself (dice included), and the printed tables and board
of the data pack (`rules.pack.tables`: the Victory Points Table, the lands, straits, terrain).

Checked, for every event:

- `BattleFought`: how many dice each side rolls (two for the attacker, three with a Leader or
  a Jihad before its first loss; one for the defender, two over Difficult Terrain in the
  defender's land, across a strait or behind the Great Wall, three against an army landed from a
  fleet, two with Naval Power; Expert Troops excuse their terrain), the scores (highest die,
  +1 Weaponry, +1 Siegecraft against a fort, capital or city, +1 fort) and what they remove
  (the higher wins, a tie removes both, a fort is lost first; Elite Troops and Jihad win
  ties; Siegecraft takes fort and army together); a Leader dies on triples; Treachery wins the
  named land in one attack; the first round of an attack costs one pool army, a later round of
  the same attack none; the attack comes from a land the Empire still holds.
- `LandSacked`: a land taken after a battle: its capital turns into a city, a city is removed,
  monuments stay; one is owed after every won battle for a land with a capital or city, and
  after an army enters a land left vacant by a tie.
- `TurnScored` and the variant's `EmpireTerminated`: presence, dominance and control in each
  Area at the epoch's base score, 2 per capital, 1 per city and per monument, 1 per held sea
  (naval control); the variant counts a player's points once per epoch, and only when the
  player terminates or the Empire's strength runs out.
- `PreEminenceTaken`, `EpochBegan`, `GameEnded`: at each epoch's end the one player with the
  most points takes a marker; a tie for the most takes none.
- Allies (revision 11): "any armies bought with the coins may only be used to expand into
  unoccupied Lands. These armies may not be used to attack": the oracle counts each Empire's
  coins (Allies' and other cards') and the armies Allies' coins return to its pool (a fort
  takes an Allies coin first, a saved army another card's coin first; an army entering an
  unoccupied land is one of Allies' while any is in the pool), and reports an attack, a
  replaced or reinforced army or a fleet manned while the pool holds only such armies.
- Migrants (revision 11): "Place two armies ... in any two Lands in North America. These
  armies must occupy vacant Lands": `ArmiesLanded` and the card's `CardResolved` land both
  armies unless fewer vacant lands of the area were left than armies (then, the catalogue's
  reading, as many as the player likes of those there are).
- Naval Control's reclaim (revision 11): "fleets with armies are removed from the board
  starting with the oldest Epoch first. The Active Empire ... decides which fleets to take
  within this Epoch": `FleetsReclaimed` (the rules, no choice) takes every fleet of the oldest
  epoch at once, and `FleetReclaimed` (the player's choice) one fleet of the oldest epoch
  among two or more.

Where today's engine departs from the text on a ruling the lead is fixing under issue 32 (items
1-4 and 6-12), the problem is tagged with the item (`[issue32.N]`); `AWAITING_LEAD_FIX` lists
the tags still expected, and the lead removes each once his fix is merged (the agreement test
then fails if the departure is still there).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.oracle.checks import EventChecks

AWAITING_LEAD_FIX: dict[str, str] = {}
"""Departures of today's engine (issue 32) that the lead is fixing; remove a tag once fixed."""

ATTACK_DICE, BONUS_ATTACK_DICE = 2, 3
"""Chapter V Combat: "You (the Attacker) roll two (2) dice"; Leader and Jihad: three."""
DEFENCE_DICE, DIFFICULT_DEFENCE_DICE, SEA_DEFENCE_DICE, NAVAL_POWER_DICE = 1, 2, 3, 2
""""The defender rolls one (1) die"; over Difficult Terrain two; from a fleet three; Naval
Power: "Defenders only roll 2 dice"."""
FORT_BONUS = WEAPONRY_BONUS = SIEGECRAFT_BONUS = 1
DIFFICULT = frozenset({"forest", "mountains"})
""""Difficult Terrain are the following: forests, mountains, straits, and the Great Wall"."""
WALL_SIDE_AREA = "china"
"""The Great Wall stands in the Chinese land of each border it runs along: the Mongols attack
Wei River "defended behind the Great Wall of China" (Chapter V example)."""
ALLIES = "allies"
ATTACKER_LOST, BOTH_LOST, DEFENDER_LOST = "attacker_lost", "both_lost", "defender_lost"
FORT_LOST, FORT_AND_ATTACKER_LOST = "fort_lost", "fort_and_attacker_lost"
FORT_AND_DEFENDER_LOST = "fort_and_defender_lost"
DEFENDER_LOSSES = frozenset({DEFENDER_LOST, FORT_AND_DEFENDER_LOST})
LAST_EPOCH = 7
""""After Epoch VII, the player with the most Victory Points wins"."""
CAPITAL_POINTS, CITY_POINTS, MONUMENT_POINTS, SEA_POINTS = 2, 1, 1, 1
"""Chapter VI: "2 points for every capital ... 1 point for every city ... 1 point for every
monument"; naval control: "one Victory Point for each sea controlled this way"."""


def sacked(buildings: frozenset[str]) -> frozenset[str]:
    """ "the capital is turned over and becomes a city"; "the city is sacked and removed";
    "Any monuments in the Land remain"."""
    if "capital" in buildings:
        return (buildings - {"capital"}) | {"city"}
    return buildings - {"city"}


def round_result(attack: int, defence: int, fort: bool, wins_ties: bool, siegecraft: bool) -> str:
    """ "The higher number wins ... In the case of a tie, both armies are removed"; "if the
    defender loses (or ties), the first piece removed is the fort, not the army"; Siegecraft:
    "the defender loses both the fort and defending army at the same time"."""
    if attack == defence and not wins_ties:
        return FORT_AND_ATTACKER_LOST if fort else BOTH_LOST
    if attack < defence:
        return ATTACKER_LOST
    if fort:
        return FORT_AND_DEFENDER_LOST if siegecraft else FORT_LOST
    return DEFENDER_LOST


def level(mine: int, others: list[int]) -> int:
    """Chapter VI: control (x3) with three lands and nobody else there; dominance (x2) with two
    and more than any other player; presence (x1) with one."""
    if mine >= 3 and not any(others):
        return 3
    if mine >= 2 and mine > max(others, default=0):
        return 2
    return 1 if mine >= 1 else 0


def points_of(tables: Any, state: Any, seat: int) -> int:
    """Chapter VI: every Area at its level of control, then capitals, cities and monuments,
    then (naval control) each sea held by one of the player's fleets."""
    board = tables.board
    counts: dict[str, Counter[int]] = {}
    buildings = 0
    for land, cell in state.lands.items():
        if cell.owner is None:
            continue
        area = board.lands[land].area
        if area is not None:
            counts.setdefault(area, Counter())[cell.owner] += 1
        if cell.owner == seat:
            have = {str(b) for b in cell.buildings}
            buildings += CAPITAL_POINTS * ("capital" in have) + CITY_POINTS * ("city" in have)
            buildings += MONUMENT_POINTS * ("monument" in have)
    total = buildings
    for area, counter in counts.items():
        others = [n for other, n in counter.items() if other != seat]
        total += tables.victory_points.base(area, state.epoch) * level(counter[seat], others)
    total += SEA_POINTS * sum(1 for held in state.seas.values() if held.owner == seat)
    return total


def leader_seat(state: Any) -> int | None:
    """Chapter VII: the one player with the most points; None when two or more tie."""
    points = [p.points for p in state.players]
    best = max(points)
    return points.index(best) if points.count(best) == 1 else None


@dataclass
class Ah2001Oracle(EventChecks):
    """Feed it every event of one game with the states around it (`observe`); it answers the
    disagreements it finds, one line each (tagged `[issue32.N]` where the lead is fixing it)."""

    tables: Any
    version: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    previous: tuple[str, Any, Any] | None = None
    """The last event's kind, the event and the state after it."""
    pending_sack: dict[str, str] = field(default_factory=dict)
    """Lands owed a sack by the next event, and why (the issue tag, if any)."""
    tied: set[str] = field(default_factory=set)
    """Lands left vacant by a tie this turn: the next army to enter them takes them."""
    marker_taken: bool = False
    barren: str | None = None
    """The barren land the Barbarians card's armies come out of."""
    scored_this_epoch: set[int] = field(default_factory=set)
    owed_count: set[int] = field(default_factory=set)
    """Variant: players whose Empire terminated counting nothing while they had points."""
    coins: dict[tuple[Any, ...], list[int]] = field(default_factory=dict)
    """Allies: each Empire's [other cards' coins, Allies' coins, armies Allies' coins bought
    still in its pool], by (seat, Empire, card)."""

    def _seen(self, kind: str, event: Any, after: Any) -> None:
        self.previous = (kind, event, after)

    def _settle(self, kind: str, event: Any) -> Iterator[str]:
        for land, tag in list(self.pending_sack.items()):
            if kind == "LandSacked" and event.land == land:
                continue
            del self.pending_sack[land]
            yield f"{tag}{land} was taken with a capital or city and not sacked"

    # --- combat --------------------------------------------------------------------------

    def _sources(self, state: Any, seat: int, land: str) -> list[tuple[str, bool]]:
        """The Empire's lands (still held by its player) bordering `land`: (land, by strait)."""
        turn = state.turn
        found = []
        for source in turn.lands:
            if state.land(source).owner != seat:
                continue
            cell = self.tables.board.lands[source]
            if land in cell.neighbours:
                found.append((source, False))
            elif land in cell.straits:
                found.append((source, True))
        return found

    def _wall_in(self, source: str, land: str) -> bool:
        """The Great Wall is crossed into `land` and stands in it (the Chinese side)."""
        board = self.tables.board
        return (
            frozenset((source, land)) in board.great_wall
            and board.lands[land].area == WALL_SIDE_AREA
        )

    def _defence_dice(self, state: Any, event: Any) -> tuple[int, str]:
        """How many dice the defender rolls, and the issue tag when the answer turns on a
        ruling the lead is fixing."""
        turn = state.turn
        if event.via == "sea":
            return (NAVAL_POWER_DICE if turn.naval_power else SEA_DEFENCE_DICE), ""
        terrain = self.tables.board.lands[event.land].terrain
        expert = {str(x) for x in turn.expert}
        sources = self._sources(state, event.seat, event.land)
        if not sources:
            stale = [
                s
                for s in turn.lands
                if event.land in self.tables.board.adjacent(s) and state.land(s).owner != event.seat
            ]
            if stale:
                raise NoSource(f"[issue32.6] attack from {stale}, a land the player lost")
            if not any(state.land(s).owner == event.seat for s in turn.lands):
                # variant rule 8: "The defender in the space does not get any difficult
                # terrain bonuses, but does get to use a fort"
                return DEFENCE_DICE, ""
            raise NoSource(f"no land of the Empire borders {event.land}")
        best, tag = None, ""
        for source, strait in sources:
            crossed = set()
            if terrain in DIFFICULT:
                crossed.add(terrain)
            if strait:
                crossed.add("strait")
            if self._wall_in(source, event.land):
                crossed.add("great-wall")
            dice = DIFFICULT_DEFENCE_DICE if crossed - expert else DEFENCE_DICE
            if best is None or dice < best:
                best = dice
        one_sided = [
            s
            for s, strait in sources
            if frozenset((s, event.land)) in self.tables.board.great_wall
            and not self._wall_in(s, event.land)
        ]
        if one_sided and best == DEFENCE_DICE:
            tag = "[issue32.1] "
        assert best is not None
        return best, tag

    def _BattleFought(self, before: Any, event: Any, after: Any) -> list[str]:
        found: list[str] = []
        turn = before.turn
        if turn is None:
            return ["a battle with no Active Empire"]
        cell = before.land(event.land)
        buildings = {str(b) for b in cell.buildings}
        fort = "fort" in buildings
        if cell.owner != event.defender or event.defender == event.seat:
            found.append(f"the defender is seat {cell.owner}, the event says {event.defender}")
        continuing = self._continuing(event)
        if event.first_round:
            found += self._allies_attack(before, f"an attack on {event.land}")
        if not event.attack_dice and not event.defence_dice:
            found += self._treachery(before, event, continuing, fort)
        else:
            if turn.treachery == event.land:
                found.append(f"Treachery named {event.land}: it falls without dice")
            found += self._round(before, event, buildings)
            if event.first_round == continuing:
                found.append(
                    f"first_round={event.first_round}, but this round "
                    f"{'continues' if continuing else 'begins'} an attack"
                )
        self._after_battle(before, event, after, buildings)
        return found

    def _continuing(self, event: Any) -> bool:
        """The same attacking army fights on after a fort fell, or after one army of a stack
        fell while more stand (multiple armies)."""
        if self.previous is None or self.previous[0] != "BattleFought":
            return False
        _, last, after = self.previous
        if last.land != event.land or last.seat != event.seat:
            return False
        if last.result == FORT_LOST:
            return True
        return last.result in DEFENDER_LOSSES and after.land(event.land).owner == last.defender

    def _treachery(self, before: Any, event: Any, continuing: bool, fort: bool) -> list[str]:
        found = []
        if before.turn.treachery != event.land:
            found.append(f"no dice rolled, but Treachery did not name {event.land}")
        expected = FORT_AND_DEFENDER_LOST if fort else DEFENDER_LOST
        if event.result != expected:
            found.append(f"Treachery's land gives {event.result}, expected {expected}")
        if continuing and event.first_round:
            found.append(
                "[issue32.4] Treachery wins the named land in one attack: a second army "
                "of the stack cost another pool army"
            )
        return found

    def _round(self, before: Any, event: Any, buildings: set[str]) -> list[str]:
        found = []
        turn = before.turn
        jihad = turn.jihad_losses
        three = turn.leader or (jihad is not None and jihad < 1)
        attack_n = BONUS_ATTACK_DICE if three else ATTACK_DICE
        try:
            defence_n, tag = self._defence_dice(before, event)
        except NoSource as exc:
            return [str(exc)]
        if len(event.attack_dice) != attack_n:
            found.append(
                f"the attacker rolled {len(event.attack_dice)} dice, the text gives {attack_n}"
            )
        if len(event.defence_dice) != defence_n:
            found.append(
                f"{tag}the defender of {event.land} rolled {len(event.defence_dice)} dice "
                f"(via {event.via}), the text gives {defence_n}"
            )
        if any(not 1 <= d <= 6 for d in (*event.attack_dice, *event.defence_dice)):
            found.append("a die outside 1-6")
        fort = "fort" in buildings
        besieged = bool(buildings & {"fort", "capital", "city"})
        attack = max(event.attack_dice)
        attack += WEAPONRY_BONUS if turn.weaponry else 0
        attack += SIEGECRAFT_BONUS if turn.siegecraft and besieged else 0
        defence = max(event.defence_dice) + (FORT_BONUS if fort else 0)
        if (event.attack, event.defence) != (attack, defence):
            found.append(
                f"scores {event.attack} v {event.defence}, the text gives {attack} v {defence}"
            )
        wins_ties = turn.elite_troops or (jihad is not None and jihad < 2)
        expected = round_result(attack, defence, fort, wins_ties, turn.siegecraft)
        if event.result != expected:
            found.append(
                f"{attack} v {defence} in {event.land}{' (fort)' if fort else ''} gives "
                f"{event.result}, the text gives {expected}"
            )
        killed = turn.leader and len(event.attack_dice) == 3 and len(set(event.attack_dice)) == 1
        if bool(event.leader_killed) != killed:
            found.append(f"leader_killed={event.leader_killed} on {event.attack_dice}")
        return found

    def _after_battle(self, before: Any, event: Any, after: Any, buildings: set[str]) -> None:
        land = event.land
        if event.result == BOTH_LOST and after.land(land).owner is None:
            self.tied.add(land)
        won = event.result in DEFENDER_LOSSES and after.land(land).owner != event.defender
        if won and buildings & {"capital", "city"}:
            self.pending_sack[land] = ""

    def _RevoltFought(self, before: Any, event: Any, after: Any) -> list[str]:
        """Civil War: "These armies attack the existing army in that Land without any Difficult
        Terrain penalties (fort bonuses still apply for the defender)"; Jewish Revolt: the same
        "using three dice". "If victorious, these Lands fall under your control."
        """
        if event.defender is None or not event.attack_dice:
            if event.defender not in (None, event.seat):
                return [f"no dice rolled against seat {event.defender}'s army"]
            buildings = {str(b) for b in before.land(event.land).buildings}
            if event.defender is None and buildings & {"capital", "city"}:
                self.pending_sack[event.land] = "entering it vacant, "  # a far epoch's army too
            return []
        found = []
        buildings = {str(b) for b in before.land(event.land).buildings}
        fort = "fort" in buildings
        attack_n = BONUS_ATTACK_DICE if event.rule.endswith("jewish-revolt") else ATTACK_DICE
        defence_n = DEFENCE_DICE
        if event.rule.endswith("barbarians") and self.barren is not None:
            # reading: the defender's Difficult Terrain (its land, a strait or the Great Wall
            # crossed out of the barren land) counts
            lands = self.tables.board.lands
            crossed = lands[event.land].terrain in DIFFICULT
            crossed |= event.land in lands[self.barren].straits
            crossed |= self._wall_in(self.barren, event.land)
            defence_n = DIFFICULT_DEFENCE_DICE if crossed else DEFENCE_DICE
        if (len(event.attack_dice), len(event.defence_dice)) != (attack_n, defence_n):
            found.append(
                f"dice {len(event.attack_dice)} v {len(event.defence_dice)}, the card gives "
                f"{attack_n} v {defence_n}"
            )
        attack = max(event.attack_dice)
        defence = max(event.defence_dice) + (FORT_BONUS if fort else 0)
        expected = round_result(attack, defence, fort, False, False)
        if event.result != expected:
            found.append(f"{attack} v {defence} gives {event.result}, the text gives {expected}")
        self._after_battle(before, event, after, buildings)
        return found

    def _NavalBattleFought(self, before: Any, event: Any, after: Any) -> list[str]:
        """Naval control: "Combat is handled normally with the attacker rolling two dice and
        the defending fleet rolling one"."""
        found = []
        if (len(event.attack_dice), len(event.defence_dice)) != (ATTACK_DICE, DEFENCE_DICE):
            found.append(
                f"dice {len(event.attack_dice)} v {len(event.defence_dice)}, the text gives "
                f"{ATTACK_DICE} v {DEFENCE_DICE}"
            )
        expected = round_result(
            max(event.attack_dice), max(event.defence_dice), False, False, False
        )
        if event.result != expected:
            found.append(f"{event.result} at sea, the text gives {expected}")
        held = before.seas.get(event.water)
        if held is None or held.owner != event.defender or held.owner == event.seat:
            found.append(f"{event.water} is not held by seat {event.defender}'s fleet")
        return found

    # --- sack ----------------------------------------------------------------------------

    def _LandSacked(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        if self.pending_sack.pop(event.land, None) is None:
            found.append(f"{event.land} sacked where no army took it")
        have = frozenset(str(b) for b in before.land(event.land).buildings)
        if set(event.buildings) != sacked(have):
            found.append(
                f"{sorted(have)} sacked to {sorted(event.buildings)}, the text gives "
                f"{sorted(sacked(have))}"
            )
        return found

    def _ArmyPlaced(self, before: Any, event: Any, after: Any) -> list[str]:
        """An army entering a vacant land that holds a capital or city takes it over: after a
        tie ("Only turn over (or remove) the piece when an invading army successfully enters
        the Land after a battle"), or where an Event destroyed the army ("Whenever your army
        takes over a Land already containing a capital"). Capitals and cities are nobody's
        colour, so the player whose army stood there last is no exception. A start land is
        not taken over (Chapter V, Expansion 4: the Empire's capital and first army)."""
        cell = before.land(event.land)
        valuable = bool({str(b) for b in cell.buildings} & {"capital", "city"})
        start = event.capital or str(event.rule).endswith("turn.start-land")
        if cell.owner is None and valuable and not start:
            how = "after a tie" if event.land in self.tied else "entering it vacant"
            self.pending_sack[event.land] = f"[issue32.2] {how}, "
        self.tied.discard(event.land)
        if cell.owner is None:
            purse = self._purse(before)
            purse[2] = max(0, purse[2] - 1)
            return []
        if start:
            return []
        return self._allies_attack(before, f"an army placed over one in {event.land}")

    # --- Allies ----------------------------------------------------------------------------

    def _purse(self, state: Any) -> list[int]:
        turn = state.turn
        return self.coins.setdefault((turn.seat, turn.empire, turn.card), [0, 0, 0])

    def _only_allies_left(self, state: Any) -> bool:
        """The pool holds no army but those Allies' coins bought."""
        allied = self._purse(state)[2]
        return allied > 0 and state.turn.pool <= allied

    def _EventCardPlayed(self, before: Any, event: Any, after: Any) -> list[str]:
        self._purse(before)[1 if event.card == ALLIES else 0] += event.coins
        return []

    def _FleetReallocated(self, before: Any, event: Any, after: Any) -> list[str]:
        self._purse(before)[0] += 1  # Reallocation: "divert naval resources"
        return []

    def _CoinSpent(self, before: Any, event: Any, after: Any) -> list[str]:
        purse = self._purse(before)
        if event.for_fort:
            purse[1 if purse[1] else 0] -= 1
        elif purse[0]:
            purse[0] -= 1
        else:
            purse[1] -= 1
            purse[2] += 1
        return [] if min(purse) >= 0 else [f"a coin spent that no card gave ({purse})"]

    def _allies_attack(self, before: Any, what: str) -> list[str]:
        if self._only_allies_left(before):
            return [f"{what} with the pool's armies all bought with Allies' coins"]
        return []

    def _FleetManned(self, before: Any, event: Any, after: Any) -> list[str]:
        return self._allies_attack(before, f"a fleet manned in {event.water}")

    # --- Naval Control's reclaim ---------------------------------------------------------------

    def _oldest(self, state: Any) -> set[str]:
        if not state.seas:
            return set()
        oldest = min(held.figure for held in state.seas.values())
        return {water for water, held in state.seas.items() if held.figure == oldest}

    def _FleetsReclaimed(self, before: Any, event: Any, after: Any) -> list[str]:
        oldest = self._oldest(before)
        if set(event.waters) != oldest:
            return [
                f"the rules took the fleets {sorted(event.waters)}, not the oldest epoch's "
                f"{sorted(oldest)} whole: within an epoch the Active Empire decides"
            ]
        return []

    def _FleetReclaimed(self, before: Any, event: Any, after: Any) -> list[str]:
        oldest = self._oldest(before)
        if event.water not in oldest:
            return [f"{event.water} taken back before the oldest epoch's {sorted(oldest)}"]
        if len(oldest) < 2:
            return [f"{event.water} chosen where the oldest epoch left no choice"]
        return []

    # --- Migrants ----------------------------------------------------------------------------

    def _migrants(self, card: str) -> tuple[str, int] | None:
        """The area and armies of a Migrants card (None: another card)."""
        (printed,) = [c for c in self.tables.events if c.id == card]
        if printed.kind != "migrants":
            return None
        return str(printed.effect["area"]), int(printed.effect["armies"])

    def _vacant(self, state: Any, area: str) -> int:
        lands = self.tables.board.lands
        return sum(
            1 for land in lands.values() if land.area == area and state.land(land.id).owner is None
        )

    def _ArmiesLanded(self, before: Any, event: Any, after: Any) -> list[str]:
        migrants = self._migrants(before.turn.pending)
        if migrants is None:
            return []
        area, armies = migrants
        vacant = self._vacant(before, area)
        if len(event.lands) < armies <= vacant:
            return [f"Migrants placed {len(event.lands)} armies with {vacant} vacant lands left"]
        return []

    def _CardResolved(self, before: Any, event: Any, after: Any) -> list[str]:
        migrants = self._migrants(event.card)
        landed = self.previous is not None and self.previous[0] == "ArmiesLanded"
        if migrants is None or landed:
            return []
        vacant = self._vacant(before, migrants[0])
        if vacant >= migrants[1]:
            return [f"Migrants placed no army with {vacant} vacant lands left"]
        return []

    def _TargetChosen(self, before: Any, event: Any, after: Any) -> list[str]:
        if event.card == "barbarians" and not before.turn.picks:
            self.barren = event.target
        return []

    def _TurnBegan(self, before: Any, event: Any, after: Any) -> list[str]:
        self.tied.clear()
        return []

    # --- scoring and pre-eminence ----------------------------------------------------------

    def _TurnScored(self, before: Any, event: Any, after: Any) -> list[str]:
        return self._scored(before, event)

    def _scored(self, before: Any, event: Any) -> list[str]:
        found = []
        expected = points_of(self.tables, before, event.seat)
        if sum(event.points.values()) != event.total:
            found.append(f"points {dict(event.points)} do not add up to {event.total}")
        if event.total != expected:
            found.append(f"seat {event.seat} scored {event.total}, the text gives {expected}")
        return found

    def _EmpireTerminated(self, before: Any, event: Any, after: Any) -> list[str]:
        """Variant rule 9: "A player MUST count his victory points as soon as his empire's
        strength points run out, but he MAY terminate his empire and count victory points
        earlier ... he may only count victory points once per epoch"; rule 10: "Victory points
        are NOT counted when the minor empire terminates"."""
        found = []
        if event.card is not None:
            if event.total:
                found.append("a Minor Empire terminating counted points")
            return found
        active = before.slot == event.slot and before.turn is not None
        ending = before.turn if active else before.parked[event.slot]
        if not active and (ending.pool > 0 or ending.free_forts > 0):
            found.append(
                f"[issue32.8] seat {event.seat}'s {event.empire} terminated with "
                f"{ending.pool} strength left, by no choice of its player"
            )
        # once per epoch: the player counts at one of its terminations (which one the text does
        # not say), the points it has then; its other terminations count nothing
        if event.total == 0 and points_of(self.tables, before, event.seat):
            self.owed_count.add(event.seat)
            return found
        if event.seat in self.scored_this_epoch:
            if event.total:
                found.append(
                    f"[issue32.7] seat {event.seat} counted points twice this epoch "
                    f"({event.total} more)"
                )
            return found
        self.scored_this_epoch.add(event.seat)
        return found + self._scored(before, event)

    def _PreEminenceTaken(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        if "no_pre_eminence" in {str(o) for o in before.options}:
            found.append("a pre-eminence marker taken with no_pre_eminence")
        best = leader_seat(before)
        if best != event.seat:
            found.append(f"seat {event.seat} took the marker, the pre-eminent player is {best}")
        if self.marker_taken:
            found.append("two markers taken at one epoch's end")
        self.marker_taken = True
        return found

    def _epoch_over(self, before: Any) -> list[str]:
        found = []
        optional = "no_pre_eminence" in {str(o) for o in before.options}
        best = leader_seat(before)
        if not optional and best is not None and not self.marker_taken and before.markers:
            found.append(f"seat {best} was pre-eminent and took no marker")
        if "simultaneous_empires" in {str(o) for o in before.options}:
            for seat in sorted(self.owed_count - self.scored_this_epoch):
                found.append(f"seat {seat} terminated its Empires and never counted its points")
        self.marker_taken = False
        self.scored_this_epoch.clear()
        self.owed_count.clear()
        return found

    def _EpochBegan(self, before: Any, event: Any, after: Any) -> list[str]:
        return self._epoch_over(before) if event.epoch > 1 else []

    def _GameEnded(self, before: Any, event: Any, after: Any) -> list[str]:
        found = self._epoch_over(before)
        expected = tuple(p.points + sum(p.pre_eminence) for p in before.players)
        if tuple(event.points) != expected:
            found.append(f"final points {event.points}, the text gives {expected}")
        winners = self._winners(before, expected)
        if event.ranking and set(event.ranking[0]) != winners:
            found.append(f"winners {event.ranking[0]}, the text gives {sorted(winners)}")
        return found

    def _winners(self, state: Any, points: tuple[int, ...]) -> set[int]:
        """Chapter VII Ties: the most points; then "The player whose combined army strength is
        lower is the winner"; then "more Pre-eminence Marker points"; then "the lower army
        strength in Epoch VII"; still tied, the tied players share the win (reading)."""
        stats = {e.id: e for e in self.tables.empires}

        def key(seat: int) -> tuple[int, int, int, int]:
            played = [stats[x] for x in state.players[seat].empires if x in stats]
            last = sum(e.strength for e in played if e.epoch == LAST_EPOCH)
            total = sum(e.strength for e in played)
            return (-points[seat], total, -sum(state.players[seat].pre_eminence), last)

        best = min(key(seat) for seat in range(len(state.players)))
        return {seat for seat in range(len(state.players)) if key(seat) == best}


class NoSource(Exception):
    """No land the Empire holds borders the land attacked."""
