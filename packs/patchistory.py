"""Loading and checking `data/patchistory/`: Terrain Tiles, Capital Tiles, Building Tiles,
Prosperity Cards, Trade Routes, the rules' numbers and the rules catalogue. Marshmallow checks
each entry (unknown fields refused); the cross-checks then hold the pack to what the rulebook
prints (25 Tiles per Era, 36 Building Tiles, 15 Prosperity Cards, 14 + 4 Trade Routes, a Black
side the mirror of its White side, features whole and named by their squares, no two Seas side
by side on a piece, a provenance on every entry). Every problem names its file, entry and field;
a bad pack raises `PackError` with all of them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from domain.core.catalogue import RulesCatalogue
from domain.patchistory.pack import (
    BLACK,
    HERO,
    ICONS,
    LAND,
    SEA,
    SPECIAL,
    WASTELAND,
    WHITE,
    WONDER,
    Building,
    Capital,
    Feature,
    PatchPack,
    ProsperityCard,
    RouteKind,
    RouteSpace,
    Side,
    Square,
    TerrainTile,
)
from packs import register
from packs.base import (
    PackError,
    PackProblem,
    StrictSchema,
    load_rules_catalogue,
    pack_dir,
    read_yaml,
    validate_entries,
)

PACK = "patchistory"
KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"
PROVENANCE = validate.OneOf(["printed", "reconstructed"])
FILES = (
    "tiles.yaml",
    "capitals.yaml",
    "buildings.yaml",
    "prosperity.yaml",
    "trade_routes.yaml",
    "game.yaml",
    "rules.yaml",
)
ABILITIES = frozenset(
    {
        "great-wall",
        "hanging-gardens",
        "petra",
        "pyramids",
        "ziggurat",
        "constantine",
        "cyrus",
        "moses",
        "angkor-wat",
        "chichen-itza",
        "kremlin",
        "genghis-khan",
        "jeanne-darc",
        "vasco-da-gama",
        "apollo",
        "schwerer-gustav",
        "statue-of-liberty",
        "stealth-aircraft",
        "wall-street",
        "che-guevara",
        "marx",
        "gandhi",
        "bismarck",
    }
)
CHEAPER_ACTIONS = frozenset(
    {"aid", "threaten", "trade", "exchange", "birth", "reclamation", "building", "trade-route"}
)
MEASURES = frozenset(
    {*ICONS, "wastelands", "heroes", "wonders", "trade_routes", "workers", "seas", "buildings"}
)


def _icons() -> fields.Dict:
    return fields.Dict(
        keys=fields.String(validate=validate.OneOf(ICONS)),
        values=fields.Integer(strict=True, validate=validate.Range(min=1)),
        load_default=dict,
    )


def _cell() -> fields.List:
    return fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=3)),
        validate=validate.Length(equal=2),
        required=True,
    )


class SquareSchema(StrictSchema):
    at = _cell()
    terrain = fields.String(required=True, validate=validate.OneOf([LAND, SEA, WASTELAND]))
    name = fields.String(load_default="")
    yields = _icons()
    gold = _icons()
    feature = fields.String(load_default="")


class FeatureSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Regexp(KEBAB))
    kind = fields.String(required=True, validate=validate.OneOf([HERO, WONDER, SPECIAL]))
    name = fields.String(required=True)
    squares = fields.List(_cell(), required=True, validate=validate.Length(min=1))
    yields = _icons()
    ability = fields.String(load_default="")
    text = fields.String(load_default="")

    @validates_schema
    def _ability(self, data: dict[str, Any], **_: Any) -> None:
        ability = data.get("ability", "")
        if ability.startswith("cheaper-"):
            if ability.removeprefix("cheaper-") not in CHEAPER_ACTIONS:
                raise ValidationError(f"no action {ability!r} to make cheaper", "ability")
        elif ability and ability not in ABILITIES:
            raise ValidationError(f"no ability {ability!r} in the rules", "ability")


class SideSchema(StrictSchema):
    squares = fields.List(fields.Nested(SquareSchema), required=True)
    features = fields.List(fields.Nested(FeatureSchema), load_default=list)


class TileSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Regexp(r"^e[123]-\d\d$"))
    era = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=3))
    provenance = fields.String(required=True, validate=PROVENANCE)
    printed = fields.String(load_default="")
    white = fields.Nested(SideSchema, required=True)
    black = fields.Nested(SideSchema, required=True)


class CapitalSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Regexp(KEBAB))
    provenance = fields.String(required=True, validate=PROVENANCE)
    printed = fields.String(load_default="")
    squares = fields.List(fields.Nested(SquareSchema), required=True)


class BuildingSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Regexp(KEBAB))
    name = fields.String(required=True)
    cost = fields.Integer(required=True, strict=True, validate=validate.OneOf([2, 3]))
    yields = _icons()
    provenance = fields.String(required=True, validate=PROVENANCE)


class ProsperitySchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Regexp(KEBAB))
    name = fields.String(required=True)
    measure = fields.String(required=True, validate=validate.OneOf(sorted(MEASURES)))
    provenance = fields.String(required=True, validate=PROVENANCE)


class RouteSpaceSchema(StrictSchema):
    kind = fields.String(
        required=True, validate=validate.OneOf(["start", "goods", "preparation", "war"])
    )
    goods = fields.Dict(
        keys=fields.String(validate=validate.OneOf(["coin", "food", "resource", "culture"])),
        values=fields.Integer(strict=True, validate=validate.Range(min=1)),
        load_default=dict,
    )


class RouteKindSchema(StrictSchema):
    count = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    provenance = fields.String(required=True, validate=PROVENANCE)
    printed = fields.String(load_default="")
    spaces = fields.List(fields.Nested(RouteSpaceSchema), required=True)


def _side(raw: dict[str, Any]) -> Side:
    squares = tuple(
        Square(
            at=(s["at"][0], s["at"][1]),
            terrain=s["terrain"],
            name=s["name"],
            yields=dict(s["yields"]),
            gold=dict(s["gold"]),
            feature=s["feature"],
        )
        for s in raw["squares"]
    )
    features = tuple(
        Feature(
            id=f["id"],
            kind=f["kind"],
            name=f["name"],
            squares=tuple((c[0], c[1]) for c in f["squares"]),
            yields=dict(f["yields"]),
            ability=f["ability"],
            text=f["text"],
        )
        for f in raw.get("features", [])
    )
    return Side(squares, features)


def side_problems(side: Side, file: str, entry: str, where: str) -> list[PackProblem]:
    """A side's squares are distinct and start at row and column 0; no two Seas touch; each
    feature's squares are land squares naming it, and every square naming a feature is one."""
    problems = []
    cells = [s.at for s in side.squares]
    if len(set(cells)) != len(cells):
        problems.append(PackProblem(file, entry, f"{where}.squares", "a square listed twice"))
    if cells and (min(r for r, _ in cells) != 0 or min(c for _, c in cells) != 0):
        problems.append(PackProblem(file, entry, f"{where}.squares", "must start at row/col 0"))
    seas = {s.at for s in side.squares if s.terrain == SEA}
    for r, c in seas:
        if (r + 1, c) in seas or (r, c + 1) in seas:
            problems.append(PackProblem(file, entry, f"{where}.squares", "two Seas side by side"))
    by_feature = {f.id: f for f in side.features}
    for square in side.squares:
        if square.feature and square.feature not in by_feature:
            problems.append(
                PackProblem(file, entry, f"{where}.squares", f"no feature {square.feature}")
            )
    for feature in side.features:
        named = {s.at for s in side.squares if s.feature == feature.id}
        if named != set(feature.squares):
            problems.append(
                PackProblem(file, entry, f"{where}.features", f"{feature.id}: squares disagree")
            )
        if any(s.terrain != LAND for s in side.squares if s.feature == feature.id):
            problems.append(
                PackProblem(file, entry, f"{where}.features", f"{feature.id} stands on non-land")
            )
    return problems


