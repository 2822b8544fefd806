"""Load and check the board of a History of the World data pack (board.yaml,
paired_area_tokens.yaml).

Each entry is validated with marshmallow (unknown fields rejected), then the whole board is
cross-checked with what holds for any edition's board: symmetric adjacency, every reference
resolved, unique ids, Area tokens in one area each, every land reachable. What the edition's rule
text states about its map (62 lands, Tigris is clear ...) is in the pack's facts.yaml, checked by
``packs.facts``. Every problem names file, entry and field; all of them are raised together in
one ``PackError``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from marshmallow import Schema, ValidationError, fields, pre_load, validate

from domain.hotw.board import (
    Area,
    Board,
    Land,
    PairedAreaToken,
    PowerIcon,
    Sea,
    Terrain,
    Wasteland,
    WaterKind,
)
from packs.base import PackError, PackProblem, StrictSchema, read_yaml, validate_entries
from packs.edition import edition_epochs
from packs.facts import fact_problems

BOARD_FILE = "board.yaml"
PAIRED_FILE = "paired_area_tokens.yaml"

KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"
CANVAS_WIDTH = 1000
CANVAS_HEIGHT = 1000
"""The tallest canvas a board may ask for (`map_height`, 500 where it says none)."""


# --- marshmallow schemas --------------------------------------------------------------------


def _id_field(pattern: str = KEBAB) -> fields.String:
    return fields.String(
        required=True, validate=validate.Regexp(pattern, error="must be a kebab-case id")
    )


def _ids(required: bool = False) -> fields.List:
    if required:
        return fields.List(fields.String(validate=validate.Length(min=1)), required=True)
    return fields.List(fields.String(validate=validate.Length(min=1)), load_default=list)


def _x() -> fields.Float:
    return fields.Float(required=True, validate=validate.Range(0, CANVAS_WIDTH))


def _y() -> fields.Float:
    return fields.Float(required=True, validate=validate.Range(0, CANVAS_HEIGHT))


def _provenance() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1))


class AreaSchema(StrictSchema):
    id = _id_field()
    name = fields.String(required=True)
    epoch = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    area_tokens = _ids(required=True)
    provenance = _provenance()


class LandSchema(StrictSchema):
    id = _id_field()
    name = fields.String(required=True)
    area = fields.String(required=True)
    terrain = fields.String(required=True, validate=validate.OneOf([t.value for t in Terrain]))
    terrain_kind = fields.String(required=True, allow_none=True)
    power_icon = fields.String(
        required=True, allow_none=True, validate=validate.OneOf([i.value for i in PowerIcon])
    )
    neighbours = _ids()
    straits = _ids()
    seas = _ids()
    x = _x()
    y = _y()
    provenance = _provenance()


class OceanSchema(StrictSchema):
    id = _id_field()
    name = fields.String(required=True)
    adjacent_oceans = _ids()
    x = _x()
    y = _y()
    provenance = _provenance()


class SeaSchema(StrictSchema):
    id = _id_field()
    name = fields.String(required=True)
    ocean = fields.String(required=True)
    x = _x()
    y = _y()
    provenance = _provenance()


class WastelandSchema(StrictSchema):
    id = _id_field()
    name = fields.String(required=True)
    neighbours = _ids()
    x = _x()
    y = _y()
    provenance = _provenance()

    @pre_load
    def _belongs_to_no_area(self, data: Any, **_: Any) -> Any:
        if isinstance(data, Mapping) and "area" in data:
            raise ValidationError(
                {"area": ["a wasteland belongs to no area (p2: grey impassable wastelands)"]}
            )
        return data


class PairedAreaTokenSchema(StrictSchema):
    id = _id_field(r"^[a-z0-9]+([-+][a-z0-9]+)*$")
    areas = fields.List(fields.String(), required=True, validate=validate.Length(equal=2))
    provenance = _provenance()


BOARD_SECTIONS: Mapping[str, Schema] = {
    "areas": AreaSchema(),
    "lands": LandSchema(),
    "oceans": OceanSchema(),
    "seas": SeaSchema(),
    "wastelands": WastelandSchema(),
}
PAIRED_SECTIONS: Mapping[str, Schema] = {"paired_area_tokens": PairedAreaTokenSchema()}
BOARD_FILES: Mapping[str, Mapping[str, Schema]] = {
    BOARD_FILE: BOARD_SECTIONS,
    PAIRED_FILE: PAIRED_SECTIONS,
}
"""The board's files and the schema of each section's entries (what facts.yaml can select)."""


# --- loading ---------------------------------------------------------------------------------


@dataclass
class _Raw:
    """The entries of both files that passed their schema, by section."""

    areas: dict[str, dict[str, Any]]
    lands: dict[str, dict[str, Any]]
    oceans: dict[str, dict[str, Any]]
    seas: dict[str, dict[str, Any]]
    wastelands: dict[str, dict[str, Any]]
    paired: dict[str, dict[str, Any]]
    provenance: str
    docs: dict[str, Any]
    map_height: float


def _read_sections(
    path: Path, sections: Mapping[str, Schema], problems: list[PackProblem]
) -> tuple[dict[str, list[dict[str, Any]]], str, Any]:
    data = read_yaml(path)
    file = path.name
    if not isinstance(data, Mapping):
        raise PackError([PackProblem(file, "", "", "must be a mapping of sections")])
    for key in data:
        if key not in sections and key not in ("provenance", "map_height"):
            problems.append(PackProblem(file, "", str(key), "unknown section"))
    provenance = data.get("provenance")
    if not isinstance(provenance, str) or not provenance.strip():
        problems.append(
            PackProblem(file, "", "provenance", "the file must say what is from the text")
        )
        provenance = ""
    loaded: dict[str, list[dict[str, Any]]] = {}
    for section, schema in sections.items():
        if section not in data:
            problems.append(PackProblem(file, "", section, "section is missing"))
            loaded[section] = []
            continue
        entries, found = validate_entries(schema, data[section], file, section)
        problems.extend(found)
        loaded[section] = entries + _salvage(schema, data[section], len(entries))
    return loaded, provenance, data


def _salvage(schema: Schema, entries: Any, loaded: int) -> list[dict[str, Any]]:
    """Entries that failed only for unknown fields, loaded without them.

    Their problems are already reported; keeping them avoids a cascade of 'unknown land' and
    count problems that would hide the real one.
    """
    if not isinstance(entries, list) or loaded == len(entries):
        return []
    kept: list[dict[str, Any]] = []
    for raw in entries:
        if not isinstance(raw, Mapping):
            continue
        try:
            schema.load(raw)
        except ValidationError:
            known = {k: v for k, v in raw.items() if k in schema.fields}
            with suppress(ValidationError):
                kept.append(schema.load(known))
    return kept


def _by_id(
    entries: Iterable[dict[str, Any]], file: str, section: str, problems: list[PackProblem]
) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if entry["id"] in out:
            problems.append(PackProblem(file, entry["id"], "id", f"duplicate id in {section}"))
        out[entry["id"]] = entry
    return out


def _read(pack_dir: Path, problems: list[PackProblem]) -> _Raw:
    board, provenance, board_doc = _read_sections(pack_dir / BOARD_FILE, BOARD_SECTIONS, problems)
    paired, _, paired_doc = _read_sections(pack_dir / PAIRED_FILE, PAIRED_SECTIONS, problems)
    return _Raw(
        areas=_by_id(board["areas"], BOARD_FILE, "areas", problems),
        lands=_by_id(board["lands"], BOARD_FILE, "lands", problems),
        oceans=_by_id(board["oceans"], BOARD_FILE, "oceans", problems),
        seas=_by_id(board["seas"], BOARD_FILE, "seas", problems),
        wastelands=_by_id(board["wastelands"], BOARD_FILE, "wastelands", problems),
        paired=_by_id(paired["paired_area_tokens"], PAIRED_FILE, "paired_area_tokens", problems),
        provenance=provenance,
        docs={BOARD_FILE: board_doc, PAIRED_FILE: paired_doc},
        map_height=_map_height(board_doc, problems),
    )


def _map_height(doc: Any, problems: list[PackProblem]) -> float:
    """The drawing canvas's height the board asks for (500 where it says none)."""
    height = doc.get("map_height", 500) if isinstance(doc, Mapping) else 500
    if (
        isinstance(height, bool)
        or not isinstance(height, int | float)
        or not (100 <= height <= CANVAS_HEIGHT)
    ):
        problems.append(_problem("", "map_height", f"must be a number from 100 to {CANVAS_HEIGHT}"))
        return 500.0
    return float(height)


