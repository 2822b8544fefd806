"""Where everything goes on a History of the World map: each land's region, the links and
straits between places, the badges with their names and power icons, and the labels of seas and
wastelands, placed so that no two overlap (`layout`, cached per board)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from domain.core.geometry import Box, Label, Region, Site, free_box, place_labels, regions
from domain.hotw.board import Board, Land

WIDTH = 1000
HEIGHT = 500
"""The canvas of a board that says no other height (`Board.map_height`)."""
SCALE = 1.5
GAP = 2.5
"""Half the channel kept between regions of places that do not border each other."""
FONT = 10.8
SMALL_FONT = 10.8
"""Land names (map units: the map is 1000 wide), the same size in crowded regions: a 1400 px
window gives the map about 1030 px (the page's side column is 20rem), so every name is drawn
at 11 px or more (at 9.5 and 8 they were 9 and 7.7 px)."""
WASTE_FONT = 10.8
"""A wasteland's name."""
CHAR = 0.64
"""Width of a character as a share of the font size (generous for DejaVu Sans and Arial)."""
ICON = 14.0
"""The size of a piece's shape: about 14 px where a 1400 px wide window gives the map 1030."""
ROW_WIDTH = 4 * (ICON + 1)
"""Room kept free for a land's pieces (an army or garrison and up to three buildings)."""


@dataclass(frozen=True)
class Layout:
    """What a board's drawing keeps from one picture to the next: its regions, links and the
    places of its names."""

    lands: Mapping[str, Region]
    wastelands: Mapping[str, Region]
    waters: Mapping[str, Region]
    links: tuple[tuple[str, str], ...]
    """Lands that border each other but whose regions do not meet."""
    straits: tuple[tuple[str, str], ...]
    water_links: tuple[tuple[str, str], ...]
    """Waters joined across the map's edge (or otherwise not meeting)."""
    height: float
    """The canvas's height (its width is WIDTH)."""
    labels: Mapping[str, Box]
    """Where each name goes (a land's name box has room for its power icon at its right)."""
    lines: Mapping[str, tuple[str, ...]]
    anchors: Mapping[str, tuple[float, float]]
    """The centre of the row where a land's (or a water's) pieces are drawn: a land's row sits
    just above its name, the two kept together inside its region where there is room."""
    fonts: Mapping[str, float]
    """The size of each land's name (smaller where its region is crowded)."""
    leaders: Mapping[str, tuple[float, float, float, float]]
    """A line from a name that had to sit outside its land's region to the land's place."""


_LAYOUTS: dict[int, tuple[Board, Layout]] = {}


def _reach(board: Board, land: Land) -> float:
    """How far a land's region may reach: past the middle of its longest border."""
    distances = [
        math.dist((land.x, land.y), (board.lands[n].x, board.lands[n].y)) for n in land.neighbours
    ]
    near = [d for d in distances if d < WIDTH / 2]
    return max(24.0, min(80.0, 0.7 * max(near))) if near else 36.0


def _waste_reach(board: Board, x: float, y: float, neighbours: frozenset[str]) -> float:
    distances = [math.dist((x, y), (board.lands[n].x, board.lands[n].y)) for n in neighbours]
    return max(24.0, min(62.0, 0.6 * max(distances))) if distances else 24.0


def _lines(name: str) -> tuple[str, ...]:
    """A name on one line, or two when it is long and has a space."""
    if len(name) <= 10 or " " not in name:
        return (name,)
    words = name.split(" ")
    best = min(
        range(1, len(words)),
        key=lambda k: max(len(" ".join(words[:k])), len(" ".join(words[k:]))),
    )
    return (" ".join(words[:best]), " ".join(words[best:]))


ADVANCE = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ -.'",
        (
            0.613, 0.635, 0.550, 0.635, 0.615, 0.352, 0.635, 0.634, 0.278, 0.278, 0.579, 0.278,
            0.974, 0.634, 0.612, 0.635, 0.635, 0.411, 0.521, 0.392, 0.634, 0.592, 0.818, 0.592,
            0.592, 0.525, 0.684, 0.686, 0.698, 0.770, 0.632, 0.575, 0.775, 0.752, 0.295, 0.295,
            0.656, 0.557, 0.863, 0.748, 0.787, 0.603, 0.787, 0.695, 0.635, 0.611, 0.732, 0.684,
            0.989, 0.685, 0.611, 0.685, 0.318, 0.361, 0.318, 0.275,
        ),
        strict=True,
    )
)  # fmt: skip
"""DejaVu Sans's advance widths (in ems); the map's names are set in it (Arial, the fallback,
is narrower)."""