def _mirror(cells: set[tuple[int, int]]) -> set[tuple[int, int]]:
    width = max(c for _, c in cells)
    return {(r, width - c) for r, c in cells}


def load_parts(
    root: Path | None = None, data_pack: str = PACK
) -> tuple[PatchPack | None, RulesCatalogue | None, list[PackProblem]]:
    where = pack_dir(data_pack, root)
    problems: list[PackProblem] = []
    if not where.is_dir():
        return None, None, [PackProblem(data_pack, "", "", f"no data pack at {where}")]
    docs = _read_files(where, problems)
    catalogue: RulesCatalogue | None
    try:
        catalogue = load_rules_catalogue(where / "rules.yaml")
    except PackError as exc:
        problems += exc.problems
        catalogue = None
    numbers: dict[str, Any] = docs["game.yaml"]
    tiles = _load_tiles(docs["tiles.yaml"], numbers, problems)
    caps = _load_capitals(docs["capitals.yaml"], problems)
    buildings = _load_buildings(docs["buildings.yaml"], problems)
    prosperity = _load_prosperity(docs["prosperity.yaml"], problems)
    routes = _load_routes(docs["trade_routes.yaml"], problems)
    problems += _number_problems(numbers)
    if problems or catalogue is None or len(caps) != 5:
        return None, catalogue, problems
    pack = PatchPack(
        tiles=tiles,
        equality=caps[0],
        liberty=tuple(caps[1:]),
        buildings=buildings,
        prosperity=prosperity,
        general=routes["general"],
        allied=routes["allied"],
        numbers=numbers,
        rules=catalogue,
        ruleset=data_pack,
    )
    return pack, catalogue, []