# --- cross-checks ----------------------------------------------------------------------------


def _problem(entry: str, field: str, message: str, file: str = BOARD_FILE) -> PackProblem:
    return PackProblem(file, entry, field, message)


def check_unique_places(raw: _Raw) -> list[PackProblem]:
    """Lands, seas, oceans and wastelands share one id space."""
    counts = Counter([*raw.lands, *raw.oceans, *raw.seas, *raw.wastelands])
    return [
        _problem(place, "id", "used by more than one land, sea, ocean or wasteland")
        for place, n in counts.items()
        if n > 1
    ]


def _land_links(raw: _Raw, land: dict[str, Any], field: str) -> list[PackProblem]:
    problems = []
    for other in land[field]:
        if other == land["id"]:
            problems.append(_problem(land["id"], field, "a land is not its own neighbour"))
        elif other in raw.wastelands:
            problems.append(
                _problem(land["id"], field, f"'{other}' is a wasteland: armies never enter it")
            )
        elif other not in raw.lands:
            problems.append(_problem(land["id"], field, f"unknown land '{other}'"))
        elif land["id"] not in raw.lands[other][field]:
            problems.append(
                _problem(
                    land["id"],
                    field,
                    f"lists '{other}', but '{other}' does not list '{land['id']}' "
                    f"in its {field} (adjacency must be symmetric)",
                )
            )
    for other, n in Counter(land[field]).items():
        if n > 1:
            problems.append(_problem(land["id"], field, f"'{other}' is listed twice"))
    return problems


