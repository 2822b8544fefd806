"""The board is drawn as a map: every land a region around its place, bordering lands sharing an
edge (or joined by an arrow where the drawing cannot make them meet), other lands kept apart,
names that overlap neither each other nor the pieces, and a distinct shape per piece kind with
a legend."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from domain.core.geometry import RIM, Box, Label, Site, place_labels, regions
from domain.hotw.drawing import board_svg
from domain.hotw.map_layout import fleet_row, layout, piece_row
from domain.hotw.marks import PIECE_KINDS, PieceMark
from tests.support.hotw import PACK, RULES, army, empty, garrison, position

BOARD = PACK.board
SVG = "{http://www.w3.org/2000/svg}"


def test_every_land_is_a_region_around_its_place_and_no_two_regions_overlap():
    plan = layout(BOARD)
    assert set(plan.lands) == set(BOARD.lands)
    for land in BOARD.lands.values():
        assert plan.lands[land.id].contains((land.x, land.y)), land.id
    for x, y in itertools.product(
        (x + 0.37 for x in range(2, 1000, 9)), [y + 0.41 for y in range(2, 500, 9)]
    ):
        holders = [r.id for r in (*plan.lands.values(), *plan.wastelands.values())
                   if r.contains((x, y))]  # fmt: skip
        assert len(holders) <= 1, (x, y, holders)


def test_bordering_lands_meet_or_are_linked_and_other_lands_never_meet():
    plan = layout(BOARD)
    linked = set(plan.links)
    for land in BOARD.lands.values():
        edges = plan.lands[land.id].borders()
        for other in land.neighbours:
            shared = sum(abs(p[0] - q[0]) + abs(p[1] - q[1]) for p, q in edges.get(other, []))
            assert shared > 0 or tuple(sorted((land.id, other))) in linked, (land.id, other)
    region = plan.lands
    for a, b in itertools.combinations(sorted(BOARD.lands), 2):
        if b in BOARD.lands[a].neighbours:
            continue
        for p, q in region[a].borders().get(b, []):
            for point in (p, q, ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)):
                assert not region[b].contains(point), (a, b)
    assert plan.straits == tuple(
        sorted({tuple(sorted((land.id, o))) for land in BOARD.lands.values() for o in land.straits})
    )
    assert len(plan.links) < len(BOARD.lands) // 4, "most borders are drawn as shared edges"


def test_names_overlap_neither_each_other_nor_any_lands_pieces():
    plan = layout(BOARD)
    boxes = list(plan.labels.items())
    assert {name for name, _ in boxes} == set(BOARD.lands) | set(BOARD.seas) | set(BOARD.wastelands)
    for (a, one), (b, other) in itertools.combinations(boxes, 2):
        assert not one.overlaps(other), (a, b)
    rows = [piece_row(plan.anchors[land]) for land in BOARD.lands]
    rows += [fleet_row(water.x, water.y) for water in BOARD.seas.values()]
    for name, box in boxes:
        assert box.inside(1000, plan.height), name
        assert not any(box.overlaps(row) for row in rows), name
    for (a, one), (b, other) in itertools.combinations(zip(BOARD.lands, rows, strict=False), 2):
        assert not one.overlaps(other), (a, b)


def test_a_lands_name_and_pieces_stay_in_its_region_or_point_to_it():
    plan = layout(BOARD)
    for land in BOARD.lands.values():
        inside = plan.lands[land.id].contains
        if inside(plan.labels[land.id].middle) and inside(plan.anchors[land.id]):
            continue
        *_, x2, y2 = plan.leaders[land.id]
        assert (x2, y2) == (land.x, land.y), land.id
    assert len(plan.leaders) <= 6, sorted(plan.leaders)


def test_the_map_draws_each_piece_kind_as_its_own_shape_with_a_legend():
    state = position({"tigris": army(0, "capital", "monument", "fort"), "persia": garrison(1)})
    root = ET.fromstring(RULES.draw_board(state, None))
    pieces = {g.get("data-place"): g for g in root.iter(f"{SVG}g") if g.get("class") == "pieces"}
    assert pieces["tigris"].get("data-kind") == "army"
    assert pieces["tigris"].get("data-owner") == "0"
    assert pieces["tigris"].get("data-buildings") == "capital fort monument"
    assert pieces["persia"].get("data-kind") == "garrison"
    legend = [g.get("data-kind") for g in root.iter(f"{SVG}g") if g.get("class") == "legend-item"]
    assert legend == list(PIECE_KINDS)
    shapes = {
        kind: ET.tostring(next(iter(board_shape(kind))), encoding="unicode").split(" fill=")[0]
        for kind in PIECE_KINDS
    }
    assert len(set(shapes.values())) == len(PIECE_KINDS), "every kind has its own shape"
    lands = [g for g in root.iter(f"{SVG}g") if g.get("class") == "land"]
    assert {g.get("data-land") for g in lands} == set(BOARD.lands)
    assert all(g.find(f"{SVG}title") is not None for g in lands)
    names = " ".join(p.get("name", "") for p in RULES.view(state, None)["players"])
    assert all(name in ET.tostring(root, encoding="unicode") for name in names.split())


def board_shape(kind: str):
    root = ET.fromstring(board_svg(BOARD, {"tigris": [PieceMark(kind, "#123456", kind)]}))
    (group,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == f"piece {kind}"]
    return [child for child in group if child.tag != f"{SVG}title"]


def test_regions_keep_a_channel_between_places_that_do_not_border():
    sites = [Site("a", 10, 10, 20), Site("b", 30, 10, 20), Site("c", 10, 30, 20)]
    made = regions(sites, 100, 100, joined=[frozenset(("a", "b"))], gap=2)
    edge_ab = made["a"].borders()["b"][0]
    assert all(abs(p[0] - 20) < 1e-9 for p in edge_ab), "a and b meet on their bisector"
    edge_ac = made["a"].borders()["c"][0]
    assert all(abs(p[1] - 18) < 1e-9 for p in edge_ac), "a keeps 2 from the bisector with c"
    assert RIM in made["a"].borders()


@pytest.mark.parametrize("count", [1, 5])
def test_labels_take_the_first_free_spot(count):
    labels = [
        Label(f"l{i}", 10, 4, ((0, 0), (0, 5), (20, 0), (12.0 * i, 50))) for i in range(count)
    ]
    placed = place_labels(labels, [Box(0, 0, 5, 6)], 100, 100)
    assert placed["l0"] == Box(20, 0, 10, 4)
    assert all(placed[f"l{i}"] == Box(12.0 * i, 50, 10, 4) for i in range(1, count))


def test_a_label_with_no_free_spot_takes_the_one_overlapping_least():
    labels = [Label("a", 10, 10, ((0, 0),)), Label("b", 10, 10, ((1, 1), (8, 8), (200, 0)))]
    placed = place_labels(labels, [], 100, 100)
    assert placed["b"] == Box(8, 8, 10, 10), "(200, 0) is off the canvas; (8, 8) overlaps least"


def _boards() -> dict[str, object]:
    from domain.hotw.editions.ah2001.drawing import drawn_board
    from service.rulesets import ruleset

    return {
        "hotw-2024": BOARD,
        "hotw-ah2001": drawn_board(ruleset("hotw-ah2001").tables.board),
        "brief-2009": drawn_board(ruleset("brief-2009").tables.board, barren_lands=True),
    }


MAPS = ["hotw-2024", "hotw-ah2001", "brief-2009"]


@pytest.mark.parametrize("name", MAPS)
def test_on_every_map_no_two_names_overlap_and_no_name_covers_a_piece_row(name):
    """Every map of the family (issue 34): each name's box, as laid out, meets no other name's
    box, no land's piece row and no water's fleet row, and stays on the map; no two piece rows
    meet; and every land's name and pieces sit inside its own region (no leader lines)."""
    board: Any = _boards()[name]
    plan = layout(board)
    boxes = list(plan.labels.items())
    assert {n for n, _ in boxes} == set(board.lands) | set(board.seas) | set(board.wastelands)
    overlapping = [(a, b) for (a, one), (b, other) in itertools.combinations(boxes, 2)
                   if one.overlaps(other)]  # fmt: skip
    assert overlapping == []
    rows = {land: piece_row(plan.anchors[land]) for land in board.lands}
    rows |= {water.id: fleet_row(water.x, water.y) for water in board.seas.values()}
    assert [n for n, box in boxes if not box.inside(1000, plan.height)] == []
    assert [n for n, box in boxes if any(box.overlaps(row) for row in rows.values())] == []
    crowded = [(a, b) for (a, one), (b, other) in itertools.combinations(rows.items(), 2)
               if one.overlaps(other)]  # fmt: skip
    assert crowded == []
    astray = [land for land in board.lands
              if not plan.lands[land].contains(plan.labels[land].middle)
              or not plan.lands[land].contains(plan.anchors[land])]  # fmt: skip
    assert astray == [] and dict(plan.leaders) == {}


