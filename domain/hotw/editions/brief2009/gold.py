"""Gold in A Brief History of the World: what a colour collects at the end of its Empire turn
(Collecting Gold), and the Gold track's stacks, separated at each Conclusion."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.control import Level, level_in_area
from domain.hotw.editions.brief2009.context import (
    FOLDS,
    BriefEvent,
    Ctx,
    with_gold,
)
from domain.hotw.editions.brief2009.model import (
    BriefState,
)
from domain.hotw.editions.brief2009.revisions import OWN_COLOURS_NOT_RIVALS
from domain.hotw.editions.brief2009.tables import BriefTables

LEVELS = {Level.PRESENCE: "presence", Level.DOMINANCE: "dominance", Level.MASTERY: "mastery"}
"""Each level of control by the name the pack's gold table gives its multiple."""
LEVEL_RULES = {
    "presence": "brief.gold.presence",
    "dominance": "brief.gold.dominance",
    "mastery": "brief.gold.mastery",
}


def collection(
    colour: int,
    armies: Mapping[str, int],
    buildings: Mapping[str, frozenset[str]],
    area_of: Mapping[str, str | None],
    spiral: Sequence[str],
    values: Mapping[str, int],
    gold: Mapping[str, int],
    friends: frozenset[int] = frozenset(),
) -> list[tuple[str, int]]:
    """brief.gold.*: (what, gold) in the order collected: the buildings in the colour's lands
    (2 per capital, 1 per city and monument), then each Area along the spiral at the level the
    colour reaches there times the Area's value. `armies` maps each occupied land to its
    colour; the colours in `friends` (the player's other colour, two players) are no rivals."""
    items: list[tuple[str, int]] = []
    held = [land for land, owner in armies.items() if owner == colour]
    for kind in ("capital", "city", "monument"):
        count = sum(kind in buildings.get(land, frozenset()) for land in held)
        if count:
            items.append((kind, count * gold[kind]))
    for area in spiral:
        counts: dict[int, int] = {}
        for land, owner in armies.items():
            if area_of.get(land) == area:
                counts[owner] = counts.get(owner, 0) + 1
        own = counts.pop(colour, 0)
        rivals = [n for owner, n in counts.items() if owner not in friends]
        level = level_in_area(own, rivals)
        if level and values.get(area, 0):
            multiple = gold[LEVELS[level]]
            items.append((area, multiple * values[area]))
    return items


def separated(golds: Sequence[int], arrived: Sequence[int]) -> list[tuple[int, int, int]]:
    """brief.conclusion.adjust: from the lowest space up, the markers stacked on a space move
    forward, the top one first, each to the nearest empty space above; the bottom one stays.
    Returns (colour, from, to) for each marker moved."""
    now = list(golds)
    moves: list[tuple[int, int, int]] = []
    for space in sorted(set(golds)):
        stack = [c for c in range(len(now)) if now[c] == space]
        if len(stack) < 2:
            continue
        stack.sort(key=lambda c: arrived[c], reverse=True)
        for colour in stack[:-1]:
            target = space + 1
            while target in now:
                target += 1
            moves.append((colour, space, target))
            now[colour] = target
    return moves


def friends_of(tables: BriefTables, state: BriefState, colour: int) -> frozenset[int]:
    """The player's other colours, no rivals for control from revision 3."""
    if not tables.since(OWN_COLOURS_NOT_RIVALS):
        return frozenset()
    seat = state.colours[colour].seat
    return frozenset(c for c in state.colours_of(seat) if c != colour)


def collect(ctx: Ctx, colour: int) -> None:
    """brief.gold.spiral: the colour collects for every Area, in the spiral's order."""
    state = ctx.state
    tables = ctx.tables
    board = tables.board
    armies = {land: c.colour for land, c in state.lands.items() if c.colour is not None}
    items = collection(
        colour,
        armies,
        {land: c.buildings for land, c in state.lands.items()},
        {land: board.lands[land].area for land in armies},
        tables.spiral,
        state.area_values,
        tables.numbers.gold,
        friends_of(tables, state, colour),
    )
    ctx.emit(
        GoldCollected(
            rule="brief.gold.spiral",
            cites=gold_cites(tables, state, colour, items),
            colour=colour,
            items=tuple(items),
            total=sum(gold for _, gold in items),
        )
    )


def gold_cites(
    tables: BriefTables, state: BriefState, colour: int, items: list[tuple[str, int]]
) -> tuple[str, ...]:
    """The clauses a collection applies: buildings paid, each level of control reached
    (presence, dominance, mastery), a marker ending on an occupied space (stacked) or
    passing the end of the track (on round)."""
    gold = tables.numbers.gold
    levels = {gold[name]: name for name in ("presence", "dominance", "mastery")}
    cites: list[str] = []
    if any(what in gold for what, _ in items):
        cites.append("brief.gold.buildings")
    reached = {
        levels[paid // state.area_values[what]]
        for what, paid in items
        if what not in gold and state.area_values.get(what)
    }
    cites += [rule for name, rule in LEVEL_RULES.items() if name in reached]
    before = state.colours[colour].gold
    after = before + sum(paid for _, paid in items)
    others = {c.gold for i, c in enumerate(state.colours) if i != colour}
    if after != before and after in others:
        cites.append("brief.gold.stack")
    if after // gold["track"] > before // gold["track"]:
        cites.append("brief.gold.past-100")
    return tuple(cites)


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class GoldCollected(BriefEvent):
    """The colour's gold for buildings, then Area by Area along the spiral."""

    colour: int
    items: tuple[tuple[str, int], ...]
    total: int


@FOLDS.handles(GoldCollected)
def _collected(t: BriefTables, s: BriefState, e: GoldCollected) -> BriefState:
    return evolved(with_gold(s, e.colour, e.total), turn=None)