def check_lands(raw: _Raw) -> list[PackProblem]:
    """Each land's area, neighbours, straits and seas resolve, and borders are symmetric."""
    problems: list[PackProblem] = []
    waters = raw.seas.keys() | raw.oceans.keys()
    for land in raw.lands.values():
        if land["area"] not in raw.areas:
            problems.append(_problem(land["id"], "area", f"unknown area '{land['area']}'"))
        problems += _land_links(raw, land, "neighbours")
        problems += _land_links(raw, land, "straits")
        both = set(land["neighbours"]) & set(land["straits"])
        problems += [
            _problem(land["id"], "straits", f"'{other}' is both a neighbour and a strait")
            for other in sorted(both)
        ]
        problems += [
            _problem(land["id"], "seas", f"unknown sea or ocean '{water}'")
            for water in land["seas"]
            if water not in waters
        ]
    return problems


def check_waters(raw: _Raw) -> list[PackProblem]:
    """Each sea belongs to an ocean; oceans touch oceans symmetrically; every water has a coast."""
    problems: list[PackProblem] = []
    for sea in raw.seas.values():
        if sea["ocean"] not in raw.oceans:
            problems.append(_problem(sea["id"], "ocean", f"unknown ocean '{sea['ocean']}'"))
    for ocean in raw.oceans.values():
        for other in ocean["adjacent_oceans"]:
            if other not in raw.oceans or other == ocean["id"]:
                problems.append(
                    _problem(ocean["id"], "adjacent_oceans", f"'{other}' is not another ocean")
                )
            elif ocean["id"] not in raw.oceans[other]["adjacent_oceans"]:
                problems.append(
                    _problem(
                        ocean["id"],
                        "adjacent_oceans",
                        f"lists '{other}', but '{other}' does not list '{ocean['id']}' "
                        "(adjacency must be symmetric)",
                    )
                )
    coasted = {water for land in raw.lands.values() for water in land["seas"]}
    for water in [*raw.oceans, *raw.seas]:
        if water not in coasted:
            problems.append(_problem(water, "id", "no land is adjacent to it"))
    return problems


def check_wastelands(raw: _Raw) -> list[PackProblem]:
    """Wastelands are drawn beside lands (or wastelands) that exist."""
    return [
        _problem(waste["id"], "neighbours", f"unknown land or wasteland '{other}'")
        for waste in raw.wastelands.values()
        for other in waste["neighbours"]
        if other not in raw.lands and other not in raw.wastelands
    ]


def check_area_epochs(raw: _Raw, epochs: tuple[int, ...]) -> list[PackProblem]:
    """Each area becomes active in one of the edition's epochs (edition.yaml)."""
    return [
        _problem(area["id"], "epoch", f"not an epoch of the edition {list(epochs)}")
        for area in raw.areas.values()
        if area["epoch"] not in epochs
    ]


def check_areas(raw: _Raw) -> list[PackProblem]:
    """Each Area token is in one area only; each area has some lands."""
    problems: list[PackProblem] = []
    token_areas: dict[str, str] = {}
    for area in raw.areas.values():
        for token in area["area_tokens"]:
            if token in token_areas:
                problems.append(
                    _problem(
                        area["id"],
                        "area_tokens",
                        f"token '{token}' is also in {token_areas[token]}",
                    )
                )
            token_areas[token] = area["id"]
    areas_with_lands = {land["area"] for land in raw.lands.values()}
    problems += [
        _problem(area, "id", "no land belongs to this area")
        for area in raw.areas
        if area not in areas_with_lands
    ]
    return problems


