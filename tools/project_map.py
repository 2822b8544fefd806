"""Where the Avalon Hill 2001 map and A Brief History of the World's map draw each land and
water: the real-world place it is named after (the latitude and longitude in its provenance in
data/<ruleset>/board.yaml), projected onto the 1000-wide canvas, then moved by the spread
recorded below.

The projection is piecewise linear in longitude and in latitude: Europe, the Middle East, India
and China get more of the canvas and the Americas, Africa and Australia less, as the printed
boards do (each map's knots below). The projection alone puts names on top of each other (the
Apennines, Pindus, Morea and Crete lie within a few degrees), so each place is then moved by a
spread (in map units): the one the map was laid out with by hand so that no two names or piece
rows overlap (tests/unit/test_board_map.py checks that on the drawing). A place with no
recorded spread is drawn where the projection puts it. No spread exceeds MAX_SPREAD, so every
place stays near where its real-world place projects (tests/unit/test_map_projection.py).

    python tools/project_map.py                       # check both boards: x, y as projected
    python tools/project_map.py --write brief-2009    # rewrite x, y from lat/lon + spread
    python tools/project_map.py --table hotw-ah2001   # each place: lat, lon, projected, spread

To move a land, change its latitude/longitude in its provenance (where it is named after) or its
spread here (where its name needs room), run with --write, and run the map's tests.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
MAX_SPREAD = 130.0
"""The farthest a place is drawn from where its real-world place projects (map units)."""

AH2001_SPREAD: dict[str, tuple[int, int]] = {
    "lower-tigris": (-12, 7),
    "middle-tigris": (-9, -7),
    "upper-tigris": (7, -10),
    "zagros": (36, -37),
    "persian-plateau": (78, -52),
    "persian-salt-desert": (14, -40),
    "levant": (-34, 0),
    "palestine": (-24, 2),
    "eastern-anatolia": (47, -29),
    "western-anatolia": (3, -3),
    "arabian-peninsula": (-39, 8),
    "nile-delta": (-28, 34),
    "upper-egypt": (-73, 45),
    "upper-nile": (-58, 39),
    "libya": (-69, 72),
    "shatts-plateau": (-18, 53),
    "mauretania": (-33, 57),
    "crete": (-33, 44),
    "morea": (-18, 28),
    "pindus": (-12, 9),
    "balkans": (23, 1),
    "danubia": (44, -9),
    "southern-apennines": (-48, -1),
    "northern-apennines": (29, -3),
    "western-iberia": (-59, -3),
    "eastern-iberia": (-29, 27),
    "pyrenees": (-29, 21),
    "albion": (21, -30),
    "caledonia": (8, -36),
    "hibernia": (-4, -1),
    "western-gaul": (27, 15),
    "northern-gaul": (46, -9),
    "lower-rhine": (46, -34),
    "central-europe": (78, -19),
    "baltic-seaboard": (40, -33),
    "northern-european-plain": (65, -22),
    "scandinavia": (90, -17),
    "western-steppes": (33, -16),
    "caucasus": (55, -31),
    "volga": (45, 5),
    "turanian-plain": (40, 8),
    "siberia": (-17, 91),
    "mongolia": (-29, 40),
    "lower-indus": (-36, -17),
    "upper-indus": (16, -11),
    "hindu-kush": (90, -20),
    "ganges-valley": (23, -12),
    "ganges-delta": (52, -27),
    "western-deccan": (-50, -10),
    "eastern-deccan": (-16, -3),
    "eastern-ghats": (-78, 14),
    "western-ghats": (-126, 2),
    "ceylon": (24, 24),
    "yellow-river": (-5, -28),
    "wei-river": (-10, -25),
    "great-plain-of-china": (15, -13),
    "yangtze-kiang": (18, -21),
    "szechuan": (-2, -34),
    "chekiang": (55, -22),
    "si-kyang": (21, -20),
    "manchurian-plain": (-60, 9),
    "burma": (-12, 5),
    "mekong": (-50, 17),
    "annam": (1, -7),
    "malayan-peninsula": (8, 9),
    "sumatra": (-1, 26),
    "java": (26, 7),
    "borneo": (17, -21),
    "philippines": (77, -12),
    "korea": (-9, -27),
    "hokkaido": (-15, -40),
    "honshu": (9, -33),
    "kyushu": (18, -31),
    "gold-coast": (50, 13),
    "east-africa": (-24, -2),
    "ethiopia": (-32, 8),
    "congo": (-9, 1),
    "south-africa": (0, -24),
    "appalachia": (21, 27),
    "great-lakes": (4, 35),
    "great-plains": (2, 31),
    "rocky-mountains": (-1, 12),
    "california": (-7, -3),
    "mexican-valley": (-12, -90),
    "central-america": (4, -77),
    "canada": (7, 76),
    "northern-andes": (-13, 9),
    "southern-andes": (-5, -10),
    "amazon": (13, -10),
    "brazil": (3, 12),
    "pampas": (10, -3),
    "northern-australia": (-5, -13),
    "eastern-australia": (-43, 5),
    "western-australia": (30, 29),
    "sahara": (-35, 65),
    "libyan-desert": (-95, 75),
    "rub-al-khali": (-3, -14),
    "thar-desert": (8, -13),
    "takla-makan": (15, -8),
    "tibet": (10, -12),
    "gobi": (-31, 37),
    "great-sandy-desert": (7, 8),
    "red-sea": (-36, 25),
    "eastern-mediterranean": (-75, 68),
    "western-mediterranean": (3, 20),
    "black-sea": (40, -16),
    "north-sea": (37, -39),
    "bay-of-bengal": (-47, 15),
    "south-china-sea": (42, -6),
    "sea-of-japan": (-4, -36),
    "caribbean-sea": (4, -4),
    "north-atlantic-ocean": (-31, -2),
    "atlantic-ocean": (-2, -14),
    "indian-ocean": (28, -8),
    "west-pacific-ocean": (-27, -9),
    "east-pacific-ocean": (-2, -9),
}
"""The Avalon Hill map's (dx, dy) from the projected place to where it draws it."""