def _read_files(where: Path, problems: list[PackProblem]) -> dict[str, Any]:
    """Every file of the pack but the catalogue, read (an unreadable one as empty)."""
    docs: dict[str, Any] = {}
    for name in FILES[:-1]:
        try:
            docs[name] = read_yaml(where / name) or {}
        except PackError as exc:
            problems += exc.problems
            docs[name] = {}
    return docs


def _load_tiles(
    doc: dict[str, Any], numbers: dict[str, Any], problems: list[PackProblem]
) -> dict[str, TerrainTile]:
    """The Terrain Tiles: each Black side the White one flipped over, 25 to an Era, feature ids
    used once, every ability on some tile."""
    raw_tiles, found = validate_entries(TileSchema(), doc.get("tiles"), "tiles.yaml", "tiles")
    problems += found
    tiles: dict[str, TerrainTile] = {}
    for raw in raw_tiles:
        tile = TerrainTile(
            raw["id"],
            raw["era"],
            _side(raw["white"]),
            _side(raw["black"]),
            raw["provenance"],
            raw["printed"],
        )
        problems += side_problems(tile.white, "tiles.yaml", tile.id, WHITE)
        problems += side_problems(tile.black, "tiles.yaml", tile.id, BLACK)
        white = {s.at for s in tile.white.squares}
        if white and {s.at for s in tile.black.squares} != _mirror(white):
            problems.append(
                PackProblem("tiles.yaml", tile.id, BLACK, "not the White side flipped over")
            )
        if tile.id in tiles:
            problems.append(PackProblem("tiles.yaml", tile.id, "id", "duplicate tile id"))
        tiles[tile.id] = tile
    per_era = numbers.get("terrain_tiles_per_era", 25)
    for era, count in sorted(Counter(t.era for t in tiles.values()).items()):
        if count != per_era:
            problems.append(
                PackProblem("tiles.yaml", f"era {era}", "tiles", f"{count} tiles, not {per_era}")
            )
    feature_ids = Counter(f.id for t in tiles.values() for f in t.black.features + t.white.features)
    for fid, n in feature_ids.items():
        if n > 1:
            problems.append(PackProblem("tiles.yaml", fid, "features", "feature id used twice"))
    abilities = Counter(
        f.ability for t in tiles.values() for f in t.black.features if f.ability in ABILITIES
    )
    for ability in sorted(ABILITIES - set(abilities)):
        problems.append(PackProblem("tiles.yaml", ability, "ability", "no tile has it"))
    return tiles


def _load_capitals(capitals: dict[str, Any], problems: list[PackProblem]) -> list[Capital]:
    """The Capital Tiles: the Equality side first, then the four Liberty sides."""
    equality_raw, found = validate_entries(
        CapitalSchema(), [capitals.get("equality")], "capitals.yaml", "equality"
    )
    problems += found
    liberty_raw, found = validate_entries(
        CapitalSchema(), capitals.get("liberty"), "capitals.yaml", "liberty"
    )
    problems += found
    caps = [
        Capital(c["id"], kind, _side(c), c["provenance"], c["printed"])
        for kind, group in (("equality", equality_raw), ("liberty", liberty_raw))
        for c in group
    ]
    for cap in caps:
        problems += side_problems(cap.tile, "capitals.yaml", cap.id, "squares")
    if len(liberty_raw) != 4:
        problems.append(PackProblem("capitals.yaml", "", "liberty", "four Liberty sides"))
    return caps


def _load_buildings(doc: dict[str, Any], problems: list[PackProblem]) -> dict[str, Building]:
    raw_buildings, found = validate_entries(
        BuildingSchema(), doc.get("buildings"), "buildings.yaml", "buildings"
    )
    problems += found
    buildings = {b["id"]: Building(**b) for b in raw_buildings}
    if len(buildings) != doc.get("count", 36) or len(buildings) != 36:
        problems.append(PackProblem("buildings.yaml", "", "buildings", "36 Building Tiles"))
    return buildings


def _load_prosperity(doc: dict[str, Any], problems: list[PackProblem]) -> dict[str, ProsperityCard]:
    raw_cards, found = validate_entries(
        ProsperitySchema(), doc.get("cards"), "prosperity.yaml", "cards"
    )
    problems += found
    prosperity = {c["id"]: ProsperityCard(**c) for c in raw_cards}
    if len(prosperity) != 15:
        problems.append(PackProblem("prosperity.yaml", "", "cards", "15 Prosperity Cards"))
    return prosperity