def text_width(text: str, font: float) -> float:
    """How wide `text` is drawn at `font` size, with the white halo around it."""
    return sum(ADVANCE.get(c, CHAR) for c in text) * font + 2.4


def _text_box_size(lines: Sequence[str], font: float) -> tuple[float, float]:
    width = max(text_width(line, font) for line in lines) + 1
    return width, len(lines) * font * 1.15 + 1


def piece_row(anchor: tuple[float, float]) -> Box:
    """The room kept for the pieces drawn around `anchor`."""
    return Box(anchor[0] - ROW_WIDTH / 2, anchor[1] - ICON / 2 - 1, ROW_WIDTH, ICON + 2)


def fleet_row(x: float, y: float) -> Box:
    """The room kept for a water's fleets, above its name."""
    return Box(x - ROW_WIDTH / 2, y - 12 - ICON / 2 - 1, ROW_WIDTH, ICON + 2)


BADGE_REACH = 56.0


BADGE_STEP = 4.0


def _badge_spots(land: Land, region: Region, w: float, h: float) -> list[tuple[int, float, float]]:
    """Top-left corners for a land's badge (its piece row over its name), near its place, each
    with its tier: 0 where the badge lies inside the land's region, 1 where the middles of its
    piece row and of its name do, 2 elsewhere; by tier, then nearer first."""
    reach = int(BADGE_REACH / BADGE_STEP)
    ranked = []
    for i in range(-reach, reach + 1):
        for j in range(-reach, reach + 1):
            cx, cy = land.x + i * BADGE_STEP, land.y + j * BADGE_STEP
            top = cy - h / 2
            anchor, name = (cx, top + ICON / 2 + 1), (cx, top + ICON + 2 + (h - ICON - 2) / 2)
            if not (region.contains(anchor) and region.contains(name)):
                tier = 2
            else:
                corners = ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2),
                           (cx - w / 2, cy + h / 2), (cx + w / 2, cy + h / 2))  # fmt: skip
                tier = 0 if all(region.contains(c) for c in corners) else 1
            ranked.append((tier, math.hypot(cx - land.x, cy - land.y), cx - w / 2, cy - h / 2))
    ranked.sort()
    return [(tier, x, y) for tier, _, x, y in ranked]


def layout(board: Board) -> Layout:
    """The board's regions and name places (worked out once per board)."""
    known = _LAYOUTS.get(id(board))
    if known is not None and known[0] is board:
        return known[1]
    made = _layout(board)
    _LAYOUTS[id(board)] = (board, made)
    return made


def _layout(board: Board) -> Layout:
    places, waters, joined, water_joined = _regions(board)
    links, straits, water_links = _connections(board, places, waters, joined, water_joined)
    lines, anchors, names, fonts, leaders, taken = _land_badges(board, places)
    names |= _water_labels(board, lines, anchors, taken, (list(places.values()), waters))
    return Layout(
        lands={k: v for k, v in places.items() if k in board.lands},
        wastelands={k: v for k, v in places.items() if k in board.wastelands},
        waters=waters,
        links=tuple(links),
        straits=tuple((a, b) for a, b in straits),
        water_links=tuple(water_links),
        height=board.map_height,
        labels=names,
        lines=lines,
        anchors=anchors,
        fonts=fonts,
        leaders=leaders,
    )


Joins = set[frozenset[str]]


