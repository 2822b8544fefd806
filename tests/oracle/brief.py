"""An independent oracle for A Brief History of the World (2009), written from the reference
manual's text (shared/rules/brief-history-of-the-world-2009.txt) and not from the engine: it
imports none of `domain/hotw/editions/brief2009`'s chapter modules, only reads the state before
each event, the event itself (its dice included) and the data pack's printed numbers and board
(`rules.pack.tables`: terrain, borders, Area values, Features).

Checked, for every event:

- `InvasionRolled`, the Invasion dial: "Attacker: usually 2 dice; -1 die if using fleet";
  "Defender: 1 die; 2 dice if in fort"; "Only highest die counts"; "Invasions points =
  attacker's die - defender's die (if positive)" with the dial (and a Leader) added; "1 point in
  clear land. 2 points in mountain/forest"; a failed roll is continued only by "increasing
  Invasion dial by +1 (max +3)"; "If successful, dial resets to 0. Abandoning invasion resets
  dial to 0" (so every new invasion starts at 0); the Vikings' "5 or 6 for automatic success"
  from the sea.
- `LandOverrun`: "unused invasion points may capture adjacent lands": "Must belong to same
  defending player. Must be adjacent to last captured land. Must not contain a fort"; "Cost: 1
  point (clear), 2 points (mountain/forest)"; "Cannot cross seas"; Fear's "+1 invasion point
  after successful invasion".
- `Surrendered`: "Place active army on own resigned army" (two players: "armies of same player
  can surrender to each other").
- `LandReduced`: "Capital -> replaced with city. City -> removed. Monument -> removed. If both
  capital/city and monument: only capital/city reduced. Fort always removed"; it is owed after
  every invasion, overrun and surrender of a land with buildings; "Barbarian empires (no starting
  capital) earn 1 gold per reduction"; France: "Monuments not reduced on invasion or in Gaul".
- `GoldCollected`: "2 gold per capital. 1 gold per city. 1 gold per monument"; "Presence (>=1
  army): 1x Area value. Dominance (>=2 armies, more than any other): 2x Area value. Mastery (>=3
  armies, sole control): 3x Area value" (two players: the player's other colour is no rival).

Departures of today's engine that the lead is fixing under issue 32 are tagged `[issue32.N]`
(`AWAITING_LEAD_FIX`); the lead removes a tag once his fix is merged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.oracle.checks import EventChecks

AWAITING_LEAD_FIX: dict[str, str] = {}

ATTACK_DICE, FLEET_PENALTY, DEFENCE_DICE, FORT_DICE = 2, 1, 1, 2
CLEAR_POINTS, DIFFICULT_POINTS, DIAL_MAX = 1, 2, 3
DIFFICULT = frozenset({"mountains", "forest"})
CAPITAL_GOLD, CITY_GOLD, MONUMENT_GOLD, BARBARIAN_GOLD = 2, 1, 1, 1
PRESENCE, DOMINANCE, MASTERY = 1, 2, 3
VIKING_FACES = frozenset({5, 6})
"""FAQ: "Vikings: ... sea invasion requires 5 or 6 for automatic success"."""
FEAR_POINTS = 1


def needed(terrain: str) -> int:
    return DIFFICULT_POINTS if terrain in DIFFICULT else CLEAR_POINTS


def reduced(buildings: frozenset[str], spare_monument: bool) -> tuple[frozenset[str], int]:
    """Reduction: what stays, and how many reductions (capital turned, city or monument
    removed; a fort's removal is none)."""
    after = set(buildings) - {"fort"}
    if "capital" in after:
        return frozenset((after - {"capital"}) | {"city"}), 1
    if "city" in after:
        return frozenset(after - {"city"}), 1
    if "monument" in after and not spare_monument:
        return frozenset(after - {"monument"}), 1
    return frozenset(after), 0


def area_level(mine: int, rivals: list[int]) -> int:
    if mine >= 3 and not any(rivals):
        return MASTERY
    if mine >= 2 and mine > max(rivals, default=0):
        return DOMINANCE
    return PRESENCE if mine >= 1 else 0


def gold_of(tables: Any, state: Any, colour: int, rivals_by_player: bool) -> int:
    """Collecting Gold for one colour: its buildings, then each Area by its level. Rivals are
    the other players' colours (`rivals_by_player`), or every other colour."""
    seat = state.colours[colour].seat
    counts: dict[str, Counter[int]] = {}
    gold = 0
    for land, cell in state.lands.items():
        if cell.colour is None:
            continue
        area = tables.board.lands[land].area
        if area is not None:
            counts.setdefault(area, Counter())[cell.colour] += 1
        if cell.colour == colour:
            have = {str(b) for b in cell.buildings}
            gold += CAPITAL_GOLD * ("capital" in have) + CITY_GOLD * ("city" in have)
            gold += MONUMENT_GOLD * ("monument" in have)
    for area, counter in counts.items():
        rivals = [
            n
            for other, n in counter.items()
            if other != colour and not (rivals_by_player and state.colours[other].seat == seat)
        ]
        gold += state.area_values.get(area, 0) * area_level(counter[colour], rivals)
    return gold


@dataclass
class BriefOracle(EventChecks):
    """Feed it every event of one game with the states around it (`observe`)."""

    pack: Any
    version: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    budget: int | None = None
    """Unused invasion points of the last successful invasion (None: no overrun open)."""
    last_taken: str | None = None
    defender: int | None = None
    pending_reduction: dict[str, str] = field(default_factory=dict)
    passed_red: dict[int, set[str]] = field(default_factory=dict)
    """Red cards of the Epoch each player held, chosen by the colour whose Empire was then
    established without playing them."""
    chooser: dict[str, int] = field(default_factory=dict)
    """The colour that chose each Event card this Epoch."""

    @property
    def tables(self) -> Any:
        return self.pack.tables

    def _settle(self, kind: str, event: Any) -> Iterator[str]:
        for land, how in list(self.pending_reduction.items()):
            if kind == "LandReduced" and event.land == land:
                continue
            del self.pending_reduction[land]
            tag, _, how = how.rpartition(" ")
            yield f"{tag + ' ' if tag else ''}{land} taken by {how} with buildings and not reduced"

    def _two_players(self, state: Any) -> bool:
        return len(state.colours) != len(state.players)

    def _spares_monuments(self, state: Any, land: str, how: str) -> bool:
        """FAQ: "France: Monuments not reduced on invasion or in Gaul", read (brief.features.
        france) as France's Feature alone, like every Feature printed on an Empire card:
        France's invasions and overruns spare monuments anywhere, and Gaul keeps its monument
        whenever France takes it (by surrender too); another Empire's conquests do not."""
        france = state.turn.active.feature == "preserve-monuments"
        return bool(france and (how in ("invasion", "overrun") or land == "gaul"))

    def _taken(self, before: Any, land: str, how: str) -> None:
        have = frozenset(str(b) for b in before.land(land).buildings)
        if reduced(have, self._spares_monuments(before, land, how))[0] != have:
            # nothing reduced under the older reading (Gaul's monument spared for everyone,
            # France's monuments on any conquest): the departure the lead is fixing
            french = land == "gaul" or before.turn.active.feature == "preserve-monuments"
            tag = "[issue32.11] " if french and reduced(have, True)[0] == have else ""
            self.pending_reduction[land] = f"{tag}{how}"

    # --- red cards -----------------------------------------------------------------------

    def _red_now(self, state: Any, card: str) -> bool:
        spec = self.tables.events_by_id[card]
        # a red card also playable in later Epochs (Israel) keeps for a later turn's start
        return spec.timing == "red" and spec.epoch == state.epoch and not spec.later_epochs

    def _EpochBegan(self, before: Any, event: Any, after: Any) -> list[str]:
        self.passed_red.clear()
        self.chooser.clear()
        return []

    def _CardChosen(self, before: Any, event: Any, after: Any) -> list[str]:
        if event.kind == "event":
            self.chooser[event.card] = event.colour
        return []

    _LastCardTaken = _CardChosen

    def _EmpireEstablished(self, before: Any, event: Any, after: Any) -> list[str]:
        seat = before.colours[event.colour].seat
        held = {
            card
            for card in before.players[seat].hand
            if self._red_now(before, card) and self.chooser.get(card) == event.colour
        }
        self.passed_red.setdefault(seat, set()).update(held)
        return []

    def _EventCardPlayed(self, before: Any, event: Any, after: Any) -> list[str]:
        """ "Red-epoch cards: must play at start of turn, before establishing empire; else
        discard"."""
        if not self._red_now(before, event.card):
            return []
        found = []
        if before.turn is None or str(before.turn.phase) != "opening":
            found.append(f"red card {event.card} played after the Empire was established")
        if event.card in self.passed_red.get(event.seat, set()):
            found.append(
                f"[issue32.11] red card {event.card} was left unplayed when the colour that "
                f"chose it established its Empire, and survives to colour {event.colour}'s turn"
            )
        return found

    # --- invasions and the dial ----------------------------------------------------------

    def _InvasionRolled(self, before: Any, event: Any, after: Any) -> list[str]:
        found: list[str] = []
        turn = before.turn
        force = turn.active
        cell = before.land(event.land)
        if cell.colour is None or cell.colour != event.defender:
            found.append(
                f"the land's army is colour {cell.colour}, the event says {event.defender}"
            )
        by_sea = event.via == "sea"
        attack_n = ATTACK_DICE - (FLEET_PENALTY if by_sea else 0) + (1 if turn.weaponry else 0)
        attack_n = max(1, attack_n)
        if len(event.attack) != attack_n:
            found.append(f"the attacker rolled {len(event.attack)} dice, the text gives {attack_n}")
        fort = "fort" in cell.buildings
        viking_sure = (
            force.feature == "atlantic-crossing" and by_sea and max(event.attack) in VIKING_FACES
        )
        if bool(event.sure) != viking_sure:
            found.append(f"sure={event.sure}, the Vikings' rule gives {viking_sure}")
        defence_n = 0 if viking_sure else (FORT_DICE if fort else DEFENCE_DICE)
        if len(event.defence) != defence_n:
            found.append(
                f"the defender rolled {len(event.defence)} dice, the text gives {defence_n}"
            )
        if any(not 1 <= d <= 6 for d in (*event.attack, *event.defence)):
            found.append("a die outside 1-6")
        # the dial: a new invasion starts at 0; a continuation turns it up by one, to +3
        if event.continued:
            waiting = turn.invasion
            if waiting is None or waiting.land != event.land:
                found.append("a continuation with no failed invasion of this land waiting")
            dial = force.dial + 1
            if dial > DIAL_MAX:
                found.append(f"the dial turned to +{dial}, past +{DIAL_MAX}")
            if force.array < 1:
                found.append("the dial turned up with no Array army to remove")
        else:
            if turn.invasion is not None:
                found.append("a new invasion while a failed one waits")
            dial = 0
            if force.dial != 0:
                found.append(f"the dial stood at +{force.dial} before a new invasion")
        if event.dial != dial:
            found.append(f"dial +{event.dial}, the text gives +{dial}")
        leader = 1 if turn.leader else 0
        cost = needed(self.tables.board.lands[event.land].terrain)
        if event.needed != cost:
            found.append(f"needed {event.needed}, the text gives {cost}")
        if viking_sure:
            points = cost
        else:
            points = max(0, max(event.attack) + dial + leader - max(event.defence))
        if event.points != points:
            found.append(f"{event.points} invasion points, the text gives {points}")
        success = points >= cost
        if event.success != success:
            found.append(
                f"{points} points against {cost} needed in {event.land} should "
                f"{'succeed' if success else 'fail'}"
            )
        fear = FEAR_POINTS if success and force.feature == "fear" else 0
        if event.fear != fear:
            found.append(f"fear {event.fear}, the Feature gives {fear}")
        if success:
            active = after.turn.active if after.turn is not None else None
            if active is not None and active.dial != 0:
                found.append("the dial did not reset to 0 after a success")
            self._taken(before, event.land, "invasion")
            self.budget = 0 if viking_sure else points - cost + fear
            self.last_taken, self.defender = event.land, event.defender
        return found

    def _InvasionAbandoned(self, before: Any, event: Any, after: Any) -> list[str]:
        if after.turn.active is not None and after.turn.active.dial != 0:
            return ["abandoning did not reset the dial to 0"]
        return []

    # --- overruns -------------------------------------------------------------------------

    def _LandOverrun(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        cell = before.land(event.land)
        land = self.tables.board.lands[event.land]
        if self.budget is None or self.last_taken is None or self.defender is None:
            return ["an overrun with no successful invasion before it"]
        if cell.colour is None:
            found.append(f"{event.land} holds no army to overrun")
        elif cell.colour != self.defender:
            same_player = before.colours[cell.colour].seat == before.colours[self.defender].seat
            if not same_player:
                found.append(f"{event.land} belongs to another defending player")
        if event.land not in self.tables.board.lands[self.last_taken].neighbours:
            found.append(f"{event.land} does not border {self.last_taken}, the land taken last")
        if "fort" in cell.buildings:
            found.append(f"{event.land} holds a fort")
        cost = needed(land.terrain)
        if event.cost != cost:
            found.append(f"cost {event.cost}, the text gives {cost}")
        if cost > self.budget:
            found.append(f"costs {cost} with {self.budget} invasion points unused")
        self.budget -= cost
        self.last_taken = event.land
        self._taken(before, event.land, "overrun")
        return found

    def _OverrunEnded(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        if self.budget is not None and event.unused != self.budget:
            found.append(f"{event.unused} points unused, the text leaves {self.budget}")
        self.budget = None
        return found

    # --- surrender ------------------------------------------------------------------------

    def _Surrendered(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        cell = before.land(event.land)
        if cell.colour != event.from_colour:
            found.append(
                f"the army in {event.land} is colour {cell.colour}, not {event.from_colour}"
            )
        if cell.standing:
            found.append(f"the army in {event.land} stands: only a resigned army surrenders")
        own = before.colours[event.from_colour].seat == before.colours[event.colour].seat
        if not own:
            found.append(f"colour {event.from_colour} is another player's")
        elif event.from_colour != event.colour and not self._two_players(before):
            found.append("a surrender to another colour outside the two-player game")
        self._taken(before, event.land, "surrender")
        return found

    # --- reduction ------------------------------------------------------------------------

    def _LandReduced(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        pending = self.pending_reduction.pop(event.land, None)
        if pending is None:
            found.append(f"{event.land} reduced where no land was taken")
        how = (pending or "invasion").rpartition(" ")[2]
        force = before.turn.active
        france = self._spares_monuments(before, event.land, how)
        have = frozenset(str(b) for b in before.land(event.land).buildings)
        expected, count = reduced(have, france)
        french = event.land == "gaul" or force.feature == "preserve-monuments"
        spared = not france and french and "monument" in event.buildings
        matches = frozenset(event.buildings) == expected and event.reductions == count
        if (
            not matches
            and spared
            and (frozenset(event.buildings), event.reductions) == reduced(have, True)
        ):
            found.append(
                f"[issue32.11] the monument of {event.land} spared ({how}, "
                f"{force.card}): France's Feature is France's alone, on invasion or in Gaul"
            )
            count = event.reductions
        elif frozenset(event.buildings) != expected or event.reductions != count:
            found.append(
                f"{sorted(have)} reduced to {sorted(event.buildings)} ({event.reductions}), "
                f"the text gives {sorted(expected)} ({count})"
            )
        gold = count * BARBARIAN_GOLD if force.barbarian else 0
        if event.gold != gold:
            found.append(f"a reduction paid {event.gold} gold, the text gives {gold}")
        return found

    # --- gold -----------------------------------------------------------------------------

    def _GoldCollected(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        if sum(amount for _, amount in event.items) != event.total:
            found.append(f"items {event.items} do not add up to {event.total}")
        expected = gold_of(self.tables, before, event.colour, rivals_by_player=True)
        if event.total != expected:
            by_colour = gold_of(self.tables, before, event.colour, rivals_by_player=False)
            tag = "[issue32.10] " if by_colour == event.total else ""
            found.append(
                f"{tag}colour {event.colour} collected {event.total}, the text gives {expected}"
            )
        return found