BRIEF_SPREAD: dict[str, tuple[int, int]] = {
    "western-iberia": (-45, 15),
    "eastern-iberia": (-16, 22),
    "italia": (-23, 14),
    "greece": (-9, -5),
    "danubia": (64, 4),
    "britain": (34, 2),
    "gaul": (-34, 21),
    "germania": (46, 16),
    "scandinavia": (68, -10),
    "vistula": (57, -10),
    "volga": (16, 1),
    "caucasus": (51, -8),
    "turanian-plain": (20, -27),
    "kazakh-steppe": (28, -23),
    "mauretania": (-52, -1),
    "numidia": (-57, 18),
    "libya": (-51, 4),
    "lower-egypt": (-55, 0),
    "upper-egypt": (-62, 19),
    "anatolia": (2, -6),
    "levant": (-18, -10),
    "euphrates": (-69, 11),
    "tigris": (8, -20),
    "zagros": (-16, -3),
    "arabia": (-38, 13),
    "persia": (24, 14),
    "hindu-kush": (-6, 11),
    "indus": (13, -7),
    "ganges-valley": (8, -9),
    "ganges-delta": (-4, 17),
    "deccan": (-4, -10),
    "yellow-river": (-6, -12),
    "wei-river": (-47, -17),
    "yangtze": (13, -11),
    "sichuan": (-14, -9),
    "lingnan": (39, -2),
    "khorasan": (-11, 15),
    "bactria": (9, -21),
    "tarim-basin": (-12, -5),
    "mongolia": (-21, -5),
    "manchuria": (-18, -8),
    "korea": (10, 5),
    "japan": (35, 1),
    "burma": (32, -11),
    "siam": (16, 4),
    "annam": (56, 6),
    "malaya": (2, -4),
    "east-indies": (-18, 11),
    "abyssinia": (17, 5),
    "west-africa": (56, -6),
    "congo": (24, -17),
    "southern-africa": (44, -24),
    "canada": (10, 39),
    "atlantic-seaboard": (6, -11),
    "mississippi": (-17, 6),
    "mexico": (-6, 3),
    "peru": (1, -2),
    "brazil": (11, 1),
    "pampas": (6, -6),
    "new-guinea": (-5, -7),
    "western-australia": (-20, 12),
    "eastern-australia": (-6, 15),
    "sahara": (-25, 11),
    "arabian-desert": (-2, 12),
    "tibet": (-37, -21),
    "gobi": (-37, 11),
    "siberia": (5, 0),
    "greenland": (13, 0),
    "amazonia": (6, -28),
    "great-australian-desert": (8, 6),
    "atlantic-ocean": (-40, -14),
    "indian-ocean": (7, 10),
    "pacific-ocean": (-19, -22),
    "east-pacific-ocean": (-7, 33),
    "mediterranean-sea": (-15, 16),
    "north-sea": (50, -21),
    "arabian-sea": (-1, -16),
    "bay-of-bengal": (-15, 46),
    "south-china-sea": (29, 33),
    "sea-of-japan": (0, -12),
    "caribbean-sea": (18, -36),
}
"""Brief's map (the family's world map, data/hotw-2024/board.yaml, laid out by hand): (dx, dy)
from the projected place to where it draws it."""