def _load_routes(doc: dict[str, Any], problems: list[PackProblem]) -> dict[str, RouteKind]:
    """The 14 general Trade Routes (Start to War, Preparation before War) and the 4 allied
    ones (Start to Start)."""
    routes: dict[str, RouteKind] = {}
    for kind, count, ends in (("general", 14, ("start", "war")), ("allied", 4, ("start", "start"))):
        try:
            raw = RouteKindSchema().load(doc.get(kind))
        except ValidationError as exc:
            problems += [
                PackProblem("trade_routes.yaml", kind, str(k), str(v))
                for k, v in exc.normalized_messages().items()
            ]
            continue
        route = RouteKind(
            raw["count"],
            tuple(RouteSpace(s["kind"], dict(s["goods"])) for s in raw["spaces"]),
            raw["provenance"],
            raw["printed"],
        )
        if route.count != count:
            problems.append(PackProblem("trade_routes.yaml", kind, "count", f"must be {count}"))
        if (route.spaces[0].kind, route.spaces[-1].kind) != ends:
            problems.append(PackProblem("trade_routes.yaml", kind, "spaces", f"ends {ends}"))
        routes[kind] = route
    if "general" in routes and [s.kind for s in routes["general"].spaces][-2:] != [
        "preparation",
        "war",
    ]:
        problems.append(
            PackProblem("trade_routes.yaml", "general", "spaces", "ends Preparation, War")
        )
    return routes


GAME_NUMBERS = (
    "patch_limit",
    "start",
    "first_workers",
    "political_costs",
    "era_goods",
    "descendant_track",
    "exchange_values",
)
"""The numbers game.yaml must give."""


def _number_problems(numbers: dict[str, Any]) -> list[PackProblem]:
    """game.yaml: each number in one of the provenance lists, none missing, a descendant value
    per Worker that can be Birthed."""
    problems: list[PackProblem] = []
    keys = set(numbers) - {"printed", "reconstructed"}
    listed = Counter([*numbers.get("printed", []), *numbers.get("reconstructed", [])])
    for key in sorted(keys):
        if listed[key] != 1:
            problems.append(
                PackProblem("game.yaml", key, "provenance", "in neither or both of the lists")
            )
    for key in sorted(set(listed) - keys):
        problems.append(PackProblem("game.yaml", key, "provenance", "no such number"))
    for key in GAME_NUMBERS:
        if key not in numbers:
            problems.append(PackProblem("game.yaml", key, "", "missing"))
    if len(numbers.get("descendant_track", [])) != numbers.get("start", {}).get("workers", 8) + 1:
        problems.append(
            PackProblem("game.yaml", "descendant_track", "", "one value per Workers Birthed")
        )
    return problems


def load_pack(data_pack: str = PACK, root: Path | None = None) -> PatchPack:
    """The checked pack (`pack_loader` of the patchistory ruleset)."""
    pack, _, problems = load_parts(root, data_pack)
    if pack is None:
        raise PackError(problems)
    return pack


def check_pack(data_pack: str = PACK, root: Path | None = None) -> dict[str, Any]:
    """The `chronicle data check patchistory` summary: counts and every problem."""
    pack, catalogue, problems = load_parts(root, data_pack)
    summary: dict[str, Any] = {"ruleset": data_pack, "valid": not problems}
    if pack is not None:
        sides = [s for t in pack.tiles.values() for s in (t.white, t.black)]
        kinds = Counter(f.kind for s in sides for f in s.features)
        summary |= {
            "terrain_tiles": {str(era): len(pack.era_tiles(era)) for era in (1, 2, 3)},
            "heroes": kinds[HERO],
            "wonders": kinds[WONDER],
            "special_buildings": kinds[SPECIAL],
            "abilities": sorted({f.ability for s in sides for f in s.features if f.ability}),
            "capital_tiles": {"equality": 1, "liberty": len(pack.liberty)},
            "building_tiles": len(pack.buildings),
            "prosperity_cards": len(pack.prosperity),
            "trade_routes": {"general": pack.general.count, "allied": pack.allied.count},
            "provenance": dict(
                Counter(
                    [t.provenance for t in pack.tiles.values()]
                    + [b.provenance for b in pack.buildings.values()]
                    + [c.provenance for c in pack.prosperity.values()]
                )
            ),
        }
    summary["rules"] = None if catalogue is None else len(catalogue)
    summary["errors"] = [p.as_dict() for p in problems]
    return summary


register(PACK, load=load_pack, check=check_pack)
