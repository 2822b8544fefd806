"""Gold in A Brief History of the World: what a colour collects at the end of its Empire turn
(Collecting Gold), and the Gold track's stacks, separated at each Conclusion."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.hotw.control import Level, level_in_area

LEVEL_RULES = {
    Level.PRESENCE: "gold.presence",
    Level.DOMINANCE: "gold.dominance",
    Level.MASTERY: "gold.mastery",
}


def collection(
    colour: int,
    armies: Mapping[str, int],
    buildings: Mapping[str, frozenset[str]],
    area_of: Mapping[str, str | None],
    spiral: Sequence[str],
    values: Mapping[str, int],
    gold: Mapping[str, int],
) -> list[tuple[str, int]]:
    """brief.gold.*: (what, gold) in the order collected: the buildings in the colour's lands
    (2 per capital, 1 per city and monument), then each Area along the spiral at the level the
    colour reaches there times the Area's value. `armies` maps each occupied land to its
    colour."""
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
        level = level_in_area(own, counts.values())
        if level and values.get(area, 0):
            multiple = gold[LEVEL_RULES[level].split(".")[1]]
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