@dataclass(frozen=True)
class Projection:
    """One map's settings: its knots, (degrees, map units) pairs in rising degrees, for x
    (longitude) and y (latitude), and each place's spread."""

    longitude: tuple[tuple[float, float], ...]
    latitude: tuple[tuple[float, float], ...]
    spread: dict[str, tuple[int, int]]


LONGITUDES: tuple[float, ...] = (-125.0, -40.0, -10.0, 45.0, 90.0, 150.0)
"""The degrees east of both maps' longitude knots."""
LATITUDES: tuple[float, ...] = (-40.0, 0.0, 30.0, 45.0, 65.0, 75.0)
"""The degrees north of the maps' latitude knots (the Avalon Hill map's stop at 65°N)."""


def knots(degrees: Sequence[float], units: Sequence[float]) -> tuple[tuple[float, float], ...]:
    """Each of `degrees` with its map unit, for as many degrees as there are units."""
    return tuple(zip(degrees[: len(units)], units, strict=True))


PROJECTIONS: dict[str, Projection] = {
    "hotw-ah2001": Projection(
        # x: 2.4 units a degree over the Americas, 5.2 over Europe and the Middle East, 4.1
        # over India and Central Asia, 4.2 over China and the Pacific
        longitude=knots(LONGITUDES, (30.0, 234.0, 281.0, 569.0, 753.0, 1007.0)),
        # y: 11.3 units a degree between 30°N and 45°N, 2.6 south of the equator
        latitude=knots(LATITUDES, (587.0, 484.0, 334.0, 164.0, 21.0)),
        spread=AH2001_SPREAD,
    ),
    "brief-2009": Projection(
        longitude=knots(LONGITUDES, (36.0, 191.0, 252.0, 532.0, 764.0, 971.0)),
        # y: Brief's canvas is 600 high; its knots reach 75°N for Greenland
        latitude=knots(LATITUDES, (547.0, 432.0, 296.0, 171.0, 85.0, 31.0)),
        spread=BRIEF_SPREAD,
    ),
}
"""Each map's settings, by ruleset."""

PLACE = re.compile(r"(\d+(?:\.\d+)?)°([NS]) (\d+(?:\.\d+)?)°([EW])")


@dataclass(frozen=True)
class Place:
    id: str
    latitude: float
    longitude: float
    x: int
    y: int


def _interpolate(value: float, knots: Sequence[tuple[float, float]]) -> float:
    value = min(max(value, knots[0][0]), knots[-1][0])
    for (a, fa), (b, fb) in itertools.pairwise(knots):
        if a <= value <= b:
            return fa + (fb - fa) * (value - a) / (b - a)
    raise AssertionError("knots are sorted and the value clamped")


def projected(latitude: float, longitude: float, ruleset: str = "hotw-ah2001") -> tuple[int, int]:
    """Where the projection alone puts a place (before its spread)."""
    projection = PROJECTIONS[ruleset]
    return (
        round(_interpolate(longitude, projection.longitude)),
        round(_interpolate(latitude, projection.latitude)),
    )