def test_pieces_are_drawn_big_enough_to_read_at_1400_pixels():
    """A piece is 14 map units across: at 1400 px wide the map column is about 1020 px for
    1000 units (the side column is 20rem), so a piece is about 14 px (it was 10 units)."""
    svg = board_svg(BOARD, {"tigris": [PieceMark("capital", "#123456", "capital")]})
    root = ET.fromstring(svg.split("\n", 1)[1])
    (star,) = [p for p in root.iter(f"{SVG}polygon") if p.get("fill") == "#123456"]
    xs = [float(point.split(",")[0]) for point in (star.get("points") or "").split()]
    assert max(xs) - min(xs) >= 13


def _real_place(provenance: str) -> tuple[float, float]:
    found = re.search(r"([\d.]+)°([NS]) ([\d.]+)°([EW])", provenance)
    assert found, f"the land's provenance names its real-world place: {provenance!r}"
    lat = float(found[1]) * (1 if found[2] == "N" else -1)
    lon = float(found[3]) * (1 if found[4] == "E" else -1)
    return lat, lon


def test_the_avalon_hill_lands_are_drawn_where_the_places_they_are_named_after_lie():
    """Every AH2001 land says (in its provenance) the real-world place it is drawn at, flagged
    reconstructed; bordering lands lie in the drawing roughly as on the globe (never more than
    a right angle off, bar a few crowded ones), and the places the issue found astray are
    where they belong: Pindus in Greece, the Southern Apennines in Italy."""
    from service.rulesets import ruleset

    board = ruleset("hotw-ah2001").tables.board
    assert all(land.provenance.startswith("reconstructed") for land in board.lands.values())
    places = {land.id: _real_place(land.provenance) for land in board.lands.values()}
    off = []
    for land in board.lands.values():
        for other in sorted(land.neighbours | land.straits):
            (lat1, lon1), (lat2, lon2) = places[land.id], places[other]
            east, north = (lon2 - lon1) * math.cos(math.radians((lat1 + lat2) / 2)), lat2 - lat1
            right, down = board.lands[other].x - land.x, board.lands[other].y - land.y
            cosine = (
                (east * right - north * down) / math.hypot(east, north) / math.hypot(right, down)
            )
            assert cosine > -0.5, (land.id, other, "drawn more than 120 degrees off")
            off += [(land.id, other)] if cosine < 0 else []
    assert len(off) <= 10, off
    at = {land.id: (land.x, land.y) for land in board.lands.values()}
    greece = ("pindus", "morea")
    assert all(
        at[g][1] > at["danubia"][1] and at[g][0] > at["southern-apennines"][0] for g in greece
    )
    assert at["southern-apennines"][1] < min(at[a][1] for a in ("libya", "shatts-plateau"))
    assert at["southern-apennines"][0] > max(at[i][0] for i in ("pyrenees", "eastern-iberia"))
    assert at["pindus"][1] > at["baltic-seaboard"][1] + 150, "Pindus is nowhere near the North Sea"
    drawing = board_svg(drawn_board_of("hotw-ah2001"))
    assert "reconstructed" in drawing.lower()