def _regions(board: Board) -> tuple[dict[str, Region], dict[str, Region], Joins, Joins]:
    """Each land's and wasteland's region around its place, and each sea's; which of them
    border each other on the printed board."""
    joined: set[frozenset[str]] = {
        frozenset((land.id, other)) for land in board.lands.values() for other in land.neighbours
    }
    joined |= {
        frozenset((waste.id, other))
        for waste in board.wastelands.values()
        for other in waste.neighbours
    }
    sites = [Site(land.id, land.x, land.y, _reach(board, land)) for land in board.lands.values()]
    sites += [
        Site(w.id, w.x, w.y, _waste_reach(board, w.x, w.y, w.neighbours))
        for w in board.wastelands.values()
    ]
    sites += [Site(w.id, w.x, w.y, 60.0, region=False) for w in board.seas.values()]
    places = regions(sites, WIDTH, board.map_height, joined=joined, gap=GAP)
    water_joined = {
        frozenset((water.id, other))
        for water in board.seas.values()
        for other in (*water.adjacent_oceans, *([water.ocean] if water.ocean else []))
    }
    water_sites = [Site(w.id, w.x, w.y, 2 * WIDTH) for w in board.seas.values()]
    waters = regions(water_sites, WIDTH, board.map_height, joined=water_joined, gap=GAP)
    return places, waters, joined, water_joined


def _connections(
    board: Board,
    places: Mapping[str, Region],
    waters: Mapping[str, Region],
    joined: Joins,
    water_joined: Joins,
) -> tuple[list[tuple[str, str]], list[tuple[str, ...]], list[tuple[str, str]]]:
    """The borders no shared edge shows (drawn as links), the straits, and the seas' links."""
    shown = {
        (region.id, tag)
        for region in places.values()
        for tag, edges in region.borders().items()
        if frozenset((region.id, tag)) in joined and sum(math.dist(p, q) for p, q in edges) >= 4
    }
    # a border shows only where both regions have the edge (clipping may leave one a sliver)
    meets = {frozenset(pair) for pair in shown if (pair[1], pair[0]) in shown}
    links = sorted(
        (a, b)
        for a, b in (sorted(pair) for pair in joined)
        if a in board.lands and b in board.lands and frozenset((a, b)) not in meets
    )
    straits = sorted(
        {tuple(sorted((land.id, other))) for land in board.lands.values() for other in land.straits}
    )
    water_meets = {
        frozenset((region.id, tag)) for region in waters.values() for tag in region.borders()
    }
    water_links = sorted(
        (a, b)
        for a, b in (sorted(pair) for pair in water_joined)
        if frozenset((a, b)) not in water_meets
    )
    return links, straits, water_links