def drawn_at(
    place_id: str, latitude: float, longitude: float, ruleset: str = "hotw-ah2001"
) -> tuple[int, int]:
    """Where the map draws a place: projected, then spread."""
    x, y = projected(latitude, longitude, ruleset)
    dx, dy = PROJECTIONS[ruleset].spread.get(place_id, (0, 0))
    return x + dx, y + dy


def latitude_longitude(provenance: str) -> tuple[float, float]:
    """The real-world place a provenance names ("drawn at 31°N 47°E ...")."""
    match = PLACE.search(provenance)
    if match is None:
        raise ValueError(f"no latitude and longitude in {provenance!r}")
    latitude = float(match[1]) * (1 if match[2] == "N" else -1)
    longitude = float(match[3]) * (1 if match[4] == "E" else -1)
    return latitude, longitude


def places(board_text: str) -> list[Place]:
    """Every land and water of the board with its real-world place and where it is drawn."""
    import yaml

    data = yaml.safe_load(board_text)
    found = []
    for entry in [*data["lands"], *data["waters"]]:
        latitude, longitude = latitude_longitude(entry["provenance"])
        found.append(Place(entry["id"], latitude, longitude, int(entry["x"]), int(entry["y"])))
    return found


def rewritten(board_text: str, ruleset: str = "hotw-ah2001") -> str:
    """The board's text with every place's x and y set to where it is drawn (comments kept)."""
    target = {p.id: drawn_at(p.id, p.latitude, p.longitude, ruleset) for p in places(board_text)}
    lines = board_text.splitlines(keepends=True)
    current: str | None = None
    for i, line in enumerate(lines):
        if line.startswith("- id: "):
            current = line[len("- id: ") :].strip()
        elif not line.startswith((" ", "-")):
            current = None
        elif current in target and re.match(r"  [xy]: ", line):
            axis = line[2]
            lines[i] = f"  {axis}: {target[current][0 if axis == 'x' else 1]}\n"
    return "".join(lines)


def board_path(ruleset: str) -> Path:
    return DATA / ruleset / "board.yaml"


def check(ruleset: str, board: Path | None = None, write: bool = False) -> list[str]:
    """What differs between the board and the projection (after writing it, with `write`)."""
    path = board or board_path(ruleset)
    text = path.read_text(encoding="utf-8")
    if write:
        text = rewritten(text, ruleset)
        path.write_text(text, encoding="utf-8")
    return [
        f"{ruleset} {p.id}: the board draws it at ({p.x}, {p.y}), the projection and spread at"
        f" {drawn_at(p.id, p.latitude, p.longitude, ruleset)}"
        for p in places(text)
        if (p.x, p.y) != drawn_at(p.id, p.latitude, p.longitude, ruleset)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("rulesets", nargs="*", choices=[[], *PROJECTIONS], default=[])
    parser.add_argument("--board", type=Path, help="another copy of the (one) ruleset's board")
    parser.add_argument("--write", action="store_true", help="rewrite x, y in the board")
    parser.add_argument("--table", action="store_true", help="print every place")
    args = parser.parse_args(argv)
    rulesets = args.rulesets or list(PROJECTIONS)
    if args.board is not None and len(rulesets) != 1:
        parser.error("--board needs exactly one ruleset")
    if args.table:
        for ruleset in rulesets:
            text = (args.board or board_path(ruleset)).read_text(encoding="utf-8")
            for p in places(text):
                px, py = projected(p.latitude, p.longitude, ruleset)
                dx, dy = PROJECTIONS[ruleset].spread.get(p.id, (0, 0))
                print(
                    f"{ruleset:12} {p.id:24} {p.latitude:6.1f} {p.longitude:7.1f}"
                    f"  ({px}, {py}) + ({dx}, {dy}) = ({p.x}, {p.y})"
                )
        return 0
    faults = [f for r in rulesets for f in check(r, args.board, args.write)]
    for fault in faults:
        print(fault, file=sys.stderr)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