def check_paired_tokens(raw: _Raw) -> list[PackProblem]:
    """Each Paired Area token shows two different areas of the board."""
    problems: list[PackProblem] = []
    for token in raw.paired.values():
        first, second = token["areas"]
        if first == second:
            problems.append(
                _problem(token["id"], "areas", "names the same area twice", PAIRED_FILE)
            )
        problems += [
            _problem(token["id"], "areas", f"unknown area '{area}'", PAIRED_FILE)
            for area in token["areas"]
            if area not in raw.areas
        ]
    return problems


def check_reachable(board: Board) -> list[PackProblem]:
    """Every land can be reached from every other through borders, straits, seas and oceans."""
    if not board.lands:
        return []
    first = next(iter(board.lands))
    reached = board.connected_lands(first)
    return [
        _problem(
            land,
            "neighbours",
            f"cannot be reached from '{first}' by land, strait, sea or ocean",
        )
        for land in board.lands
        if land not in reached
    ]


# --- building the Board ------------------------------------------------------------------------


def _build(raw: _Raw) -> Board:
    lands = {
        land_id: Land(
            id=land_id,
            name=e["name"],
            area=e["area"],
            terrain=Terrain(e["terrain"]),
            terrain_kind=e["terrain_kind"],
            power_icon=None if e["power_icon"] is None else PowerIcon(e["power_icon"]),
            neighbours=frozenset(e["neighbours"]),
            straits=frozenset(e["straits"]),
            seas=frozenset(e["seas"]),
            x=e["x"],
            y=e["y"],
            provenance=e["provenance"],
        )
        for land_id, e in raw.lands.items()
    }
    waters = {
        ocean_id: Sea(
            ocean_id, e["name"], WaterKind.OCEAN, None, frozenset(e["adjacent_oceans"]),
            e["x"], e["y"], e["provenance"],
        )
        for ocean_id, e in raw.oceans.items()
    }  # fmt: skip
    waters |= {
        sea_id: Sea(
            sea_id, e["name"], WaterKind.SEA, e["ocean"], frozenset(), e["x"], e["y"],
            e["provenance"],
        )
        for sea_id, e in raw.seas.items()
    }  # fmt: skip
    wastelands = {
        waste_id: Wasteland(waste_id, e["name"], frozenset(e["neighbours"]), e["x"], e["y"],
                            e["provenance"])
        for waste_id, e in raw.wastelands.items()
    }  # fmt: skip
    areas = {
        area_id: Area(area_id, e["name"], e["epoch"], tuple(e["area_tokens"]), e["provenance"])
        for area_id, e in raw.areas.items()
    }
    paired = {
        token_id: PairedAreaToken(token_id, (e["areas"][0], e["areas"][1]), e["provenance"])
        for token_id, e in raw.paired.items()
    }
    return Board(lands, waters, wastelands, areas, paired, raw.provenance, raw.map_height)


def board_problems(pack_dir: Path) -> tuple[Board | None, list[PackProblem]]:
    """Load the board and list every problem; the Board is None when it could not be built."""
    problems: list[PackProblem] = []
    try:
        raw = _read(pack_dir, problems)
    except PackError as exc:
        return None, [*problems, *exc.problems]
    structural = [
        *check_unique_places(raw),
        *check_lands(raw),
        *check_waters(raw),
        *check_wastelands(raw),
        *check_areas(raw),
        *check_paired_tokens(raw),
    ]
    problems += structural
    problems += check_area_epochs(raw, edition_epochs(pack_dir)[0])
    problems += fact_problems(pack_dir, raw.docs, BOARD_FILES)
    if any(p.field in {"area", "neighbours", "straits", "seas", "ocean"} for p in structural):
        return None, problems  # references do not resolve: the map cannot be walked
    board = _build(raw)
    problems += check_reachable(board)
    return board, problems


def load_board(pack_dir: Path) -> Board:
    """Load ``board.yaml`` and ``paired_area_tokens.yaml`` from ``pack_dir``; raise one
    ``PackError`` listing every problem."""
    board, problems = board_problems(pack_dir)
    if problems or board is None:
        raise PackError(problems)
    return board