def _land_badges(
    board: Board, places: Mapping[str, Region]
) -> tuple[
    dict[str, tuple[str, ...]],
    dict[str, tuple[float, float]],
    dict[str, Box],
    dict[str, float],
    dict[str, tuple[float, float, float, float]],
    list[Box],
]:
    """Each land's badge (its power icon and name): inside its region where it fits (at the
    normal size, then smaller), else where it overlaps least, with a leader line to the land
    when it stands outside. Returns the name lines, anchors, name boxes, fonts, leaders and the
    boxes taken so far."""
    lines: dict[str, tuple[str, ...]] = {}
    crowd = _crowding(board)
    taken = [fleet_row(w.x, w.y) for w in board.seas.values()]
    order = sorted(board.lands.values(), key=lambda land: (-crowd[land.id], land.id))

    def badge_size(land: Land, font: float) -> tuple[float, float]:
        w, h = _text_box_size(lines[land.id], font)
        return max(ROW_WIDTH, w + 6), ICON + 2 + h  # room for the power icon

    for land in order:
        lines[land.id] = _lines(land.name)
    fonts_tried = (FONT,) if SMALL_FONT == FONT else (FONT, SMALL_FONT)
    spots_of = {
        (land.id, font): _badge_spots(land, places[land.id], *badge_size(land, font))
        for land in order
        for font in fonts_tried
    }
    start = list(taken)

    def inside_badges(order: Sequence[Land]) -> tuple[dict[str, tuple[Box, float]], list[Box]]:
        """Every land that can keep its badge inside its region (at the normal size, then
        smaller), before any badge may reach over a border, in `order`."""
        placed: dict[str, tuple[Box, float]] = {}
        boxes = list(start)
        for tiers in ((0,), (0, 1)):
            for font in fonts_tried:
                for land in order:
                    if land.id in placed:
                        continue
                    bw, bh = badge_size(land, font)
                    wanted = [(x, y) for tier, x, y in spots_of[land.id, font] if tier in tiers]
                    box = free_box(bw, bh, wanted, boxes)
                    if box is not None:
                        placed[land.id] = (box, font)
                        boxes.append(box)
        return placed, boxes

    # Where a land finds no room, the lands that found none go first on the next try (a few
    # tries; the one leaving fewest without room is kept).
    badges, taken = inside_badges(order)
    placed = badges
    for _ in range(8):
        missing = [land for land in order if land.id not in placed]
        if not missing:
            break
        order = missing + [land for land in order if land.id in placed]
        placed, boxes = inside_badges(order)
        if len(placed) > len(badges):
            badges, taken = placed, boxes
    # the rest go where they overlap least
    for land in order:
        if land.id not in badges:
            bw, bh = badge_size(land, SMALL_FONT)
            spots = spots_of[land.id, SMALL_FONT]
            label = Label(land.id, bw, bh, tuple((x, y) for _, x, y in spots))
            badges[land.id] = (
                place_labels([label], taken, WIDTH, board.map_height)[land.id],
                SMALL_FONT,
            )
            taken.append(badges[land.id][0])
    anchors, names, fonts, leaders = _badge_parts(order, badges, lines, places)
    return lines, anchors, names, fonts, leaders, taken


def _crowding(board: Board) -> dict[str, int]:
    """How many other lands stand within 70 units of each land."""
    return {
        land.id: sum(
            1
            for other in board.lands.values()
            if other.id != land.id and math.dist((land.x, land.y), (other.x, other.y)) < 70
        )
        for land in board.lands.values()
    }


def _badge_parts(
    order: Sequence[Land],
    badges: Mapping[str, tuple[Box, float]],
    lines: Mapping[str, tuple[str, ...]],
    places: Mapping[str, Region],
) -> tuple[
    dict[str, tuple[float, float]],
    dict[str, Box],
    dict[str, float],
    dict[str, tuple[float, float, float, float]],
]:
    """From each land's badge: its icon's anchor, its name's box and font, and a leader line
    to the land when the badge stands outside its region."""
    anchors: dict[str, tuple[float, float]] = {}
    names: dict[str, Box] = {}
    fonts: dict[str, float] = {}
    leaders: dict[str, tuple[float, float, float, float]] = {}
    for land in order:
        badge, font = badges[land.id]
        w, h = _text_box_size(lines[land.id], font)
        fonts[land.id] = font
        cx = badge.x + badge.w / 2
        anchors[land.id] = (cx, badge.y + ICON / 2 + 1)
        names[land.id] = Box(cx - (w + 6) / 2, badge.y + ICON + 2, w + 6, h)
    for land in order:
        badge, _ = badges[land.id]
        middle = (badge.x + badge.w / 2, badge.y + badge.h / 2)
        inside = places[land.id].contains
        if not (inside(middle) and inside(anchors[land.id]) and inside(names[land.id].middle)):
            x = min(max(land.x, badge.x), badge.x + badge.w)
            y = min(max(land.y, badge.y), badge.y + badge.h)
            leaders[land.id] = (x, y, land.x, land.y)
    return anchors, names, fonts, leaders


WATER_NAME_REACH = 70.0
"""How far from its sea's place a sea's name may move to stand in the water (further, a name
over a land's region near its sea reads better than one in a far sea)."""