def drawn_board_of(name: str) -> Any:
    return _boards()[name]


def test_a_land_with_more_pieces_than_its_row_holds_stacks_them_within_the_row():
    """Three armies and three buildings on one land are drawn closer together, all within the
    room kept for the land's pieces (which no name covers)."""
    kinds = ["army", "army", "army", "capital", "city", "fort"]
    svg = board_svg(BOARD, {"tigris": [PieceMark(k, "#123456", k) for k in kinds]})
    start = svg.index('<g class="pieces" data-place="tigris"')
    group = svg[start : svg.index('<g class="legend"', start)]
    xs = [float(x) for x, _ in re.findall(r"(\d+\.\d),(\d+\.\d)", group)]
    xs += [float(x) for x in re.findall(r'cx="(\d+\.\d)"', group)]
    row = piece_row(layout(BOARD).anchors["tigris"])
    assert len(re.findall(r'<g class="piece ', group)) == 6
    assert row.x - 1 <= min(xs) and max(xs) <= row.x + row.w + 1


@pytest.mark.parametrize("name", ["hotw-2024", "hotw-ah2001", "brief-2009"])
def test_every_name_on_every_map_is_big_enough_to_read_and_dark_on_its_own_halo(name):
    """At 1400 px wide a map unit is about 1.02 px (the side column is 20rem): every text of the
    drawing is 10.8 units or more (11 px; names of 9.5 and 8 units read as 9 and 7.7 px, the
    legend's 8.5 as 8), and a white halo around small dark letters on grey washes them out."""
    from cli.data import bare_setup
    from service.rulesets import ruleset

    rules = ruleset(name)
    svg = ET.fromstring(rules.draw_board(rules.initial_state(bare_setup(rules)), None))
    names = [t for t in svg.iter(f"{SVG}text") if "label" in (t.get("class") or "").split()]
    assert len(names) > 40
    sizes = [float(t.get("font-size") or 0) for t in svg.iter(f"{SVG}text") if t.get("font-size")]
    assert min(sizes) >= 10.8, "the legend and the tracks too"
    for text in names:
        of = text.get("data-for")
        assert float(text.get("font-size") or 0) >= 10.8, (of, text.get("font-size"))
        halo, ink = text.get("stroke"), text.get("fill")
        assert halo and ink and _contrast(ink, halo) >= 4.5, (of, ink, halo)
    wastes = {g.get("data-wasteland"): g for g in svg.iter(f"{SVG}g") if g.get("data-wasteland")}
    for text in names:
        if text.get("data-for") in wastes:
            ground = wastes[text.get("data-for")].find(f"{SVG}path").get("fill")
            assert text.get("stroke") == ground, "a wasteland's name is haloed in its own grey"