def _water_labels(
    board: Board,
    lines: dict[str, tuple[str, ...]],
    anchors: dict[str, tuple[float, float]],
    taken: list[Box],
    regions: tuple[Sequence[Region], Mapping[str, Region]] = ((), {}),
) -> dict[str, Box]:
    """The names of seas and wastelands, placed clear of everything taken (`lines` and
    `anchors` gain theirs); a sea's name at a spot in the water before one over a land's
    region, and in its own water before another's (`regions`: the lands' regions and the
    waters'), so that no sea's name reads as a land's or another sea's."""
    land, waters = regions
    bounds = [(min(p[0] for p in r.points), max(p[0] for p in r.points),
               min(p[1] for p in r.points), max(p[1] for p in r.points), r)
              for r in land if r.points]  # fmt: skip

    def on_land(x: float, y: float, w: float, h: float) -> bool:
        for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h), (x + w / 2, y + h / 2)):
            for left, right, top, bottom, region in bounds:
                if left <= px <= right and top <= py <= bottom and region.contains((px, py)):
                    return True
        return False

    wanted: list[Label] = []
    for name, x, y, font in [
        *((w.id, w.x, w.y, FONT) for w in board.seas.values()),
        *((w.id, w.x, w.y, WASTE_FONT) for w in board.wastelands.values()),
    ]:
        lines[name] = _lines(
            board.seas[name].name if name in board.seas else board.wastelands[name].name
        )
        w, h = _text_box_size(lines[name], font)
        around = [(x - w / 2, y - h / 2), *_around(x, y, w, h, Box(x - 1, y - 1, 2, 2))]
        if name in board.seas:
            own = waters.get(name)
            ranks = []
            for k, (sx, sy) in enumerate(around):
                middle = (sx + w / 2, sy + h / 2)
                far = math.dist(middle, (x, y)) > WATER_NAME_REACH
                astray = own is not None and not own.contains(middle)
                ranks.append((far or on_land(sx, sy, w, h), astray, k))
            around = [around[k] for *_, k in sorted(ranks)]
        wanted.append(Label(name, w, h, tuple(around)))
        if name in board.seas:
            anchors[name] = (x, y - 12)
    placed = place_labels(wanted, taken, WIDTH, board.map_height)
    for label in wanted:  # a sea's name that went far: the nearest free spot, if nearer
        sea = board.seas.get(label.id)
        if sea is None or math.dist(placed[label.id].middle, (sea.x, sea.y)) <= WATER_NAME_REACH:
            continue
        others = [*taken, *(box for other, box in placed.items() if other != label.id)]
        placed[label.id] = (
            _nearest_free(sea.x, sea.y, label, others, board.map_height) or (placed[label.id])
        )
    return placed


def _nearest_free(
    x: float, y: float, label: Label, taken: Sequence[Box], height: float
) -> Box | None:
    """The free spot nearest (x, y) for the label, on a grid of 5 units, within 120 units."""
    w, h = label.w, label.h
    spots = sorted(
        ((x + 5 * i - w / 2, y + 5 * j - h / 2) for i in range(-24, 25) for j in range(-24, 25)),
        key=lambda spot: math.dist((spot[0] + w / 2, spot[1] + h / 2), (x, y)),
    )
    return free_box(w, h, [spot for spot in spots if Box(*spot, w, h).inside(WIDTH, height)], taken)


def _around(x: float, y: float, w: float, h: float, keep: Box) -> list[tuple[float, float]]:
    """Spots for a w x h label near (x, y), clear of the box `keep` (the pieces): below, above,
    right, left, then the corners and further out."""
    spots = []
    for step in (0.0, 4.0, 9.0, 15.0, 22.0, 30.0, 40.0, 52.0, 66.0, 82.0, 100.0, 120.0, 145.0):
        spots += [
            (x - w / 2, keep.y + keep.h + step),
            (x - w / 2, keep.y - h - step),
            (keep.x + keep.w + step, y - h / 2),
            (keep.x - w - step, y - h / 2),
            (keep.x + keep.w / 2 + step, keep.y + keep.h + step),
            (keep.x + keep.w / 2 - w - step, keep.y + keep.h + step),
            (keep.x + keep.w / 2 + step, keep.y - h - step),
            (keep.x + keep.w / 2 - w - step, keep.y - h - step),
        ]
    return spots