def _contrast(a: str, b: str) -> float:
    def luminance(colour: str) -> float:
        digits = colour.lstrip("#")
        digits = "".join(d * 2 for d in digits) if len(digits) == 3 else digits
        channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_map_says_it_is_drawn_at_real_places_only_where_every_land_records_its_place():
    from domain.hotw.legend import reconstruction
    from service.rulesets import ruleset

    board_2024 = ruleset("hotw-2024").pack.board
    assert "not the printed board" in reconstruction(board_2024)
    for name in ("hotw-ah2001", "brief-2009"):
        assert "real-world place" in reconstruction(ruleset(name).pack.tables.board), name


def _crosses(a: tuple[float, float], b: tuple[float, float], box: Box) -> bool:
    """Whether the segment a-b passes through the box (clipped by its four sides)."""
    (x0, y0), (x1, y1) = a, b
    low, high = 0.0, 1.0
    for p, q in ((x0 - x1, x0 - box.x), (x1 - x0, box.x + box.w - x0),
                 (y0 - y1, y0 - box.y), (y1 - y0, box.y + box.h - y0)):  # fmt: skip
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        low, high = (max(low, t), high) if p < 0 else (low, min(high, t))
        if low >= high:
            return False
    return True


LINKS = ("strait", "border-link", "water-link")


@pytest.mark.parametrize("name", MAPS)
def test_no_line_of_the_map_crosses_a_name(name):
    """Issue 34: links, straits, sea links and leaders stop at the names they would cross (the
    browser's check, tests/e2e/test_web_table_rulesets.py, measures the same as drawn)."""
    board: Any = _boards()[name]
    plan = layout(board)
    root = ET.fromstring(board_svg(board).split("\n", 1)[1])
    lines = [
        (line, group.get("data-for"))
        for group in root.iter()
        for line in group
        if line.tag == f"{SVG}line"
        and (group.get("class") == "leader" or line.get("class") in LINKS)
    ]  # fmt: skip
    assert len(lines) > 20, "the map draws its links"
    crossed = [
        (line.get("class") or "leader", place)
        for line, of in lines
        for place, box in plan.labels.items()
        if place != of
        and _crosses(
            (float(line.get("x1") or 0), float(line.get("y1") or 0)),
            (float(line.get("x2") or 0), float(line.get("y2") or 0)),
            box,
        )
    ]
    assert crossed == []


@pytest.mark.parametrize("name", ["hotw-2024", "hotw-ah2001", "brief-2009"])
def test_the_legend_explains_white_buildings_and_the_arrows_that_join_waters(name):
    """Issue 48: a building no player holds is drawn white, and waters that do not meet on the
    map are joined by blue dashed arrows; the legend of every History of the World board says
    both in words, beside a mark drawn like the map's."""
    from service.rulesets import ruleset
    from tests.support.table import Table

    rules = ruleset(name)
    root = ET.fromstring(rules.draw_board(Table(rules, ("ann", "bob", "cy"), b"l" * 32).state, 0))
    (legend,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "legend"]
    words = [t.text for t in legend.iter(f"{SVG}text")]
    assert "white: a building no player holds (no army is there)" in words
    (white,) = [g for g in legend.iter(f"{SVG}g") if g.get("class") == "legend-nobody"]
    assert {e.get("fill") for e in white.iter() if e.get("fill")} == {"#ffffff"}
    arrows = [e for e in root.iter(f"{SVG}line") if e.get("class") == "water-link"]
    assert arrows, "the board joins waters by arrows"
    assert "waters joined across the map's edge or a gap" in words
    (mark,) = [e for e in legend.iter(f"{SVG}line") if e.get("stroke-dasharray") == "5,3"]
    assert mark.get("stroke") == arrows[0].get("stroke")


def test_a_building_no_player_holds_is_drawn_white():
    state = position({"tigris": empty("city"), "persia": army(1, "city")})
    root = ET.fromstring(RULES.draw_board(state, None))
    pieces = {g.get("data-place"): g for g in root.iter(f"{SVG}g") if g.get("class") == "pieces"}
    fills = lambda place: {e.get("fill") for e in pieces[place].iter() if e.get("fill")}  # noqa: E731
    assert "#ffffff" in fills("tigris") and "#1f77b4" in fills("persia")
    assert "#1f77b4" not in fills("tigris")
